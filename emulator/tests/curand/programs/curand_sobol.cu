// cuRAND's quasirandom device API (curand_kernel.h from the CUDA toolkit, unchanged): Sobol32,
// scrambled Sobol32, Sobol64 and scrambled Sobol64 states initialised per thread with
// curand_init (direction vectors, scramble constant, offset), raw draws, uniform, normal
// (inverse CDF), double precision, log-normal and Poisson draws, and skipahead. The direction
// vectors are computed here (Bratley-Fox recurrence, Joe-Kuo's first 8 dimensions): cuRAND's host
// library, which would supply them, is not needed. Every value is printed in hexadecimal.
#include <cstdio>
#include <cstring>
#include <curand_kernel.h>

constexpr int kThreads = 64;
constexpr int kDims = 8;
constexpr int kDraws = 8;  // values per thread per kind

// Direction vectors of dimension d (0-based) for `Bits`-bit Sobol: v[i] for i = 0..Bits-1.
template <class Word, int Bits>
static void direction_vectors(int d, Word* v) {
  static const int s[kDims] = {0, 1, 2, 3, 3, 4, 4, 5};
  static const int a[kDims] = {0, 0, 1, 1, 2, 1, 4, 2};
  static const int m[kDims][5] = {{0},          {1},          {1, 3},        {1, 3, 1},
                                  {1, 1, 1},    {1, 1, 3, 3}, {1, 3, 5, 13}, {1, 1, 5, 5, 17}};
  if (d == 0) {
    for (int i = 0; i < Bits; ++i) v[i] = Word(1) << (Bits - 1 - i);
    return;
  }
  const int sd = s[d];
  for (int i = 0; i < sd; ++i) v[i] = Word(m[d][i]) << (Bits - 1 - i);
  for (int i = sd; i < Bits; ++i) {
    Word x = v[i - sd] ^ (v[i - sd] >> sd);
    for (int k = 1; k < sd; ++k)
      if ((a[d] >> (sd - 1 - k)) & 1) x ^= v[i - k];
    v[i] = x;
  }
}

template <class State>
struct sobol_traits;
template <>
struct sobol_traits<curandStateSobol32_t> {
  using word = unsigned;
  static constexpr bool scrambled = false;
};
template <>
struct sobol_traits<curandStateScrambledSobol32_t> {
  using word = unsigned;
  static constexpr bool scrambled = true;
};
template <>
struct sobol_traits<curandStateSobol64_t> {
  using word = unsigned long long;
  static constexpr bool scrambled = false;
};
template <>
struct sobol_traits<curandStateScrambledSobol64_t> {
  using word = unsigned long long;
  static constexpr bool scrambled = true;
};

template <class State, class Word>
__device__ void init(Word* dirs, Word scramble, unsigned long long offset, State* s) {
  if constexpr (sobol_traits<State>::scrambled)
    curand_init(dirs, scramble, offset, s);
  else
    curand_init(dirs, offset, s);
}

// Thread t draws from dimension t % kDims at offset 1000 * (t / kDims) + 7 * t.
template <class State, class Word>
__global__ void draw(Word* dirv, Word* raw, float* uni, float* nor, double* dbl, double* dnor,
                     float* lognor, unsigned* poisson, Word* skipped) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int d = t % kDims;
  const unsigned long long offset = 1000ull * (t / kDims) + 7ull * t;
  const Word scramble = static_cast<Word>(0x9e3779b97f4a7c15ull * (d + 1));
  State s;
  init(dirv + d * sizeof(Word) * 8, scramble, offset, &s);
  for (int i = 0; i < kDraws; ++i) raw[t * kDraws + i] = curand(&s);
  for (int i = 0; i < kDraws; ++i) uni[t * kDraws + i] = curand_uniform(&s);
  for (int i = 0; i < kDraws; ++i) nor[t * kDraws + i] = curand_normal(&s);
  for (int i = 0; i < kDraws; ++i) dbl[t * kDraws + i] = curand_uniform_double(&s);
  for (int i = 0; i < kDraws; ++i) dnor[t * kDraws + i] = curand_normal_double(&s);
  for (int i = 0; i < kDraws; ++i) lognor[t * kDraws + i] = curand_log_normal(&s, 0.5f, 0.25f);
  for (int i = 0; i < kDraws; ++i) poisson[t * kDraws + i] = curand_poisson(&s, 3.5 + t % 7);
  // skipahead from a fresh state equals drawing that far.
  State a, b;
  init(dirv + d * sizeof(Word) * 8, scramble, 0, &a);
  init(dirv + d * sizeof(Word) * 8, scramble, 0, &b);
  const unsigned long long n = 37ull * t + 5;
  for (unsigned long long i = 0; i < n; ++i) curand(&a);
  skipahead(n, &b);
  skipped[t * 2] = curand(&b);
  skipped[t * 2 + 1] = curand(&a) == skipped[t * 2] ? 1 : 0;
}

