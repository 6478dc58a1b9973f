// A kernel that calls a device function defined in another file (separate compilation): what
// the callee reaches is unknown here, so the kernel keeps its coroutines.
__device__ int elsewhere(int v);  // defined in another translation unit

__global__ void calls_elsewhere(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = elsewhere(static_cast<int>(threadIdx.x));
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}
