// CUDA graphs inside the runtime: nodes, graphs and executable graphs, shared by the graph API
// (graph.cpp), instantiation and launch (graph_exec.cpp) and stream capture (capture.cpp).
//
// A node holds what its work needs to run again and again: a kernel node its own copy of the
// launch's parameters, a memcpy node its copy description, and so on. An executable graph turns
// its nodes into a plan, a list of steps in an order that respects every edge; a launch queues
// the steps on its stream one after another (a legal schedule of the GPU's: nodes without an
// edge between them may run in any order or at once).
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <cuda_runtime_api.h>

#include "cuemu/launch.h"
#include "cuemu/sync_functions.h"
#include "runtime/runtime.h"

namespace cuemu::detail {

// A kernel launch kept by a graph node: the kernel, its configuration and its own copy of the
// parameters (runtime/launch.cpp).
struct kernel_launch {
  kernel_entry entry;  // entry.params: owned
  dim3 grid, block;
  std::size_t shared_mem = 0;
  int max_dynamic_shared = 0;
  bool cooperative = false;
  source_location site{nullptr, 0};
  kernel_launch() = default;
  kernel_launch(const kernel_launch&) = delete;
  kernel_launch& operator=(const kernel_launch&) = delete;
  ~kernel_launch();
};
// What cudaLaunchKernel(fn, grid, block, args, shared_mem) would run, validated as it validates;
// nothing runs.
cudaError_t make_kernel_launch(const void* fn, dim3 grid, dim3 block, void** args,
                               std::size_t shared_mem, std::shared_ptr<const kernel_launch>& out);
// Runs the grid to completion on the calling thread (its blocks on the worker pool).
void run_kernel_launch(const kernel_launch& k);

// The value cell behind a cudaGraphConditionalHandle.
struct graph_condition {
  std::atomic<unsigned> value{0};
  unsigned default_value = 0;
  bool assign_default = false;  // cudaGraphCondAssignDefault: reset at every graph launch
  CUgraph_st* graph = nullptr;  // the graph it was created for
};
graph_condition* find_condition(cudaGraphConditionalHandle h);
graph_condition* find_condition_locked(cudaGraphConditionalHandle h);  // graph_mutex held

// Memory of a graph's allocation node: reserved when the node is made (its address is fixed for
// the graph's life), usable while a launch has passed the allocation and not the free.
struct graph_allocation {
  void* ptr = nullptr;
  std::size_t size = 0;
  ~graph_allocation();
};

struct node_body {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  std::shared_ptr<const kernel_launch> kernel;
  cudaKernelNodeParams kernel_params{};  // as given (kernelParams/extra not kept)
  cudaMemcpy3DParms copy{};
  cudaMemsetParams set{};
  cudaHostNodeParams host{};
  cudaEvent_t event = nullptr;
  // Child graph (one) or a conditional node's bodies (`size` of them).
  std::vector<std::unique_ptr<CUgraph_st>> graphs;
  std::vector<cudaGraph_t> graph_handles;  // the same, as cudaConditionalNodeParams::phGraph_out
  cudaGraphConditionalHandle handle = 0;
  cudaGraphConditionalNodeType conditional = cudaGraphCondTypeIf;
  std::shared_ptr<graph_allocation> allocation;  // allocation and free nodes
  void* dptr = nullptr;                           // a free node's pointer
};
node_body clone_body(const node_body& b);

}  // namespace cuemu::detail

struct CUgraphNode_st {
  CUgraph_st* graph = nullptr;
  cuemu::detail::node_body body;
  std::vector<CUgraphNode_st*> deps;        // edges in
  std::vector<CUgraphNode_st*> dependents;  // edges out
  // The nodes this one was cloned from (cudaGraphNodeFindInClone; the node handles a program
  // passes to cudaGraphExec*SetParams name the source graph's nodes).
  std::vector<const CUgraphNode_st*> origins;
};

struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;  // in creation order
  // Allocations made by this graph's allocation nodes (kept alive by its clones and execs too).
  std::vector<std::shared_ptr<cuemu::detail::graph_allocation>> allocations;
  CUgraphNode_st* owner = nullptr;  // the child-graph or conditional node holding this body
  std::unordered_map<cudaUserObject_t, unsigned> user_objects;  // references it holds
};

