// Stream capture: between cudaStreamBeginCapture and cudaStreamEndCapture, work issued to a
// stream is not run but recorded as graph nodes, each depending on the stream's previous work.
//
// As in CUDA:
//   - an event recorded in a capturing stream holds that stream's place in the capture; a stream
//     that waits for it joins the capture (fork), and the origin stream waiting for an event of a
//     joined stream takes its work back (join). Ending the capture while a joined stream has work
//     the origin stream has not waited for is cudaErrorStreamCaptureUnjoined;
//   - cudaEventRecordExternal / cudaEventWaitExternal make event record and wait nodes;
//   - synchronizing with or querying a capturing stream is cudaErrorStreamCaptureUnsupported and
//     invalidates the capture; so is cudaDeviceSynchronize during a capture that is not relaxed;
//   - every later call on an invalidated capture fails with cudaErrorStreamCaptureInvalidated,
//     and cudaStreamEndCapture gives no graph.
#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <cuda_runtime_api.h>

#include "runtime/graph.h"
#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

struct capture {
  CUgraph_st* graph = nullptr;
  unsigned long long id = 0;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
  std::thread::id thread;
  CUstream_st* origin = nullptr;
  bool owns_graph = false;  // made by cudaStreamBeginCapture (not ...ToGraph)
  bool invalidated = false;
  // Every stream in the capture and the nodes its next work depends on.
  std::unordered_map<CUstream_st*, std::vector<CUgraphNode_st*>> deps;
};

struct capture_event {
  std::weak_ptr<capture> in;
  std::vector<CUgraphNode_st*> nodes;
};

// Under graph_mutex().
struct state {
  std::unordered_map<CUstream_st*, std::shared_ptr<capture>> by_stream;
  std::unordered_map<cudaEvent_t, capture_event> events;
  std::atomic<int> active{0};
  unsigned long long next_id = 1;
};

state& st() {
  static state* s = new state;
  return *s;
}

thread_local cudaStreamCaptureMode t_mode = cudaStreamCaptureModeGlobal;

std::shared_ptr<capture> find_locked(CUstream_st* s) {
  auto it = st().by_stream.find(s);
  return it == st().by_stream.end() ? nullptr : it->second;
}

void invalidate_locked(capture& c) { c.invalidated = true; }

// Nodes from which `to` can be reached (including them), for the join check.
void ancestors(const std::vector<CUgraphNode_st*>& from,
               std::unordered_set<const CUgraphNode_st*>& seen) {
  std::vector<const CUgraphNode_st*> todo(from.begin(), from.end());
  while (!todo.empty()) {
    const CUgraphNode_st* n = todo.back();
    todo.pop_back();
    if (!seen.insert(n).second) continue;
    for (const CUgraphNode_st* d : n->deps) todo.push_back(d);
  }
}

void add_unique(std::vector<CUgraphNode_st*>& v, const std::vector<CUgraphNode_st*>& more) {
  for (CUgraphNode_st* n : more)
    if (std::find(v.begin(), v.end(), n) == v.end()) v.push_back(n);
}

void end_locked(const std::shared_ptr<capture>& c) {
  for (auto& [s, deps] : c->deps) st().by_stream.erase(s);
  st().active.fetch_sub(1);
}

cudaError_t begin(cudaStream_t stream, CUgraph_st* into, const cudaGraphNode_t* deps,
                  std::size_t n, cudaStreamCaptureMode mode) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed)
    return record_error(cudaErrorInvalidValue);
  // The legacy default stream cannot be captured.
  if (stream == nullptr || stream == cudaStreamLegacy) {
    CUstream_st* s = resolve_stream(stream);
    if (s == resolve_stream(cudaStreamLegacy)) return record_error(cudaErrorStreamCaptureUnsupported);
  }
  CUstream_st* s = resolve_stream(stream);
  std::lock_guard lock(graph_mutex());
  if (find_locked(s)) return record_error(cudaErrorIllegalState);
  auto c = std::make_shared<capture>();
  if (into) {
    if (!valid_graph_locked(into)) return record_error(cudaErrorInvalidValue);
    for (std::size_t i = 0; i < n; ++i)
      if (!deps || !valid_node_locked(deps[i]) || deps[i]->graph != into)
        return record_error(cudaErrorInvalidValue);
    c->graph = into;
    c->deps[s] = std::vector<CUgraphNode_st*>(deps, deps + n);
  } else {
    c->graph = new_graph_locked();
    c->owns_graph = true;
    c->deps[s] = {};
  }
  c->id = st().next_id++;
  c->mode = mode;
  c->thread = std::this_thread::get_id();
  c->origin = s;
  st().by_stream[s] = c;
  st().active.fetch_add(1);
  return cudaSuccess;
}

}  // namespace

