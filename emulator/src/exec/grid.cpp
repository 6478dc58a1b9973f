#include "exec/grid.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>
#include <vector>

#include "check/signals.h"
#include "exec/block.h"
#include "check/events.h"
#include "exec/options.h"
#include "exec/shared_memory.h"
#include "exec/worker_pool.h"

namespace cuemu::detail {

void run_grid(launch_state& launch) {
  const dim3 g = launch.grid;
  const std::size_t nblocks = static_cast<std::size_t>(g.x) * g.y * g.z;
  launch.blocks = nblocks;
  const exec_options& opt = options();

  // The order in which blocks are taken: forward, reverse, or a seeded permutation.
  std::vector<std::size_t> order;
  if (opt.schedule == schedule_kind::random) {
    order.resize(nblocks);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::mt19937_64 rng(opt.seed);
    std::shuffle(order.begin(), order.end(), rng);
  }
  const bool reverse = opt.schedule == schedule_kind::reverse;

  hooks::launch_begin(launch);
  launch_watchdog watchdog(launch);
  const std::function<void(std::size_t)> body = [&](std::size_t i) {
    prepare_worker_signals();
    if (launch.aborted.load(std::memory_order_relaxed)) return;
    const std::size_t b = order.empty() ? (reverse ? nblocks - 1 - i : i) : order[i];
    const uint3 idx{static_cast<unsigned>(b % g.x), static_cast<unsigned>((b / g.x) % g.y),
                    static_cast<unsigned>(b / (static_cast<std::size_t>(g.x) * g.y))};
    const bool ok = worker_executor().run(launch, idx, b);
    if (!ok) launch.aborted = true;
    if (launch.cooperative) {
      // Under the grid's lock: a block waiting at this_grid().sync() checks it with it. (Other
      // launches count nothing per block: blocks in flight are counted when a stall asks.)
      std::lock_guard<std::mutex> lock(launch.grid_sync->mutex);
      launch.finished.fetch_add(1);
    }
    if (launch.cooperative) launch.grid_sync->cv.notify_all();
  };
  pool_job job(nblocks, body);
  launch.job = &job;
  worker_pool::instance().run(job);
  launch.job = nullptr;
  hooks::launch_end(launch);
  shared_memory_launch_end();
}

std::string kernel_display_name(const char* spelled, const char* pretty) {
  if (!pretty || !*pretty) return spelled ? spelled : "<kernel>";
  // "void ns::k(V*, int) [with V = uint4; int N = 4]" -> "ns::k<uint4, 4>"
  std::string p(pretty);
  const std::size_t paren = p.find('(');
  std::string head = p.substr(0, paren);
  const std::size_t space = head.rfind(' ');
  std::string name = space == std::string::npos ? head : head.substr(space + 1);
  const std::size_t with = p.find("[with ");
  if (with != std::string::npos && name.find('<') == std::string::npos) {
    std::string args = p.substr(with + 6);
    if (!args.empty() && args.back() == ']') args.pop_back();
    std::string out;
    std::size_t pos = 0;
    while (pos < args.size()) {
      std::size_t semi = args.find("; ", pos);
      std::string item = args.substr(pos, semi == std::string::npos ? std::string::npos : semi - pos);
      const std::size_t eq = item.find(" = ");
      if (!out.empty()) out += ", ";
      out += eq == std::string::npos ? item : item.substr(eq + 3);
      if (semi == std::string::npos) break;
      pos = semi + 2;
    }
    name += "<" + out + ">";
  }
  return name;
}

}  // namespace cuemu::detail
