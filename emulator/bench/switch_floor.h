// The floor of a coroutine per CUDA thread: one context switch per thread per synchronisation
// point. A ring of 256 coroutines (a block of the tree reduction) in which each one resumes the
// next with Boost.Context's own switch (jump_fcontext, the assembly under boost::context::fiber):
// the time per switch is what any design with one stackful coroutine per thread pays at every
// barrier before any bookkeeping of its own. (HIP-CPU's __syncthreads is one such switch, to the
// next fiber, and nothing else.) Host code only.
#pragma once

#include <boost/context/detail/fcontext.hpp>
#include <boost/context/fixedsize_stack.hpp>

#include <vector>

#include "bench_common.h"

namespace bench {
namespace ring_detail {

namespace bc = boost::context::detail;

struct ring {
  std::vector<bc::fcontext_t> ctx;  // ctx[k]: coroutine k, suspended
  bc::fcontext_t caller = nullptr;
  int n = 0;
  long left = 0;
  bool from_caller = false;
  struct member {
    ring* r;
    int k;
  };
  std::vector<member> members;  // what each coroutine is given on its first entry
};

[[noreturn]] inline void entry(bc::transfer_t t) {
  const ring::member* m = static_cast<const ring::member*>(t.data);
  ring& r = *m->r;
  const int k = m->k, prev = k == 0 ? r.n - 1 : k - 1, next = k + 1 == r.n ? 0 : k + 1;
  for (;;) {
    // Whoever resumed coroutine k: coroutine k-1, or the caller (coroutine 0, once a sample).
    if (k == 0 && r.from_caller) {
      r.caller = t.fctx;
      r.from_caller = false;
    } else {
      r.ctx[prev] = t.fctx;
    }
    if (k == r.n - 1 && --r.left == 0) t = bc::jump_fcontext(r.caller, nullptr);
    else t = bc::jump_fcontext(r.ctx[next], &r.members[next]);
  }
}

}  // namespace ring_detail

// Nanoseconds per switch, median of reps() samples of `rounds` trips around the ring.
inline double ring_switch_ns(int coroutines = kReduceBlock, int rounds = 4000) {
  namespace bc = boost::context::detail;
  ring_detail::ring r;
  r.n = coroutines;
  r.ctx.resize(coroutines);
  r.members.resize(coroutines);
  boost::context::fixedsize_stack alloc(64 * 1024);
  std::vector<boost::context::stack_context> stacks;
  for (int k = 0; k < coroutines; ++k) {
    stacks.push_back(alloc.allocate());
    r.ctx[k] = bc::make_fcontext(stacks.back().sp, stacks.back().size, &ring_detail::entry);
    r.members[k] = {&r, k};
  }
  std::vector<double> ns;
  for (int s = 0; s < reps(); ++s) {
    r.left = rounds;
    r.from_caller = true;
    const double t0 = now_ms();
    // The last coroutine of the last round comes back here.
    r.ctx[coroutines - 1] = bc::jump_fcontext(r.ctx[0], &r.members[0]).fctx;
    ns.push_back((now_ms() - t0) * 1e6 / (static_cast<double>(rounds) * coroutines));
  }
  for (auto& sc : stacks) alloc.deallocate(sc);  // suspended in their loops: nothing to unwind
  return median(ns);
}

// One line after a table: the floor, and each synchronisation-heavy row's CPU time per
// operation over it.
inline void print_floor(const std::vector<result>& rows) {
  const double floor_ns = ring_switch_ns();
  std::printf("floor: one Boost.Context switch per thread around a ring of %d coroutines: %.2f ns",
              kReduceBlock, floor_ns);
  for (const result& r : rows) {
    const double ops = r.sync_ops > 0 ? r.sync_ops : r.shuffle_ops;
    if (ops > 0)
      std::printf("; %s %.1fx", r.name.substr(0, r.name.find(' ')).c_str(),
                  r.emu_cpu_ms * 1e6 / ops / floor_ns);
  }
  std::printf(" (CPU ns per op / floor)\n");
}

}  // namespace bench
