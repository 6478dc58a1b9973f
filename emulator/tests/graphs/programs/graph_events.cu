// Graph nodes and stream calls that graphs.cu, capture.cu and pools.cu leave out, as an H200
// answers them (expected/graph_events.txt): an event wait node that orders one graph after an
// event another graph records, its event queried and changed in the graph and in the executable
// graph; a graph that allocates, uses and frees its own memory (alloc, kernel and free nodes built
// by hand) and what the free node reports; cudaStreamAddCallback's callbacks in stream order with
// the stream's status; and the peer queries of a single device.
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

constexpr int N = 512;

__global__ void slow_fill(int* p, int n, int value) {
  // Long enough that a missing dependency would let the reader see the old values.
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long t = clock64();
  while (clock64() - t < 200000) {
  }
  p[i] = value + i;
}
__global__ void sum_into(const int* p, int n, long long* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    long long s = 0;
    for (int i = 0; i < n; ++i) s += p[i];
    *out = s;
  }
}
__global__ void iota(int* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 3 * i;
}

static int event_wait_nodes() {
  int* data;
  long long* sum;
  CHECK(cudaMalloc(&data, N * sizeof(int)));
  CHECK(cudaMalloc(&sum, sizeof(long long)));
  CHECK(cudaMemset(data, 0, N * sizeof(int)));
  // The memset runs on the legacy stream, which the non-blocking streams below do not wait for:
  // without this, the first round's fill may race with it (added after the H200 recording; the
  // output is the same).
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t ready, other;
  CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&other, cudaEventDisableTiming));

  // Graph A: fill, then record `ready`.
  cudaGraph_t a;
  CHECK(cudaGraphCreate(&a, 0));
  int n = N, value = 100;
  void* fill_args[] = {&data, &n, &value};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void*>(slow_fill);
  kp.gridDim = dim3(N / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = fill_args;
  cudaGraphNode_t fill_node, record_node;
  CHECK(cudaGraphAddKernelNode(&fill_node, a, nullptr, 0, &kp));
  CHECK(cudaGraphAddEventRecordNode(&record_node, a, &fill_node, 1, ready));

  // Graph B: wait for `other` (changed to `ready` below), then sum.
  cudaGraph_t b;
  CHECK(cudaGraphCreate(&b, 0));
  cudaGraphNode_t wait_node, sum_node;
  CHECK(cudaGraphAddEventWaitNode(&wait_node, b, nullptr, 0, other));
  cudaEvent_t got = nullptr;
  CHECK(cudaGraphEventWaitNodeGetEvent(wait_node, &got));
  std::printf("wait node event is `other`: %d\n", got == other);
  CHECK(cudaGraphEventWaitNodeSetEvent(wait_node, ready));
  CHECK(cudaGraphEventWaitNodeGetEvent(wait_node, &got));
  std::printf("wait node event is `ready`: %d\n", got == ready);
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(wait_node, &type));
  std::printf("wait node type %d (cudaGraphNodeTypeWaitEvent %d)\n", static_cast<int>(type),
              static_cast<int>(cudaGraphNodeTypeWaitEvent));
  void* sum_args[] = {&data, &n, &sum};
  kp.func = reinterpret_cast<void*>(sum_into);
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(32);
  kp.kernelParams = sum_args;
  CHECK(cudaGraphAddKernelNode(&sum_node, b, &wait_node, 1, &kp));

  cudaGraphExec_t ea, eb;
  CHECK(cudaGraphInstantiate(&ea, a, 0));
  CHECK(cudaGraphInstantiate(&eb, b, 0));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  for (int round = 0; round < 3; ++round) {
    value = 100 * (round + 1);
    kp.func = reinterpret_cast<void*>(slow_fill);
    kp.gridDim = dim3(N / 128);
    kp.blockDim = dim3(128);
    kp.kernelParams = fill_args;  // value is read at the call: the new round's
    CHECK(cudaGraphExecKernelNodeSetParams(ea, fill_node, &kp));
    CHECK(cudaGraphLaunch(ea, s1));
    CHECK(cudaGraphLaunch(eb, s2));
    CHECK(cudaStreamSynchronize(s2));
    long long h = 0;
    CHECK(cudaMemcpy(&h, sum, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("round %d: sum after the wait %lld (expected %lld)\n", round, h,
                static_cast<long long>(value) * N + static_cast<long long>(N) * (N - 1) / 2);
    CHECK(cudaStreamSynchronize(s1));
  }
  // The executable graph's wait node pointed at `other` (never recorded: nothing to wait for).
  CHECK(cudaGraphExecEventWaitNodeSetEvent(eb, wait_node, other));
  CHECK(cudaGraphLaunch(eb, s2));
  CHECK(cudaStreamSynchronize(s2));
  std::printf("launch waiting for an event never recorded: done\n");
  // A wait node given a node of another type.
  std::printf("cudaGraphEventWaitNodeGetEvent on a kernel node: %s\n",
              cudaGetErrorName(cudaGraphEventWaitNodeGetEvent(sum_node, &got)));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaGraphExecDestroy(ea));
  CHECK(cudaGraphExecDestroy(eb));
  CHECK(cudaGraphDestroy(a));
  CHECK(cudaGraphDestroy(b));
  CHECK(cudaEventDestroy(ready));
  CHECK(cudaEventDestroy(other));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFree(data));
  CHECK(cudaFree(sum));
  return 0;
}

