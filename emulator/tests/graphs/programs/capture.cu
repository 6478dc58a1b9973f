// Stream capture: work queued on a capturing stream becomes a graph instead of running; other
// streams join the capture through events (fork and join); the captured graph is launched and an
// executable graph is updated from a second capture. Then the calls a capture refuses, and what
// becomes of the capture after them.
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

constexpr int N = 4096;

__global__ void fill(int* out, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + i % 5;
}
__global__ void square(int* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= p[i];
}
__global__ void combine(int* out, const int* a, const int* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] - b[i];
}

static long long sum(const int* p, int n) {
  long long s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}

static int host_runs = 0;
static void CUDART_CB count_run(void*) { ++host_runs; }

// fill a and b on s1; square a on s1 and b on s2 at once; combine on s1; copy to the host.
static cudaError_t capture_pipeline(cudaStream_t s1, cudaStream_t s2, cudaEvent_t fork,
                                    cudaEvent_t join, int* a, int* b, int* c, int* h, int value,
                                    cudaGraph_t* graph) {
  cudaError_t e = cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  if (e != cudaSuccess) return e;
  const int blocks = N / 256;
  fill<<<blocks, 256, 0, s1>>>(a, N, value);
  fill<<<blocks, 256, 0, s1>>>(b, N, 1);
  cudaEventRecord(fork, s1);
  cudaStreamWaitEvent(s2, fork, 0);
  square<<<blocks, 256, 0, s2>>>(b, N);
  cudaEventRecord(join, s2);
  square<<<blocks, 256, 0, s1>>>(a, N);
  cudaStreamWaitEvent(s1, join, 0);
  combine<<<blocks, 256, 0, s1>>>(c, a, b, N);
  cudaMemcpyAsync(h, c, N * sizeof(int), cudaMemcpyDeviceToHost, s1);
  cudaLaunchHostFunc(s1, count_run, nullptr);
  return cudaStreamEndCapture(s1, graph);
}