template <class T>
static T* device(int n) {
  T* p;
  cudaMalloc(&p, n * sizeof(T));
  return p;
}

template <class T>
static T* host_copy(const T* d, int n) {
  T* h = new T[n];
  cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

static unsigned long long fnv(const void* p, std::size_t n, unsigned long long h) {
  const unsigned char* b = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

template <class T>
static unsigned long long bits(T v) {
  unsigned long long u = 0;
  std::memcpy(&u, &v, sizeof v);
  return u;
}

template <class T>
static void print_first(const char* name, const char* kind, const T* v) {
  std::printf("%s %s", name, kind);
  for (int t = 0; t < 3; ++t)
    for (int i = 0; i < 3; ++i)
      std::printf(" %0*llx", static_cast<int>(2 * sizeof(T)), bits(v[t * kDraws + i]));
  std::printf(" | digest %016llx\n", fnv(v, sizeof(T) * kThreads * kDraws, 1469598103934665603ull));
}

template <class State>
static void run(const char* name) {
  using Word = typename sobol_traits<State>::word;
  constexpr int bits_per_word = sizeof(Word) * 8;
  Word host_dirs[kDims * bits_per_word];
  for (int d = 0; d < kDims; ++d)
    direction_vectors<Word, bits_per_word>(d, host_dirs + d * bits_per_word);
  Word* dirv = device<Word>(kDims * bits_per_word);
  cudaMemcpy(dirv, host_dirs, sizeof host_dirs, cudaMemcpyHostToDevice);
  const int n = kThreads * kDraws;
  Word* raw = device<Word>(n);
  float* uni = device<float>(n);
  float* nor = device<float>(n);
  double* dbl = device<double>(n);
  double* dnor = device<double>(n);
  float* lognor = device<float>(n);
  unsigned* poisson = device<unsigned>(n);
  Word* skipped = device<Word>(2 * kThreads);
  draw<State, Word><<<2, kThreads / 2>>>(dirv, raw, uni, nor, dbl, dnor, lognor, poisson, skipped);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("%s: launch failed\n", name);
    return;
  }
  print_first(name, "raw", host_copy(raw, n));
  print_first(name, "uniform", host_copy(uni, n));
  print_first(name, "normal", host_copy(nor, n));
  print_first(name, "double", host_copy(dbl, n));
  print_first(name, "normal_double", host_copy(dnor, n));
  print_first(name, "log_normal", host_copy(lognor, n));
  print_first(name, "poisson", host_copy(poisson, n));
  Word* sk = host_copy(skipped, 2 * kThreads);
  int agree = 0;
  for (int t = 0; t < kThreads; ++t) agree += sk[t * 2 + 1] != 0;
  std::printf("%s skipahead %0*llx %0*llx agree %d/%d | digest %016llx\n", name,
              static_cast<int>(2 * sizeof(Word)), bits(sk[0]), static_cast<int>(2 * sizeof(Word)),
              bits(sk[2 * 9]), agree, kThreads,
              fnv(sk, sizeof(Word) * 2 * kThreads, 1469598103934665603ull));
}

int main() {
  run<curandStateSobol32_t>("sobol32");
  run<curandStateScrambledSobol32_t>("scrambled_sobol32");
  run<curandStateSobol64_t>("sobol64");
  run<curandStateScrambledSobol64_t>("scrambled_sobol64");
  return 0;
}
