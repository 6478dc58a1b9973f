// A kernel writes one row of an 8x2 float surface; with -DOUTSIDE one thread writes past the end
// of the row (x = 8 elements) in the default boundary mode, cudaBoundaryModeTrap.
#include <cstdio>

#ifdef OUTSIDE
constexpr int kThreads = 9;
#else
constexpr int kThreads = 8;
#endif
__global__ void write_row(cudaSurfaceObject_t s) {
  surf2Dwrite(static_cast<float>(threadIdx.x), s, threadIdx.x * 4, 1);
}

int main() {
  cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  cudaMallocArray(&a, &d, 8, 2, cudaArraySurfaceLoadStore);
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaSurfaceObject_t s;
  cudaCreateSurfaceObject(&s, &rd);
  write_row<<<1, kThreads>>>(s);
  std::printf("after the kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
