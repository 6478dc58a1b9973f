// cuRAND's device API (curand_kernel.h from the CUDA toolkit, unchanged): XORWOW, Philox4x32-10
// and MRG32k3a states initialised per thread with curand_init (sequence and offset), raw 32-bit
// draws, uniform, normal (one and two at a time), double precision, log-normal and Poisson
// draws, skipahead and skipahead_sequence. Every value is printed in hexadecimal.
#include <cstdio>
#include <cstring>
#include <curand_kernel.h>

constexpr int kThreads = 64;
constexpr int kDraws = 8;  // values per thread per kind

template <class State>
__global__ void draw(unsigned long long seed, unsigned long long offset, unsigned* raw,
                     float* uni, float* nor, double* dbl, float* lognor, unsigned* poisson) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  State s;
  curand_init(seed, t, offset, &s);
  for (int i = 0; i < kDraws; ++i) raw[t * kDraws + i] = curand(&s);
  for (int i = 0; i < kDraws; ++i) uni[t * kDraws + i] = curand_uniform(&s);
  for (int i = 0; i < kDraws; i += 2) {
    float2 v = curand_normal2(&s);
    nor[t * kDraws + i] = v.x;
    nor[t * kDraws + i + 1] = v.y;
  }
  for (int i = 0; i < kDraws; ++i) dbl[t * kDraws + i] = curand_uniform_double(&s);
  for (int i = 0; i < kDraws; ++i) lognor[t * kDraws + i] = curand_log_normal(&s, 0.5f, 0.25f);
  for (int i = 0; i < kDraws; ++i) poisson[t * kDraws + i] = curand_poisson(&s, 4.5 + t % 5);
}

template <class State>
__global__ void skip(unsigned long long seed, unsigned* out) {
  const int t = threadIdx.x;
  State a, b;
  curand_init(seed, 0, 0, &a);
  curand_init(seed, 0, 0, &b);
  // b skips t * 1000 + 3 draws and t sequences; a draws its way to the same subsequence start.
  skipahead(static_cast<unsigned long long>(t) * 1000 + 3, &b);
  skipahead_sequence(static_cast<unsigned long long>(t), &b);
  out[t * 2] = curand(&b);
  out[t * 2 + 1] = curand_normal(&b) > 0.f ? 1u : 0u;
}

template <class T>
static T* device(int n) {
  T* p;
  cudaMalloc(&p, n * sizeof(T));
  return p;
}

static unsigned long long fnv(const void* p, std::size_t n, unsigned long long h) {
  const unsigned char* b = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

template <class State>
static void run(const char* name) {
  const int n = kThreads * kDraws;
  unsigned* raw = device<unsigned>(n);
  float* uni = device<float>(n);
  float* nor = device<float>(n);
  double* dbl = device<double>(n);
  float* lognor = device<float>(n);
  unsigned* poisson = device<unsigned>(n);
  unsigned* skipped = device<unsigned>(2 * 32);
  static unsigned hr[n], hp[n], hs[64];
  static float hu[n], hn[n], hl[n];
  static double hd[n];
  for (unsigned long long offset : {0ull, 5ull}) {
    draw<State><<<kThreads / 32, 32>>>(1234ull, offset, raw, uni, nor, dbl, lognor, poisson);
    cudaMemcpy(hr, raw, sizeof hr, cudaMemcpyDeviceToHost);
    cudaMemcpy(hu, uni, sizeof hu, cudaMemcpyDeviceToHost);
    cudaMemcpy(hn, nor, sizeof hn, cudaMemcpyDeviceToHost);
    cudaMemcpy(hd, dbl, sizeof hd, cudaMemcpyDeviceToHost);
    cudaMemcpy(hl, lognor, sizeof hl, cudaMemcpyDeviceToHost);
    cudaMemcpy(hp, poisson, sizeof hp, cudaMemcpyDeviceToHost);
    std::printf("%s offset %llu\n", name, offset);
    for (int t : {0, 1, 33, 63}) {
      std::printf("  thread %d raw", t);
      for (int i = 0; i < 4; ++i) std::printf(" %08x", hr[t * kDraws + i]);
      unsigned u, v;
      std::memcpy(&u, &hu[t * kDraws], 4);
      std::memcpy(&v, &hn[t * kDraws], 4);
      unsigned long long d;
      std::memcpy(&d, &hd[t * kDraws], 8);
      unsigned l;
      std::memcpy(&l, &hl[t * kDraws], 4);
      std::printf(" uniform %08x normal %08x double %016llx lognormal %08x poisson %u\n", u, v, d,
                  l, hp[t * kDraws]);
    }
    std::printf("  digests raw %016llx uniform %016llx normal %016llx double %016llx lognormal "
                "%016llx poisson %016llx\n",
                fnv(hr, sizeof hr, 14695981039346656037ull),
                fnv(hu, sizeof hu, 14695981039346656037ull),
                fnv(hn, sizeof hn, 14695981039346656037ull),
                fnv(hd, sizeof hd, 14695981039346656037ull),
                fnv(hl, sizeof hl, 14695981039346656037ull),
                fnv(hp, sizeof hp, 14695981039346656037ull));
  }
  skip<State><<<1, 32>>>(99ull, skipped);
  cudaMemcpy(hs, skipped, sizeof hs, cudaMemcpyDeviceToHost);
  std::printf("  skipahead digest %016llx first %08x last %08x\n",
              fnv(hs, sizeof hs, 14695981039346656037ull), hs[0], hs[62]);
  cudaFree(raw);
  cudaFree(uni);
  cudaFree(nor);
  cudaFree(dbl);
  cudaFree(lognor);
  cudaFree(poisson);
  cudaFree(skipped);
}

int main() {
  run<curandStateXORWOW_t>("XORWOW");
  run<curandStatePhilox4_32_10_t>("Philox4x32-10");
  run<curandStateMRG32k3a_t>("MRG32k3a");
  std::printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
