// Time on the device: a kernel that spins until clock64() has advanced by 1e9 cycles must take
// about 1e9 / clockRate seconds of host time (within a factor of 3), and %globaltimer must advance
// by 50 us .. 10 ms per __nanosleep(100000). Only "ok"/"not ok" goes to stdout; the measured
// numbers go to stderr.
//
// The globaltimer check averages over 10 consecutive sleeps: PTX only promises a nanosleep duration
// in [0, 2t], and on an H200 a single __nanosleep(100000) occasionally returned after ~16 us
// (typically 100-120 us), which made a one-sleep check flaky.
#include <chrono>
#include <cstdio>

__global__ void spin_cycles(long long cycles, long long* out) {
  const long long start = clock64();
  long long now = start;
  while (now - start < cycles) now = clock64();
  *out = now - start;
}

__device__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

constexpr int kSleeps = 10;

// out[0]: globaltimer advance across all kSleeps sleeps; out[1 + i]: across sleep i.
__global__ void sleep_between_reads(unsigned long long* out) {
  const unsigned long long t0 = globaltimer();
  unsigned long long prev = t0;
  for (int i = 0; i < kSleeps; ++i) {
    __nanosleep(100000);
    const unsigned long long t = globaltimer();
    out[1 + i] = t - prev;
    prev = t;
  }
  out[0] = prev - t0;
}

int main() {
  int dev = 0, khz = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev);
  long long* d_cycles;
  unsigned long long* d_ns;
  cudaMalloc(&d_cycles, sizeof(long long));
  cudaMalloc(&d_ns, (1 + kSleeps) * sizeof(unsigned long long));

  spin_cycles<<<1, 1>>>(1000, d_cycles);  // warm-up: module load, clocks up
  cudaDeviceSynchronize();

  const long long cycles = 1000000000LL;
  const auto t0 = std::chrono::steady_clock::now();
  spin_cycles<<<1, 1>>>(cycles, d_cycles);
  const cudaError_t err = cudaDeviceSynchronize();
  const double host_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  long long spun = 0;
  cudaMemcpy(&spun, d_cycles, sizeof spun, cudaMemcpyDeviceToHost);
  const double want_s = 1e9 / (khz * 1000.0);
  const bool clock_ok = err == cudaSuccess && khz > 0 && spun >= cycles && host_s > want_s / 3 && host_s < want_s * 3;
  std::fprintf(stderr, "clockRate %d kHz, spun %lld cycles, host %.6f s, expected %.6f s\n", khz, spun, host_s, want_s);
  if (clock_ok)
    std::printf("clock64 spin of %lld cycles against clockRate: ok\n", cycles);
  else
    std::printf("clock64 spin of %lld cycles against clockRate: %s clockRate %d kHz, spun %lld, host %.3f s, expected %.3f s\n",
                cycles, cudaGetErrorName(err), khz, spun, host_s, want_s);

  for (int i = 0; i < 3; ++i) {
    sleep_between_reads<<<1, 1>>>(d_ns);
    const cudaError_t e = cudaDeviceSynchronize();
    unsigned long long ns[1 + kSleeps] = {};
    cudaMemcpy(ns, d_ns, sizeof ns, cudaMemcpyDeviceToHost);
    std::fprintf(stderr, "globaltimer across %d sleeps: %llu ns; each:", kSleeps, ns[0]);
    for (int k = 1; k <= kSleeps; ++k) std::fprintf(stderr, " %llu", ns[k]);
    std::fprintf(stderr, "\n");
    const bool ok = e == cudaSuccess && ns[0] >= 50000ull * kSleeps && ns[0] <= 10000000ull * kSleeps;
    std::printf("globaltimer across %d x __nanosleep(100000), run %d: %s\n", kSleeps, i, ok ? "ok" : "not ok");
  }
  return 0;
}
