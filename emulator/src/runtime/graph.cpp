// CUDA graphs: building them (nodes of every kind, edges, clones, queries). Instantiation and
// launch are in graph_exec.cpp, stream capture in capture.cpp.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <cuda_runtime_api.h>

#include "runtime/array.h"
#include "runtime/graph.h"
#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

struct registry {
  std::unordered_set<const CUgraph_st*> graphs;     // every live graph, bodies included
  std::unordered_set<const CUgraphNode_st*> nodes;  // every node of a live graph
  std::unordered_map<const void*, std::weak_ptr<graph_allocation>> allocations;
  std::unordered_map<cudaGraphConditionalHandle, std::unique_ptr<graph_condition>> conditions;
  unsigned long long next_condition = 1;
};

registry& reg() {
  static registry* r = new registry;
  return *r;
}

void unregister_locked(CUgraph_st* g) {
  reg().graphs.erase(g);
  for (auto& n : g->nodes) {
    reg().nodes.erase(n.get());
    for (auto& body : n->body.graphs) unregister_locked(body.get());
  }
}

void register_bodies_locked(CUgraphNode_st* n) {
  for (std::size_t i = 0; i < n->body.graphs.size(); ++i) {
    CUgraph_st* g = n->body.graphs[i].get();
    g->owner = n;
    reg().graphs.insert(g);
    for (auto& m : g->nodes) {
      reg().nodes.insert(m.get());
      register_bodies_locked(m.get());
    }
    if (i < n->body.graph_handles.size()) n->body.graph_handles[i] = g;
  }
}

void remove_edge(CUgraphNode_st* from, CUgraphNode_st* to) {
  from->dependents.erase(std::find(from->dependents.begin(), from->dependents.end(), to));
  to->deps.erase(std::find(to->deps.begin(), to->deps.end(), from));
}

bool has_edge(const CUgraphNode_st* from, const CUgraphNode_st* to) {
  return std::find(to->deps.begin(), to->deps.end(), from) != to->deps.end();
}

// Validates a node list of graph g (no null, no node of another graph, no repeats).
cudaError_t check_deps_locked(const CUgraph_st* g, const cudaGraphNode_t* deps, std::size_t n) {
  if (n && !deps) return cudaErrorInvalidValue;
  for (std::size_t i = 0; i < n; ++i) {
    if (!valid_node_locked(deps[i]) || deps[i]->graph != g) return cudaErrorInvalidValue;
    for (std::size_t j = 0; j < i; ++j)
      if (deps[j] == deps[i]) return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

cudaError_t kernel_body(const cudaKernelNodeParams& p, node_body& b) {
  if (!p.kernelParams) {
    // The `extra` form (CU_LAUNCH_PARAM_BUFFER_POINTER) needs the parameters' layout, which a CPU
    // build does not have.
    if (p.extra) {
      std::fprintf(stderr,
                   "cuemu: a graph kernel node passes its parameters through `extra`, which the "
                   "emulator does not support; pass them through kernelParams\n");
      return cudaErrorNotSupported;
    }
  }
  std::shared_ptr<const kernel_launch> k;
  if (cudaError_t e = make_kernel_launch(p.func, p.gridDim, p.blockDim, p.kernelParams,
                                         p.sharedMemBytes, k);
      e != cudaSuccess)
    return e;
  b.type = cudaGraphNodeTypeKernel;
  b.kernel = std::move(k);
  b.kernel_params = p;
  b.kernel_params.kernelParams = nullptr;
  b.kernel_params.extra = nullptr;
  return cudaSuccess;
}

cudaError_t copy_body(const cudaMemcpy3DParms& params, node_body& b) {
  const graph_node_scope for_graph(true);
  cudaMemcpy3DParms p = params;
  if (cudaError_t e = resolve_copy_arrays(p); e != cudaSuccess) return e;
  if (cudaError_t e = validate_copy(p); e != cudaSuccess) return e;
  b.type = cudaGraphNodeTypeMemcpy;
  b.copy = p;
  return cudaSuccess;
}

cudaError_t memset_body(const cudaMemsetParams& p, node_body& b) {
  const graph_node_scope for_graph(true);
  if (cudaError_t e = validate_memset(p); e != cudaSuccess) return e;
  b.type = cudaGraphNodeTypeMemset;
  b.set = p;
  return cudaSuccess;
}

cudaError_t host_body(const cudaHostNodeParams& p, node_body& b) {
  if (!p.fn) return cudaErrorInvalidValue;
  b.type = cudaGraphNodeTypeHost;
  b.host = p;
  return cudaSuccess;
}

cudaError_t event_body(cudaGraphNodeType type, cudaEvent_t e, node_body& b) {
  if (!valid_event(e)) return cudaErrorInvalidResourceHandle;
  b.type = type;
  b.event = e;
  return cudaSuccess;
}

cudaMemcpy3DParms linear(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind) {
  cudaMemcpy3DParms p{};
  p.srcPtr = {const_cast<void*>(src), count, count, 1};
  p.dstPtr = {dst, count, count, 1};
  p.extent = {count, 1, 1};
  p.kind = kind;
  return p;
}

// Runs f on the node of a live graph, under the lock.
template <class F>
cudaError_t with_node(cudaGraphNode_t node, F&& f) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  std::lock_guard lock(graph_mutex());
  if (!valid_node_locked(node)) return record_error(cudaErrorInvalidValue);
  return record_error(f(*node));
}

// Adds a node made by make(body) to graph, with its dependencies.
template <class F>
cudaError_t add(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps,
                std::size_t n, F&& make) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!out) return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(graph)) return record_error(cudaErrorInvalidValue);
  if (cudaError_t e = check_deps_locked(graph, deps, n); e != cudaSuccess) return record_error(e);
  node_body b;
  if (cudaError_t e = make(b); e != cudaSuccess) return record_error(e);
  *out = add_node_locked(graph, deps, n, std::move(b));
  return cudaSuccess;
}

