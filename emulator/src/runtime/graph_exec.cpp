// Executable graphs: instantiation (a plan of steps in an order that respects every edge),
// launch (the steps queued on the stream behind its earlier work and the exec's previous
// launch), updates, enabling and disabling nodes, conditional nodes and graph memory.
#include <algorithm>
#include <cstdio>
#include <functional>
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

struct plan;

struct plan_step {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  std::function<void()> run;   // the work, on the calling thread
  cudaEvent_t event = nullptr;  // event record and wait steps
};

struct plan {
  std::vector<plan_step> steps;
  std::vector<graph_condition*> defaults;  // conditions reset at each launch
  std::vector<std::shared_ptr<graph_allocation>> allocations;  // made by allocation steps
  // Allocation (true) and free (false) steps in plan order: an address freed and allocated
  // again within the graph ends allocated.
  std::vector<std::pair<void*, bool>> mapping;
};

// The nodes of g in an order that respects every edge (creation order among independent nodes);
// false if the edges form a cycle.
bool topological(const CUgraph_st& g, std::vector<const CUgraphNode_st*>& order) {
  std::unordered_map<const CUgraphNode_st*, std::size_t> waiting;
  for (const auto& n : g.nodes) waiting[n.get()] = n->deps.size();
  std::vector<const CUgraphNode_st*> ready;
  for (auto it = g.nodes.rbegin(); it != g.nodes.rend(); ++it)
    if ((*it)->deps.empty()) ready.push_back(it->get());
  order.clear();
  while (!ready.empty()) {
    const CUgraphNode_st* n = ready.back();
    ready.pop_back();
    order.push_back(n);
    std::vector<const CUgraphNode_st*> now;
    for (const CUgraphNode_st* d : n->dependents)
      if (--waiting[d] == 0) now.push_back(d);
    // Keep creation order: the node made first runs first.
    std::sort(now.begin(), now.end(), [&](const CUgraphNode_st* a, const CUgraphNode_st* b) {
      return std::find_if(g.nodes.begin(), g.nodes.end(), [&](auto& x) { return x.get() == a; }) >
             std::find_if(g.nodes.begin(), g.nodes.end(), [&](auto& x) { return x.get() == b; });
    });
    ready.insert(ready.end(), now.begin(), now.end());
  }
  return order.size() == g.nodes.size();
}

void run_plan_now(const plan& p) {
  for (const plan_step& s : p.steps)
    if (s.run) s.run();
}

struct build_error {
  cudaError_t error;
  const CUgraphNode_st* node;
};

