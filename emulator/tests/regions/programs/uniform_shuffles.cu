// Warp shuffles whose lane or delta is the same in every thread (a literal, a kernel parameter,
// a loop counter, a value computed from the block's shape), which the region form computes for
// the whole block before the statement that reads them; and the forms it must not treat so (the
// statement writes the delta first; a lane-dependent delta). Every op, widths 32 to 1, deltas
// past the width, 4- and 8-byte integers and floating-point values, blocks of whole warps, with a
// partial warp and of two dimensions. Each kernel's output is compared with a CPU reference
// written from the CUDA C++ Programming Guide's description of __shfl*_sync, and its checksum
// printed (the GPU's own run gives the same lines).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

// One shuffle per op, its delta a kernel parameter, at width W (a literal: the region form needs
// one); out gets up + 3*down + 5*xor + 7*idx.
__global__ void by_parameter_32(const int* in, int* out, int delta) {
  const unsigned i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const int v = in[i];
  const int up = __shfl_up_sync(0xffffffffu, v, delta, 32);
  const int down = __shfl_down_sync(0xffffffffu, v, delta, 32);
  const int x = __shfl_xor_sync(0xffffffffu, v, delta, 32);
  const int idx = __shfl_sync(0xffffffffu, v, delta, 32);
  out[i] = up + 3 * down + 5 * x + 7 * idx;
}
__global__ void by_parameter_16(const int* in, int* out, int delta) {
  const unsigned i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const int v = in[i];
  const int up = __shfl_up_sync(0xffffffffu, v, delta, 16);
  const int down = __shfl_down_sync(0xffffffffu, v, delta, 16);
  const int x = __shfl_xor_sync(0xffffffffu, v, delta, 16);
  const int idx = __shfl_sync(0xffffffffu, v, delta, 16);
  out[i] = up + 3 * down + 5 * x + 7 * idx;
}
__global__ void by_parameter_8(const int* in, int* out, int delta) {
  const unsigned i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const int v = in[i];
  const int up = __shfl_up_sync(0xffffffffu, v, delta, 8);
  const int down = __shfl_down_sync(0xffffffffu, v, delta, 8);
  const int x = __shfl_xor_sync(0xffffffffu, v, delta, 8);
  const int idx = __shfl_sync(0xffffffffu, v, delta, 8);
  out[i] = up + 3 * down + 5 * x + 7 * idx;
}
__global__ void by_parameter_4(const int* in, int* out, int delta) {
  const unsigned i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const int v = in[i];
  const int up = __shfl_up_sync(0xffffffffu, v, delta, 4);
  const int down = __shfl_down_sync(0xffffffffu, v, delta, 4);
  const int x = __shfl_xor_sync(0xffffffffu, v, delta, 4);
  const int idx = __shfl_sync(0xffffffffu, v, delta, 4);
  out[i] = up + 3 * down + 5 * x + 7 * idx;
}
__global__ void by_parameter_2(const int* in, int* out, int delta) {
  const unsigned i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const int v = in[i];
  const int up = __shfl_up_sync(0xffffffffu, v, delta, 2);
  const int down = __shfl_down_sync(0xffffffffu, v, delta, 2);
  const int x = __shfl_xor_sync(0xffffffffu, v, delta, 2);
  const int idx = __shfl_sync(0xffffffffu, v, delta, 2);
  out[i] = up + 3 * down + 5 * x + 7 * idx;
}
__global__ void by_parameter_1(const int* in, int* out, int delta) {
  const unsigned i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const int v = in[i];
  const int up = __shfl_up_sync(0xffffffffu, v, delta, 1);
  const int down = __shfl_down_sync(0xffffffffu, v, delta, 1);
  const int x = __shfl_xor_sync(0xffffffffu, v, delta, 1);
  const int idx = __shfl_sync(0xffffffffu, v, delta, 1);
  out[i] = up + 3 * down + 5 * x + 7 * idx;
}

// A loop counter as the delta (a butterfly and a shift reduction), 8-byte values.
__global__ void by_loop(const long long* in, long long* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  long long a = in[i], b = in[i];
  for (int m = 16; m > 0; m >>= 1) a += __shfl_xor_sync(0xffffffffu, a, m);
  for (int d = 1; d < 32; d *= 2) b = b * 3 + __shfl_up_sync(0xffffffffu, b, d);
  out[2 * i] = a;
  out[2 * i + 1] = b;
}

// Floating-point values; the delta from the block's shape; the value offered an expression.
__global__ void by_shape(const double* in, double* out, const float* fin, float* fout) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const int d = blockDim.x / 32 + 1;
  const double v = in[i];
  out[i] = __shfl_down_sync(0xffffffffu, v * 2.0, d) - v;
  fout[i] = __shfl_sync(0xffffffffu, fin[i] + 1.0f, d + 4, 8);
}