// Nodes reachable backwards from `from` (themselves included).
std::unordered_set<const CUgraphNode_st*> ancestors_of(CUgraphNode_st* const* from,
                                                       std::size_t n) {
  std::unordered_set<const CUgraphNode_st*> seen;
  std::vector<const CUgraphNode_st*> todo(from, from + n);
  while (!todo.empty()) {
    const CUgraphNode_st* x = todo.back();
    todo.pop_back();
    if (!seen.insert(x).second) continue;
    for (const CUgraphNode_st* d : x->deps) todo.push_back(d);
  }
  return seen;
}

const char* type_name(cudaGraphNodeType t) {
  switch (t) {
    case cudaGraphNodeTypeKernel: return "KERNEL";
    case cudaGraphNodeTypeMemcpy: return "MEMCPY";
    case cudaGraphNodeTypeMemset: return "MEMSET";
    case cudaGraphNodeTypeHost: return "HOST";
    case cudaGraphNodeTypeGraph: return "GRAPH";
    case cudaGraphNodeTypeEmpty: return "EMPTY";
    case cudaGraphNodeTypeWaitEvent: return "WAIT_EVENT";
    case cudaGraphNodeTypeEventRecord: return "EVENT_RECORD";
    case cudaGraphNodeTypeMemAlloc: return "MEM_ALLOC";
    case cudaGraphNodeTypeMemFree: return "MEM_FREE";
    case cudaGraphNodeTypeConditional: return "CONDITIONAL";
    default: return "NODE";
  }
}

void dot_graph(std::FILE* f, const CUgraph_st& g, const std::string& prefix) {
  std::unordered_map<const CUgraphNode_st*, std::size_t> index;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) index[g.nodes[i].get()] = i;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const CUgraphNode_st& n = *g.nodes[i];
    std::string label = type_name(n.body.type);
    if (n.body.type == cudaGraphNodeTypeKernel && n.body.kernel && n.body.kernel->entry.name)
      label += std::string("\\n") + n.body.kernel->entry.name;
    std::fprintf(f, "  \"%s%zu\" [label=\"%s\"];\n", prefix.c_str(), i, label.c_str());
    for (const CUgraphNode_st* d : n.deps)
      std::fprintf(f, "  \"%s%zu\" -> \"%s%zu\";\n", prefix.c_str(), index[d], prefix.c_str(), i);
    for (std::size_t b = 0; b < n.body.graphs.size(); ++b)
      dot_graph(f, *n.body.graphs[b], prefix + std::to_string(i) + "_" + std::to_string(b) + "_");
  }
}

}  // namespace

std::mutex& graph_mutex() {
  static std::mutex* m = new std::mutex;
  return *m;
}

bool valid_graph_locked(const CUgraph_st* g) { return g && reg().graphs.count(g) != 0; }
bool valid_node_locked(const CUgraphNode_st* n) { return n && reg().nodes.count(n) != 0; }

CUgraph_st* new_graph_locked() {
  auto* g = new CUgraph_st;
  reg().graphs.insert(g);
  return g;
}

void delete_graph_locked(CUgraph_st* g) {
  unregister_locked(g);
  for (const auto& [o, count] : g->user_objects) release_user_object(o, count);
  delete g;
}

node_body clone_body(const node_body& b) {
  node_body c;
  c.type = b.type;
  c.kernel = b.kernel;
  c.kernel_params = b.kernel_params;
  c.copy = b.copy;
  c.set = b.set;
  c.host = b.host;
  c.event = b.event;
  c.handle = b.handle;
  c.conditional = b.conditional;
  c.allocation = b.allocation;
  c.dptr = b.dptr;
  for (const auto& g : b.graphs) c.graphs.push_back(clone_graph_locked(*g));
  for (const auto& g : c.graphs) c.graph_handles.push_back(g.get());
  return c;
}