// Appends g's steps to p (child graphs inline); `body`: g is a conditional node's body, which
// may hold only kernel, memcpy, memset, empty, child-graph and conditional nodes.
cudaError_t build(const CUgraph_st& g, const std::unordered_set<const CUgraphNode_st*>& disabled,
                  bool body, plan& p, const CUgraphNode_st*& error_node) {
  std::vector<const CUgraphNode_st*> order;
  if (!topological(g, order)) return cudaErrorInvalidValue;
  for (const CUgraphNode_st* n : order) {
    const node_body& b = n->body;
    error_node = n;
    if (body && b.type != cudaGraphNodeTypeKernel && b.type != cudaGraphNodeTypeMemcpy &&
        b.type != cudaGraphNodeTypeMemset && b.type != cudaGraphNodeTypeEmpty &&
        b.type != cudaGraphNodeTypeGraph && b.type != cudaGraphNodeTypeConditional)
      return cudaErrorNotSupported;
    if (disabled.count(n)) continue;
    plan_step s;
    s.type = b.type;
    switch (b.type) {
      case cudaGraphNodeTypeKernel: {
        std::shared_ptr<const kernel_launch> k = b.kernel;
        s.run = [k] { run_kernel_launch(*k); };
        break;
      }
      case cudaGraphNodeTypeMemcpy: {
        const cudaMemcpy3DParms c = b.copy;
        s.run = [c] { copy_3d_now(c); };
        break;
      }
      case cudaGraphNodeTypeMemset: {
        const cudaMemsetParams m = b.set;
        s.run = [m] { memset_2d_now(m); };
        break;
      }
      case cudaGraphNodeTypeHost: {
        const cudaHostNodeParams h = b.host;
        s.run = [h] {
          flush_device_output();
          host_code_scope user_code;
          h.fn(h.userData);
        };
        break;
      }
      case cudaGraphNodeTypeGraph:
        if (cudaError_t e = build(*b.graphs.front(), disabled, body, p, error_node);
            e != cudaSuccess)
          return e;
        continue;
      case cudaGraphNodeTypeEmpty:
        continue;
      case cudaGraphNodeTypeWaitEvent:
      case cudaGraphNodeTypeEventRecord:
        s.event = b.event;
        break;
      case cudaGraphNodeTypeMemAlloc: {
        std::shared_ptr<graph_allocation> a = b.allocation;
        p.allocations.push_back(a);
        p.mapping.emplace_back(a->ptr, true);
        s.run = [a] { set_graph_memory_live(a->ptr, true); };
        break;
      }
      case cudaGraphNodeTypeMemFree: {
        std::shared_ptr<graph_allocation> a = b.allocation;
        p.mapping.emplace_back(a->ptr, false);
        s.run = [a] { set_graph_memory_live(a->ptr, false); };
        break;
      }
      case cudaGraphNodeTypeConditional: {
        graph_condition* c = find_condition_locked(b.handle);
        if (!c) return cudaErrorInvalidValue;
        if (c->assign_default) p.defaults.push_back(c);
        std::vector<std::shared_ptr<plan>> bodies;
        for (const auto& g2 : b.graphs) {
          auto sub = std::make_shared<plan>();
          if (cudaError_t e = build(*g2, disabled, true, *sub, error_node); e != cudaSuccess)
            return e;
          p.defaults.insert(p.defaults.end(), sub->defaults.begin(), sub->defaults.end());
          bodies.push_back(std::move(sub));
        }
        const cudaGraphConditionalNodeType type = b.conditional;
        s.run = [c, type, bodies] {
          switch (type) {
            case cudaGraphCondTypeIf:
              if (c->value.load() != 0)
                run_plan_now(*bodies[0]);
              else if (bodies.size() > 1)
                run_plan_now(*bodies[1]);
              break;
            case cudaGraphCondTypeWhile:
              while (c->value.load() != 0) run_plan_now(*bodies[0]);
              break;
            case cudaGraphCondTypeSwitch: {
              const unsigned v = c->value.load();
              if (v < bodies.size()) run_plan_now(*bodies[v]);
              break;
            }
          }
        };
        break;
      }
      default:
        return cudaErrorNotSupported;
    }
    p.steps.push_back(std::move(s));
  }
  error_node = nullptr;
  return cudaSuccess;
}

}  // namespace
}  // namespace cuemu::detail

struct CUgraphExec_st {
  std::unique_ptr<CUgraph_st> graph;  // a clone of the graph it was made from
  unsigned long long flags = 0;
  std::unordered_set<const CUgraphNode_st*> disabled;  // nodes of `graph`
  std::shared_ptr<const cuemu::detail::plan> current;
  cuemu::detail::stream_position last;  // its previous launch: launches of an exec are ordered
};