namespace cuemu::detail {

// Every graph and node of the program, under one lock (host-side API only; launches run from
// plans that own copies of what they need).
std::mutex& graph_mutex();
bool valid_graph_locked(const CUgraph_st* g);     // a graph made by cudaGraphCreate/capture
bool valid_node_locked(const CUgraphNode_st* n);  // a node of a live graph (bodies included)
CUgraph_st* new_graph_locked();                   // registered
void delete_graph_locked(CUgraph_st* g);          // and its nodes, bodies included
std::unique_ptr<CUgraph_st> clone_graph_locked(const CUgraph_st& g);  // nodes registered
// Adds a node with these dependencies (nodes of g) to g and registers it.
CUgraphNode_st* add_node_locked(CUgraph_st* g, CUgraphNode_st* const* deps, std::size_t n,
                                node_body body);
// A node body made from the parameters of cudaGraphAddNode (kernel, memcpy, memset, host,
// empty, event, child graph, memory and conditional nodes); graph is the graph it goes into.
cudaError_t body_from_params(CUgraph_st* g, cudaGraphNodeParams* p, node_body& out);
cudaError_t validate_copy(const cudaMemcpy3DParms& p);
cudaError_t validate_memset(const cudaMemsetParams& p);
// An allocation node's memory: reuses the address of an allocation of g freed by an ancestor of
// deps (as CUDA does within a graph), else reserves new memory.
cudaError_t graph_allocate_locked(CUgraph_st* g, CUgraphNode_st* const* deps, std::size_t n,
                                  std::size_t bytes, std::shared_ptr<graph_allocation>& out);
std::shared_ptr<graph_allocation> find_graph_allocation_locked(const void* p);
// cudaUserObject reference counts (the last release runs the object's destructor).
void retain_user_object(cudaUserObject_t o, unsigned count);
void release_user_object(cudaUserObject_t o, unsigned count);

// Performs a memcpy / memset node's work on the calling thread (memory.cpp).
void copy_3d_now(const cudaMemcpy3DParms& p);
void memset_2d_now(const cudaMemsetParams& p);

// --- stream capture (capture.cpp) ---
// True when `stream` is being captured into a graph (cheap when no capture is active).
bool capturing(cudaStream_t stream);
// Adds a node for `body` to the capture of `stream` (capturing(stream) is true); returns the
// capture's error when it was invalidated. out: the node made.
cudaError_t capture_node(cudaStream_t stream, node_body body, CUgraphNode_st** out = nullptr);
// cudaMallocAsync / cudaFreeAsync on a capturing stream: graph allocation and free nodes.
cudaError_t capture_allocation(cudaStream_t stream, std::size_t bytes, void** out);
cudaError_t capture_free(cudaStream_t stream, void* p);
// cudaEventRecord / cudaStreamWaitEvent on a capturing stream or of an event recorded in a
// capture: true when the capture took care of it (result: the call's result).
bool capture_event_record(cudaEvent_t e, cudaStream_t s, unsigned flags, cudaError_t& result);
bool capture_event_wait(cudaStream_t s, cudaEvent_t e, unsigned flags, cudaError_t& result);
// A call that would wait for a capturing stream (synchronize, query): invalidates its capture
// and gives cudaErrorStreamCaptureUnsupported; cudaSuccess when the stream is not capturing.
cudaError_t capture_forbids_sync(cudaStream_t stream);
// A call CUDA deems unsafe during a capture (cudaDeviceSynchronize, cudaMalloc, cudaFree...):
// refused with cudaErrorStreamCaptureUnsupported, and the capture invalidated, while this thread
// captures in global or thread-local mode or another thread in global mode (unless this
// thread's mode, cudaThreadExchangeStreamCaptureMode, is not global; relaxed: never).
cudaError_t capture_forbids_unsafe_call();
// Work on the legacy default stream while a blocking stream captures: it would synchronise with
// the capture, so it is refused with cudaErrorStreamCaptureImplicit and the capture invalidated.
cudaError_t capture_forbids_legacy(cudaStream_t stream);

}  // namespace cuemu::detail