bool capturing(cudaStream_t stream) {
  if (st().active.load(std::memory_order_relaxed) == 0) return false;
  CUstream_st* s = resolve_stream(stream);
  std::lock_guard lock(graph_mutex());
  return find_locked(s) != nullptr;
}

cudaError_t capture_node(cudaStream_t stream, node_body body, CUgraphNode_st** out) {
  CUstream_st* s = resolve_stream(stream);
  std::lock_guard lock(graph_mutex());
  std::shared_ptr<capture> c = find_locked(s);
  if (!c) return cudaErrorStreamCaptureUnsupported;
  if (c->invalidated) return cudaErrorStreamCaptureInvalidated;
  std::vector<CUgraphNode_st*>& deps = c->deps[s];
  CUgraphNode_st* n = add_node_locked(c->graph, deps.data(), deps.size(), std::move(body));
  deps = {n};
  if (out) *out = n;
  return cudaSuccess;
}

cudaError_t capture_allocation(cudaStream_t stream, std::size_t bytes, void** out) {
  CUstream_st* s = resolve_stream(stream);
  std::lock_guard lock(graph_mutex());
  std::shared_ptr<capture> c = find_locked(s);
  if (!c) return cudaErrorStreamCaptureUnsupported;
  if (c->invalidated) return cudaErrorStreamCaptureInvalidated;
  std::vector<CUgraphNode_st*>& deps = c->deps[s];
  node_body b;
  if (cudaError_t e = graph_allocate_locked(c->graph, deps.data(), deps.size(), bytes, b.allocation);
      e != cudaSuccess)
    return e;
  b.type = cudaGraphNodeTypeMemAlloc;
  b.dptr = b.allocation->ptr;
  *out = b.dptr;
  CUgraphNode_st* n = add_node_locked(c->graph, deps.data(), deps.size(), std::move(b));
  deps = {n};
  return cudaSuccess;
}

cudaError_t capture_free(cudaStream_t stream, void* p) {
  CUstream_st* s = resolve_stream(stream);
  std::lock_guard lock(graph_mutex());
  std::shared_ptr<capture> c = find_locked(s);
  if (!c) return cudaErrorStreamCaptureUnsupported;
  if (c->invalidated) return cudaErrorStreamCaptureInvalidated;
  cudaGraphNodeParams params{};
  params.type = cudaGraphNodeTypeMemFree;
  params.free.dptr = p;
  node_body b;
  if (cudaError_t e = body_from_params(c->graph, &params, b); e != cudaSuccess) return e;
  std::vector<CUgraphNode_st*>& deps = c->deps[s];
  CUgraphNode_st* n = add_node_locked(c->graph, deps.data(), deps.size(), std::move(b));
  deps = {n};
  return cudaSuccess;
}

namespace {
// An external event record or wait: a node of its own in the capture.
cudaError_t capture_event_node(cudaStream_t stream, cudaGraphNodeType type, cudaEvent_t e) {
  node_body b;
  b.type = type;
  b.event = e;
  return capture_node(stream, std::move(b));
}
}  // namespace

bool capture_event_record(cudaEvent_t e, cudaStream_t stream, unsigned flags, cudaError_t& result) {
  if (st().active.load(std::memory_order_relaxed) == 0) {
    // Fast path; an event recorded in an earlier capture is recorded normally now.
    std::lock_guard lock(graph_mutex());
    st().events.erase(e);
    return false;
  }
  CUstream_st* s = resolve_stream(stream);
  std::unique_lock lock(graph_mutex());
  std::shared_ptr<capture> c = find_locked(s);
  if (!c) {
    st().events.erase(e);
    return false;
  }
  if (c->invalidated) {
    result = cudaErrorStreamCaptureInvalidated;
    return true;
  }
  if (flags & cudaEventRecordExternal) {
    lock.unlock();
    result = capture_event_node(stream, cudaGraphNodeTypeEventRecord, e);
    return true;
  }
  st().events[e] = {c, c->deps[s]};
  result = cudaSuccess;
  return true;
}

