// Every way CUDA orders stream work with the host and with other streams, each used correctly
// (the streams checker must stay silent on all of them), and with -DBUG=n one of them left out:
//   BUG=1  a kernel on a non-blocking stream reads what a legacy-stream kernel writes (no event:
//          a non-blocking stream does not wait for the legacy default stream)
//   BUG=2  a host function on s2 reads pinned memory a copy on s1 writes (no event wait)
//   BUG=3  a cudaMemsetAsync on s2 clears device memory a kernel on s1 still writes
//   BUG=4  the host writes managed memory a kernel it has not waited for reads
//   BUG=5  the host reads a counter that kernels of two streams update atomically (no sync)
#include <cstdio>
#include <cstring>
#include <vector>

#ifndef BUG
#define BUG 0
#endif

constexpr int N = 1001;  // odd: two streams writing halves share 8-byte words at the split

__global__ void fill(int* out, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + i;
}

__global__ void add(const int* a, const int* b, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

__global__ void count(const int* in, int n, unsigned long long* total) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, static_cast<unsigned long long>(in[i]));
}

long long sum(const int* p, int n) {
  long long s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}

struct host_task {
  const int* data;
  long long result;
};
void CUDART_CB sum_on_host(void* p) {
  host_task* t = static_cast<host_task*>(p);
  t->result = sum(t->data, N);
}

int main() {
  const int blocks = (N + 127) / 128;
  cudaStream_t s1, s2, s3, nb;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaStreamCreate(&s3);
  cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking);
  int *a, *b, *c, *pinned, *managed;
  cudaMalloc(&a, N * sizeof(int));
  cudaMalloc(&b, N * sizeof(int));
  cudaMalloc(&c, N * sizeof(int));
  cudaMallocHost(&pinned, N * sizeof(int));
  cudaMallocManaged(&managed, N * sizeof(int));
  cudaEvent_t e1, e2, done;
  cudaEventCreate(&e1);
  cudaEventCreate(&e2);
  cudaEventCreate(&done);

  // 1. cudaEventSynchronize.
  fill<<<blocks, 128, 0, s1>>>(a, N, 1);
  cudaMemcpyAsync(pinned, a, N * sizeof(int), cudaMemcpyDeviceToHost, s1);
  cudaEventRecord(done, s1);
  cudaEventSynchronize(done);
  printf("1 event synchronize: %lld\n", sum(pinned, N));

  // 2. cudaEventQuery polled until the work is done.
  fill<<<blocks, 128, 0, s2>>>(b, N, 2);
  cudaMemcpyAsync(pinned, b, N * sizeof(int), cudaMemcpyDeviceToHost, s2);
  cudaEventRecord(done, s2);
  while (cudaEventQuery(done) == cudaErrorNotReady) {
  }
  printf("2 event query: %lld\n", sum(pinned, N));

  // 3. cudaStreamQuery polled until the stream is idle.
  fill<<<blocks, 128, 0, s3>>>(c, N, 3);
  cudaMemcpyAsync(pinned, c, N * sizeof(int), cudaMemcpyDeviceToHost, s3);
  while (cudaStreamQuery(s3) == cudaErrorNotReady) {
  }
  printf("3 stream query: %lld\n", sum(pinned, N));

  // 4. A blocking cudaMemcpy (the legacy stream) after a kernel on a blocking stream.
  fill<<<blocks, 128, 0, s1>>>(a, N, 4);
  std::vector<int> host(N);
  cudaMemcpy(host.data(), a, N * sizeof(int), cudaMemcpyDeviceToHost);
  printf("4 blocking copy: %lld\n", sum(host.data(), N));

  // 5. The legacy stream between two blocking streams: s2's kernel waits for it, and it for s1.
  fill<<<blocks, 128, 0, s1>>>(a, N, 5);
  fill<<<blocks, 128>>>(b, N, 50);
  add<<<blocks, 128, 0, s2>>>(a, b, c, N);
  cudaStreamSynchronize(s2);
  cudaMemcpy(host.data(), c, N * sizeof(int), cudaMemcpyDeviceToHost);
  printf("5 legacy stream: %lld\n", sum(host.data(), N));

  // 6. A chain of events: s3 uses what s1 wrote through s2's wait.
  fill<<<blocks, 128, 0, s1>>>(a, N, 6);
  cudaEventRecord(e1, s1);
  cudaStreamWaitEvent(s2, e1, 0);
  fill<<<blocks, 128, 0, s2>>>(b, N, 60);
  cudaEventRecord(e2, s2);
  cudaStreamWaitEvent(s3, e2, 0);
  add<<<blocks, 128, 0, s3>>>(a, b, c, N);
  cudaMemcpyAsync(pinned, c, N * sizeof(int), cudaMemcpyDeviceToHost, s3);
  cudaStreamSynchronize(s3);
  printf("6 event chain: %lld\n", sum(pinned, N));

  // 7. A host function reading what its own stream copied, and the host reading its result.
  host_task task{pinned, 0};
  fill<<<blocks, 128, 0, s1>>>(a, N, 7);
  cudaMemcpyAsync(pinned, a, N * sizeof(int), cudaMemcpyDeviceToHost, s1);
  cudaLaunchHostFunc(s1, sum_on_host, &task);
  cudaStreamSynchronize(s1);
  printf("7 host function: %lld\n", task.result);

  // 8. Kernels of two streams adding to one counter atomically; two writing halves of a buffer.
  unsigned long long* counter;
  cudaMallocManaged(&counter, sizeof(unsigned long long));
  *counter = 0;
  fill<<<blocks, 128>>>(a, N, 8);
  cudaDeviceSynchronize();
  count<<<blocks, 128, 0, s1>>>(a, N, counter);
  count<<<blocks, 128, 0, s2>>>(a, N, counter);
  const int half = N / 2;
  fill<<<blocks, 128, 0, s1>>>(c, half, 80);
  fill<<<blocks, 128, 0, s2>>>(c + half, N - half, 80 + half);
