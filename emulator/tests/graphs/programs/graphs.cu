// CUDA graphs built by hand: kernel, memset, memcpy, host, child-graph, empty and event nodes;
// the graph's shape as the queries report it; an executable graph launched again and again, its
// kernel parameters changed, a node disabled, the graph cloned and updated in place; conditional
// nodes (if, while, switch) whose condition a kernel sets.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t e_ = (call);                                                     \
    if (e_ != cudaSuccess) {                                                     \
      std::printf("line %d: %s -> %s\n", __LINE__, #call, cudaGetErrorName(e_)); \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

constexpr int N = 1000;

__global__ void fill(int* out, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + i % 7;
}
__global__ void add(int* acc, const int* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += in[i];
}
__global__ void scale(int* p, int n, int k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= k;
}
// Counts down *counter and keeps the while loop going while it is positive.
__global__ void count_down(int* counter, int* trace, cudaGraphConditionalHandle h) {
  if (threadIdx.x == 0) {
    const int c = --*counter;
    trace[c] = c * 10;
    cudaGraphSetConditional(h, c > 0 ? 1u : 0u);
  }
}
__global__ void set_condition(cudaGraphConditionalHandle h, const int* value) {
  if (threadIdx.x == 0 && blockIdx.x == 0) cudaGraphSetConditional(h, static_cast<unsigned>(*value));
}
__global__ void mark(int* p, int v) {
  if (threadIdx.x == 0) *p = *p * 10 + v;
}

static int host_calls = 0;
static void CUDART_CB on_host(void* arg) { host_calls += *static_cast<int*>(arg); }

static long long sum(const int* p, int n) {
  long long s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}

static const char* type_name(cudaGraphNodeType t) {
  switch (t) {
    case cudaGraphNodeTypeKernel: return "kernel";
    case cudaGraphNodeTypeMemcpy: return "memcpy";
    case cudaGraphNodeTypeMemset: return "memset";
    case cudaGraphNodeTypeHost: return "host";
    case cudaGraphNodeTypeGraph: return "graph";
    case cudaGraphNodeTypeEmpty: return "empty";
    case cudaGraphNodeTypeWaitEvent: return "wait_event";
    case cudaGraphNodeTypeEventRecord: return "event_record";
    case cudaGraphNodeTypeMemAlloc: return "mem_alloc";
    case cudaGraphNodeTypeMemFree: return "mem_free";
    case cudaGraphNodeTypeConditional: return "conditional";
    default: return "other";
  }
}

static int explicit_graph() {
  int *a, *acc, *h;
  CHECK(cudaMalloc(&a, N * sizeof(int)));
  CHECK(cudaMalloc(&acc, N * sizeof(int)));
  CHECK(cudaMallocHost(&h, N * sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaEvent_t done;
  CHECK(cudaEventCreate(&done));

  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));

  int n = N, value = 3;
  void* fill_args[] = {&a, &n, &value};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void*>(fill);
  kp.gridDim = dim3((N + 127) / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = fill_args;
  cudaGraphNode_t fill_node, memset_node, add_node, child_node, host_node, copy_node, empty_node,
      record_node;
  CHECK(cudaGraphAddKernelNode(&fill_node, g, nullptr, 0, &kp));
  const cudaKernelNodeParams fill_kp = kp;

  cudaMemsetParams mp = {};
  mp.dst = acc;
  mp.value = 0;
  mp.elementSize = 4;
  mp.width = N;
  mp.height = 1;
  CHECK(cudaGraphAddMemsetNode(&memset_node, g, nullptr, 0, &mp));

  void* add_args[] = {&acc, &a, &n};
  kp.func = reinterpret_cast<void*>(add);
  kp.kernelParams = add_args;
  cudaGraphNode_t add_deps[] = {fill_node, memset_node};
  CHECK(cudaGraphAddKernelNode(&add_node, g, add_deps, 2, &kp));

  // The child graph doubles the accumulator: acc = 2 * a.
  cudaGraph_t child;
  CHECK(cudaGraphCreate(&child, 0));
  int k = 2;
  void* scale_args[] = {&acc, &n, &k};
  kp.func = reinterpret_cast<void*>(scale);
  kp.kernelParams = scale_args;
  cudaGraphNode_t scale_node;
  CHECK(cudaGraphAddKernelNode(&scale_node, child, nullptr, 0, &kp));
  CHECK(cudaGraphAddChildGraphNode(&child_node, g, &add_node, 1, child));

  int increment = 1;
  cudaHostNodeParams hp = {};
  hp.fn = on_host;
  hp.userData = &increment;
  CHECK(cudaGraphAddHostNode(&host_node, g, &child_node, 1, &hp));
  CHECK(cudaGraphAddMemcpyNode1D(&copy_node, g, &child_node, 1, h, acc, N * sizeof(int),
                                 cudaMemcpyDeviceToHost));
  cudaGraphNode_t join[] = {host_node, copy_node};
  CHECK(cudaGraphAddEmptyNode(&empty_node, g, join, 2));
  CHECK(cudaGraphAddEventRecordNode(&record_node, g, &empty_node, 1, done));

  size_t nodes = 0, roots = 0, edges = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &nodes));
  CHECK(cudaGraphGetRootNodes(g, nullptr, &roots));
  CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
  std::printf("graph: %zu nodes, %zu roots, %zu edges\n", nodes, roots, edges);
  cudaGraphNode_t all[16];
  size_t count = 16;
  CHECK(cudaGraphGetNodes(g, all, &count));
  std::printf("types:");
  for (size_t i = 0; i < count; ++i) {
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(all[i], &t));
    size_t deps = 0, dependents = 0;
    CHECK(cudaGraphNodeGetDependencies(all[i], nullptr, nullptr, &deps));
    CHECK(cudaGraphNodeGetDependentNodes(all[i], nullptr, nullptr, &dependents));
    std::printf(" %s(%zu>%zu)", type_name(t), deps, dependents);
  }
  std::printf("\n");
  cudaKernelNodeParams got = {};
  CHECK(cudaGraphKernelNodeGetParams(add_node, &got));
  std::printf("add node: grid %u block %u shared %u same function %d\n", got.gridDim.x,
              got.blockDim.x, got.sharedMemBytes, got.func == reinterpret_cast<void*>(add));
  cudaGraph_t inner;
  CHECK(cudaGraphChildGraphNodeGetGraph(child_node, &inner));
  size_t inner_nodes = 0;
  CHECK(cudaGraphGetNodes(inner, nullptr, &inner_nodes));
  std::printf("child graph: %zu node(s)\n", inner_nodes);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  for (int launch = 0; launch < 3; ++launch) {
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaEventSynchronize(done));
    std::printf("launch %d: sum %lld, host calls %d\n", launch, sum(h, N), host_calls);
  }

  // Changing the graph after instantiation does not change the executable graph.
  value = 100;
  CHECK(cudaGraphKernelNodeSetParams(fill_node, &fill_kp));  // copies value 100
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  std::printf("after changing the graph: sum %lld\n", sum(h, N));

  // The executable graph's own fill parameters: value 5.
  int five = 5;
  void* five_args[] = {&a, &n, &five};
  cudaKernelNodeParams fp = {};
  fp.func = reinterpret_cast<void*>(fill);
  fp.gridDim = dim3((N + 127) / 128);
  fp.blockDim = dim3(128);
  fp.kernelParams = five_args;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, fill_node, &fp));
  five = 1000;  // the parameters were copied
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  std::printf("exec fill value 5: sum %lld\n", sum(h, N));

  unsigned enabled = 7;
  cudaError_t e = cudaGraphNodeSetEnabled(exec, host_node, 0);
  std::printf("disabling the host node: %s\n", cudaGetErrorName(e));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaGraphNodeSetEnabled(exec, copy_node, 0));
  CHECK(cudaGraphNodeGetEnabled(exec, copy_node, &enabled));
  for (int i = 0; i < N; ++i) h[i] = 0;
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  std::printf("copy node disabled (enabled=%u): sum %lld, host calls %d\n", enabled, sum(h, N),
              host_calls);
  CHECK(cudaGraphNodeSetEnabled(exec, copy_node, 1));
  CHECK(cudaGraphNodeGetEnabled(exec, copy_node, &enabled));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  std::printf("copy node enabled again (enabled=%u): sum %lld\n", enabled, sum(h, N));

  // A clone, and the node that corresponds to the original's fill node.
  cudaGraph_t clone;
  CHECK(cudaGraphClone(&clone, g));
  cudaGraphNode_t clone_fill;
  CHECK(cudaGraphNodeFindInClone(&clone_fill, fill_node, clone));
  size_t clone_nodes = 0;
  CHECK(cudaGraphGetNodes(clone, nullptr, &clone_nodes));
  cudaGraphNodeType clone_type;
  CHECK(cudaGraphNodeGetType(clone_fill, &clone_type));
  std::printf("clone: %zu nodes, fill node found as %s\n", clone_nodes, type_name(clone_type));

  // Updating the executable graph from the clone, whose fill node has value 100 (set above):
  // the same shape, so the update succeeds.
  cudaGraphExecUpdateResultInfo info = {};
  e = cudaGraphExecUpdate(exec, clone, &info);
  std::printf("update from the clone: %s, result %d\n", cudaGetErrorName(e), (int)info.result);
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  std::printf("after the update: sum %lld\n", sum(h, N));

  // A graph of another shape cannot update it.
  cudaGraphNode_t extra;
  CHECK(cudaGraphAddEmptyNode(&extra, clone, nullptr, 0));
  e = cudaGraphExecUpdate(exec, clone, &info);
  std::printf("update from a graph with one more node: %s, result %d\n", cudaGetErrorName(e),
              (int)info.result);
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));

  // An edge removed and added back.
  CHECK(cudaGraphRemoveDependencies(g, &fill_node, &add_node, nullptr, 1));
  CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
  std::printf("edges after removing one: %zu\n", edges);
  e = cudaGraphRemoveDependencies(g, &fill_node, &add_node, nullptr, 1);
  std::printf("removing it again: %s\n", cudaGetErrorName(e));
  CHECK(cudaGraphAddDependencies(g, &fill_node, &add_node, nullptr, 1));
  e = cudaGraphAddDependencies(g, &fill_node, &add_node, nullptr, 1);
  std::printf("adding it twice: %s\n", cudaGetErrorName(e));
  cudaGetLastError();

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(clone));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphDestroy(child));
  CHECK(cudaEventDestroy(done));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(a));
  CHECK(cudaFree(acc));
  CHECK(cudaFreeHost(h));
  return 0;
}

