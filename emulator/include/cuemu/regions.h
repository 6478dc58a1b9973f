// Barrier regions as loops over threads: what the code written by cuemu-regions
// (emulator/src/regions) calls. A kernel the region translator proved safe gets, at the top of
// its body, a second form of itself: its statements cut at __syncthreads() into regions, each
// region a loop over the block's threads (`each`), the block-level control flow around them
// (loops and branches holding a barrier, their conditions proved the same in every thread)
// evaluated once (`uniform`, `once`),
// and every local variable that lives across a barrier stored per thread (`region_var`).
// The executor (exec/region_block.cpp) runs a block of such a kernel by calling it once with
// t_regions set, instead of running each CUDA thread as a coroutine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <device_launch_parameters.h>

#include "cuemu/launch.h"
#include "cuemu/sync_functions.h"

// The code of a statement run as coroutines (region_block::fibers) is a function of its own,
// called through a pointer, not inlined into the kernel: it takes the kernel's floating-point
// attributes itself (cuemu/launch.h: contraction into fused multiply-adds, the GPU's NaNs).
#if defined(__GNUC__) && !defined(__clang__)
#define CUEMU_FIBER_STATEMENT \
  __attribute__((optimize("fp-contract=fast", "expensive-optimizations", "no-tree-vectorize"))) CUEMU_KERNEL_NAN
#else
#define CUEMU_FIBER_STATEMENT CUEMU_KERNEL_NAN
#endif

namespace cuemu::detail {

template <class T>
class region_var;

// A slot of a block whose warps are all whole, in the default order (slot == linear index): its
// lane and its warp's first slot are its bits. A shuffle's consuming pass gets one of these
// (the translator's lambda there takes `auto`), so its source lane costs a few instructions.
struct warp_slot {
  unsigned s;
  operator unsigned() const noexcept { return s; }
};

struct region_block {
  const uint3* tid = nullptr;    // threadIdx by slot (the block's schedule order)
  unsigned n = 0;                // threads in the block
  unsigned live = 0;             // threads that have not returned
  // The slot of the CUDA thread running now (n between regions): the executor's record of the
  // running thread in a region block (faults, the device runtime's per-thread state).
  unsigned at = 0;
  unsigned char* exited = nullptr;  // per slot: returned (or PTX exit)
  unsigned first = 0;               // no thread before this slot is live
  const unsigned* index_of = nullptr;  // slot -> the thread's linear index in the block
  const unsigned* slot_of = nullptr;   // linear index -> slot
  bool identity = false;               // slot == linear index (the default schedule)
  // Slot s is thread (s, 0, 0), a one-dimensional block in the default order: a thread's step
  // stores threadIdx.x alone (the executor zeroes y and z). A memory-bound region's own stores
  // queue behind every store the loop adds.
  bool linear = false;
  void* owner = nullptr;  // the block executor

  // Storage for the block's per-thread variables, from the executor's arena (freed when the
  // block ends): a bump of `arena_at` within the current chunk, else exec/region_block.cpp.
  // `align` is a power of two.
  [[gnu::always_inline]] inline void* alloc(std::size_t bytes, std::size_t align) {
    const std::uintptr_t place = (reinterpret_cast<std::uintptr_t>(arena_at) + align - 1) & ~(align - 1);
    if (arena_at && place + bytes <= reinterpret_cast<std::uintptr_t>(arena_end)) {
      arena_at = reinterpret_cast<unsigned char*>(place + bytes);
      return reinterpret_cast<void*>(place);
    }
    return alloc_chunk(bytes, align);
  }
  unsigned char* arena_at = nullptr;   // the arena's current chunk: its unused bytes
  unsigned char* arena_end = nullptr;
  void* alloc_chunk(std::size_t bytes, std::size_t align);  // exec/region_block.cpp
  void run_fibers(source_location where, bool last, void* f, bool (*call)(void*, unsigned),
                  void (*batch)(region_block&, lane_batch&, void*));  // exec/region_block.cpp

  // Runs f(slot) as each thread of the block that has not returned, in schedule order. f returns
  // false where the thread returned from the kernel. ThreadIdx: whether the region reads
  // threadIdx (the translation proved it does not, through every function it calls: the
  // runtime's own entry points find the running thread through `at`). At: whether the region
  // can fault or reach the runtime, which then asks which thread runs (the translation proved it
  // cannot: no call, no access through a pointer; the loop may then vectorise).
  template <bool ThreadIdx = true, bool At = true, class F>
  [[gnu::always_inline]] inline void each(F&& f) {
    run_below<ThreadIdx, At>(f, n);
    at = n;
  }