namespace cuemu::detail {
namespace {

std::unordered_set<const CUgraphExec_st*>& execs() {
  static auto* s = new std::unordered_set<const CUgraphExec_st*>;
  return *s;
}

cudaError_t rebuild_locked(CUgraphExec_st& x, const CUgraphNode_st** error_node = nullptr) {
  auto p = std::make_shared<plan>();
  const CUgraphNode_st* bad = nullptr;
  cudaError_t e = build(*x.graph, x.disabled, false, *p, bad);
  if (error_node) *error_node = bad;
  if (e != cudaSuccess) return e;
  x.current = std::move(p);
  return cudaSuccess;
}

// The node of x's graph (at any depth) made from `node` of the program's graph.
CUgraphNode_st* exec_node_locked(CUgraphExec_st& x, const CUgraphNode_st* node) {
  std::vector<CUgraph_st*> todo{x.graph.get()};
  while (!todo.empty()) {
    CUgraph_st* g = todo.back();
    todo.pop_back();
    for (auto& n : g->nodes) {
      if (std::find(n->origins.begin(), n->origins.end(), node) != n->origins.end()) return n.get();
      for (auto& b : n->body.graphs) todo.push_back(b.get());
    }
  }
  return nullptr;
}

cudaError_t instantiate(cudaGraphExec_t* out, cudaGraph_t graph, unsigned long long flags,
                        cudaGraphInstantiateParams* params) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!out) return record_error(cudaErrorInvalidValue);
  if (flags & ~static_cast<unsigned long long>(
                  cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
                  cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagUseNodePriority))
    return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(graph_mutex());
  if (!valid_graph_locked(graph)) return record_error(cudaErrorInvalidValue);
  auto x = std::make_unique<CUgraphExec_st>();
  x->graph = clone_graph_locked(*graph);
  x->flags = flags;
  const CUgraphNode_st* bad = nullptr;
  const cudaError_t e = rebuild_locked(*x, &bad);
  if (params) {
    params->result_out = e == cudaSuccess                  ? cudaGraphInstantiateSuccess
                         : e == cudaErrorInvalidValue && !bad ? cudaGraphInstantiateInvalidStructure
                                                           : cudaGraphInstantiateError;
    params->errNode_out = nullptr;
    if (bad)
      params->errNode_out = bad->origins.empty() ? nullptr
                                                 : const_cast<CUgraphNode_st*>(bad->origins.back());
  }
  if (e != cudaSuccess) {
    if (e == cudaErrorNotSupported)
      std::fprintf(stderr,
                   "cuemu: cudaGraphInstantiate: a conditional node's body holds a node of a kind "
                   "CUDA does not allow there (only kernel, memcpy, memset, empty, child-graph and "
                   "conditional nodes)\n");
    delete_graph_locked(x->graph.release());
    return record_error(e);
  }
  execs().insert(x.get());
  *out = x.release();
  return cudaSuccess;
}

// Runs f on a live exec's node made from `node`, then rebuilds the exec's plan.
template <class F>
cudaError_t with_exec_node(cudaGraphExec_t x, cudaGraphNode_t node, F&& f) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  std::lock_guard lock(graph_mutex());
  if (!execs().count(x) || !valid_node_locked(node)) return record_error(cudaErrorInvalidValue);
  CUgraphNode_st* n = exec_node_locked(*x, node);
  if (!n) return record_error(cudaErrorInvalidValue);
  if (cudaError_t e = f(*n); e != cudaSuccess) return record_error(e);
  return record_error(rebuild_locked(*x));
}

// Whether `from` can replace `to`'s nodes in place (cudaGraphExecUpdate's rules, the ones that
// matter here: the same nodes, kinds and edges; memory nodes unchanged).
cudaGraphExecUpdateResult compare(const CUgraph_st& to, const CUgraph_st& from,
                                  const CUgraphNode_st*& bad) {
  bad = nullptr;
  if (to.nodes.size() != from.nodes.size()) return cudaGraphExecUpdateErrorTopologyChanged;
  std::unordered_map<const CUgraphNode_st*, std::size_t> ia, ib;
  for (std::size_t i = 0; i < to.nodes.size(); ++i) {
    ia[to.nodes[i].get()] = i;
    ib[from.nodes[i].get()] = i;
  }
  for (std::size_t i = 0; i < to.nodes.size(); ++i) {
    const CUgraphNode_st& a = *to.nodes[i];
    const CUgraphNode_st& b = *from.nodes[i];
    bad = &b;
    if (a.body.type != b.body.type) return cudaGraphExecUpdateErrorNodeTypeChanged;
    std::vector<std::size_t> da, db;
    for (auto* d : a.deps) da.push_back(ia[d]);
    for (auto* d : b.deps) db.push_back(ib[d]);
    std::sort(da.begin(), da.end());
    std::sort(db.begin(), db.end());
    if (da != db) return cudaGraphExecUpdateErrorTopologyChanged;
    if ((a.body.type == cudaGraphNodeTypeMemAlloc || a.body.type == cudaGraphNodeTypeMemFree) &&
        a.body.dptr != b.body.dptr)
      return cudaGraphExecUpdateErrorNotSupported;
    if (a.body.type == cudaGraphNodeTypeGraph || a.body.type == cudaGraphNodeTypeConditional) {
      if (a.body.graphs.size() != b.body.graphs.size() || a.body.handle != b.body.handle)
        return cudaGraphExecUpdateErrorParametersChanged;
      for (std::size_t k = 0; k < a.body.graphs.size(); ++k)
        if (cudaGraphExecUpdateResult r = compare(*a.body.graphs[k], *b.body.graphs[k], bad);
            r != cudaGraphExecUpdateSuccess)
          return r;
    }
  }
  bad = nullptr;
  return cudaGraphExecUpdateSuccess;
}

}  // namespace
}  // namespace cuemu::detail

