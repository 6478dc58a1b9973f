// A captured graph that allocates a buffer, fills it, sums it and frees it. -DBUG=1 sums after the
// free (the kernel reads graph memory that is no longer allocated); -DBUG=2 reads the buffer from
// the host after the graph launch (cudaMemcpy of freed graph memory).
#include <cstdio>

#ifndef BUG
#define BUG 0
#endif

__global__ void fill(int* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}
__global__ void sum(const int* p, int n, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, p[i]);
}

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  int* out;
  cudaMalloc(&out, sizeof(int));
  cudaMemset(out, 0, sizeof(int));
  int* tmp;
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&tmp, 256 * sizeof(int), s);
  fill<<<1, 256, 0, s>>>(tmp, 256);
#if BUG == 1
  cudaFreeAsync(tmp, s);
  sum<<<1, 256, 0, s>>>(tmp, 256, out);
#else
  sum<<<1, 256, 0, s>>>(tmp, 256, out);
  cudaFreeAsync(tmp, s);
#endif
  cudaStreamEndCapture(s, &g);
  cudaGraphExec_t x;
  cudaGraphInstantiate(&x, g, 0);
  cudaGraphLaunch(x, s);
  cudaStreamSynchronize(s);
  int h = 0;
#if BUG == 2
  cudaError_t e = cudaMemcpy(&h, tmp, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("copy from freed graph memory: %s\n", cudaGetErrorName(e));
#endif
  cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("sum %d (%s)\n", h, cudaGetErrorName(cudaGetLastError()));
  cudaGraphExecDestroy(x);
  cudaGraphDestroy(g);
  cudaFree(out);
  cudaStreamDestroy(s);
  return 0;
}