std::unique_ptr<CUgraph_st> clone_graph_locked(const CUgraph_st& g) {
  auto c = std::make_unique<CUgraph_st>();
  c->allocations = g.allocations;
  c->user_objects = g.user_objects;
  for (const auto& [o, count] : c->user_objects) retain_user_object(o, count);
  std::unordered_map<const CUgraphNode_st*, CUgraphNode_st*> map;
  for (const auto& n : g.nodes) {
    auto m = std::make_unique<CUgraphNode_st>();
    m->graph = c.get();
    m->body = clone_body(n->body);
    m->origins = n->origins;
    m->origins.push_back(n.get());
    map[n.get()] = m.get();
    c->nodes.push_back(std::move(m));
  }
  for (const auto& n : g.nodes) {
    CUgraphNode_st* m = map[n.get()];
    for (const CUgraphNode_st* d : n->deps) m->deps.push_back(map[d]);
    for (const CUgraphNode_st* d : n->dependents) m->dependents.push_back(map[d]);
  }
  reg().graphs.insert(c.get());
  for (auto& n : c->nodes) {
    reg().nodes.insert(n.get());
    register_bodies_locked(n.get());
  }
  return c;
}

CUgraphNode_st* add_node_locked(CUgraph_st* g, CUgraphNode_st* const* deps, std::size_t n,
                                node_body body) {
  auto node = std::make_unique<CUgraphNode_st>();
  node->graph = g;
  node->body = std::move(body);
  for (std::size_t i = 0; i < n; ++i) {
    node->deps.push_back(deps[i]);
    deps[i]->dependents.push_back(node.get());
  }
  CUgraphNode_st* raw = node.get();
  g->nodes.push_back(std::move(node));
  reg().nodes.insert(raw);
  register_bodies_locked(raw);
  return raw;
}

graph_allocation::~graph_allocation() {
  if (ptr) drop_graph_memory(ptr, size);
}

std::shared_ptr<graph_allocation> find_graph_allocation_locked(const void* p) {
  auto it = reg().allocations.find(p);
  return it == reg().allocations.end() ? nullptr : it->second.lock();
}

cudaError_t graph_allocate_locked(CUgraph_st* g, CUgraphNode_st* const* deps, std::size_t n,
                                  std::size_t bytes, std::shared_ptr<graph_allocation>& out) {
  if (bytes == 0) return cudaErrorInvalidValue;
  // An address of this graph whose every allocation is freed before the new node may be used
  // again, as CUDA reuses virtual addresses within a graph.
  const std::unordered_set<const CUgraphNode_st*> before = ancestors_of(deps, n);
  for (const auto& a : g->allocations) {
    if (a->size < bytes) continue;
    std::size_t allocs = 0, frees = 0;
    bool all_before = true;
    for (const auto& node : g->nodes) {
      const node_body& b = node->body;
      if (b.type == cudaGraphNodeTypeMemAlloc && b.allocation == a) ++allocs;
      if (b.type == cudaGraphNodeTypeMemFree && b.dptr == a->ptr) {
        ++frees;
        if (!before.count(node.get())) all_before = false;
      }
    }
    if (allocs > 0 && allocs == frees && all_before) {
      out = a;
      return cudaSuccess;
    }
  }
  auto a = std::make_shared<graph_allocation>();
  if (cudaError_t e = reserve_graph_memory(&a->ptr, bytes); e != cudaSuccess) {
    a->ptr = nullptr;
    return e;
  }
  a->size = bytes;
  reg().allocations[a->ptr] = a;
  g->allocations.push_back(a);
  out = std::move(a);
  return cudaSuccess;
}

graph_condition* find_condition(cudaGraphConditionalHandle h) {
  std::lock_guard lock(graph_mutex());
  return find_condition_locked(h);
}
graph_condition* find_condition_locked(cudaGraphConditionalHandle h) {
  auto it = reg().conditions.find(h);
  return it == reg().conditions.end() ? nullptr : it->second.get();
}