using namespace cuemu::detail;

extern "C" cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                            unsigned long long flags) {
  return instantiate(pGraphExec, graph, flags, nullptr);
}

extern "C" cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                                     unsigned long long flags) {
  return instantiate(pGraphExec, graph, flags, nullptr);
}

extern "C" cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                                      cudaGraphInstantiateParams* instantiateParams) {
  if (!instantiateParams) return record_error(cudaErrorInvalidValue);
  if ((instantiateParams->flags & cudaGraphInstantiateFlagUpload) &&
      !valid_stream(instantiateParams->uploadStream))
    return record_error(cudaErrorInvalidResourceHandle);
  return instantiate(pGraphExec, graph, instantiateParams->flags, instantiateParams);
}

extern "C" cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long* flags) {
  if (!flags) return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(graph_mutex());
  if (!execs().count(graphExec)) return record_error(cudaErrorInvalidValue);
  *flags = graphExec->flags;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  std::lock_guard lock(graph_mutex());
  if (!execs().erase(graphExec)) return record_error(cudaErrorInvalidValue);
  // Launches still queued keep their plan (and the graph memory it uses) alive.
  delete_graph_locked(graphExec->graph.release());
  delete graphExec;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  std::lock_guard lock(graph_mutex());
  if (!execs().count(graphExec)) return record_error(cudaErrorInvalidValue);
  return cudaSuccess;  // nothing to upload: the plan is ready
}