#if BUG == 5
  printf("(bug) counter so far: %llu\n", *counter);
#endif
  cudaDeviceSynchronize();
  const unsigned long long total = *counter;
  cudaMemcpy(host.data(), c, N * sizeof(int), cudaMemcpyDeviceToHost);
  printf("8 atomics %llu, halves %lld\n", total, sum(host.data(), N));

  // 9. Pageable memory: the source of an async copy may be reused at once; a copy into pageable
  // memory is done when the call returns.
  std::vector<int> pageable(N, 9);
  cudaMemcpyAsync(a, pageable.data(), N * sizeof(int), cudaMemcpyHostToDevice, s1);
  std::fill(pageable.begin(), pageable.end(), -1);
  cudaMemcpyAsync(pageable.data(), a, N * sizeof(int), cudaMemcpyDeviceToHost, s1);
  printf("9 pageable: %lld\n", sum(pageable.data(), N));

  // 10. Stream-ordered allocation: freed on one stream, allocated again on another.
  int* tmp;
  cudaMallocAsync(&tmp, N * sizeof(int), s1);
  fill<<<blocks, 128, 0, s1>>>(tmp, N, 10);
  cudaMemcpyAsync(pinned, tmp, N * sizeof(int), cudaMemcpyDeviceToHost, s1);
  cudaFreeAsync(tmp, s1);
  cudaStreamSynchronize(s1);
  long long first = sum(pinned, N);
  cudaMallocAsync(&tmp, N * sizeof(int), s2);
  fill<<<blocks, 128, 0, s2>>>(tmp, N, 100);
  cudaMemcpyAsync(pinned, tmp, N * sizeof(int), cudaMemcpyDeviceToHost, s2);
  cudaFreeAsync(tmp, s2);
  cudaStreamSynchronize(s2);
  printf("10 stream-ordered allocation: %lld %lld\n", first, sum(pinned, N));

  // 11. A non-blocking stream ordered after the legacy stream by an event.
  fill<<<blocks, 128>>>(a, N, 11);
#if BUG != 1
  cudaEventRecord(e1, 0);
  cudaStreamWaitEvent(nb, e1, 0);
#endif
  add<<<blocks, 128, 0, nb>>>(a, a, c, N);
  cudaMemcpyAsync(pinned, c, N * sizeof(int), cudaMemcpyDeviceToHost, nb);
  cudaStreamSynchronize(nb);
  printf("11 non-blocking stream after an event: %lld\n", sum(pinned, N));

  // 12. A host function on another stream, ordered by an event.
  cudaMemcpyAsync(pinned, a, N * sizeof(int), cudaMemcpyDeviceToHost, s1);
#if BUG != 2
  cudaEventRecord(e1, s1);
  cudaStreamWaitEvent(s2, e1, 0);
#endif
  task.result = 0;
  cudaLaunchHostFunc(s2, sum_on_host, &task);
  cudaDeviceSynchronize();
  printf("12 host function on another stream: %lld\n", task.result);

  // 13. A memset on another stream once the kernel writing there is done.
  fill<<<blocks, 128, 0, s1>>>(b, N, 13);
#if BUG != 3
  cudaEventRecord(e1, s1);
  cudaStreamWaitEvent(s2, e1, 0);
#endif
  cudaMemsetAsync(b, 0, N / 2 * sizeof(int), s2);
  cudaDeviceSynchronize();
  cudaMemcpy(host.data(), b, N * sizeof(int), cudaMemcpyDeviceToHost);
  printf("13 memset after the kernel: %lld\n", sum(host.data(), N));

  // 14. Managed memory: the host writes it once the kernel reading it is done.
  for (int i = 0; i < N; ++i) managed[i] = 14;
  add<<<blocks, 128, 0, s1>>>(managed, managed, c, N);
#if BUG != 4
  cudaStreamSynchronize(s1);
#endif
  managed[0] = 0;
  cudaDeviceSynchronize();
  cudaMemcpy(host.data(), c, N * sizeof(int), cudaMemcpyDeviceToHost);
  printf("14 managed: %lld\n", sum(host.data(), N));

#if BUG == 6
  {  // (BUG=6) a graph's kernel on a non-blocking stream writes what a legacy-stream memset clears
    cudaMemset(b, 0, N * sizeof(int));
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    int n = N, value = 6;
    void* args[] = {&b, &n, &value};
    cudaKernelNodeParams kp = {};
    kp.func = reinterpret_cast<void*>(fill);
    kp.gridDim = dim3(blocks);
    kp.blockDim = dim3(128);
    kp.kernelParams = args;
    cudaGraphNode_t node;
    cudaGraphAddKernelNode(&node, g, nullptr, 0, &kp);
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, g, 0);
    cudaGraphLaunch(exec, nb);
    cudaDeviceSynchronize();
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(g);
  }
#endif

  cudaEventDestroy(e1);
  cudaEventDestroy(e2);
  cudaEventDestroy(done);
  cudaFree(counter);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFree(managed);
  cudaFreeHost(pinned);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  cudaStreamDestroy(s3);
  cudaStreamDestroy(nb);
  return 0;
}