cudaError_t body_from_params(CUgraph_st* g, cudaGraphNodeParams* p, node_body& b) {
  switch (p->type) {
    case cudaGraphNodeTypeKernel: {
      cudaKernelNodeParams k{};
      k.func = p->kernel.func;
      k.gridDim = p->kernel.gridDim;
      k.blockDim = p->kernel.blockDim;
      k.sharedMemBytes = p->kernel.sharedMemBytes;
      k.kernelParams = p->kernel.kernelParams;
      k.extra = p->kernel.extra;
      return kernel_body(k, b);
    }
    case cudaGraphNodeTypeMemcpy:
      return copy_body(p->memcpy.copyParams, b);
    case cudaGraphNodeTypeMemset: {
      cudaMemsetParams m{p->memset.dst,   p->memset.pitch, p->memset.value,
                         p->memset.elementSize, p->memset.width, p->memset.height};
      return memset_body(m, b);
    }
    case cudaGraphNodeTypeHost:
      return host_body({p->host.fn, p->host.userData}, b);
    case cudaGraphNodeTypeGraph:
      if (!valid_graph_locked(p->graph.graph)) return cudaErrorInvalidValue;
      b.type = cudaGraphNodeTypeGraph;
      b.graphs.push_back(clone_graph_locked(*p->graph.graph));
      b.graph_handles = {b.graphs.back().get()};
      if (p->graph.ownership == cudaGraphChildGraphOwnershipMove) {
        if (p->graph.graph->owner) return cudaErrorInvalidValue;
        delete_graph_locked(p->graph.graph);
      }
      return cudaSuccess;
    case cudaGraphNodeTypeEmpty:
      b.type = cudaGraphNodeTypeEmpty;
      return cudaSuccess;
    case cudaGraphNodeTypeWaitEvent:
      return event_body(cudaGraphNodeTypeWaitEvent, p->eventWait.event, b);
    case cudaGraphNodeTypeEventRecord:
      return event_body(cudaGraphNodeTypeEventRecord, p->eventRecord.event, b);
    case cudaGraphNodeTypeMemFree: {
      std::shared_ptr<graph_allocation> a = find_graph_allocation_locked(p->free.dptr);
      if (!a) return cudaErrorInvalidValue;
      b.type = cudaGraphNodeTypeMemFree;
      b.allocation = std::move(a);
      b.dptr = p->free.dptr;
      return cudaSuccess;
    }
    case cudaGraphNodeTypeConditional: {
      const cudaConditionalNodeParams& c = p->conditional;
      auto it = reg().conditions.find(c.handle);
      if (it == reg().conditions.end() || it->second->graph != g) return cudaErrorInvalidValue;
      unsigned bodies = c.size;
      if (c.type == cudaGraphCondTypeIf ? (bodies < 1 || bodies > 2)
          : c.type == cudaGraphCondTypeWhile ? bodies != 1
          : c.type == cudaGraphCondTypeSwitch ? bodies < 1
                                              : true)
        return cudaErrorInvalidValue;
      b.type = cudaGraphNodeTypeConditional;
      b.handle = c.handle;
      b.conditional = c.type;
      for (unsigned i = 0; i < bodies; ++i) b.graphs.push_back(std::make_unique<CUgraph_st>());
      b.graph_handles.assign(bodies, nullptr);
      return cudaSuccess;
    }
    default:
      return cudaErrorNotSupported;  // external semaphores; memory allocation: see the caller
  }
}

}  // namespace cuemu::detail

using namespace cuemu::detail;

extern "C" cudaError_t cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!pGraph || flags != 0) return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(graph_mutex());
  *pGraph = new_graph_locked();
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(graph) || graph->owner) return record_error(cudaErrorInvalidValue);
  delete_graph_locked(graph);
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t originalGraph) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!pGraphClone) return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(originalGraph)) return record_error(cudaErrorInvalidValue);
  *pGraphClone = clone_graph_locked(*originalGraph).release();
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t* pNode, cudaGraphNode_t originalNode,
                                                cudaGraph_t clonedGraph) {
  if (!pNode) return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(clonedGraph)) return record_error(cudaErrorInvalidValue);
  for (auto& n : clonedGraph->nodes)
    if (std::find(n->origins.begin(), n->origins.end(), originalNode) != n->origins.end()) {
      *pNode = n.get();
      return cudaSuccess;
    }
  return record_error(cudaErrorInvalidValue);
}

extern "C" cudaError_t cudaGraphAddNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t* pDependencies,
                                        const cudaGraphEdgeData* dependencyData,
                                        size_t numDependencies, cudaGraphNodeParams* nodeParams) {
  (void)dependencyData;  // programmatic edges order nothing more here
  if (!nodeParams) return record_error(cudaErrorInvalidValue);
  if (nodeParams->type == cudaGraphNodeTypeMemAlloc)
    return cudaGraphAddMemAllocNode(pGraphNode, graph, pDependencies, numDependencies,
                                    reinterpret_cast<cudaMemAllocNodeParams*>(&nodeParams->alloc));
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!pGraphNode) return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(graph)) return record_error(cudaErrorInvalidValue);
  if (cudaError_t e = check_deps_locked(graph, pDependencies, numDependencies); e != cudaSuccess)
    return record_error(e);
  node_body b;
  if (cudaError_t e = body_from_params(graph, nodeParams, b); e != cudaSuccess)
    return record_error(e);
  CUgraphNode_st* n = add_node_locked(graph, pDependencies, numDependencies, std::move(b));
  if (n->body.type == cudaGraphNodeTypeConditional)
    nodeParams->conditional.phGraph_out = n->body.graph_handles.data();
  *pGraphNode = n;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, cudaGraphNodeParams* nodeParams) {
  if (!nodeParams) return record_error(cudaErrorInvalidValue);
  return with_node(node, [&](CUgraphNode_st& n) {
    if (nodeParams->type != n.body.type) return cudaErrorInvalidValue;
    if (n.body.type != cudaGraphNodeTypeKernel && n.body.type != cudaGraphNodeTypeMemcpy &&
        n.body.type != cudaGraphNodeTypeMemset && n.body.type != cudaGraphNodeTypeHost &&
        n.body.type != cudaGraphNodeTypeWaitEvent && n.body.type != cudaGraphNodeTypeEventRecord)
      return cudaErrorNotSupported;
    node_body b;
    if (cudaError_t e = body_from_params(n.graph, nodeParams, b); e != cudaSuccess) return e;
    n.body = std::move(b);
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t* pDependencies,
                                              size_t numDependencies,
                                              const cudaKernelNodeParams* pNodeParams) {
  if (!pNodeParams) return record_error(cudaErrorInvalidValue);
  return add(pGraphNode, graph, pDependencies, numDependencies,
             [&](node_body& b) { return kernel_body(*pNodeParams, b); });
}

extern "C" cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                                    cudaKernelNodeParams* pNodeParams) {
  if (!pNodeParams) return record_error(cudaErrorInvalidValue);
  return with_node(node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeKernel) return cudaErrorInvalidValue;
    *pNodeParams = n.body.kernel_params;
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                    const cudaKernelNodeParams* pNodeParams) {
  if (!pNodeParams) return record_error(cudaErrorInvalidValue);
  return with_node(node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeKernel) return cudaErrorInvalidValue;
    return kernel_body(*pNodeParams, n.body);
  });
}