extern "C" cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (cudaError_t x = capture_forbids_legacy(stream); x != cudaSuccess) return record_error(x);
  if (capturing(stream)) {
    // Captured as a child graph node holding the exec's graph.
    node_body b;
    {
      std::lock_guard lock(graph_mutex());
      if (!execs().count(graphExec)) return record_error(cudaErrorInvalidValue);
      b.type = cudaGraphNodeTypeGraph;
      b.graphs.push_back(clone_graph_locked(*graphExec->graph));
      b.graph_handles = {b.graphs.back().get()};
    }
    return record_error(capture_node(stream, std::move(b)));
  }
  std::shared_ptr<const plan> p;
  stream_position after;
  bool auto_free = false;
  {
    std::lock_guard lock(graph_mutex());
    if (!execs().count(graphExec)) return record_error(cudaErrorInvalidValue);
    p = graphExec->current;
    after = graphExec->last;
    auto_free = graphExec->flags & cudaGraphInstantiateFlagAutoFreeOnLaunch;
  }
  // A graph whose allocations of an earlier launch were not freed cannot run again, unless it
  // was instantiated to free them itself.
  for (const auto& a : p->allocations) {
    if (graph_memory_mapped(a->ptr) && !auto_free) {
      std::fprintf(stderr,
                   "cuemu: cudaGraphLaunch: the graph's allocation at %p from an earlier launch "
                   "was not freed (free it, or instantiate with "
                   "cudaGraphInstantiateFlagAutoFreeOnLaunch)\n",
                   a->ptr);
      return record_error(cudaErrorInvalidValue);
    }
  }
  enqueue(
      stream,
      [p, auto_free] {
        for (graph_condition* c : p->defaults) c->value = c->default_value;
        if (auto_free)
          for (const auto& a : p->allocations) set_graph_memory_live(a->ptr, false);
      },
      after.stream ? std::vector<stream_position>{after} : std::vector<stream_position>{},
      "cudaGraphLaunch");
  for (const plan_step& s : p->steps) {
    if (s.type == cudaGraphNodeTypeEventRecord) {
      cudaEventRecord(s.event, stream);
    } else if (s.type == cudaGraphNodeTypeWaitEvent) {
      cudaStreamWaitEvent(stream, s.event, 0);
    } else if (s.run) {
      enqueue(stream, [p, run = &s.run] { (*run)(); }, {}, "cudaGraphLaunch");
    }
  }
  // What the launch leaves allocated, as later API calls see it.
  for (const auto& [ptr, mapped] : p->mapping) set_graph_memory_mapped(ptr, mapped);
  std::lock_guard lock(graph_mutex());
  if (execs().count(graphExec)) graphExec->last = stream_tail(stream);
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                           cudaGraphExecUpdateResultInfo* resultInfo) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!resultInfo) return record_error(cudaErrorInvalidValue);
  *resultInfo = cudaGraphExecUpdateResultInfo{};
  std::lock_guard lock(graph_mutex());
  if (!execs().count(hGraphExec) || !valid_graph_locked(hGraph))
    return record_error(cudaErrorInvalidValue);
  const CUgraphNode_st* bad = nullptr;
  resultInfo->result = compare(*hGraphExec->graph, *hGraph, bad);
  if (resultInfo->result != cudaGraphExecUpdateSuccess) {
    resultInfo->errorNode = const_cast<CUgraphNode_st*>(bad);
    return record_error(cudaErrorGraphExecUpdateFailure);
  }
  // The new graph's nodes replace the old ones; both graphs' node handles keep naming them.
  std::unique_ptr<CUgraph_st> next = clone_graph_locked(*hGraph);
  std::unordered_set<const CUgraphNode_st*> disabled;
  for (std::size_t i = 0; i < next->nodes.size(); ++i) {
    const CUgraphNode_st* old = hGraphExec->graph->nodes[i].get();
    auto& origins = next->nodes[i]->origins;
    origins.insert(origins.begin(), old->origins.begin(), old->origins.end());
    if (hGraphExec->disabled.count(old)) disabled.insert(next->nodes[i].get());
  }
  std::unique_ptr<CUgraph_st> previous = std::move(hGraphExec->graph);
  hGraphExec->graph = std::move(next);
  hGraphExec->disabled = std::move(disabled);
  if (cudaError_t e = rebuild_locked(*hGraphExec); e != cudaSuccess) {
    delete_graph_locked(hGraphExec->graph.release());
    hGraphExec->graph = std::move(previous);
    (void)rebuild_locked(*hGraphExec);
    resultInfo->result = cudaGraphExecUpdateError;
    return record_error(cudaErrorGraphExecUpdateFailure);
  }
  delete_graph_locked(previous.release());
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec,
                                                        cudaGraphNode_t node,
                                                        const cudaKernelNodeParams* pNodeParams) {
  if (!pNodeParams) return record_error(cudaErrorInvalidValue);
  return with_exec_node(hGraphExec, node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeKernel) return cudaErrorInvalidValue;
    cudaGraphNodeParams p{};
    p.type = cudaGraphNodeTypeKernel;
    p.kernel.func = pNodeParams->func;
    p.kernel.gridDim = pNodeParams->gridDim;
    p.kernel.blockDim = pNodeParams->blockDim;
    p.kernel.sharedMemBytes = pNodeParams->sharedMemBytes;
    p.kernel.kernelParams = pNodeParams->kernelParams;
    p.kernel.extra = pNodeParams->extra;
    return body_from_params(n.graph, &p, n.body);
  });
}

