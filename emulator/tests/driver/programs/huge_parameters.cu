// Kernel parameters larger than CUDA's 32764-byte limit: nvcc refuses it.
struct table {
  int v[8200];
};

__global__ void lookup(table t, int* out) { out[threadIdx.x] = t.v[threadIdx.x]; }

int main() {
  static table t{};
  int* out;
  cudaMalloc(&out, 32 * sizeof(int));
  lookup<<<1, 32>>>(t, out);
  return 0;
}