  // `each` for a pass that reads a shuffle's values (f takes `auto`): in a block of whole warps
  // in the default order with every thread live, the slots come as warp_slot.
  template <bool ThreadIdx = true, bool At = true, class F>
  [[gnu::always_inline]] inline void each_warp(F&& f) {
    if (live == n && identity && n % 32 == 0) {
      const unsigned end = n;  // a local: the pass's stores may alias the block's fields
      for (unsigned s = 0; s < end; ++s) step<ThreadIdx, At>(f, warp_slot{s});
      at = n;
      return;
    }
    each<ThreadIdx, At>(f);
  }

  // `each` for a region that is one `if (t < L) ...` with t a copy of threadIdx.x the kernel only
  // reads and L the same in every thread (the translation proved both): a thread whose threadIdx.x is not
  // below L does nothing there. In a one-dimensional block in the default order a slot is its
  // thread's threadIdx.x, so only the slots below the first thread index that fails the test
  // run (`below(s, i)`: the test for threadIdx.x = i, evaluated as the first live thread, which
  // the test is true or false for in order). A tree reduction's step then costs its active
  // threads, not the block.
  template <bool ThreadIdx = true, bool At = true, class B, class F>
  [[gnu::always_inline]] inline void each_below(B&& below, F&& f) {
    if (!identity || blockDim.y != 1 || blockDim.z != 1) return each<ThreadIdx, At>(f);
    const unsigned s0 = first_live();
    unsigned lo = 0, hi = s0 == n ? 0 : n;  // the test holds below lo and fails at hi (or hi == n)
    while (lo < hi) {
      const unsigned mid = lo + (hi - lo) / 2;
      if (below(s0, mid)) lo = mid + 1;
      else hi = mid;
    }
    run_below<ThreadIdx, At>(f, lo);
    at = n;
  }