extern "C" cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec,
                                                        cudaGraphNode_t node,
                                                        const cudaMemcpy3DParms* pNodeParams) {
  if (!pNodeParams) return record_error(cudaErrorInvalidValue);
  return with_exec_node(hGraphExec, node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeMemcpy) return cudaErrorInvalidValue;
    const graph_node_scope for_graph(true);
    cudaMemcpy3DParms p = *pNodeParams;
    if (cudaError_t e = resolve_copy_arrays(p); e != cudaSuccess) return e;
    if (cudaError_t e = validate_copy(p); e != cudaSuccess) return e;
    n.body.copy = p;
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec,
                                                          cudaGraphNode_t node, void* dst,
                                                          const void* src, size_t count,
                                                          cudaMemcpyKind kind) {
  cudaMemcpy3DParms p{};
  p.srcPtr = {const_cast<void*>(src), count, count, 1};
  p.dstPtr = {dst, count, count, 1};
  p.extent = {count, 1, 1};
  p.kind = kind;
  return cudaGraphExecMemcpyNodeSetParams(hGraphExec, node, &p);
}

extern "C" cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t node, const void* symbol, const void* src,
    size_t count, size_t offset, cudaMemcpyKind kind) {
  if (!symbol) return record_error(cudaErrorInvalidSymbol);
  return cudaGraphExecMemcpyNodeSetParams1D(
      hGraphExec, node, static_cast<char*>(const_cast<void*>(symbol)) + offset, src, count, kind);
}

extern "C" cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void* dst, const void* symbol, size_t count,
    size_t offset, cudaMemcpyKind kind) {
  if (!symbol) return record_error(cudaErrorInvalidSymbol);
  return cudaGraphExecMemcpyNodeSetParams1D(hGraphExec, node, dst,
                                            static_cast<const char*>(symbol) + offset, count, kind);
}

extern "C" cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec,
                                                        cudaGraphNode_t node,
                                                        const cudaMemsetParams* pNodeParams) {
  if (!pNodeParams) return record_error(cudaErrorInvalidValue);
  return with_exec_node(hGraphExec, node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeMemset) return cudaErrorInvalidValue;
    const graph_node_scope for_graph(true);
    if (cudaError_t e = validate_memset(*pNodeParams); e != cudaSuccess) return e;
    n.body.set = *pNodeParams;
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec,
                                                      cudaGraphNode_t node,
                                                      const cudaHostNodeParams* pNodeParams) {
  if (!pNodeParams || !pNodeParams->fn) return record_error(cudaErrorInvalidValue);
  return with_exec_node(hGraphExec, node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeHost) return cudaErrorInvalidValue;
    n.body.host = *pNodeParams;
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec,
                                                            cudaGraphNode_t node,
                                                            cudaGraph_t childGraph) {
  return with_exec_node(hGraphExec, node, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeGraph || !valid_graph_locked(childGraph))
      return cudaErrorInvalidValue;
    const CUgraphNode_st* bad = nullptr;
    if (compare(*n.body.graphs.front(), *childGraph, bad) != cudaGraphExecUpdateSuccess)
      return cudaErrorInvalidValue;
    node_body b;
    cudaGraphNodeParams p{};
    p.type = cudaGraphNodeTypeGraph;
    p.graph.graph = childGraph;
    if (cudaError_t e = body_from_params(n.graph, &p, b); e != cudaSuccess) return e;
    for (auto& g : n.body.graphs) delete_graph_locked(g.release());
    n.body = std::move(b);
    n.body.graphs.front()->owner = &n;
    return cudaSuccess;
  });
}

namespace {
cudaError_t set_exec_event(cudaGraphExec_t x, cudaGraphNode_t node, cudaGraphNodeType type,
                           cudaEvent_t e) {
  return with_exec_node(x, node, [&](CUgraphNode_st& n) {
    if (n.body.type != type) return cudaErrorInvalidValue;
    if (!valid_event(e)) return cudaErrorInvalidResourceHandle;
    n.body.event = e;
    return cudaSuccess;
  });
}
}  // namespace

