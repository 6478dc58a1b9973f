// Forward progress (Volta's independent thread scheduling) in the executor: lanes that spin yield
// (cuemu/progress.h), a block whose every live lane spins stalls, and a stalled block keeps its
// worker thread while a helper thread takes the grid's next block, up to the H200's residency.
// A grid where every block in flight spins and nothing changes is a livelock, reported like a
// deadlock. this_grid().sync() of cooperative launches waits here too.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <vector>
#include <sstream>
#include <thread>

#include <cuemu/progress.h>

#include "check/events.h"
#include "check/report.h"
#include "check/symbolize.h"
#include "exec/describe.h"
#include "exec/device_activity.h"
#include "exec/warp_scheduler.h"
#include "exec/worker_pool.h"

namespace cuemu::detail {
namespace {

// A grid in which nothing changed for this long while every block in flight spun is livelocked.
constexpr double kLivelockSeconds = 1.0;
// Stalls without progress before a helper thread is asked for: brief waits on a block running
// on another worker (a look-back scan's predecessor) resolve before that.
constexpr unsigned kStallsBeforeHelper = 12;

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void back_off(unsigned round) {
  if (round < 4) {
    std::this_thread::yield();
    return;
  }
  const unsigned shift = round - 4 < 10 ? round - 4 : 10;
  std::this_thread::sleep_for(std::chrono::microseconds(1u << shift));  // up to ~1 ms
}

std::atomic<unsigned> g_host_threads{0}, g_host_waiting{0};
std::atomic<unsigned long long> g_device_progress{0};
std::atomic<std::size_t> g_stalled_blocks{0};  // blocks of any grid in their stall back-off

struct host_thread_record {
  bool counted = false;
  ~host_thread_record() {
    if (counted) g_host_threads.fetch_sub(1);
  }
};
thread_local host_thread_record t_host_thread;

std::mutex g_executors_mutex;
std::vector<const block_executor*>& executors() {
  static auto* v = new std::vector<const block_executor*>;
  return *v;
}

// Blocks in flight on the device, of every grid.
std::size_t device_blocks_in_flight() {
  std::lock_guard<std::mutex> lock(g_executors_mutex);
  std::size_t n = 0;
  for (const block_executor* e : executors()) n += e->running_launch() != nullptr;
  return n;
}

}  // namespace

void note_host_thread() noexcept {
  if (!t_host_thread.counted) {
    t_host_thread.counted = true;
    g_host_threads.fetch_add(1);
  }
}
host_wait_scope::host_wait_scope() noexcept {
  note_host_thread();
  g_host_waiting.fetch_add(1);
}
host_wait_scope::~host_wait_scope() { g_host_waiting.fetch_sub(1); }
bool host_threads_all_wait() noexcept {
  return g_host_waiting.load() >= g_host_threads.load();
}
void note_device_progress() noexcept { g_device_progress.fetch_add(1, std::memory_order_relaxed); }
unsigned long long device_progress() noexcept {
  return g_device_progress.load(std::memory_order_relaxed);
}

void register_executor(const block_executor* e, bool add) {
  std::lock_guard<std::mutex> lock(g_executors_mutex);
  auto& v = executors();
  if (add) v.push_back(e);
  else v.erase(std::remove(v.begin(), v.end(), e), v.end());
}

std::size_t in_flight(const launch_state& L) {
  if (L.blocks == 1) return 1;
  std::lock_guard<std::mutex> lock(g_executors_mutex);
  std::size_t n = 0;
  for (const block_executor* e : executors()) n += e->running_launch() == &L;
  return n;
}

std::size_t finished(const launch_state& L) {
  if (L.cooperative) return L.finished.load();
  if (L.blocks == 1) return 0;
  const std::size_t taken = L.job ? L.job->taken() : 0;
  const std::size_t running = in_flight(L);
  return taken > running ? taken - running : 0;
}

// The call's return address, one byte back: inside the call, in the user's code where the poll
// was inlined.
#define CUEMU_CALL_SITE (static_cast<const char*>(__builtin_return_address(0)) - 1)

void spin_check() noexcept {
  if (block_executor* e = t_current_executor) {
    e->spin(CUEMU_CALL_SITE, false);
    return;
  }
  t_spin.same = t_spin.polls = 0;  // host code: nobody to yield to
}

void poll_uninstrumented(const volatile void* addr, unsigned long long value) noexcept {
  poll_at(addr, value, CUEMU_CALL_SITE);
}

void poll_at(const volatile void* addr, unsigned long long value, const void* pc) noexcept {
  spin_watch& s = t_spin;
  if (record_poll(s, addr, value)) [[unlikely]] {
    if (block_executor* e = t_current_executor) e->spin(pc, false);
    else s.same = s.polls = 0;
  }
}

void spin_yield() noexcept {
  if (block_executor* e = t_current_executor) e->spin(CUEMU_CALL_SITE, true);
}

void block_executor::spin(const void* pc, bool now) {
  spin_watch& s = t_spin;
  lane* lp = cur();
  if (!lp || faulted_ || regions_) {  // a region form cannot yield (it has no loop that polls)
    s.same = s.polls = 0;
    return;
  }
  lane& l = *lp;
  if (!now && s.lane != &l) {  // the counts were run up by other lanes (a batch): start over
    s.lane = &l;
    s.same = s.polls = 0;
    return;
  }
  if (l.state == lane_state::unstarted) leave_batch(l);
  l.state = lane_state::yielded;
  if (spins_.size() < lanes_.size()) spins_.resize(lanes_.size());
  spin_record& rec = spins_[l.index];
  rec.pc = pc;
  rec.addr = s.addr;
  rec.value = s.value;
  rec.addr2 = s.addr2;
  rec.value2 = s.value2;
  warps_[l.warp].yielded |= 1u << l.pos;
  ++yielded_;
  wait_here(l);
  // Resumed: its own poll record again.
  s.lane = &l;
  s.addr = spins_[l.index].addr;
  s.value = spins_[l.index].value;
  s.addr2 = spins_[l.index].addr2;
  s.value2 = spins_[l.index].value2;
  s.same = s.polls = 0;
}

void block_executor::preempt() {
  lane* lp = cur();
  if (!lp || faulted_ || regions_ || running_ == &sched_ || has_exited(*lp)) return;
  lane& l = *lp;
  if (l.state == lane_state::unstarted) leave_batch(l);
  else if (l.state != lane_state::running) return;
  // Back in its warp's queue, and the next warp first.
  l.state = lane_state::ready;
  warps_[l.warp].ready |= 1u << l.pos;
  cur_pos_ = cur_pos_ + 1 == nwarps_ ? 0 : cur_pos_ + 1;
  cur_warp_ = &warps_[warp_order_[cur_pos_]];
  // A lane that keeps running may wait for a block that has not started (a spin no poll sees):
  // one helper thread per worker at most takes the grid's next blocks.
  launch_state& L = *launch_;
  if (++preemptions_ >= 3 && !helper_asked_ &&
      L.preempt_helpers.load() < worker_pool::instance().workers() && ask_helper(L)) {
    helper_asked_ = true;
    L.preempt_helpers.fetch_add(1);
  }
  wait_here(l);
}

unsigned long long block_executor::progress_mark() const noexcept {
  return t_spin.changes + events_ + (lanes_.size() - live_);
}

void block_executor::release_yielded() {
  for (warp& w : warps_) {
    w.ready |= w.yielded;
    w.yielded = 0;
  }
  yielded_ = 0;
  round_mark_ = progress_mark();
}

// A helper thread for the grid's next blocks, if the grid may have one more block in flight. The
// pool admits it under its lock against the threads draining the grid (each runs one block at a
// time), so blocks that stall together cannot start more blocks than an H200 keeps resident.
bool block_executor::ask_helper(launch_state& L) {
  return worker_pool::instance().add_helper(*L.job, resident_grid_limit(L));
}

// Every live lane of the block spins (or waits for those that do): let the rest of the grid run
// before its lanes poll again. Returns false if it reported a livelock.
bool block_executor::stall() {
  launch_state& L = *launch_;
  const unsigned long long mark = progress_mark();
  const double now = seconds_now();
  if (mark != stall_mark_) {  // something changed here since the last stall
    stall_mark_ = mark;
    stall_rounds_ = 0;
    stalled_since_ = now;
    L.progress.fetch_add(1, std::memory_order_relaxed);
  }
  L.stalled.fetch_add(1);
  g_stalled_blocks.fetch_add(1);
  if (!helper_asked_ && stall_rounds_ >= kStallsBeforeHelper) helper_asked_ = ask_helper(L);
  back_off(stall_rounds_++);
  // Progress of the grid: stalled blocks that moved on, and blocks that ended.
  // Other grids and the streams count too: this grid may wait for them.
  const unsigned long long p =
      L.progress.load(std::memory_order_relaxed) + finished(L) + device_progress();
  if (p != seen_progress_) {
    seen_progress_ = p;
    stalled_since_ = now;
  } else if (now - stalled_since_ > kLivelockSeconds && L.stalled.load() == in_flight(L) &&
             g_stalled_blocks.load() == device_blocks_in_flight() && host_threads_all_wait() &&
             !L.livelock.exchange(true)) {
    L.stalled.fetch_sub(1);
    g_stalled_blocks.fetch_sub(1);
    report_livelock();
    return false;
  }
  L.stalled.fetch_sub(1);
  g_stalled_blocks.fetch_sub(1);
  return !L.aborted.load(std::memory_order_relaxed);
}

// The block waits at this_grid().sync() for the other blocks of the grid. Returns false if the
// wait cannot end (reported) or the grid was aborted.
bool block_executor::grid_barrier_released() {
  launch_state& L = *launch_;
  if (!helper_asked_) helper_asked_ = ask_helper(L);
  launch_state::grid_barrier& G = *L.grid_sync;
  std::unique_lock<std::mutex> lock(G.mutex);
  const double start = seconds_now();
  while (G.generation == grid_generation_) {
    if (L.aborted.load()) return false;
    if (G.arrived + L.finished.load() == L.blocks) {
      lock.unlock();
      // A block has ended without arriving: a GPU waits forever.
      std::ostringstream d;
      d << "  this_grid().sync() cannot complete: " << L.finished.load() << " of the grid's "
        << L.blocks << " blocks have exited without reaching it\n";
      const lane* first = nullptr;
      for (const lane& l : lanes_)
        if (!has_exited(l)) { first = &l; break; }
      fault_at(first ? *first : lanes_.front(), "deadlock", d.str());
      return false;
    }
    if (!helper_asked_ && seconds_now() - start > 0.001) {
      lock.unlock();
      helper_asked_ = ask_helper(L);
      lock.lock();
      continue;
    }
    G.cv.wait_for(lock, std::chrono::milliseconds(5));
  }
  lock.unlock();
  grid_wait_ = false;
  hooks::grid_barrier_release(tokens_);
  release_barrier();
  return true;
}

// Called on the lane completing a block's part of this_grid().sync().
void block_executor::grid_arrive() {
  launch_state& L = *launch_;
  launch_state::grid_barrier& G = *L.grid_sync;
  std::lock_guard<std::mutex> lock(G.mutex);
  grid_generation_ = G.generation;
  if (++G.arrived == L.blocks) {
    G.arrived = 0;
    ++G.generation;
    hooks::grid_barrier_complete();
    G.cv.notify_all();
    hooks::grid_barrier_release(tokens_);
    release_barrier();
    return;
  }
  grid_wait_ = true;
}

void block_executor::report_livelock() {
  launch_state& L = *launch_;
  std::ostringstream d;
  const lane* culprit = nullptr;
  for (const lane& l : lanes_) {
    if (has_exited(l)) continue;
    if (!culprit && l.state == lane_state::yielded) culprit = &l;
  }
  std::size_t i = 0;
  unsigned shown = 0;
  while (i < lanes_.size() && shown < 8) {
    const lane& l = lanes_[i];
    if (has_exited(l)) { ++i; continue; }
    const std::string what = describe_wait(l);
    std::size_t j = i + 1;
    while (j < lanes_.size() && !has_exited(lanes_[j]) && describe_wait(lanes_[j]) == what) ++j;
    d << "  thread" << (j - i > 1 ? "s " : " ") << triple(l.tid);
    if (j - i > 1) d << ".." << triple(lanes_[j - 1].tid);
    d << " " << what << "\n";
    ++shown;
    i = j;
  }
  const std::size_t flying = in_flight(L);
  d << "  every thread still running spins, and for " << kLivelockSeconds
    << " s none of them read a changed value: a GPU spins here forever\n";
  if (flying > 1)
    d << "  (" << flying << " blocks of the grid are in flight, all of them spinning)\n";
  const std::size_t done = finished(L);
  const std::size_t unstarted = L.blocks > done + flying ? L.blocks - done - flying : 0;
  const std::size_t resident = resident_grid_limit(L);
  if (unstarted > 0 && flying >= resident)
    d << "  " << unstarted << " blocks of the grid have not started: an H200 keeps at most "
      << resident << " blocks of this kernel resident at once, so a block waiting for "
      << "one of them waits forever\n";
  const lane& l = culprit ? *culprit : lanes_.front();
  fault_report r;
  r.fault_class = "livelock";
  r.kernel = L.kernel_name;
  r.block = block_idx_;
  r.thread = l.tid;
  std::string file;
  if (const void* pc = spin_pc(l)) {
    void* frames[1] = {const_cast<void*>(pc)};
    const code_location at = first_user_location(frames, 1);
    file = at.file;
    r.line = at.line;
  }
  if (file.empty()) {
    r.file = L.site.file;
    r.line = L.site.line;
  } else {
    r.file = file.c_str();
  }
  r.details = d.str();
  r.error = cudaErrorLaunchFailure;
  report_fault(r);
  faulted_ = true;
  L.aborted = true;
}

std::string block_executor::spin_site(const lane& l) const {
  const void* pc = spin_pc(l);
  auto it = spin_sites_.find(pc);
  if (it != spin_sites_.end()) return it->second;
  std::string where = "<unknown>";
  if (pc) {
    void* frames[1] = {const_cast<void*>(pc)};
    const code_location at = first_user_location(frames, 1);
    if (!at.file.empty()) where = at.file + ":" + std::to_string(at.line);
  }
  return spin_sites_[pc] = where;
}

}  // namespace cuemu::detail