static int alloc_use_free() {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = N * sizeof(int);
  cudaGraphNode_t alloc_node, iota_node, copy_node, free_node;
  CHECK(cudaGraphAddMemAllocNode(&alloc_node, g, nullptr, 0, &ap));
  int* p = static_cast<int*>(ap.dptr);
  int n = N;
  void* args[] = {&p, &n};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void*>(iota);
  kp.gridDim = dim3(N / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&iota_node, g, &alloc_node, 1, &kp));
  static int host[N];
  CHECK(cudaGraphAddMemcpyNode1D(&copy_node, g, &iota_node, 1, host, p, N * sizeof(int),
                                 cudaMemcpyDeviceToHost));
  CHECK(cudaGraphAddMemFreeNode(&free_node, g, &copy_node, 1, p));
  void* freed = nullptr;
  CHECK(cudaGraphMemFreeNodeGetParams(free_node, &freed));
  std::printf("free node frees the allocation: %d\n", freed == p);
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(free_node, &type));
  std::printf("free node type %d (cudaGraphNodeTypeMemFree %d)\n", static_cast<int>(type),
              static_cast<int>(cudaGraphNodeTypeMemFree));
  size_t count = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &count));
  std::printf("nodes %zu\n", count);
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  for (int launch = 0; launch < 3; ++launch) {
    host[N - 1] = -1;
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    std::printf("launch %d: %d %d %d\n", launch, host[0], host[1], host[N - 1]);
  }
  size_t used = 0;
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  std::printf("graph memory in use after the launches: %zu\n", used);
  // Freeing the graph's allocation outside the graph, which freed it already.
  std::printf("cudaFree of memory the graph freed: %s\n", cudaGetErrorName(cudaFree(p)));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamDestroy(s));
  return 0;
}

struct trace {
  int order[8];
  int count = 0;
  cudaError_t status[8];
};
static trace callbacks;
static void CUDART_CB note(cudaStream_t, cudaError_t status, void* user) {
  const int id = static_cast<int>(reinterpret_cast<long>(user));
  callbacks.status[callbacks.count] = status;
  callbacks.order[callbacks.count++] = id;
}
__global__ void bump(int* p) { atomicAdd(p, 1); }

static int stream_callbacks() {
  int* counter;
  CHECK(cudaMalloc(&counter, sizeof(int)));
  CHECK(cudaMemset(counter, 0, sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  for (int i = 0; i < 4; ++i) {
    bump<<<2, 32, 0, s>>>(counter);
    CHECK(cudaStreamAddCallback(s, note, reinterpret_cast<void*>(static_cast<long>(i)), 0));
  }
  CHECK(cudaStreamSynchronize(s));
  int h = 0;
  CHECK(cudaMemcpy(&h, counter, sizeof h, cudaMemcpyDeviceToHost));
  std::printf("callbacks %d:", callbacks.count);
  for (int i = 0; i < callbacks.count; ++i)
    std::printf(" %d(%s)", callbacks.order[i], cudaGetErrorName(callbacks.status[i]));
  std::printf("; counter %d\n", h);
  std::printf("cudaStreamAddCallback with flags 1: %s\n",
              cudaGetErrorName(cudaStreamAddCallback(s, note, nullptr, 1)));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(counter));
  return 0;
}

static int peers() {
  int can = -1;
  cudaError_t e = cudaDeviceCanAccessPeer(&can, 0, 0);
  std::printf("cudaDeviceCanAccessPeer(0, 0): %s %d\n", cudaGetErrorName(e), can);
  can = -1;
  e = cudaDeviceCanAccessPeer(&can, 0, 1);
  std::printf("cudaDeviceCanAccessPeer(0, 1): %s %d\n", cudaGetErrorName(e), can);
  int value = -7;
  e = cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 0);
  std::printf("cudaDeviceGetP2PAttribute(access, 0, 0): %s %d\n", cudaGetErrorName(e), value);
  value = -7;
  e = cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 1);
  std::printf("cudaDeviceGetP2PAttribute(access, 0, 1): %s %d\n", cudaGetErrorName(e), value);
  std::printf("cudaDeviceEnablePeerAccess(0): %s\n", cudaGetErrorName(cudaDeviceEnablePeerAccess(0, 0)));
  std::printf("cudaDeviceEnablePeerAccess(1): %s\n", cudaGetErrorName(cudaDeviceEnablePeerAccess(1, 0)));
  std::printf("cudaDeviceDisablePeerAccess(0): %s\n", cudaGetErrorName(cudaDeviceDisablePeerAccess(0)));
  std::printf("cudaDeviceDisablePeerAccess(1): %s\n", cudaGetErrorName(cudaDeviceDisablePeerAccess(1)));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}

int main() {
  if (event_wait_nodes() || alloc_use_free() || stream_callbacks() || peers()) return 1;
  CHECK(cudaDeviceSynchronize());
  std::printf("done\n");
  return 0;
}