  // Code whose effect is the same in every thread (the translation proved it: a uniform loop
  // counter's initialisation or increment): run as the first thread that has not returned.
  template <class F>
  [[gnu::always_inline]] inline void once(F&& f) {
    const unsigned s = first_live();
    if (s == n) return;
    at = s;
    enter(s);
    f(s);
    at = n;
  }
  // __syncthreads_count/_and/_or: over the threads that have not returned, as the executor's
  // barrier counts its arrivals.
  template <class X>
  [[gnu::always_inline]] inline int vote(barrier_op op, const X& x) const {
    unsigned yes = 0, asked = 0;
    for (unsigned s = 0; s < n; ++s) {
      if (exited[s]) continue;
      ++asked;
      yes += x[s] != 0;
    }
    if (op == barrier_op::count) return static_cast<int>(yes);
    if (op == barrier_op::and_) return yes == asked;
    return yes != 0;
  }
  // The block's warps as a shuffle's read pass sees them: a value, which the compiler keeps in
  // registers over the pass (the pass's stores cannot change it).
  struct warps_view {
    const unsigned* index_of;
    const unsigned* slot_of;
    unsigned n;
    bool identity;
    template <class T>
    [[gnu::always_inline]] inline T shuffle(warp_op op, const region_var<T>& x, unsigned s, int arg,
                                            int width) const {
      return region_shuffle(*this, op, x, s, arg, width);
    }
    template <class T>
    [[gnu::always_inline]] inline T shuffle(warp_op op, const region_var<T>& x, warp_slot s, int arg,
                                            int width) const {
      return region_shuffle_whole(op, x, s.s, arg, width);
    }
    // A whole warp's __ballot_sync/__any_sync/__all_sync/__reduce_*_sync for the thread in slot
    // `s`, from the values every thread offered: the rules of exec/warp_collectives.cpp (over
    // the lanes that exist: a partial last warp's). Computed once per warp while its lanes
    // come one after another.
    template <class T>
    [[gnu::always_inline]] inline std::uint64_t fold(warp_op op, const region_var<T>& x,
                                                     unsigned s) const {
      const unsigned i = identity ? s : index_of[s];
      const unsigned first = i & ~31u;
      if (first == cached_first) return cached;
      const unsigned count = n - first < 32u ? n - first : 32u;
      cached_first = first;
      return cached = fold_warp(op, x, first, count);
    }
    template <class T>
    std::uint64_t fold_warp(warp_op op, const region_var<T>& x, unsigned first,
                            unsigned count) const {
      auto at = [&](unsigned j) -> const T& {
        return x[identity ? first + j : slot_of[first + j]];
      };
      if (op == warp_op::ballot || op == warp_op::any || op == warp_op::all) {
        std::uint32_t b = 0;
        for (unsigned j = 0; j < count; ++j)
          if (at(j)) b |= 1u << j;
        return warp_vote_result(op, b, count == 32 ? ~0u : (1u << count) - 1);
      }
      std::uint32_t red = static_cast<std::uint32_t>(at(0));
      for (unsigned j = 1; j < count; ++j)
        red = warp_reduce_step(op, red, static_cast<std::uint32_t>(at(j)));
      return red;
    }
    mutable unsigned cached_first = ~0u;
    mutable std::uint64_t cached = 0;
  };
  warps_view warps() const noexcept { return {index_of, slot_of, n, identity}; }
  // A block-level statement the translation cannot cut into loops (it reaches a barrier or a
  // warp collective through a function it calls, or under a condition that may differ between
  // threads; or it holds what the translation cannot see through: inline assembly, a call of
  // another file's function): every thread that has not returned runs f(slot) as a coroutine of
  // its own, as the whole kernel would on the coroutine path, its barriers and collectives the
  // executor's. Returns when every one has left the statement; f returns false where the thread
  // returned from the kernel.
  // A thread that finishes the statement waits at its end for the others: a barrier or warp
  // collective in the statement that needs it cannot complete (what a GPU would pair with a
  // barrier after the statement is a deadlock here, reported with the statement's place). Unless
  // `last`: no synchronisation follows the statement (the translation proved it), and a thread
  // that finishes it counts as gone from the block's barriers, as one that returned.
  template <class F>
  void fibers(const char* file, int line, bool last, F&& f) {
    using fn = std::remove_reference_t<F>;
    run_fibers(source_location{file, line}, last, static_cast<void*>(&f),
               [](void* p, unsigned s) -> bool { return (*static_cast<fn*>(p))(s); },
               &fiber_batch<fn>);
    at = n;
  }
  // The statement's lanes started one after another as plain calls, like the kernel's own batch
  // loop (cuemu/launch.h): slots [b.first, b.end) that have not returned, until one of them
  // synchronises (its lane then leaves the batch: b.epoch changes). A thread that returns from the
  // kernel in it is marked so at once.
  template <class F>
  static void fiber_batch(region_block& rb, lane_batch& b, void* p) {
    F& f = *static_cast<F*>(p);
    const unsigned long long epoch = b.epoch;
    const unsigned end = b.end;
    for (unsigned s = b.first; s < end; ++s) {
      if (rb.exited[s]) continue;
      if (b.linear) threadIdx.x = s;
      else threadIdx = b.tid[s];
      bool go;
      try {
        go = f(s);
      } catch (const thread_exit_signal&) {
        go = false;
      }
      if (!go) {
        rb.exited[s] = 1;
        --rb.live;
      }
      if (b.epoch != epoch) return;
    }
  }
  // The condition of a block-level loop or branch, proved the same in every thread.
  template <class F>
  [[gnu::always_inline]] inline bool uniform(F&& f) {
    bool r = false;
    once([&](unsigned s) { r = f(s); });
    return r;
  }

