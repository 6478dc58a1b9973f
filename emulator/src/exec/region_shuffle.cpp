// A warp shuffle of the region form whose lane or delta and width are the same in every thread
// (cuemu/regions.h, region_shuffled): every thread's result at once, for a block of whole warps
// in the default order. Every warp reads the same source lanes, so the pattern is worked out
// once (shuffle_source, the executor's rules) and applied to each warp; a shift (__shfl_down_sync,
// __shfl_up_sync of the whole warp) is one copy of the block and the warps' edges.
#include <cstdint>
#include <cstring>

#include <cuemu/regions.h>

namespace cuemu::detail {

namespace {

struct pattern {
  unsigned char src[32];  // the lane each lane reads (its own where outside its segment)
};

pattern make_pattern(warp_op op, int arg, int width) {
  pattern p;
  for (unsigned lane = 0; lane < 32; ++lane) {
    unsigned j;
    p.src[lane] = static_cast<unsigned char>(shuffle_source(op, lane, arg, width, j) ? j : lane);
  }
  return p;
}

// A whole-warp shift, over the block at once: every lane reads lane + d (shfl_down) or lane - d
// (shfl_up) of the block's array, one copy; then the d lanes of each warp whose source is
// outside the warp keep their own values.
template <class E>
void shift_down(const E* from, E* to, unsigned n, unsigned d) {
  std::memcpy(to, from + d, (n - d) * sizeof(E));
  for (unsigned w = 0; w < n; w += 32)
    for (unsigned l = 32 - d; l < 32; ++l) to[w + l] = from[w + l];
}
template <class E>
void shift_up(const E* from, E* to, unsigned n, unsigned d) {
  std::memcpy(to + d, from, (n - d) * sizeof(E));
  for (unsigned w = 0; w < n; w += 32)
    for (unsigned l = 0; l < d; ++l) to[w + l] = from[w + l];
}
template <class E>
void gather(const E* from, E* to, unsigned n, const pattern& p) {
  for (unsigned w = 0; w < n; w += 32) {
    const E* x = from + w;
    E* y = to + w;
    for (unsigned l = 0; l < 32; ++l) y[l] = x[p.src[l]];
  }
}

template <class E>
void apply(const void* from, void* to, unsigned n, warp_op op, int arg, int width) {
  const E* x = static_cast<const E*>(from);
  E* y = static_cast<E*>(to);
  const unsigned d = static_cast<unsigned>(arg) & 31u;
  if (width == 32 && op == warp_op::shfl_down) return shift_down(x, y, n, d);
  if (width == 32 && op == warp_op::shfl_up) return shift_up(x, y, n, d);
  gather(x, y, n, make_pattern(op, arg, width));
}

// Any other size: the element's bytes.
void apply_bytes(const void* from, void* to, unsigned n, std::size_t size, warp_op op, int arg,
                 int width) {
  const pattern p = make_pattern(op, arg, width);
  const auto* x = static_cast<const unsigned char*>(from);
  auto* y = static_cast<unsigned char*>(to);
  for (unsigned w = 0; w < n; w += 32)
    for (unsigned l = 0; l < 32; ++l)
      std::memcpy(y + (w + l) * size, x + (w + p.src[l]) * size, size);
}

struct bytes16 {
  unsigned long long lo, hi;
};

}  // namespace

void shuffle_whole_warps(const void* from, void* to, unsigned n, std::size_t size, warp_op op,
                         int arg, int width) noexcept {
  // The region form's arrays are aligned to their element type; these sizes are read as words
  // only where that alignment allows it.
  const auto aligned = [&](std::size_t a) {
    return reinterpret_cast<std::uintptr_t>(from) % a == 0 && reinterpret_cast<std::uintptr_t>(to) % a == 0;
  };
  switch (size) {
    case 1: return apply<unsigned char>(from, to, n, op, arg, width);
    case 2: if (aligned(2)) return apply<unsigned short>(from, to, n, op, arg, width); break;
    case 4: if (aligned(4)) return apply<unsigned>(from, to, n, op, arg, width); break;
    case 8: if (aligned(8)) return apply<unsigned long long>(from, to, n, op, arg, width); break;
    case 16: if (aligned(8)) return apply<bytes16>(from, to, n, op, arg, width); break;
    default: break;
  }
  apply_bytes(from, to, n, size, op, arg, width);
}

}  // namespace cuemu::detail
