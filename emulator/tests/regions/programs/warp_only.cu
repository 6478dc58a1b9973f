// Kernels whose only synchronisation is warp-level (no block barrier anywhere in the file): a
// shuffle reduction, a ballot count, a cooperative-groups tile reduction and a __syncwarp ring.
// They take the region form like kernels beside a block barrier do; each result is checked
// against a CPU reference here.
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__global__ void shuffle_sum(const unsigned* in, unsigned* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

__global__ void ballot_count(const unsigned* in, unsigned* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned b = __ballot_sync(0xffffffffu, in[i] % 3 == 0);
  if ((threadIdx.x & 31) == 0) out[i / 32] = __popc(b);
}

__global__ void tile_sum(const unsigned* in, unsigned* out) {
  const cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  for (int off = 8; off > 0; off >>= 1) v += tile.shfl_down(v, off);
  if (tile.thread_rank() == 0) out[i / 16] = v;
}

__global__ void syncwarp_ring(const unsigned* in, unsigned* out) {
  __shared__ unsigned ring[64];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  ring[threadIdx.x] = in[i];
  __syncwarp();
  const unsigned base = threadIdx.x & ~31u;
  out[i] = ring[base + ((threadIdx.x + 1) & 31)] * 3 + in[i];
}

// Every shuffle kind in 16-lane segments, in blocks of whole warps (64: the loop's fast case,
// where a slot's bits give its lane) and with a partial last warp (48 threads: lanes 32-47).
__global__ void shuffle_kinds(const unsigned* in, unsigned* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned v = in[i];
  const unsigned up = __shfl_up_sync(0xffffffffu, v, 1, 16);
  const unsigned down = __shfl_down_sync(0xffffffffu, v, 2, 16);
  const unsigned x = __shfl_xor_sync(0xffffffffu, v, 5, 16);
  const unsigned idx = __shfl_sync(0xffffffffu, v, 3, 16);
  out[i] = up + 3 * down + 5 * x + 7 * idx;
}

int main() {
  const int n = 64 * 40;
  std::vector<unsigned> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 2654435761u) >> 7 & 1023;
  unsigned *in, *out;
  cudaMalloc(&in, n * sizeof(unsigned));
  cudaMalloc(&out, n * sizeof(unsigned));
  cudaMemcpy(in, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  std::vector<unsigned> got(n);
  auto check = [&](const char* name, int count, auto want) {
    cudaMemcpy(got.data(), out, count * sizeof(unsigned), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int k = 0; k < count; ++k) bad += got[k] != want(k);
    std::printf("%s: %s\n", name, bad ? "WRONG" : "ok");
  };
  // The sum of the `width` inputs of group g.
  auto group_sum = [&](int g, int width) {
    unsigned s = 0;
    for (int l = 0; l < width; ++l) s += h[g * width + l];
    return s;
  };
  shuffle_sum<<<n / 64, 64>>>(in, out);
  check("shuffle_sum", n / 32, [&](int w) { return group_sum(w, 32); });
  ballot_count<<<n / 64, 64>>>(in, out);
  check("ballot_count", n / 32, [&](int w) {
    unsigned c = 0;
    for (int l = 0; l < 32; ++l) c += h[w * 32 + l] % 3 == 0;
    return c;
  });
  tile_sum<<<n / 64, 64>>>(in, out);
  check("tile_sum", n / 16, [&](int t) { return group_sum(t, 16); });
  syncwarp_ring<<<n / 64, 64>>>(in, out);
  check("syncwarp_ring", n, [&](int i) {
    const int base = i & ~31;
    return h[base + ((i + 1) & 31)] * 3 + h[i];
  });
  // Segments of 16 threads of a block of `bx` (a multiple of 16): lane l of segment base b.
  auto kinds = [&](int i, int bx) {
    const int b = i / bx * bx + (i % bx) / 16 * 16, l = i - b;
    const unsigned up = l >= 1 ? h[i - 1] : h[i], down = l + 2 < 16 ? h[i + 2] : h[i];
    return up + 3 * down + 5 * h[b + (l ^ 5)] + 7 * h[b + 3];
  };
  for (int bx : {64, 48}) {
    shuffle_kinds<<<n / bx, bx>>>(in, out);
    check(bx == 64 ? "shuffle_kinds (whole warps)" : "shuffle_kinds (a partial warp)", n / bx * bx,
          [&](int i) { return kinds(i, bx); });
  }
  std::printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
