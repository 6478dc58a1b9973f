// Asynchronous streams, as an H200 runs them: kernels on different streams run at the same time
// (one spins until the other sets its flag), the legacy default stream waits for blocking streams
// and they for it, non-blocking streams and the per-thread default stream do not, events order
// streams and time their work, queries see work in flight, host functions run in stream order.
#include <cstdio>

#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));           \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

__device__ void delay(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// Spins until *flag is set (by another kernel or by the host), then writes *out.
__global__ void wait_for(volatile int* flag, int* out, int value) {
  while (*flag == 0) {
  }
  *out = value;
}

__global__ void set_flag(int* flag) { atomicExch(flag, 1); }

// Waits about `cycles`, then writes value.
__global__ void late_write(int* x, int value, long long cycles) {
  delay(cycles);
  *x = value;
}

__global__ void copy(const int* from, int* to) { *to = *from; }

struct host_log {
  const int* watched;
  int seen;
};
void CUDART_CB observe(void* p) {
  auto* log = static_cast<host_log*>(p);
  log->seen = *log->watched;
}

int main() {
  int* d;
  CHECK(cudaMalloc(&d, 16 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 16 * sizeof(int)));
  // Every kernel runs once before the test: with CUDA's lazy module loading (the default), a
  // kernel's first launch may wait for kernels already running, and those spin on it.
  set_flag<<<1, 1>>>(d + 15);
  wait_for<<<1, 1>>>(d + 15, d + 14, 0);
  late_write<<<1, 1>>>(d + 14, 0, 0);
  copy<<<1, 1>>>(d + 14, d + 13);
  CHECK(cudaDeviceSynchronize());
  const long long ms = 1980000;  // cycles per millisecond at the H200's 1980 MHz

  // 1. Two blocking streams overlap: the kernel on s1 waits for the one launched later on s2.
  cudaStream_t s1, s2, nb;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
  wait_for<<<1, 1, 0, s1>>>(d + 0, d + 1, 11);
  set_flag<<<1, 1, 0, s2>>>(d + 0);
  CHECK(cudaDeviceSynchronize());
  int h[16];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("1. streams overlap: flag %d, waiter wrote %d\n", h[0], h[1]);

  // 2. A non-blocking stream overlaps the legacy default stream.
  wait_for<<<1, 1, 0, nb>>>(d + 2, d + 3, 22);
  set_flag<<<1, 1>>>(d + 2);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("2. non-blocking stream and the default stream overlap: %d %d\n", h[2], h[3]);

  // 3. The legacy default stream waits for earlier work of blocking streams, and blocking streams
  //    wait for it: the late writes are seen.
  late_write<<<1, 1, 0, s1>>>(d + 4, 33, 2 * ms);
  copy<<<1, 1>>>(d + 4, d + 5);
  late_write<<<1, 1>>>(d + 6, 44, 2 * ms);
  copy<<<1, 1, 0, s2>>>(d + 6, d + 7);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("3. legacy default stream orders blocking streams: %d %d\n", h[5], h[7]);

  // 4. cudaStreamWaitEvent: s2's copy waits for s1's late write.
  cudaEvent_t written, start, stop;
  CHECK(cudaEventCreate(&written));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  late_write<<<1, 1, 0, s1>>>(d + 8, 55, 2 * ms);
  CHECK(cudaEventRecord(written, s1));
  CHECK(cudaStreamWaitEvent(s2, written, 0));
  copy<<<1, 1, 0, s2>>>(d + 8, d + 9);
  CHECK(cudaStreamSynchronize(s2));
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("4. cudaStreamWaitEvent orders s2 after s1: %d\n", h[9]);

  // 5. Events time the work between them, not the host's calls.
  CHECK(cudaEventRecord(start, s1));
  late_write<<<1, 1, 0, s1>>>(d + 10, 1, 20 * ms);
  CHECK(cudaEventRecord(stop, s1));
  float elapsed = 0;
  cudaError_t early = cudaEventElapsedTime(&elapsed, start, stop);
  printf("5. elapsed time before the work ended: %s\n", cudaGetErrorName(early));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaEventElapsedTime(&elapsed, start, stop));
  printf("   a 20 ms kernel measured between 19 and 40 ms: %s\n",
         elapsed >= 19.f && elapsed < 40.f ? "yes" : "no");

  // 6. Queries see work in flight: the kernel waits for the host's flag in pinned memory.
  int* flag;
  CHECK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  *flag = 0;
  cudaEvent_t after;
  CHECK(cudaEventCreate(&after));
  wait_for<<<1, 1, 0, s1>>>(flag, d + 11, 66);
  CHECK(cudaEventRecord(after, s1));
  printf("6. while the kernel waits: stream %s, event %s\n", cudaGetErrorName(cudaStreamQuery(s1)),
         cudaGetErrorName(cudaEventQuery(after)));
  *(volatile int*)flag = 1;
  CHECK(cudaStreamSynchronize(s1));
  printf("   after the host set the flag: stream %s, event %s\n",
         cudaGetErrorName(cudaStreamQuery(s1)), cudaGetErrorName(cudaEventQuery(after)));

  // 7. A host function runs after the stream's earlier work.
  int* pinned;
  CHECK(cudaMallocHost(&pinned, sizeof(int)));
  *pinned = 0;
  host_log log{pinned, -1};
  late_write<<<1, 1, 0, s2>>>(pinned, 77, 2 * ms);
  CHECK(cudaLaunchHostFunc(s2, observe, &log));
  CHECK(cudaStreamSynchronize(s2));
  printf("7. the host function saw %d\n", log.seen);

  // 8. The per-thread default stream does not wait for other blocking streams.
  *(volatile int*)flag = 0;
  wait_for<<<1, 1, 0, cudaStreamPerThread>>>(flag, d + 12, 88);
  set_flag<<<1, 1, 0, s1>>>(flag);
  CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("8. per-thread default stream and a blocking stream overlap: %d\n", h[12]);

  // 9. A kernel's fault is not the launch's error: it comes from the synchronisation.
  CHECK(cudaEventDestroy(written));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaEventDestroy(after));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaStreamDestroy(nb));
  CHECK(cudaFreeHost(flag));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(d));
  printf("done\n");
  return 0;
}