 private:
  // The first slot whose thread has not returned (n if none), remembered in `first`.
  unsigned first_live() {
    unsigned s = first;
    while (s < n && exited[s]) ++s;
    return first = s;
  }
  [[gnu::always_inline]] inline void enter(unsigned s) {
    if (linear) threadIdx.x = s;
    else threadIdx = tid[s];
  }
  // Runs f as each thread in the slots below `end` that has not returned.
  template <bool ThreadIdx, bool At, class F>
  [[gnu::always_inline]] inline void run_below(F& f, unsigned end) {
    if (live == n) {
      for (unsigned s = 0; s < end; ++s) step<ThreadIdx, At>(f, s);
    } else {
      const unsigned char* const gone = exited;
      for (unsigned s = first; s < end; ++s)
        if (!gone[s]) step<ThreadIdx, At>(f, s);
    }
  }
  template <bool ThreadIdx, bool At, class F, class Slot = unsigned>
  [[gnu::always_inline]] inline void step(F& f, Slot slot) {
    const unsigned s = slot;
    if constexpr (At) at = s;
    if constexpr (ThreadIdx) enter(s);
    bool go;
    try {
      go = f(slot);
    } catch (const thread_exit_signal&) {
      go = false;
    }
    if (!go) [[unlikely]] {
      exited[s] = 1;
      --live;
    }
  }
};

// Set by the executor while it runs a block of a kernel that has a region form.
inline thread_local region_block* t_regions = nullptr;

// A local variable live across a barrier: one per thread of the block.
template <class T>
class region_var {
 public:
  using stored = std::remove_cv_t<T>;
  explicit region_var(region_block& b)
      : p_(static_cast<stored*>(b.alloc(sizeof(stored) * b.n, alignof(stored)))) {}
  T& operator[](unsigned s) const noexcept { return p_[s]; }
  // The declaration's initialisation (the variable may be const, or an array; a parameter's
  // copy may come from a __restrict__ pointer).
  template <class U>
  void set(unsigned s, const U& v) const noexcept {
    if constexpr (std::is_array_v<stored>) {
      static_assert(sizeof(U) == sizeof(stored), "an array initialised from another type");
      std::memcpy(&p_[s], &v, sizeof(stored));
    } else {
      const stored x = v;
      std::memcpy(&p_[s], &x, sizeof(stored));
    }
  }
  // Every thread's value of `from` (of the same type, but for const), at once: a shuffle's
  // offered values when each thread offers a variable stored per thread as it is.
  template <class U>
  void copy(const region_var<U>& from, const region_block& b) const noexcept {
    static_assert(std::is_same_v<stored, typename region_var<U>::stored>);
    std::memcpy(p_, from.data(), sizeof(stored) * b.n);
  }
  stored* data() const noexcept { return p_; }
  // Thread s's value, as a value (a shuffle's result read from its array is not an lvalue).
  // (A template: the class may hold an array, whose value no function returns.)
  template <class S = stored>
  S get(unsigned s) const noexcept {
    return p_[s];
  }

 private:
  stored* p_;
};

// A variable live across a barrier whose type is not trivially copyable (cuda::pipeline, a
// class with a destructor), declared at the kernel's top level: each thread's object is
// constructed in place where the thread runs its declaration, never copied, and destroyed when
// the block's region form ends (a thread's own scope ends with the kernel's).
template <class T>
class region_object {
 public:
  using stored = std::remove_cv_t<T>;
  static_assert(!std::is_array_v<stored>, "the translation keeps arrays of objects on coroutines");
  explicit region_object(region_block& b)
      : p_(static_cast<stored*>(b.alloc(sizeof(stored) * b.n, alignof(stored)))),
        built_(static_cast<unsigned char*>(b.alloc(b.n, 1))),
        n_(b.n) {
    std::memset(built_, 0, n_);
  }
  region_object(const region_object&) = delete;
  region_object& operator=(const region_object&) = delete;
  ~region_object() {
    for (unsigned s = 0; s < n_; ++s)
      if (built_[s]) p_[s].~stored();
  }
  T& operator[](unsigned s) const noexcept { return p_[s]; }
  // Where thread s constructs its object (the one it had before, if any, ends first).
  void* place(unsigned s) const {
    if (built_[s]) p_[s].~stored();
    built_[s] = 1;
    return &p_[s];
  }

 private:
  stored* p_;
  unsigned char* built_;
  unsigned n_;
};

// A variable live across a barrier that has one value in every thread (the translation proved
// it): one copy for the block.
template <class T>
class region_uniform {
 public:
  using stored = std::remove_cv_t<T>;
  explicit region_uniform(region_block&) {}
  T& operator[](unsigned) noexcept { return v_; }
  template <class U>
  void set(unsigned, const U& v) noexcept {
    if constexpr (std::is_array_v<stored>) {
      static_assert(sizeof(U) == sizeof(stored), "an array initialised from another type");
      std::memcpy(&v_, &v, sizeof(stored));
    } else {
      const stored x = v;
      std::memcpy(&v_, &x, sizeof(stored));
    }
  }