bool capture_event_wait(cudaStream_t stream, cudaEvent_t e, unsigned flags, cudaError_t& result) {
  CUstream_st* s = resolve_stream(stream);
  std::unique_lock lock(graph_mutex());
  std::shared_ptr<capture> mine = find_locked(s);
  auto it = st().events.find(e);
  std::shared_ptr<capture> theirs = it == st().events.end() ? nullptr : it->second.in.lock();
  if (theirs) {
    if (mine && mine != theirs) {  // two captures cannot be merged
      invalidate_locked(*mine);
      result = cudaErrorStreamCaptureIsolation;
      return true;
    }
    if (theirs->invalidated) {
      result = cudaErrorStreamCaptureInvalidated;
      return true;
    }
    if (!mine) st().by_stream[s] = theirs;  // s joins the capture
    add_unique(theirs->deps[s], it->second.nodes);
    result = cudaSuccess;
    return true;
  }
  if (!mine) return false;  // neither side captures: an ordinary wait
  if (mine->invalidated) {
    result = cudaErrorStreamCaptureInvalidated;
    return true;
  }
  if (flags & cudaEventWaitExternal) {
    lock.unlock();
    result = capture_event_node(stream, cudaGraphNodeTypeWaitEvent, e);
    return true;
  }
  // An event recorded outside any capture: its work was issued before the graph can be
  // launched, so the capture has nothing to record.
  result = cudaSuccess;
  return true;
}

cudaError_t capture_forbids_sync(cudaStream_t stream) {
  if (st().active.load(std::memory_order_relaxed) == 0) return cudaSuccess;
  CUstream_st* s = resolve_stream(stream);
  std::lock_guard lock(graph_mutex());
  std::shared_ptr<capture> c = find_locked(s);
  if (!c) return cudaSuccess;
  invalidate_locked(*c);
  return cudaErrorStreamCaptureUnsupported;
}

cudaError_t capture_forbids_unsafe_call() {
  if (st().active.load(std::memory_order_relaxed) == 0) return cudaSuccess;
  if (t_mode == cudaStreamCaptureModeRelaxed) return cudaSuccess;  // this thread opted out
  std::lock_guard lock(graph_mutex());
  cudaError_t result = cudaSuccess;
  const std::thread::id me = std::this_thread::get_id();
  for (auto& [s, c] : st().by_stream) {
    if (c->mode == cudaStreamCaptureModeRelaxed) continue;
    // Another thread's capture matters only when it is global and this thread's mode is too.
    if (c->thread != me &&
        (c->mode != cudaStreamCaptureModeGlobal || t_mode != cudaStreamCaptureModeGlobal))
      continue;
    invalidate_locked(*c);
    result = cudaErrorStreamCaptureUnsupported;
  }
  return result;
}

cudaError_t capture_forbids_legacy(cudaStream_t stream) {
  if (st().active.load(std::memory_order_relaxed) == 0) return cudaSuccess;
  CUstream_st* s = resolve_stream(stream);
  if (!is_legacy_stream(s)) return cudaSuccess;
  std::lock_guard lock(graph_mutex());
  cudaError_t result = cudaSuccess;
  for (auto& [q, c] : st().by_stream) {
    if (!is_blocking_stream(q)) continue;
    invalidate_locked(*c);
    result = cudaErrorStreamCaptureImplicit;
  }
  return result;
}

}  // namespace cuemu::detail

using namespace cuemu::detail;

extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  return begin(stream, nullptr, nullptr, 0, mode);
}

extern "C" cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                     const cudaGraphNode_t* dependencies,
                                                     const cudaGraphEdgeData* dependencyData,
                                                     size_t numDependencies,
                                                     cudaStreamCaptureMode mode) {
  (void)dependencyData;  // edge data (programmatic ports) orders nothing more here
  if (!graph) return record_error(cudaErrorInvalidValue);
  return begin(stream, graph, dependencies, numDependencies, mode);
}

