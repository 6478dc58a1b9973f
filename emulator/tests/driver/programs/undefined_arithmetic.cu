// Integer arithmetic that traps on a CPU. "runtime": a divisor that is 0 only at run time (the
// GPU's all ones where the g++ plugin compiles the kernel; x86's SIGFPE under another host
// compiler). "constant": a divisor that is 0 at compile time, which g++ replaces by a trap.
#include <cstdio>
#include <cstring>

__global__ void divide(const int* a, int* out, int s) {
  out[threadIdx.x] = a[threadIdx.x] / (s + static_cast<int>(threadIdx.x));
}

__global__ void modulo_constant(const int* a, int* out) {
  const int zero = 0;
  out[threadIdx.x] = a[threadIdx.x] % zero;
}

int main(int argc, char** argv) {
  int *a, *out;
  cudaMallocManaged(&a, 4 * sizeof(int));
  cudaMallocManaged(&out, 4 * sizeof(int));
  for (int i = 0; i < 4; ++i) a[i] = 7 + i;
  if (argc > 1 && std::strcmp(argv[1], "constant") == 0) modulo_constant<<<1, 4>>>(a, out);
  else divide<<<1, 4>>>(a, out, -2);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s %08x %08x %08x %08x\n", cudaGetErrorName(e), out[0], out[1], out[2], out[3]);
  return e == cudaSuccess ? 0 : 1;
}