static int conditional_nodes() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  int* d;
  CHECK(cudaMalloc(&d, 16 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 16 * sizeof(int)));
  int* counter = d;
  int* trace = d + 1;  // 8 ints
  int* selector = d + 9;
  int* marks = d + 10;

  // while (counter > 0) count_down: the body runs until the kernel sets the condition to 0.
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle loop;
  CHECK(cudaGraphConditionalHandleCreate(&loop, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams cp = {};
  cp.type = cudaGraphNodeTypeConditional;
  cp.conditional.handle = loop;
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 1;
  cudaGraphNode_t while_node;
  CHECK(cudaGraphAddNode(&while_node, g, nullptr, nullptr, 0, &cp));
  cudaGraph_t body = cp.conditional.phGraph_out[0];
  cudaGraphNodeParams kp = {};
  kp.type = cudaGraphNodeTypeKernel;
  void* args[] = {&counter, &trace, &loop};
  kp.kernel.func = reinterpret_cast<void*>(count_down);
  kp.kernel.gridDim = dim3(1);
  kp.kernel.blockDim = dim3(32);
  kp.kernel.kernelParams = args;
  cudaGraphNode_t body_node;
  CHECK(cudaGraphAddNode(&body_node, body, nullptr, nullptr, 0, &kp));

  // if (selector) mark(marks, 1) after the loop; switch (selector) mark(marks + 1, 10 + case).
  cudaGraphConditionalHandle if_handle, switch_handle;
  CHECK(cudaGraphConditionalHandleCreate(&if_handle, g, 0, 0));
  CHECK(cudaGraphConditionalHandleCreate(&switch_handle, g, 0, 0));
  cudaGraphNode_t set_if, set_switch, if_node, switch_node;
  void* set_if_args[] = {&if_handle, &selector};
  kp.kernel.func = reinterpret_cast<void*>(set_condition);
  kp.kernel.kernelParams = set_if_args;
  CHECK(cudaGraphAddNode(&set_if, g, &while_node, nullptr, 1, &kp));
  void* set_switch_args[] = {&switch_handle, &selector};
  kp.kernel.kernelParams = set_switch_args;
  CHECK(cudaGraphAddNode(&set_switch, g, &set_if, nullptr, 1, &kp));

  cudaGraphNodeParams ip = {};
  ip.type = cudaGraphNodeTypeConditional;
  ip.conditional.handle = if_handle;
  ip.conditional.type = cudaGraphCondTypeIf;
  ip.conditional.size = 1;
  CHECK(cudaGraphAddNode(&if_node, g, &set_switch, nullptr, 1, &ip));
  int one = 1;
  void* mark_if_args[] = {&marks, &one};
  kp.kernel.func = reinterpret_cast<void*>(mark);
  kp.kernel.kernelParams = mark_if_args;
  cudaGraphNode_t n;
  CHECK(cudaGraphAddNode(&n, ip.conditional.phGraph_out[0], nullptr, nullptr, 0, &kp));

  cudaGraphNodeParams sp = {};
  sp.type = cudaGraphNodeTypeConditional;
  sp.conditional.handle = switch_handle;
  sp.conditional.type = cudaGraphCondTypeSwitch;
  sp.conditional.size = 3;
  CHECK(cudaGraphAddNode(&switch_node, g, &if_node, nullptr, 1, &sp));
  int* mark2 = marks + 1;
  int case_values[3] = {10, 11, 12};
  for (int c = 0; c < 3; ++c) {
    void* a[] = {&mark2, &case_values[c]};
    kp.kernel.kernelParams = a;
    CHECK(cudaGraphAddNode(&n, sp.conditional.phGraph_out[c], nullptr, nullptr, 0, &kp));
  }

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  int host[16];
  for (int round = 0; round < 4; ++round) {
    const int start = 3 + round;  // the loop runs `start` times
    const int sel = round;        // 0: if skipped, switch case 0; 3: no switch case
    CHECK(cudaMemcpyAsync(counter, &start, sizeof(int), cudaMemcpyHostToDevice, s));
    CHECK(cudaMemcpyAsync(selector, &sel, sizeof(int), cudaMemcpyHostToDevice, s));
    CHECK(cudaMemsetAsync(marks, 0, 2 * sizeof(int), s));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaMemcpyAsync(host, d, sizeof host, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    std::printf("round %d: counter %d trace", round, host[0]);
    for (int i = 1; i <= 8; ++i) std::printf(" %d", host[i]);
    std::printf(" | if %d switch %d\n", host[10], host[11]);
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaFree(d));
  CHECK(cudaStreamDestroy(s));
  return 0;
}

int main() {
  if (explicit_graph() != 0) return 1;
  if (conditional_nodes() != 0) return 1;
  std::printf("done\n");
  return 0;
}