extern "C" cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t* pDependencies,
                                              size_t numDependencies,
                                              const cudaMemcpy3DParms* pCopyParams) {
  if (!pCopyParams) return record_error(cudaErrorInvalidValue);
  return add(pGraphNode, graph, pDependencies, numDependencies,
             [&](node_body& b) { return copy_body(*pCopyParams, b); });
}

extern "C" cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t* pDependencies,
                                                size_t numDependencies, void* dst,
                                                const void* src, size_t count,
                                                cudaMemcpyKind kind) {
  return add(pGraphNode, graph, pDependencies, numDependencies,
             [&](node_body& b) { return copy_body(linear(dst, src, count, kind), b); });
}

extern "C" cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                      const cudaGraphNode_t* pDependencies,
                                                      size_t numDependencies, const void* symbol,
                                                      const void* src, size_t count,
                                                      size_t offset, cudaMemcpyKind kind) {
  if (!symbol) return record_error(cudaErrorInvalidSymbol);
  return add(pGraphNode, graph, pDependencies, numDependencies, [&](node_body& b) {
    return copy_body(linear(static_cast<char*>(const_cast<void*>(symbol)) + offset, src, count, kind),
                     b);
  });
}

extern "C" cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t* pGraphNode,
                                                        cudaGraph_t graph,
                                                        const cudaGraphNode_t* pDependencies,
                                                        size_t numDependencies, void* dst,
                                                        const void* symbol, size_t count,
                                                        size_t offset, cudaMemcpyKind kind) {
  if (!symbol) return record_error(cudaErrorInvalidSymbol);
  return add(pGraphNode, graph, pDependencies, numDependencies, [&](node_body& b) {
    return copy_body(linear(dst, static_cast<const char*>(symbol) + offset, count, kind), b);
  });
}

extern "C" cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node,
                                                            const void* symbol, const void* src,
                                                            size_t count, size_t offset,
                                                            cudaMemcpyKind kind) {
  if (!symbol) return record_error(cudaErrorInvalidSymbol);
  return cudaGraphMemcpyNodeSetParams1D(
      node, static_cast<char*>(const_cast<void*>(symbol)) + offset, src, count, kind);
}

extern "C" cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void* dst,
                                                              const void* symbol, size_t count,
                                                              size_t offset, cudaMemcpyKind kind) {
  if (!symbol) return record_error(cudaErrorInvalidSymbol);
  return cudaGraphMemcpyNodeSetParams1D(node, dst, static_cast<const char*>(symbol) + offset,
                                        count, kind);
}

extern "C" cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node,
                                                    cudaMemcpy3DParms* pNodeParams) {
  if (!pNodeParams) return record_error(cudaErrorInvalidValue);
  return with_node(node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeMemcpy) return cudaErrorInvalidValue;
    *pNodeParams = n.body.copy;
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
                                                    const cudaMemcpy3DParms* pNodeParams) {
  if (!pNodeParams) return record_error(cudaErrorInvalidValue);
  return with_node(node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeMemcpy) return cudaErrorInvalidValue;
    return copy_body(*pNodeParams, n.body);
  });
}

extern "C" cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void* dst,
                                                      const void* src, size_t count,
                                                      cudaMemcpyKind kind) {
  const cudaMemcpy3DParms p = linear(dst, src, count, kind);
  return cudaGraphMemcpyNodeSetParams(node, &p);
}

extern "C" cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t* pDependencies,
                                              size_t numDependencies,
                                              const cudaMemsetParams* pMemsetParams) {
  if (!pMemsetParams) return record_error(cudaErrorInvalidValue);
  return add(pGraphNode, graph, pDependencies, numDependencies,
             [&](node_body& b) { return memset_body(*pMemsetParams, b); });
}

