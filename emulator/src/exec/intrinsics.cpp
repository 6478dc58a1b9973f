// The out-of-line entry points behind the synchronisation intrinsics of cuemu/sync_functions.h.
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <cuemu/launch.h>
#include <cuemu/sync_functions.h>

#include "exec/block.h"

namespace cuemu::detail {
const char* warp_op_name(warp_op op) noexcept {
  switch (op) {
    case warp_op::syncwarp: return "__syncwarp";
    case warp_op::shfl_idx: return "__shfl_sync";
    case warp_op::shfl_up: return "__shfl_up_sync";
    case warp_op::shfl_down: return "__shfl_down_sync";
    case warp_op::shfl_xor: return "__shfl_xor_sync";
    case warp_op::ballot: return "__ballot_sync";
    case warp_op::any: return "__any_sync";
    case warp_op::all: return "__all_sync";
    case warp_op::match_any: return "__match_any_sync";
    case warp_op::match_all: return "__match_all_sync";
    case warp_op::converge: return "coalesced_threads";
    case warp_op::reduce_add_u: case warp_op::reduce_add_i: return "__reduce_add_sync";
    case warp_op::reduce_min_u: case warp_op::reduce_min_i: return "__reduce_min_sync";
    case warp_op::reduce_max_u: case warp_op::reduce_max_i: return "__reduce_max_sync";
    case warp_op::reduce_and: return "__reduce_and_sync";
    case warp_op::reduce_or: return "__reduce_or_sync";
    case warp_op::reduce_xor: return "__reduce_xor_sync";
  }
  return "warp collective";
}

int block_barrier(barrier_op op, int predicate, source_location where) {
  return block_executor::barrier_entry(op, predicate, where);
}

std::uint64_t warp_collective(warp_op op, unsigned mask, std::uint64_t value, int arg, int width,
                              source_location where) {
  return block_executor::collective_entry(op, mask, value, arg, width, where);
}

unsigned converged_lanes(source_location where) {
  return static_cast<unsigned>(
      block_executor::collective_entry(warp_op::converge, 0xffffffffu, 0, 0, 32, where));
}

unsigned active_mask() noexcept {
  block_executor* e = current_executor();
  return e ? e->active_mask() : 0;
}

unsigned activemask_at(source_location where) {
  block_executor* e = current_executor();
  if (!e) return 0;
  // Right after a warp collective, its participants (what an H200 gives after __syncwarp(mask));
  // else the lanes that reach this call together once the whole warp has stopped, as converged
  // lanes do on a GPU: in a branch only some lanes took, those lanes (cuda::pipeline's producers
  // call __match_any_sync(__activemask(), ...) while its consumers wait at a barrier).
  if (e->after_collective()) return e->active_mask();
  return converged_lanes(where);
}

bool grid_is_cooperative() noexcept {
  block_executor* e = current_executor();
  return e && e->current_launch() && e->current_launch()->cooperative;
}

unsigned lane_id() noexcept {
  block_executor* e = current_executor();
  return e ? e->lane_id() : 0;
}

}  // namespace cuemu::detail
