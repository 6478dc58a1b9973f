// Warp collectives: __syncwarp, shuffles, votes, match, __reduce_*_sync and coalesced_threads():
// arrival, completion (every participant's result computed once) and release.
#include <algorithm>

#include "check/events.h"
#include "check/synccheck.h"
#include "exec/describe.h"
#include "exec/warp_scheduler.h"

namespace cuemu::detail {

// Errors of a collective's arguments, found on arrival (cold: builds the report).
void block_executor::invalid_collective(const lane& l, int width) {
  if (!(l.mask & (1u << l.lane_id))) {
    fault_at(l, "invalid warp synchronization",
             std::string("  ") + warp_op_name(l.op) + " called by lane " +
                 std::to_string(l.lane_id) + " with mask " + hex(l.mask) +
                 ", which does not name the calling lane\n");
  }
  fault_at(l, "invalid warp synchronization",
           std::string("  ") + warp_op_name(l.op) + " with width " + std::to_string(width) +
               ": width must be a power of two from 1 to 32\n");
}

bool block_executor::same_collective(const warp& w, unsigned m, const lane& l) const {
  const lane* L = &lanes_[w.first];
  for (unsigned rest = m; rest; rest &= rest - 1) {
    const lane& o = L[__builtin_ctz(rest)];
    if (o.op != l.op || o.mask != l.mask) return false;
  }
  return true;
}

[[gnu::always_inline]] inline std::uint64_t block_executor::collective(
    warp_op op, unsigned mask, std::uint64_t value, int arg, int width, source_location where) {
  lane& l = *cur();
  if (l.state == lane_state::unstarted) [[unlikely]] leave_batch(l);
  l.op = op;
  l.mask = mask;
  l.where = where;
  const unsigned bit = 1u << l.lane_id;
  const bool shuffle = op >= warp_op::shfl_idx && op <= warp_op::shfl_xor;
  if (!(mask & bit) || (shuffle && (width < 1 || width > 32 || (width & (width - 1)) != 0)))
      [[unlikely]]
    invalid_collective(l, width);
  l.state = lane_state::at_collective;
  l.value = value;
  l.arg = arg;
  l.width = width;
  hooks::collective_arrive(tokens_);
  warp& w = warps_[l.warp];
  if (op == warp_op::converge) {
    w.conv |= bit;  // resolved once every lane of the warp has stopped
  } else {
    w.coll |= bit;
    const unsigned m = mask & w.existing;
    if ((w.coll & m) == m && same_collective(w, m, l)) complete_collective(w, m, l);
  }
  wait_here(l);
  return l.result;
}

std::uint64_t block_executor::collective_entry(warp_op op, unsigned mask, std::uint64_t value,
                                               int arg, int width, source_location where) {
  block_executor* e = t_current_executor;
  if (!e) [[unlikely]] called_off_device(warp_op_name(op));
  if (e->regions_) [[unlikely]] e->outside_regions(warp_op_name(op), where);
  return e->collective(op, mask, value, arg, width, where);
}

bool block_executor::resolve_collectives(warp& w) {
  bool any = false;
  for (unsigned k = 0; k < w.count; ++k) {
    lane& l = lanes_[w.first + k];
    if (l.state != lane_state::at_collective) continue;
    if (l.op == warp_op::converge) continue;  // resolved below, once nothing else can move
    const unsigned m = l.mask & w.existing;
    bool complete = true;
    for (unsigned j = 0; j < w.count; ++j) {
      if (!(m & (1u << j))) continue;
      lane& o = lanes_[w.first + j];
      if (has_exited(o)) {
        fault_at(l, "invalid warp synchronization",
                 std::string("  ") + warp_op_name(l.op) + " with mask " + hex(l.mask) +
                     " names lane " + std::to_string(j) + " (thread " + triple(o.tid) +
                     "), which has exited\n");
        return true;
      }
      if (o.state != lane_state::at_collective ||
          (o.op == warp_op::converge && l.op != warp_op::converge)) {
        // Not there yet; or in coalesced_threads(), which completes below without this lane.
        complete = false;
        break;
      }
      if (o.op != l.op || o.mask != l.mask) {
        fault_at(l, "warp collective mismatch",
                 std::string("  lane ") + std::to_string(l.lane_id) + " waits in " +
                     warp_op_name(l.op) + " with mask " + hex(l.mask) + " at " + site(l.where) +
                     "\n  lane " + std::to_string(j) + " waits in " + warp_op_name(o.op) +
                     " with mask " + hex(o.mask) + " at " + site(o.where) + "\n");
        return true;
      }
    }
    if (!complete) continue;
    complete_collective(w, m, l);
    any = true;
  }
  if (any) return true;
  // coalesced_threads(): when every lane of the warp has stopped, the lanes waiting at the same
  // call site form the group (a GPU's converged lanes at that point).
  for (unsigned k = 0; k < w.count; ++k) {
    const lane& o = lanes_[w.first + k];
    if (!has_exited(o) && o.state != lane_state::at_collective &&
        o.state != lane_state::at_barrier && o.state != lane_state::yielded &&
        o.state != lane_state::left_statement)
      return false;
  }
  for (unsigned k = 0; k < w.count; ++k) {
    lane& l = lanes_[w.first + k];
    if (l.state != lane_state::at_collective || l.op != warp_op::converge) continue;
    unsigned m = 0;
    for (unsigned j = 0; j < w.count; ++j) {
      const lane& o = lanes_[w.first + j];
      if (o.state == lane_state::at_collective && o.op == warp_op::converge &&
          o.where.line == l.where.line &&
          (o.where.file == l.where.file ||
           (o.where.file && l.where.file && std::strcmp(o.where.file, l.where.file) == 0)))
        m |= 1u << j;
    }
    complete_collective(w, m, l);
    return true;
  }
  return false;
}

// The results of one shuffle for participants `m` (lane ids), one loop per op. PTX shfl.sync
// semantics: segmask selects the segment of `width` lanes; a source outside the allowed range
// reads the caller's own value, a source that was never launched reads 0. Returns false if it
// faulted (synccheck: a source outside the mask).
template <warp_op Op>
bool block_executor::shuffle(warp& w, unsigned m) {
  lane* L = &lanes_[w.first];
  for (unsigned rest = m; rest; rest &= rest - 1) {
    lane& l = L[__builtin_ctz(rest)];
    const unsigned lane_no = l.lane_id;
    const unsigned segmask = (32u - static_cast<unsigned>(l.width)) & 31u;
    const unsigned b = static_cast<unsigned>(l.arg) & 31u;
    const unsigned min_lane = lane_no & segmask;
    const unsigned max_lane = min_lane | (31u & ~segmask);
    unsigned j;
    bool valid;
    if constexpr (Op == warp_op::shfl_up) {
      j = lane_no - b;
      valid = static_cast<int>(j) >= static_cast<int>(min_lane);
    } else if constexpr (Op == warp_op::shfl_down) {
      j = lane_no + b;
      valid = j <= max_lane;
    } else if constexpr (Op == warp_op::shfl_xor) {
      j = lane_no ^ b;
      valid = j <= max_lane;
    } else {
      j = min_lane | (b & ~segmask);
      valid = j <= max_lane;
    }
    if (!valid) {
      l.result = l.value;
      continue;
    }
    if (j >= w.count) [[unlikely]] {
      // A lane past the end of a partial last warp was never launched: an H200 reads 0
      // (measured; NVIDIA's reduction samples rely on it for blocks under 32 threads).
      l.result = 0;
      continue;
    }
    if (!(m & (1u << j))) [[unlikely]] {
      if (synccheck_) {
        fault_at(l, "invalid warp synchronization",
                 synccheck::shuffle_source_outside_mask(Op, lane_no, j, l.mask));
        return false;
      }
      l.result = l.value;
      continue;
    }
    l.result = L[j].value;
  }
  return true;
}

// Computes every participant's result once (from the values as they arrived), then releases
// them. `m`: the participants (lane ids).
void block_executor::complete_collective(warp& w, unsigned m, const lane& first) {
  lane* L = &lanes_[w.first];
  const warp_op op = first.op;
  switch (op) {
    case warp_op::syncwarp:
      break;
    case warp_op::shfl_idx: if (!shuffle<warp_op::shfl_idx>(w, m)) return; break;
    case warp_op::shfl_up: if (!shuffle<warp_op::shfl_up>(w, m)) return; break;
    case warp_op::shfl_down: if (!shuffle<warp_op::shfl_down>(w, m)) return; break;
    case warp_op::shfl_xor: if (!shuffle<warp_op::shfl_xor>(w, m)) return; break;
    case warp_op::ballot: case warp_op::any: case warp_op::all: {
      std::uint64_t ballot = 0;
      for (unsigned rest = m; rest; rest &= rest - 1) {
        const unsigned j = static_cast<unsigned>(__builtin_ctz(rest));
        if (L[j].value) ballot |= 1u << j;
      }
      const std::uint64_t r = warp_vote_result(op, static_cast<std::uint32_t>(ballot), m);
      for (unsigned rest = m; rest; rest &= rest - 1) L[__builtin_ctz(rest)].result = r;
      break;
    }
    case warp_op::match_any:
      for (unsigned rest = m; rest; rest &= rest - 1) {
        lane& l = L[__builtin_ctz(rest)];
        std::uint64_t same = 0;
        for (unsigned r2 = m; r2; r2 &= r2 - 1) {
          const unsigned j = static_cast<unsigned>(__builtin_ctz(r2));
          if (L[j].value == l.value) same |= 1u << j;
        }
        l.result = same;
      }
      break;
    case warp_op::match_all: {
      bool all_equal = true;
      for (unsigned rest = m; rest; rest &= rest - 1)
        if (L[__builtin_ctz(rest)].value != first.value) all_equal = false;
      for (unsigned rest = m; rest; rest &= rest - 1)
        L[__builtin_ctz(rest)].result = all_equal ? m : 0;
      break;
    }
    case warp_op::converge:
      for (unsigned rest = m; rest; rest &= rest - 1) L[__builtin_ctz(rest)].result = m;
      break;
    default: {  // the __reduce_*_sync family
      std::uint32_t red = static_cast<std::uint32_t>(L[__builtin_ctz(m)].value);
      for (unsigned rest = m & (m - 1); rest; rest &= rest - 1) {
        red = warp_reduce_step(op, red, static_cast<std::uint32_t>(L[__builtin_ctz(rest)].value));
      }
      for (unsigned rest = m; rest; rest &= rest - 1) L[__builtin_ctz(rest)].result = red;
      break;
    }
  }
  hooks::collective_complete(tokens_, w.first, m, w.existing);
  // Results are computed from the values before anyone resumes; now release the lanes.
  unsigned ready = 0;
  std::uint64_t sig = (static_cast<std::uint64_t>(op) << 32 | m) * 0x9e3779b97f4a7c15ull;
  for (unsigned rest = m; rest; rest &= rest - 1) {
    lane& l = L[__builtin_ctz(rest)];
    l.state = lane_state::ready;
    l.active = m;
    l.active_gen = w.gen;
    ready |= 1u << l.pos;
    sig = (sig ^ l.result) * 0x100000001b3ull;
  }
  // Progress: a collective unlike the warp's last two. One that a poll loop runs every round
  // (CUB's look-back: __any_sync over the tiles' status) gives the same results each time while
  // nothing it waits for changes, so a livelock with it in the loop is still seen.
  if (sig != w.sig[0] && sig != w.sig[1]) ++events_;
  w.sig[1] = w.sig[0];
  w.sig[0] = sig;
  w.ready |= ready;
  if (op == warp_op::converge) w.conv &= ~m;
  else w.coll &= ~m;
  w.converged = w.alive;
}

}  // namespace cuemu::detail