extern "C" cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec,
                                                            cudaGraphNode_t hNode, cudaEvent_t event) {
  return set_exec_event(hGraphExec, hNode, cudaGraphNodeTypeEventRecord, event);
}

extern "C" cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec,
                                                          cudaGraphNode_t hNode, cudaEvent_t event) {
  return set_exec_event(hGraphExec, hNode, cudaGraphNodeTypeWaitEvent, event);
}

extern "C" cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                                  cudaGraphNodeParams* nodeParams) {
  if (!nodeParams) return record_error(cudaErrorInvalidValue);
  return with_exec_node(graphExec, node, [&](CUgraphNode_st& n) {
    if (nodeParams->type != n.body.type) return cudaErrorInvalidValue;
    switch (n.body.type) {
      case cudaGraphNodeTypeKernel:
      case cudaGraphNodeTypeMemcpy:
      case cudaGraphNodeTypeMemset:
      case cudaGraphNodeTypeHost:
      case cudaGraphNodeTypeWaitEvent:
      case cudaGraphNodeTypeEventRecord:
        return body_from_params(n.graph, nodeParams, n.body);
      default:
        return cudaErrorNotSupported;
    }
  });
}

extern "C" cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                               unsigned int isEnabled) {
  return with_exec_node(hGraphExec, hNode, [&](CUgraphNode_st& n) {
    if (n.body.type != cudaGraphNodeTypeKernel && n.body.type != cudaGraphNodeTypeMemcpy &&
        n.body.type != cudaGraphNodeTypeMemset)
      return cudaErrorInvalidValue;
    if (isEnabled)
      hGraphExec->disabled.erase(&n);
    else
      hGraphExec->disabled.insert(&n);
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                               unsigned int* isEnabled) {
  if (!isEnabled) return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(graph_mutex());
  if (!execs().count(hGraphExec) || !valid_node_locked(hNode))
    return record_error(cudaErrorInvalidValue);
  CUgraphNode_st* n = exec_node_locked(*hGraphExec, hNode);
  if (!n) return record_error(cudaErrorInvalidValue);
  *isEnabled = hGraphExec->disabled.count(n) ? 0 : 1;
  return cudaSuccess;
}

// Device code: sets a conditional node's value (read when the node runs).
extern "C" void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value) {
  if (graph_condition* c = find_condition(handle)) c->value = value;
}

// --- graph memory: what allocation nodes hold ---

extern "C" cudaError_t cudaDeviceGraphMemTrim(int device) {
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  synchronize_device();
  trim_graph_memory();  // physical memory not backing a live allocation goes back
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr,
                                                      void* value) {
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  if (!value) return record_error(cudaErrorInvalidValue);
  const graph_memory_counts c = graph_memory_footprint();
  unsigned long long* out = static_cast<unsigned long long*>(value);
  switch (attr) {
    case cudaGraphMemAttrUsedMemCurrent: *out = c.used; return cudaSuccess;
    case cudaGraphMemAttrUsedMemHigh: *out = c.used_high; return cudaSuccess;
    case cudaGraphMemAttrReservedMemCurrent: *out = c.reserved; return cudaSuccess;
    case cudaGraphMemAttrReservedMemHigh: *out = c.reserved_high; return cudaSuccess;
    default: return record_error(cudaErrorInvalidValue);
  }
}

extern "C" cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr,
                                                      void* value) {
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  if (!value || *static_cast<unsigned long long*>(value) != 0)
    return record_error(cudaErrorInvalidValue);  // only a reset of a high watermark
  switch (attr) {
    case cudaGraphMemAttrUsedMemHigh: reset_graph_memory_high(true, false); return cudaSuccess;
    case cudaGraphMemAttrReservedMemHigh: reset_graph_memory_high(false, true); return cudaSuccess;
    default: return record_error(cudaErrorInvalidValue);
  }
}