extern "C" cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  if (!mode || *mode < cudaStreamCaptureModeGlobal || *mode > cudaStreamCaptureModeRelaxed)
    return record_error(cudaErrorInvalidValue);
  std::swap(*mode, t_mode);
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  CUstream_st* s = resolve_stream(stream);
  std::lock_guard lock(graph_mutex());
  std::shared_ptr<capture> c = find_locked(s);
  if (!c) return record_error(cudaErrorIllegalState);
  // pGraph may be null when the capture went into the program's own graph.
  if (!pGraph && c->owns_graph) return record_error(cudaErrorInvalidValue);
  if (c->origin != s) {  // only the stream that began it may end it
    invalidate_locked(*c);
    return record_error(cudaErrorStreamCaptureUnmatched);
  }
  if (c->mode == cudaStreamCaptureModeThreadLocal && c->thread != std::this_thread::get_id())
    return record_error(cudaErrorStreamCaptureWrongThread);
  cudaError_t result = cudaSuccess;
  if (c->invalidated) {
    result = cudaErrorStreamCaptureInvalidated;
  } else {
    // Every joined stream's work must have been waited for by the origin stream.
    std::unordered_set<const CUgraphNode_st*> joined;
    ancestors(c->deps[s], joined);
    for (const auto& [other, deps] : c->deps)
      for (const CUgraphNode_st* n : deps)
        if (other != s && !joined.count(n)) result = cudaErrorStreamCaptureUnjoined;
  }
  end_locked(c);
  if (result != cudaSuccess) {
    if (pGraph) *pGraph = nullptr;
    // A graph made by cudaStreamBeginCapture goes with the failed capture; one given to
    // cudaStreamBeginCaptureToGraph stays the program's.
    if (c->owns_graph) delete_graph_locked(c->graph);
    return record_error(result);
  }
  if (pGraph) *pGraph = c->graph;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
                                             cudaStreamCaptureStatus* pCaptureStatus) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!pCaptureStatus) return record_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  *pCaptureStatus = cudaStreamCaptureStatusNone;
  if (st().active.load() == 0) return cudaSuccess;
  CUstream_st* s = resolve_stream(stream);
  std::lock_guard lock(graph_mutex());
  if (std::shared_ptr<capture> c = find_locked(s))
    *pCaptureStatus =
        c->invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                                cudaStreamCaptureStatus* captureStatus_out,
                                                unsigned long long* id_out, cudaGraph_t* graph_out,
                                                const cudaGraphNode_t** dependencies_out,
                                                const cudaGraphEdgeData** edgeData_out,
                                                size_t* numDependencies_out) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!captureStatus_out) return record_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  CUstream_st* s = resolve_stream(stream);
  std::lock_guard lock(graph_mutex());
  std::shared_ptr<capture> c = find_locked(s);
  if (edgeData_out) *edgeData_out = nullptr;  // every edge is a default edge
  if (!c) {
    *captureStatus_out = cudaStreamCaptureStatusNone;
    return cudaSuccess;
  }
  *captureStatus_out =
      c->invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
  if (id_out) *id_out = c->id;
  if (graph_out) *graph_out = c->graph;
  const std::vector<CUgraphNode_st*>& deps = c->deps[s];
  if (dependencies_out) *dependencies_out = deps.empty() ? nullptr : deps.data();
  if (numDependencies_out) *numDependencies_out = deps.size();
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                           cudaGraphNode_t* dependencies,
                                                           const cudaGraphEdgeData* dependencyData,
                                                           size_t numDependencies,
                                                           unsigned int flags) {
  (void)dependencyData;
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies)
    return record_error(cudaErrorInvalidValue);
  if (numDependencies && !dependencies) return record_error(cudaErrorInvalidValue);
  CUstream_st* s = resolve_stream(stream);
  std::lock_guard lock(graph_mutex());
  std::shared_ptr<capture> c = find_locked(s);
  if (!c) return record_error(cudaErrorIllegalState);
  if (c->invalidated) return record_error(cudaErrorStreamCaptureInvalidated);
  std::vector<CUgraphNode_st*> nodes(dependencies, dependencies + numDependencies);
  for (CUgraphNode_st* n : nodes)
    if (!valid_node_locked(n) || n->graph != c->graph) return record_error(cudaErrorInvalidValue);
  std::vector<CUgraphNode_st*>& deps = c->deps[s];
  if (flags == cudaStreamSetCaptureDependencies) deps.clear();
  add_unique(deps, nodes);
  return cudaSuccess;
}
