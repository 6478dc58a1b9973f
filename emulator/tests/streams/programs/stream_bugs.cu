// A correct program using streams, and the ways it goes wrong when one synchronisation is left
// out (-DBUG=n): each is a race a GPU shows only sometimes, as wrong numbers.
//   BUG=1  the host reads pinned memory an asynchronous copy still writes (no stream sync)
//   BUG=2  the host refills pinned memory an asynchronous copy still reads (no stream sync)
//   BUG=3  the host reads managed memory a kernel still writes (no device sync)
//   BUG=4  a kernel on s2 reads what a kernel on s1 writes, unordered (no cudaStreamWaitEvent)
//   BUG=5  a kernel on s1 writes device memory that a copy on s2 still reads (no event wait)
#include <cstdio>

#ifndef BUG
#define BUG 0
#endif

constexpr int N = 1024;

__global__ void square(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

__global__ void fill(int* out, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + i;
}

long long sum(const int* p, int n) {
  long long s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}

int main() {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  int *pinned_in, *pinned_out, *managed, *d_in, *d_out;
  cudaMallocHost(&pinned_in, N * sizeof(int));
  cudaMallocHost(&pinned_out, N * sizeof(int));
  cudaMallocManaged(&managed, N * sizeof(int));
  cudaMalloc(&d_in, N * sizeof(int));
  cudaMalloc(&d_out, N * sizeof(int));

  // Two batches through one stream: copy in, square, copy out.
  long long total = 0;
  for (int batch = 0; batch < 2; ++batch) {
    for (int i = 0; i < N; ++i) pinned_in[i] = batch * N + i;
    cudaMemcpyAsync(d_in, pinned_in, N * sizeof(int), cudaMemcpyHostToDevice, s1);
#if BUG == 2
    if (batch == 0) {
      for (int i = 0; i < N; ++i) pinned_in[i] = -1;  // refilled while the copy may still read it
    }
#endif
    square<<<N / 256, 256, 0, s1>>>(d_in, d_out, N);
    cudaMemcpyAsync(pinned_out, d_out, N * sizeof(int), cudaMemcpyDeviceToHost, s1);
#if BUG != 1
    cudaStreamSynchronize(s1);
#endif
    total += sum(pinned_out, N);
#if BUG == 1
    cudaStreamSynchronize(s1);
#endif
  }
  printf("sum of squares 0..%d: %lld\n", 2 * N - 1, total);

  // Managed memory written by a kernel, read by the host.
  fill<<<N / 256, 256>>>(managed, N, 7);
#if BUG != 3
  cudaDeviceSynchronize();
#endif
  printf("managed sum: %lld\n", sum(managed, N));
  cudaDeviceSynchronize();

  // A producer on s1 and a consumer on s2, ordered by an event.
  cudaEvent_t produced, consumed;
  cudaEventCreate(&produced);
  cudaEventCreate(&consumed);
  fill<<<N / 256, 256, 0, s1>>>(d_in, N, 3);
  cudaEventRecord(produced, s1);
#if BUG != 4
  cudaStreamWaitEvent(s2, produced, 0);
#endif
  square<<<N / 256, 256, 0, s2>>>(d_in, d_out, N);
  cudaMemcpyAsync(pinned_out, d_out, N * sizeof(int), cudaMemcpyDeviceToHost, s2);
  cudaEventRecord(consumed, s2);
  // s1 overwrites d_out only once s2's copy of it is done.
#if BUG != 5
  cudaStreamWaitEvent(s1, consumed, 0);
#endif
  fill<<<N / 256, 256, 0, s1>>>(d_out, N, 0);
  cudaDeviceSynchronize();
  printf("squares of 3..%d: %lld\n", N + 2, sum(pinned_out, N));

  cudaEventDestroy(produced);
  cudaEventDestroy(consumed);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(managed);
  cudaFreeHost(pinned_in);
  cudaFreeHost(pinned_out);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  return 0;
}
