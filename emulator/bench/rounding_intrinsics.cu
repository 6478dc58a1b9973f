// What a rounding-mode intrinsic costs on the emulator against the same arithmetic rounded to
// nearest, in one run (issue 14's libdevice; COMPATIBILITY.md, "Math library"):
//   cuemu run -O2 --workers=1 emulator/bench/rounding_intrinsics.cu
// 2048 threads, each 1000 iterations of an add rounded up and a multiply rounded down
// (__dadd_ru, __dmul_rd; then __fadd_ru, __fmul_rd), against `+` and `*`; medians of 9 launches.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

template <class T, bool kDirected>
__global__ void chain(T* out, int n) {
  T a = threadIdx.x * T(1e-3), b = T(1) / T(3);
  for (int i = 0; i < n; ++i) {
    if constexpr (kDirected) {
      if constexpr (sizeof(T) == 8) {
        a = __dadd_ru(a, b);
        b = __dmul_rd(b, T(1.0000001));
      } else {
        a = __fadd_ru(a, b);
        b = __fmul_rd(b, T(1.0000001));
      }
    } else {
      a = a + b;
      b = b * T(1.0000001);
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}

template <class T, bool kDirected>
double median_ms(T* out) {
  std::vector<double> t;
  for (int r = 0; r < 9; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    chain<T, kDirected><<<8, 256>>>(out, 1000);
    cudaDeviceSynchronize();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  double* d;
  float* f;
  cudaMallocManaged(&d, 2048 * sizeof(double));
  cudaMallocManaged(&f, 2048 * sizeof(float));
  const double calls = 2048.0 * 1000 * 2;
  const double dn = median_ms<double, false>(d), dr = median_ms<double, true>(d);
  const double fn = median_ms<float, false>(f), fr = median_ms<float, true>(f);
  std::printf("double: rounded to nearest %.2f ms, __dadd_ru/__dmul_rd %.2f ms (%.1f ns a call, %.1fx)\n",
              dn, dr, dr * 1e6 / calls, dr / dn);
  std::printf("float:  rounded to nearest %.2f ms, __fadd_ru/__fmul_rd %.2f ms (%.1f ns a call, %.1fx)\n",
              fn, fr, fr * 1e6 / calls, fr / fn);
  return 0;
}
