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

namespace {

// The work a grid's threads issued, in an order that does not depend on which worker ran which
// block: tail launches last, then by block, then in issue order (runs within a block are
// deterministic).
std::vector<device_work> take_device_work(launch_state& launch) {
  std::vector<device_work> work;
  // Its blocks have finished: what they issued is counted (and ordered before this) already.
  if (launch.issued.load(std::memory_order_relaxed) == 0) return work;
  {
    std::lock_guard<std::mutex> lock(launch.work_mutex);
    work.swap(launch.device_launched);
  }
  std::sort(work.begin(), work.end(), [](const device_work& a, const device_work& b) {
    if (a.tail != b.tail) return b.tail;
    if (a.block != b.block) return a.block < b.block;
    return a.seq < b.seq;
  });
  return work;
}

void run_blocks(launch_state& launch);

}  // namespace

void run_grid(launch_state& launch) {
  run_blocks(launch);
  // Then the work its threads issued, depth first: each child grid's own work right after it. A
  // loop, not recursion: a chain of launches may be thousands of grids deep. A fault anywhere
  // stops the rest, as it ends a GPU context.
  struct level {
    launch_state* owner;
    std::vector<device_work> work;
    std::size_t next = 0;
  };
  std::vector<device_work> issued = take_device_work(launch);
  if (issued.empty()) return;
  std::vector<level> stack;
  stack.push_back({&launch, std::move(issued)});
  while (!stack.empty()) {
    level& l = stack.back();
    if (l.next == l.work.size() || l.owner->aborted.load(std::memory_order_relaxed)) {
      const bool aborted = l.owner->aborted.load(std::memory_order_relaxed);
      stack.pop_back();
      if (stack.empty()) break;
      level& up = stack.back();
      if (aborted) up.owner->aborted = true;
      up.work[up.next - 1].grid.reset();  // the finished grid, with its copy of the parameters
      continue;
    }
    device_work& w = l.work[l.next++];
    if (w.grid) {
      launch_state& child = *w.grid;
      run_blocks(child);
      stack.push_back({&child, take_device_work(child)});
    } else if (w.op) {
      w.op();
    }
  }
}

namespace {

void run_blocks(launch_state& launch) {
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
  // What the block loop needs, behind one pointer: a capture std::function keeps without an
  // allocation of its own (one per launch otherwise).
  struct block_loop {
    launch_state& launch;
    const std::vector<std::size_t>& order;
    dim3 g;
    std::size_t nblocks;
    bool reverse;
  } loop{launch, order, g, nblocks, reverse};
  const std::function<void(std::size_t)> body = [c = &loop](std::size_t i) {
    launch_state& launch = c->launch;
    const dim3 g = c->g;
    prepare_worker_signals();
    if (launch.aborted.load(std::memory_order_relaxed)) return;
    const std::size_t b =
        c->order.empty() ? (c->reverse ? c->nblocks - 1 - i : i) : c->order[i];
    // A one-dimensional grid needs no division (three 64-bit divisions were a tenth of a small
    // block's cost).
    const uint3 idx =
        g.y == 1 && g.z == 1
            ? uint3{static_cast<unsigned>(b), 0, 0}
            : uint3{static_cast<unsigned>(b % g.x), static_cast<unsigned>((b / g.x) % g.y),
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
  // A kernel that runs as loops over threads cannot spin or wait at grid sync (the region
  // translation keeps such kernels on coroutines): no block waits for another, so a worker may
  // take several at once, and the counter they share is written a few times per worker instead
  // of once per block (5% of a small block's time at 16 workers).
  const bool loop_blocks = runs_as_loops(launch) && !launch.cooperative;
  pool_job job(nblocks, body, loop_blocks ? 16 : 1);
  launch.job = &job;
  worker_pool::instance().run(job);
  launch.job = nullptr;
  hooks::launch_end(launch);
  shared_memory_launch_end();
}

}  // namespace

void issue_device_work(launch_state& launch, std::size_t block, device_work w) {
  w.block = block;
  w.seq = launch.issued.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(launch.work_mutex);
  launch.device_launched.push_back(std::move(w));
}

namespace {
std::string compute_display_name(const char* spelled, const char* pretty) {
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
}  // namespace

// The names are string literals of the translated program: the last one asked for on this thread
// is kept (a loop of launches of one kernel computes it once).
std::string kernel_display_name(const char* spelled, const char* pretty) {
  thread_local const char* last_spelled = nullptr;
  thread_local const char* last_pretty = nullptr;
  thread_local std::string last;
  if (spelled != last_spelled || pretty != last_pretty || (!spelled && !pretty)) {
    last = compute_display_name(spelled, pretty);
    last_spelled = spelled;
    last_pretty = pretty;
  }
  return last;
}

}  // namespace cuemu::detail