 private:
  // Value-initialised: the block's `once` pass sets it, which g++'s -Wmaybe-uninitialized (in a
  // user's -Wall -Werror build) cannot see.
  stored v_{};
};

// The lane a __shfl*_sync of `lane` reads (j), and whether it is inside the lane's segment of
// `width` lanes (else the lane keeps its own value): the rules of exec/warp_collectives.cpp.
[[gnu::always_inline]] inline bool shuffle_source(warp_op op, unsigned lane, int arg, int width, unsigned& j) {
  const unsigned segmask = (32u - static_cast<unsigned>(width)) & 31u;
  const unsigned a = static_cast<unsigned>(arg) & 31u;
  const unsigned min_lane = lane & segmask, max_lane = min_lane | (31u & ~segmask);
  switch (op) {
    case warp_op::shfl_up:
      j = lane - a;
      return static_cast<int>(j) >= static_cast<int>(min_lane);
    case warp_op::shfl_down:
      j = lane + a;
      return j <= max_lane;
    case warp_op::shfl_xor:
      j = lane ^ a;
      return j <= max_lane;
    default:
      j = min_lane | (a & ~segmask);
      return j <= max_lane;
  }
}

// The result of a whole warp's __shfl*_sync for the thread in `slot`, from the values `x` every
// thread of the block offered: the rules of exec/warp_collectives.cpp (a lane past the end of a
// partial last warp reads 0).
template <class T>
[[gnu::always_inline]] inline T region_shuffle(const region_block::warps_view& b, warp_op op,
                                               const region_var<T>& x, unsigned slot, int arg,
                                               int width) {
  const unsigned i = b.identity ? slot : b.index_of[slot];
  const unsigned lane = i & 31u, warp_first = i - lane;
  const unsigned count = b.n - warp_first < 32u ? b.n - warp_first : 32u;
  unsigned j;
  const bool valid = shuffle_source(op, lane, arg, width, j);
  if (!valid) return x[slot];
  if (j >= count) {
    std::remove_cv_t<T> zero;
    std::memset(static_cast<void*>(&zero), 0, sizeof zero);
    return zero;
  }
  return x[b.identity ? warp_first + j : b.slot_of[warp_first + j]];
}

// region_shuffle for a block of whole warps in the default order: the source is lane j of the
// slot's own warp, or the thread's own value.
template <class T>
[[gnu::always_inline]] inline T region_shuffle_whole(warp_op op, const region_var<T>& x, unsigned slot, int arg,
                                                     int width) {
  const unsigned lane = slot & 31u;
  unsigned j;
  const bool valid = shuffle_source(op, lane, arg, width, j);
  return x[valid ? slot - lane + j : slot];
}

// Every thread's result of one __shfl*_sync whose lane or delta `arg` and `width` are the same in
// every thread (the translation proved it), computed at once from the values `from` every thread
// offered: to[s] = region_shuffle(..., from, s, arg, width). The pass that reads the results then
// reads an array. Whole warps in the default order: the warps' common pattern of source lanes
// applied to each warp (exec/region_shuffle.cpp).
void shuffle_whole_warps(const void* from, void* to, unsigned n, std::size_t size, warp_op op,
                         int arg, int width) noexcept;

template <class T, class U>
[[gnu::always_inline]] inline void region_shuffled(const region_var<T>& to, warp_op op,
                                                   const region_var<U>& from, int arg, int width,
                                                   const region_block& b) noexcept {
  using stored = typename region_var<T>::stored;
  static_assert(std::is_same_v<stored, typename region_var<U>::stored>);
  if (b.identity && b.n % 32 == 0) {
    shuffle_whole_warps(from.data(), to.data(), b.n, sizeof(stored), op, arg, width);
    return;
  }
  const region_block::warps_view v = b.warps();
  for (unsigned s = 0; s < b.n; ++s) {
    const stored r = region_shuffle(v, op, from, s, arg, width);
    std::memcpy(static_cast<void*>(to.data() + s), &r, sizeof r);
  }
}

template <class T>
using region_type = std::remove_reference_t<T>;

// Whether variables of these types can be stored per thread (copied bytewise).
template <class... T>
inline constexpr bool regions_ok = (std::is_trivially_copyable_v<std::remove_cv_t<T>> && ...);

}  // namespace cuemu::detail