// A partial warp (blocks of 48 threads): shifts up read only lanes that exist.
__global__ void partial_up(const int* in, int* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned first = threadIdx.x & ~31u;
  const unsigned mask = blockDim.x - first >= 32 ? 0xffffffffu : (1u << (blockDim.x - first)) - 1;
  int v = in[i];
  for (int d = 1; d < 16; d *= 2) v = 2 * v + __shfl_up_sync(mask, v, d);
  out[i] = v;
}

// Not uniform once: the statement writes its delta first; a delta that depends on the lane.
__global__ void not_once(const int* in, int* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = 1, v = in[i];
  k = 3, v += __shfl_down_sync(0xffffffffu, v, k);
  const int w = __shfl_sync(0xffffffffu, v, static_cast<int>(threadIdx.x * 7 % 32));
  out[i] = v * 11 + w;
}

namespace {

// The CUDA C++ Programming Guide's rules, for lane `l` of a warp of `n` lanes (a partial warp
// has fewer; its missing lanes read 0 as a GPU's do not exist: the tests avoid reading them,
// except where noted), `x` the warp's values.
template <class T>
T shfl_idx(const T* x, int l, int src, int w) { return x[(l / w) * w + (src % w + w) % w]; }
template <class T>
T shfl_up(const T* x, int l, unsigned d, int w) {
  return static_cast<int>(l % w) - static_cast<int>(d) < 0 ? x[l] : x[l - d];
}
template <class T>
T shfl_down(const T* x, int l, unsigned d, int w) {
  return l % w + d >= static_cast<unsigned>(w) ? x[l] : x[l + d];
}
template <class T>
T shfl_xor(const T* x, int l, int m, int w) {
  const int src = l ^ m;
  return src >= (l / w + 1) * w ? x[l] : x[src];  // a later group: the lane's own value
}

std::uint64_t checksum(const void* p, std::size_t bytes) {
  std::uint64_t h = 1469598103934665603ull;
  const auto* b = static_cast<const unsigned char*>(p);
  for (std::size_t k = 0; k < bytes; ++k) h = (h ^ b[k]) * 1099511628211ull;
  return h;
}

template <class T>
void report(const char* what, const std::vector<T>& got, const std::vector<T>& want) {
  std::size_t bad = 0;
  for (std::size_t k = 0; k < got.size(); ++k)
    bad += std::memcmp(&got[k], &want[k], sizeof(T)) != 0;
  std::printf("%s: %s %016llx\n", what, bad ? "WRONG" : "ok",
              static_cast<unsigned long long>(checksum(got.data(), got.size() * sizeof(T))));
}

template <class T>
std::vector<T> fetch(const T* d, std::size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

}  // namespace

int main() {
  const int n = 64 * 12;
  std::vector<int> hi(n);
  std::vector<long long> hl(n);
  std::vector<double> hd(n);
  std::vector<float> hf(n);
  for (int k = 0; k < n; ++k) {
    hi[k] = static_cast<int>((k * 2654435761u) >> 9 & 4095) - 2000;
    hl[k] = static_cast<long long>(k) * 1000003 - 77;
    hd[k] = k * 0.37 - 50.0;
    hf[k] = static_cast<float>(k) * 0.25f - 9.0f;
  }
  int *di, *dout;
  long long *dl, *dlo;
  double *dd, *ddo;
  float *df, *dfo;
  cudaMalloc(&di, n * sizeof(int));
  cudaMalloc(&dout, n * sizeof(int));
  cudaMalloc(&dl, n * sizeof(long long));
  cudaMalloc(&dlo, 2 * n * sizeof(long long));
  cudaMalloc(&dd, n * sizeof(double));
  cudaMalloc(&ddo, n * sizeof(double));
  cudaMalloc(&df, n * sizeof(float));
  cudaMalloc(&dfo, n * sizeof(float));
  cudaMemcpy(di, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dl, hl.data(), n * sizeof(long long), cudaMemcpyHostToDevice);
  cudaMemcpy(dd, hd.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(df, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice);

  // by_parameter: whole warps (64 x 1 and 16 x 4) for every width, deltas 0..39.
  auto run_parameter = [&](int W, void (*kernel)(const int*, int*, int), dim3 block, const char* shape) {
    std::vector<int> got, want;
    for (int delta = 0; delta < 40; ++delta) {
      kernel<<<n / (block.x * block.y), block>>>(di, dout, delta);
      const std::vector<int> o = fetch(dout, n);
      got.insert(got.end(), o.begin(), o.end());
      for (int w0 = 0; w0 < n; w0 += 32)
        for (int l = 0; l < 32; ++l) {
          const int* x = &hi[w0];
          const unsigned d = static_cast<unsigned>(delta) & 31u;  // PTX reads the low 5 bits
          want.push_back(shfl_up(x, l, d, W) + 3 * shfl_down(x, l, d, W) +
                         5 * shfl_xor(x, l, delta & 31, W) + 7 * shfl_idx(x, l, delta, W));
        }
    }
    char what[64];
    std::snprintf(what, sizeof what, "by_parameter width %d, %s", W, shape);
    report(what, got, want);
  };
  run_parameter(32, by_parameter_32, dim3(64), "64 threads");
  run_parameter(16, by_parameter_16, dim3(64), "64 threads");
  run_parameter(8, by_parameter_8, dim3(16, 4), "16 x 4 threads");
  run_parameter(4, by_parameter_4, dim3(64), "64 threads");
  run_parameter(2, by_parameter_2, dim3(64), "64 threads");
  run_parameter(1, by_parameter_1, dim3(64), "64 threads");

  // by_loop: blocks of 96 and of 64 threads.
  for (int bx : {96, 64}) {
    by_loop<<<n / bx, bx>>>(dl, dlo);
    std::vector<long long> want(2 * n);
    for (int w0 = 0; w0 < n; w0 += 32) {
      std::vector<long long> a(hl.begin() + w0, hl.begin() + w0 + 32), b = a, t(32);
      for (int m = 16; m > 0; m >>= 1) {
        for (int l = 0; l < 32; ++l) t[l] = a[l] + shfl_xor(a.data(), l, m, 32);
        a = t;
      }
      for (int d = 1; d < 32; d *= 2) {
        for (int l = 0; l < 32; ++l) t[l] = b[l] * 3 + shfl_up(b.data(), l, d, 32);
        b = t;
      }
      for (int l = 0; l < 32; ++l) {
        want[2 * (w0 + l)] = a[l];
        want[2 * (w0 + l) + 1] = b[l];
      }
    }
    report(bx == 96 ? "by_loop, 96 threads" : "by_loop, 64 threads", fetch(dlo, 2 * n), want);
  }

  // by_shape: blocks of 64 (delta 3) and 128 (delta 5) threads.
  for (int bx : {64, 128}) {
    by_shape<<<n / bx, bx>>>(dd, ddo, df, dfo);
    const int d = bx / 32 + 1;
    std::vector<double> want(n);
    std::vector<float> fwant(n);
    for (int w0 = 0; w0 < n; w0 += 32) {
      std::vector<double> v2(32);
      std::vector<float> f1(32);
      for (int l = 0; l < 32; ++l) {
        v2[l] = hd[w0 + l] * 2.0;
        f1[l] = hf[w0 + l] + 1.0f;
      }
      for (int l = 0; l < 32; ++l) {
        want[w0 + l] = shfl_down(v2.data(), l, d, 32) - hd[w0 + l];
        fwant[w0 + l] = shfl_idx(f1.data(), l, d + 4, 8);
      }
    }
    report(bx == 64 ? "by_shape double, 64 threads" : "by_shape double, 128 threads", fetch(ddo, n), want);
    report(bx == 64 ? "by_shape float, 64 threads" : "by_shape float, 128 threads", fetch(dfo, n), fwant);
  }

  // partial_up.
  partial_up<<<n / 48, 48>>>(di, dout);
  {
    std::vector<int> want(n);
    for (int b0 = 0; b0 < n; b0 += 48)
      for (int w0 = b0; w0 < b0 + 48; w0 += 32) {
        const int lanes = w0 + 32 <= b0 + 48 ? 32 : 16;
        std::vector<int> v(hi.begin() + w0, hi.begin() + w0 + lanes), t(lanes);
        for (int d = 1; d < 16; d *= 2) {
          for (int l = 0; l < lanes; ++l) t[l] = 2 * v[l] + shfl_up(v.data(), l, d, 32);
          v = t;
        }
        for (int l = 0; l < lanes; ++l) want[w0 + l] = v[l];
      }
    report("partial_up, 48 threads", fetch(dout, n), want);
  }

  // not_once.
  not_once<<<n / 64, 64>>>(di, dout);
  {
    std::vector<int> want(n);
    for (int w0 = 0; w0 < n; w0 += 32) {
      std::vector<int> v(32);
      for (int l = 0; l < 32; ++l) v[l] = hi[w0 + l] + shfl_down(&hi[w0], l, 3, 32);
      for (int l = 0; l < 32; ++l) want[w0 + l] = v[l] * 11 + shfl_idx(v.data(), l, l * 7 % 32, 32);
    }
    report("not_once", fetch(dout, n), want);
  }
  std::printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
