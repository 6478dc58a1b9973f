#include "check/synccheck.h"

#include <cstring>

#include "exec/describe.h"

namespace cuemu::detail::synccheck {
namespace {

bool same_site(const barrier_wait& a, const barrier_wait& b) {
  return a.where.line == b.where.line && a.op == b.op &&
         std::strcmp(a.where.file ? a.where.file : "", b.where.file ? b.where.file : "") == 0;
}

std::string waits_in(const barrier_wait& w) {
  return std::string("waits in ") + barrier_name(w.op) + " at " + site(w.where);
}

}  // namespace

std::string barrier_divergence(const std::vector<barrier_wait>& waits, std::size_t* culprit) {
  if (waits.empty()) return {};
  const barrier_wait& first = waits.front();
  for (std::size_t i = 1; i < waits.size(); ++i) {
    const barrier_wait& w = waits[i];
    if (same_site(w, first)) continue;
    *culprit = i;
    return "  thread " + triple(w.thread) + " " + waits_in(w) + "\n  thread " +
           triple(first.thread) + " " + waits_in(first) +
           "\n  (all threads of a block must reach the same __syncthreads; a GPU may hang or mix "
           "the two)\n";
  }
  return {};
}

std::string shuffle_source_outside_mask(warp_op op, unsigned lane, unsigned source, unsigned mask) {
  return std::string("  ") + warp_op_name(op) + " in lane " + std::to_string(lane) +
         " reads lane " + std::to_string(source) + ", which is not in mask " + hex(mask) +
         " (the value is undefined on a GPU)\n";
}

}  // namespace cuemu::detail::synccheck