extern "C" cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node,
                                                    cudaMemsetParams* pNodeParams) {
  if (!pNodeParams) return record_error(cudaErrorInvalidValue);
  return with_node(node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeMemset) return cudaErrorInvalidValue;
    *pNodeParams = n.body.set;
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
                                                    const cudaMemsetParams* pNodeParams) {
  if (!pNodeParams) return record_error(cudaErrorInvalidValue);
  return with_node(node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeMemset) return cudaErrorInvalidValue;
    return memset_body(*pNodeParams, n.body);
  });
}

extern "C" cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t* pDependencies,
                                            size_t numDependencies,
                                            const cudaHostNodeParams* pNodeParams) {
  if (!pNodeParams) return record_error(cudaErrorInvalidValue);
  return add(pGraphNode, graph, pDependencies, numDependencies,
             [&](node_body& b) { return host_body(*pNodeParams, b); });
}

extern "C" cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node,
                                                  cudaHostNodeParams* pNodeParams) {
  if (!pNodeParams) return record_error(cudaErrorInvalidValue);
  return with_node(node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeHost) return cudaErrorInvalidValue;
    *pNodeParams = n.body.host;
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node,
                                                  const cudaHostNodeParams* pNodeParams) {
  if (!pNodeParams) return record_error(cudaErrorInvalidValue);
  return with_node(node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeHost) return cudaErrorInvalidValue;
    return host_body(*pNodeParams, n.body);
  });
}

extern "C" cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t* pDependencies,
                                                  size_t numDependencies, cudaGraph_t childGraph) {
  return add(pGraphNode, graph, pDependencies, numDependencies, [&](node_body& b) {
    cudaGraphNodeParams p{};
    p.type = cudaGraphNodeTypeGraph;
    p.graph.graph = childGraph;
    p.graph.ownership = cudaGraphChildGraphOwnershipClone;
    return body_from_params(graph, &p, b);
  });
}

extern "C" cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t* pGraph) {
  if (!pGraph) return record_error(cudaErrorInvalidValue);
  return with_node(node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeGraph) return cudaErrorInvalidValue;
    *pGraph = n.body.graphs.front().get();
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t* pDependencies,
                                             size_t numDependencies) {
  return add(pGraphNode, graph, pDependencies, numDependencies, [](node_body& b) {
    b.type = cudaGraphNodeTypeEmpty;
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                   const cudaGraphNode_t* pDependencies,
                                                   size_t numDependencies, cudaEvent_t event) {
  return add(pGraphNode, graph, pDependencies, numDependencies,
             [&](node_body& b) { return event_body(cudaGraphNodeTypeEventRecord, event, b); });
}

extern "C" cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                 const cudaGraphNode_t* pDependencies,
                                                 size_t numDependencies, cudaEvent_t event) {
  return add(pGraphNode, graph, pDependencies, numDependencies,
             [&](node_body& b) { return event_body(cudaGraphNodeTypeWaitEvent, event, b); });
}

namespace {
cudaError_t get_event(cudaGraphNode_t node, cudaGraphNodeType type, cudaEvent_t* out) {
  if (!out) return record_error(cudaErrorInvalidValue);
  return with_node(node, [&](CUgraphNode_st& n) {
    if (n.body.type != type) return cudaErrorInvalidValue;
    *out = n.body.event;
    return cudaSuccess;
  });
}
cudaError_t set_event(cudaGraphNode_t node, cudaGraphNodeType type, cudaEvent_t e) {
  return with_node(node, [&](CUgraphNode_st& n) {
    if (n.body.type != type) return cudaErrorInvalidValue;
    return event_body(type, e, n.body);
  });
}
}  // namespace

extern "C" cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  return get_event(node, cudaGraphNodeTypeEventRecord, event_out);
}
extern "C" cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return set_event(node, cudaGraphNodeTypeEventRecord, event);
}
extern "C" cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  return get_event(node, cudaGraphNodeTypeWaitEvent, event_out);
}
extern "C" cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return set_event(node, cudaGraphNodeTypeWaitEvent, event);
}

