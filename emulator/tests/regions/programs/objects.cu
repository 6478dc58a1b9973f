// Variables live across barriers whose types are not trivially copyable (cuda::pipeline, a class
// with a constructor and destructor of its own): on the loop path each thread's object is
// constructed in place and destroyed once, when the block ends. Each kernel is checked against
// a CPU reference, and every object constructed is destroyed exactly once; regions_test runs
// this on both paths.
#include <cuda/pipeline>

#include <cstdio>

constexpr int kBlock = 128;
constexpr int kBlocks = 3;
constexpr int kN = kBlock * kBlocks;

__device__ int g_built, g_gone;

struct tally {
  int sum = 0;
  __device__ tally() { atomicAdd(&g_built, 1); }
  __device__ ~tally() { atomicAdd(&g_gone, 1); }
  tally(const tally&) = delete;
};

__global__ void object_across_barriers(const int* in, int* out) {
  __shared__ int s[kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  tally t;
  s[threadIdx.x] = in[i];
  __syncthreads();
  t.sum += s[(threadIdx.x + 1) % kBlock];
  __syncthreads();
  t.sum += s[(threadIdx.x + 2) % kBlock];
  out[i] = t.sum;
}

// A destructor that asks which thread runs it: kept on coroutines.
struct knows_its_thread {
  int v = 1;
  __device__ ~knows_its_thread() {
    if (threadIdx.x == 0) atomicAdd(&g_gone, 0);
  }
};

__global__ void destructor_reads_thread(const int* in, int* out) {
  __shared__ int s[kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  knows_its_thread k;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[kBlock - 1 - threadIdx.x] + k.v;
}

// A thread's pipeline of asynchronous copies (cuda-samples' globalToShmemAsyncCopy).
__global__ void pipeline_copy(const float* in, float* out) {
  __shared__ alignas(16) float s[kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&s[threadIdx.x], &in[i], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  __syncthreads();
  out[i] = s[(threadIdx.x + 1) % kBlock] * 2.0f;
  pipe.consumer_release();
}

int main() {
  int *in, *out;
  float *fin, *fout;
  cudaMallocManaged(&in, kN * sizeof(int));
  cudaMallocManaged(&out, kN * sizeof(int));
  cudaMallocManaged(&fin, kN * sizeof(float));
  cudaMallocManaged(&fout, kN * sizeof(float));
  for (int i = 0; i < kN; ++i) in[i] = (i * 29) % 97, fin[i] = static_cast<float>(i) * 0.25f;
  bool all = true;
  auto report = [&](const char* name, bool ok) {
    std::printf("%s: %s\n", name, ok ? "ok" : "WRONG");
    all = all && ok;
  };

  object_across_barriers<<<kBlocks, kBlock>>>(in, out);
  cudaDeviceSynchronize();
  bool ok = true;
  for (int i = 0; i < kN; ++i) {
    const int b = i / kBlock, t = i % kBlock;
    ok = ok && out[i] == in[b * kBlock + (t + 1) % kBlock] + in[b * kBlock + (t + 2) % kBlock];
  }
  int built = 0, gone = 0;
  cudaMemcpyFromSymbol(&built, g_built, sizeof built);
  cudaMemcpyFromSymbol(&gone, g_gone, sizeof gone);
  report("object_across_barriers", ok);
  std::printf("objects constructed %d, destroyed %d\n", built, gone);

  destructor_reads_thread<<<kBlocks, kBlock>>>(in, out);
  cudaDeviceSynchronize();
  ok = true;
  for (int i = 0; i < kN; ++i) {
    const int b = i / kBlock, t = i % kBlock;
    ok = ok && out[i] == in[b * kBlock + kBlock - 1 - t] + 1;
  }
  report("destructor_reads_thread", ok);

  pipeline_copy<<<kBlocks, kBlock>>>(fin, fout);
  cudaDeviceSynchronize();
  ok = true;
  for (int i = 0; i < kN; ++i) {
    const int b = i / kBlock, t = i % kBlock;
    ok = ok && fout[i] == fin[b * kBlock + (t + 1) % kBlock] * 2.0f;
  }
  report("pipeline_copy", ok);
  std::printf("%s\n", all ? "all ok" : "SOME WRONG");
  return all ? 0 : 1;
}