int main() {
  int *a, *b, *c, *h;
  CHECK(cudaMalloc(&a, N * sizeof(int)));
  CHECK(cudaMalloc(&b, N * sizeof(int)));
  CHECK(cudaMalloc(&c, N * sizeof(int)));
  CHECK(cudaMallocHost(&h, N * sizeof(int)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  cudaEvent_t fork, join;
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

  // The capture's state as the streams report it, in the middle of a capture.
  cudaStreamCaptureStatus st;
  CHECK(cudaStreamIsCapturing(s1, &st));
  std::printf("before: s1 capturing %d\n", (int)st);
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  fill<<<1, 32, 0, s1>>>(a, 32, 0);
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  CHECK(cudaStreamIsCapturing(s1, &st));
  std::printf("during: s1 capturing %d", (int)st);
  CHECK(cudaStreamIsCapturing(s2, &st));
  std::printf(", s2 capturing %d\n", (int)st);
  unsigned long long id1 = 0, id2 = 0;
  cudaGraph_t g_during = nullptr;
  const cudaGraphNode_t* deps = nullptr;
  size_t ndeps = 0;
  CHECK(cudaStreamGetCaptureInfo(s1, &st, &id1, &g_during, &deps, nullptr, &ndeps));
  CHECK(cudaStreamGetCaptureInfo(s2, &st, &id2));
  std::printf("capture ids equal %d nonzero %d, graph %s, %zu dependency\n", id1 == id2, id1 != 0,
              g_during ? "set" : "null", ndeps);
  fill<<<1, 32, 0, s2>>>(b, 32, 0);
  CHECK(cudaEventRecord(join, s2));
  CHECK(cudaStreamWaitEvent(s1, join, 0));
  cudaGraph_t g0;
  CHECK(cudaStreamEndCapture(s1, &g0));
  CHECK(cudaStreamIsCapturing(s2, &st));
  std::printf("after: s2 capturing %d\n", (int)st);
  size_t nodes = 0, edges = 0;
  CHECK(cudaGraphGetNodes(g0, nullptr, &nodes));
  CHECK(cudaGraphGetEdges(g0, nullptr, nullptr, nullptr, &edges));
  std::printf("small capture: %zu nodes, %zu edges\n", nodes, edges);
  CHECK(cudaGraphDestroy(g0));

  // Nothing runs while capturing: the host buffer keeps its value until the graph launches.
  for (int i = 0; i < N; ++i) h[i] = -1;
  cudaGraph_t g;
  CHECK(capture_pipeline(s1, s2, fork, join, a, b, c, h, 3, &g));
  std::printf("captured, not run: sum %lld host runs %d\n", sum(h, N), host_runs);
  CHECK(cudaGraphGetNodes(g, nullptr, &nodes));
  CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
  size_t roots = 0;
  CHECK(cudaGraphGetRootNodes(g, nullptr, &roots));
  std::printf("pipeline: %zu nodes, %zu edges, %zu roots\n", nodes, edges, roots);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  for (int i = 0; i < 2; ++i) {
    CHECK(cudaGraphLaunch(exec, s2));
    CHECK(cudaStreamSynchronize(s2));
    std::printf("launch %d: sum %lld host runs %d\n", i, sum(h, N), host_runs);
  }

  // The same work captured with another value updates the executable graph.
  cudaGraph_t g2;
  CHECK(capture_pipeline(s1, s2, fork, join, a, b, c, h, 7, &g2));
  cudaGraphExecUpdateResultInfo info = {};
  cudaError_t e = cudaGraphExecUpdate(exec, g2, &info);
  std::printf("update: %s result %d\n", cudaGetErrorName(e), (int)info.result);
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  std::printf("updated: sum %lld host runs %d\n", sum(h, N), host_runs);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphDestroy(g2));

  // Synchronising a capturing stream is refused and ends the capture's usefulness.
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  fill<<<1, 32, 0, s1>>>(a, 32, 0);
  e = cudaStreamSynchronize(s1);
  std::printf("sync while capturing: %s\n", cudaGetErrorName(e));
  CHECK(cudaStreamIsCapturing(s1, &st));
  std::printf("status after it: %d\n", (int)st);
  fill<<<1, 32, 0, s1>>>(a, 32, 0);
  std::printf("launch into the invalidated capture: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaGraph_t bad = nullptr;
  e = cudaStreamEndCapture(s1, &bad);
  std::printf("end: %s graph %s\n", cudaGetErrorName(e), bad ? "set" : "null");
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));

  // A stream that joined the capture and was not joined back.
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  fill<<<1, 32, 0, s2>>>(b, 32, 0);
  e = cudaStreamEndCapture(s1, &bad);
  std::printf("unjoined: %s graph %s\n", cudaGetErrorName(e), bad ? "set" : "null");
  CHECK(cudaStreamIsCapturing(s2, &st));
  std::printf("s2 after it: %d\n", (int)st);
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));

  // Querying a capturing stream, ending a capture that never began.
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  e = cudaStreamQuery(s1);
  std::printf("query while capturing: %s\n", cudaGetErrorName(e));
  e = cudaStreamEndCapture(s1, &bad);
  std::printf("end: %s\n", cudaGetErrorName(e));
  e = cudaStreamEndCapture(s1, &bad);
  std::printf("end without a capture: %s\n", cudaGetErrorName(e));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));

  // The legacy default stream cannot be captured; a blocking stream's capture is invalidated by
  // work on the legacy stream.
  e = cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal);
  std::printf("capture stream 0: %s\n", cudaGetErrorName(e));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  fill<<<1, 32, 0, s1>>>(a, 32, 0);
  fill<<<1, 32>>>(b, 32, 0);
  std::printf("launch on stream 0 while s1 captures: %s\n", cudaGetErrorName(cudaGetLastError()));
  e = cudaStreamEndCapture(s1, &bad);
  std::printf("end: %s\n", cudaGetErrorName(e));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaDeviceSynchronize());

  // Relaxed mode allows cudaMalloc during the capture; global mode does not.
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  int* extra = nullptr;
  e = cudaMalloc(&extra, 64);
  std::printf("cudaMalloc in a global capture: %s\n", cudaGetErrorName(e));
  e = cudaStreamEndCapture(s1, &bad);
  std::printf("end: %s\n", cudaGetErrorName(e));
  if (bad) cudaGraphDestroy(bad);
  if (extra) cudaFree(extra);
  extra = nullptr;
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed));
  e = cudaMalloc(&extra, 64);
  std::printf("cudaMalloc in a relaxed capture: %s\n", cudaGetErrorName(e));
  fill<<<1, 32, 0, s1>>>(a, 32, 0);
  e = cudaStreamEndCapture(s1, &bad);
  std::printf("end: %s\n", cudaGetErrorName(e));
  if (bad) {
    CHECK(cudaGraphGetNodes(bad, nullptr, &nodes));
    std::printf("relaxed capture: %zu node(s)\n", nodes);
    CHECK(cudaGraphDestroy(bad));
  }
  if (extra) CHECK(cudaFree(extra));

  // Other calls CUDA deems unsafe in a global capture, and one it allows.
  int* pinned = nullptr;
  CHECK(cudaMalloc(&extra, 64));
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  e = cudaMallocHost(&pinned, 64);
  std::printf("cudaMallocHost in a global capture: %s\n", cudaGetErrorName(e));
  e = cudaStreamEndCapture(s1, &bad);
  std::printf("end: %s\n", cudaGetErrorName(e));
  if (pinned) CHECK(cudaFreeHost(pinned));
  cudaGetLastError();
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  e = cudaFree(extra);
  std::printf("cudaFree in a global capture: %s\n", cudaGetErrorName(e));
  e = cudaStreamEndCapture(s1, &bad);
  std::printf("end: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  if (e == cudaSuccess && bad) CHECK(cudaGraphDestroy(bad));
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
  std::printf("thread mode was %d\n", (int)mode);
  e = cudaFree(extra);
  std::printf("cudaFree in a global capture, thread mode relaxed: %s\n", cudaGetErrorName(e));
  CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
  e = cudaStreamEndCapture(s1, &bad);
  std::printf("end: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  if (e == cudaSuccess && bad) CHECK(cudaGraphDestroy(bad));
  CHECK(cudaDeviceSynchronize());

  // Capturing into an existing graph, after a node of it.
  cudaGraph_t into;
  CHECK(cudaGraphCreate(&into, 0));
  cudaGraphNode_t first;
  CHECK(cudaGraphAddEmptyNode(&first, into, nullptr, 0));
  CHECK(cudaStreamBeginCaptureToGraph(s1, into, &first, nullptr, 1, cudaStreamCaptureModeGlobal));
  fill<<<N / 256, 256, 0, s1>>>(c, N, 11);
  cudaMemcpyAsync(h, c, N * sizeof(int), cudaMemcpyDeviceToHost, s1);
  cudaGraph_t same = nullptr;
  CHECK(cudaStreamEndCapture(s1, &same));
  CHECK(cudaGraphGetNodes(into, nullptr, &nodes));
  CHECK(cudaGraphGetEdges(into, nullptr, nullptr, nullptr, &edges));
  std::printf("capture into a graph: same graph %d, %zu nodes, %zu edges\n", same == into, nodes,
              edges);
  CHECK(cudaGraphInstantiate(&exec, into, 0));
  CHECK(cudaGraphLaunch(exec, s1));
  CHECK(cudaStreamSynchronize(s1));
  std::printf("launched: sum %lld\n", sum(h, N));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(into));

  CHECK(cudaEventDestroy(fork));
  CHECK(cudaEventDestroy(join));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  CHECK(cudaFreeHost(h));
  std::printf("done\n");
  return 0;
}