extern "C" cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t* pDependencies,
                                                size_t numDependencies,
                                                cudaMemAllocNodeParams* nodeParams) {
  if (!nodeParams) return record_error(cudaErrorInvalidValue);
  const cudaMemPoolProps& props = nodeParams->poolProps;
  if (props.allocType != cudaMemAllocationTypePinned ||
      props.location.type != cudaMemLocationTypeDevice || props.location.id != 0)
    return record_error(cudaErrorInvalidValue);
  return add(pGraphNode, graph, pDependencies, numDependencies, [&](node_body& b) {
    std::shared_ptr<graph_allocation> a;
    if (cudaError_t e = graph_allocate_locked(graph, pDependencies, numDependencies,
                                              nodeParams->bytesize, a);
        e != cudaSuccess)
      return e;
    b.type = cudaGraphNodeTypeMemAlloc;
    b.allocation = a;
    b.dptr = a->ptr;
    nodeParams->dptr = a->ptr;
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
                                                      cudaMemAllocNodeParams* params_out) {
  if (!params_out) return record_error(cudaErrorInvalidValue);
  return with_node(node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeMemAlloc) return cudaErrorInvalidValue;
    *params_out = cudaMemAllocNodeParams{};
    params_out->poolProps.allocType = cudaMemAllocationTypePinned;
    params_out->poolProps.location = {cudaMemLocationTypeDevice, 0};
    params_out->bytesize = n.body.allocation->size;
    params_out->dptr = n.body.dptr;
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t* pDependencies,
                                               size_t numDependencies, void* dptr) {
  return add(pGraphNode, graph, pDependencies, numDependencies, [&](node_body& b) {
    cudaGraphNodeParams p{};
    p.type = cudaGraphNodeTypeMemFree;
    p.free.dptr = dptr;
    return body_from_params(graph, &p, b);
  });
}

extern "C" cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void* dptr_out) {
  if (!dptr_out) return record_error(cudaErrorInvalidValue);
  return with_node(node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeMemFree) return cudaErrorInvalidValue;
    *static_cast<void**>(dptr_out) = n.body.dptr;
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* pHandle_out,
                                                        cudaGraph_t graph,
                                                        unsigned int defaultLaunchValue,
                                                        unsigned int flags) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!pHandle_out || (flags & ~static_cast<unsigned>(cudaGraphCondAssignDefault)))
    return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(graph)) return record_error(cudaErrorInvalidValue);
  auto c = std::make_unique<graph_condition>();
  c->default_value = defaultLaunchValue;
  c->value = defaultLaunchValue;
  c->assign_default = (flags & cudaGraphCondAssignDefault) != 0;
  c->graph = graph;
  const cudaGraphConditionalHandle h = reg().next_condition++;
  reg().conditions[h] = std::move(c);
  *pHandle_out = h;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* pType) {
  if (!pType) return record_error(cudaErrorInvalidValue);
  return with_node(node, [&](CUgraphNode_st& n) {
    *pType = n.body.type;
    return cudaSuccess;
  });
}

namespace {
// CUDA's counting convention: with a null array, the count is returned; otherwise up to *count
// entries are written and *count becomes the number written (the rest of the array zeroed).
template <class V>
cudaError_t list_out(const V& items, cudaGraphNode_t* out, cudaGraphEdgeData* edges,
                     std::size_t* count) {
  if (!count) return cudaErrorInvalidValue;
  if (!out) {
    *count = items.size();
    return cudaSuccess;
  }
  const std::size_t n = std::min(*count, items.size());
  for (std::size_t i = 0; i < *count; ++i) {
    out[i] = i < n ? const_cast<cudaGraphNode_t>(items[i]) : nullptr;
    if (edges) edges[i] = cudaGraphEdgeData{};
  }
  *count = n;
  return cudaSuccess;
}
}  // namespace

extern "C" cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* numNodes) {
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(graph)) return record_error(cudaErrorInvalidValue);
  std::vector<const CUgraphNode_st*> v;
  for (auto& n : graph->nodes) v.push_back(n.get());
  return record_error(list_out(v, nodes, nullptr, numNodes));
}

extern "C" cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* pRootNodes,
                                             size_t* pNumRootNodes) {
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(graph)) return record_error(cudaErrorInvalidValue);
  std::vector<const CUgraphNode_st*> v;
  for (auto& n : graph->nodes)
    if (n->deps.empty()) v.push_back(n.get());
  return record_error(list_out(v, pRootNodes, nullptr, pNumRootNodes));
}

extern "C" cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from,
                                         cudaGraphNode_t* to, cudaGraphEdgeData* edgeData,
                                         size_t* numEdges) {
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(graph) || !numEdges || (!from) != (!to))
    return record_error(cudaErrorInvalidValue);
  std::vector<const CUgraphNode_st*> a, b;
  for (auto& n : graph->nodes)
    for (const CUgraphNode_st* d : n->deps) {
      a.push_back(d);
      b.push_back(n.get());
    }
  std::size_t count = *numEdges;
  if (cudaError_t e = list_out(a, from, edgeData, &count); e != cudaSuccess) return record_error(e);
  return record_error(list_out(b, to, nullptr, numEdges));
}

extern "C" cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node,
                                                    cudaGraphNode_t* pDependencies,
                                                    cudaGraphEdgeData* edgeData,
                                                    size_t* pNumDependencies) {
  std::lock_guard lock(graph_mutex());
  if (!valid_node_locked(node)) return record_error(cudaErrorInvalidValue);
  return record_error(list_out(node->deps, pDependencies, edgeData, pNumDependencies));
}

extern "C" cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
                                                      cudaGraphNode_t* pDependentNodes,
                                                      cudaGraphEdgeData* edgeData,
                                                      size_t* pNumDependentNodes) {
  std::lock_guard lock(graph_mutex());
  if (!valid_node_locked(node)) return record_error(cudaErrorInvalidValue);
  return record_error(list_out(node->dependents, pDependentNodes, edgeData, pNumDependentNodes));
}

