// A kernel that advances a pointer parameter and uses it after a barrier: on the loop path each
// thread keeps its own copy of the parameter, bound under the parameter's name.
#include <cstdio>

__global__ void block_sums(const int* in, int* out, int n) {
  __shared__ int partial[128];
  in += blockIdx.x * blockDim.x;
  const int own = in[threadIdx.x];
  partial[threadIdx.x] = own;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0] + in[0] - own + n;
}

int main() {
  const int blocks = 4, threads = 128, n = blocks * threads;
  int *in, *out;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&out, blocks * sizeof(int));
  for (int i = 0; i < n; ++i) in[i] = i;
  block_sums<<<blocks, threads>>>(in, out, n);
  cudaDeviceSynchronize();
  for (int b = 0; b < blocks; ++b) std::printf("%d ", out[b]);
  std::printf("\n");
  return 0;
}