extern "C" cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                                const cudaGraphNode_t* to,
                                                const cudaGraphEdgeData* edgeData,
                                                size_t numDependencies) {
  (void)edgeData;
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(graph) || (numDependencies && (!from || !to)))
    return record_error(cudaErrorInvalidValue);
  for (std::size_t i = 0; i < numDependencies; ++i)
    if (!valid_node_locked(from[i]) || !valid_node_locked(to[i]) || from[i]->graph != graph ||
        to[i]->graph != graph || from[i] == to[i] || has_edge(from[i], to[i]))
      return record_error(cudaErrorInvalidValue);
  for (std::size_t i = 0; i < numDependencies; ++i) {
    from[i]->dependents.push_back(to[i]);
    to[i]->deps.push_back(from[i]);
  }
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                                   const cudaGraphNode_t* to,
                                                   const cudaGraphEdgeData* edgeData,
                                                   size_t numDependencies) {
  (void)edgeData;
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(graph) || (numDependencies && (!from || !to)))
    return record_error(cudaErrorInvalidValue);
  for (std::size_t i = 0; i < numDependencies; ++i)
    if (!valid_node_locked(from[i]) || !valid_node_locked(to[i]) || !has_edge(from[i], to[i]))
      return record_error(cudaErrorInvalidValue);
  for (std::size_t i = 0; i < numDependencies; ++i) remove_edge(from[i], to[i]);
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
  std::lock_guard lock(graph_mutex());
  if (!valid_node_locked(node)) return record_error(cudaErrorInvalidValue);
  while (!node->deps.empty()) remove_edge(node->deps.front(), node);
  while (!node->dependents.empty()) remove_edge(node, node->dependents.front());
  CUgraph_st* g = node->graph;
  reg().nodes.erase(node);
  for (auto& body : node->body.graphs) unregister_locked(body.get());
  g->nodes.erase(std::find_if(g->nodes.begin(), g->nodes.end(),
                              [&](const auto& n) { return n.get() == node; }));
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char* path,
                                              unsigned int flags) {
  (void)flags;
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(graph) || !path) return record_error(cudaErrorInvalidValue);
  std::FILE* f = std::fopen(path, "w");
  if (!f) return record_error(cudaErrorOperatingSystem);
  std::fprintf(f, "digraph dot {\n");
  dot_graph(f, *graph, "node_");
  std::fprintf(f, "}\n");
  std::fclose(f);
  return cudaSuccess;
}

// --- user objects: reference counts whose last release calls the destructor ---

struct CUuserObject_st {
  void* ptr = nullptr;
  cudaHostFn_t destroy = nullptr;
  std::atomic<long long> refs{0};
};

namespace cuemu::detail {
void retain_user_object(cudaUserObject_t o, unsigned count) { o->refs += count; }
void release_user_object(cudaUserObject_t o, unsigned count) {
  if (o->refs.fetch_sub(count) == static_cast<long long>(count)) {
    o->destroy(o->ptr);
    delete o;
  }
}
}  // namespace cuemu::detail

extern "C" cudaError_t cudaUserObjectCreate(cudaUserObject_t* object_out, void* ptr,
                                            cudaHostFn_t destroy, unsigned int initialRefcount,
                                            unsigned int flags) {
  if (!object_out || !destroy || initialRefcount == 0 || flags != cudaUserObjectNoDestructorSync)
    return record_error(cudaErrorInvalidValue);
  auto* o = new CUuserObject_st;
  o->ptr = ptr;
  o->destroy = destroy;
  o->refs = initialRefcount;
  *object_out = o;
  return cudaSuccess;
}

extern "C" cudaError_t cudaUserObjectRetain(cudaUserObject_t object, unsigned int count) {
  if (!object || count == 0) return record_error(cudaErrorInvalidValue);
  retain_user_object(object, count);
  return cudaSuccess;
}

extern "C" cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count) {
  if (!object || count == 0) return record_error(cudaErrorInvalidValue);
  release_user_object(object, count);
  return cudaSuccess;
}

// A graph holds its references until it is destroyed (its clones and executable graphs hold
// their own).
extern "C" cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                                 unsigned int count, unsigned int flags) {
  if (!object || count == 0 || (flags & ~static_cast<unsigned>(cudaGraphUserObjectMove)))
    return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(graph)) return record_error(cudaErrorInvalidValue);
  if (!(flags & cudaGraphUserObjectMove)) retain_user_object(object, count);
  graph->user_objects[object] += count;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                                  unsigned int count) {
  if (!object || count == 0) return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(graph)) return record_error(cudaErrorInvalidValue);
  auto it = graph->user_objects.find(object);
  if (it == graph->user_objects.end() || it->second < count)
    return record_error(cudaErrorInvalidValue);
  if ((it->second -= count) == 0) graph->user_objects.erase(it);
  release_user_object(object, count);
  return cudaSuccess;
}
