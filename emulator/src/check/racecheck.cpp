// racecheck: a data-race detector with CUDA's own ordering rules. Compiled into the racecheck
// runtime only (CUEMU_RACECHECK).
//
// The user's sources are compiled with g++'s ThreadSanitizer instrumentation (-fsanitize=thread)
// but linked without ThreadSanitizer's runtime: this file implements its entry points
// (__tsan_read4, __tsan_atomic32_fetch_add, ...), so every load, store and atomic of a CUDA
// thread arrives here. Nothing is limited by the number of CUDA threads (ThreadSanitizer's own
// runtime keeps 256 thread slots and silently orders the threads that share one, which hid
// races in blocks of 256 threads and more), and blocks of one launch are unordered whichever
// worker runs them.
//
// Time. Each CUDA thread has a clock, a 32-bit value that only grows. A launch starts every
// clock above every clock of earlier launches (launches are ordered). A barrier gives every
// thread of the block the same new value (the barrier epoch): an access whose clock is below the
// epoch happened before the barrier. A warp collective does the same for its participants (the
// warp's epoch, or per-lane knowledge of a partial mask). A fenced atomic (__threadfence() then
// an atomic, as CUDA's memory model asks for release and acquire) hands what its thread knows to
// the atomic's address and takes what earlier fenced atomics there left.
//
// Shadow. Every 8 bytes a CUDA thread accesses outside its own stack have four access records
// (thread, clock, bytes, kind, code address). Atomics do not race with atomics, nor with plain
// reads (CUDA's compare-and-swap loop reads the word plainly); a plain write unordered with any
// other access is a race, and so is a plain read unordered with a plain write.
#if defined(CUEMU_RACECHECK)

#include <execinfo.h>
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <cuemu/progress.h>

#include "check/grid_findings.h"
#include "check/report.h"
#include "check/shadow_memory.h"
#include "check/streamcheck.h"
#include "check/thread_storage.h"
#include "check/symbolize.h"
#include "exec/current_thread.h"
#include "check/events.h"
#include "exec/options.h"
#include "exec/shared_memory.h"
#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;


// --------------------------------------------------------------------------- knowledge
// What a thread knows through fenced atomics: accesses of thread t with clock < threads[t], and
// of every thread of block b with clock < blocks[b] (those before b's last barrier).
struct knowledge {
  std::unordered_map<u32, u32> threads, blocks;
  bool empty() const noexcept { return threads.empty() && blocks.empty(); }
  static void raise(std::unordered_map<u32, u32>& m, u32 key, u32 bound) {
    u32& v = m[key];
    v = std::max(v, bound);
  }
  void join(const knowledge& o) {
    for (const auto& [k, v] : o.threads) raise(threads, k, v);
    for (const auto& [k, v] : o.blocks) raise(blocks, k, v);
  }
  bool knows(u32 tid, u32 clock, u32 threads_per_block) const {
    if (auto it = threads.find(tid); it != threads.end() && clock < it->second) return true;
    if (auto it = blocks.find(tid / threads_per_block); it != blocks.end() && clock < it->second)
      return true;
    return false;
  }
};

// --------------------------------------------------------------------------- launches
std::atomic<u32> g_max_clock{0};   // above every clock used so far
std::atomic<u32> g_launch_base{1}; // the first clock of the launch now running
const launch_state* g_launch = nullptr;
u32 g_threads_per_block = 1;

// --------------------------------------------------------------------------- sync objects
struct sync_object {
  u32 launch_base = 0;
  knowledge k;
};
std::mutex g_sync_mutex;
std::unordered_map<std::uintptr_t, sync_object> g_sync;

}  // namespace

// The checker's state of the block a worker runs.
struct block_tokens {
  struct thread {
    u32 clock = 0;
    bool fenced = false;             // a __threadfence since its last atomic
    std::uintptr_t last_atomic = 0;  // address of its last atomic (a later fence acquires it)
    std::unique_ptr<knowledge> know; // acquired since the block's last barrier
    struct pending_read {
      std::uintptr_t addr;
      unsigned len;
      u64 other;
      u32 other_site;
      std::uintptr_t pc;
    };
    std::vector<pending_read> pending;  // plain reads racing with atomics, not yet validated
  };
  u32 tid_base = 0, nthreads = 0, block_linear = 0;
  u32 bar_epoch = 0, max_clock = 0;
  std::vector<thread> threads;
  std::vector<u32> warp_epoch;              // per warp: clock of its last full-warp collective
  std::vector<std::array<u32, 32>> partial; // per thread: clocks known of its warp's lanes
  knowledge block_know;                     // acquired by any thread before the last barrier
  bool any_know = false;
  const char* dyn_begin = nullptr;
  const char* dyn_end = nullptr;
  const char* tls_begin = nullptr;  // the worker's static thread-local storage
  const char* tls_end = nullptr;

  void bump(thread& t) {
    t.clock = std::max(t.clock, max_clock) + 1;
    max_clock = t.clock;
  }
};

namespace {

thread_local block_tokens t_block;

thread_local bool t_block_active = false;

// --------------------------------------------------------------------------- shadow
// An 8-byte granule of memory has four access records (like ThreadSanitizer's shadow cells):
//   bits 0-30 clock, 31 atomic, 32-56 thread (in the launch), 57-59 offset in the granule,
//   60-62 length - 1, 63 write; 0 = none.
// and the code address of each (for the report). 48 bytes of shadow per 8 bytes of memory.
struct granule {
  u64 rec[4];
  u32 site[4];
};
static_assert(sizeof(granule) == 48);

constexpr unsigned kPageBits = shadow_memory<granule>::kPageBits;
constexpr std::size_t kGranulesPerPage = shadow_memory<granule>::kCellsPerPage;
constinit shadow_memory<granule> g_shadow("racecheck", std::size_t{1} << 38);

granule* shadow_page(std::uintptr_t page) { return g_shadow.page_of(page << kPageBits); }

// The race detector runs unless the streams checker was asked for alone (CUEMU_CHECK=streams).
bool racechecking() {
  static const bool on = options().racecheck || !options().streams;
  return on;
}

// With one worker, blocks run one at a time: no lock is needed.
bool single_worker() {
  static const bool one = options().workers == 1;
  return one;
}

// --------------------------------------------------------------------------- reports
// Reports once per place (this access's code, the other access's), at most 32, each naming the
// first thread of its grid in block and thread order that met it (check/grid_findings.h).
grid_findings g_findings(32);

std::string thread_name(u32 tid) {
  if (!g_launch) return "?";
  const dim3 g = g_launch->grid, b = g_launch->block;
  const u32 block = tid / g_threads_per_block, t = tid % g_threads_per_block;
  char buf[96];
  std::snprintf(buf, sizeof buf, "block (%u,%u,%u) thread (%u,%u,%u)", block % g.x,
                (block / g.x) % g.y, block / (g.x * g.y), t % b.x, (t / b.x) % b.y,
                t / (b.x * b.y));
  return buf;
}

enum class access_kind { read, write, atomic, atomic_read };

[[gnu::noinline, gnu::cold]] void report_race(std::uintptr_t addr, access_kind kind, u64 prev,
                                              u32 prev_site, std::uintptr_t pc) {
  const grid_findings::place place{pc, prev_site};
  const launch_state* launch = current_thread_launch();
  const std::uint64_t order = current_thread_order();
  if (!launch || !g_findings.wanted(launch, place, order)) return;
  fault_report r;
  if (!describe_current_thread(r.block, r.thread)) return;
  r.kernel = g_launch ? g_launch->kernel_name : "?";
  void* frames[64];
  const int n = backtrace(frames, 64);
  const code_location here = first_user_location(frames, n);
  static thread_local std::string file;
  file = here.file;
  r.file = file.empty() ? nullptr : file.c_str();
  r.line = here.line;
  r.fault_class = "data race";
  const bool prev_atomic = (prev >> 31) & 1u;
  const bool prev_write = prev >> 63;
  const u32 prev_tid = static_cast<u32>(prev >> 32) & ((1u << 25) - 1);
  std::string where_prev = "<unknown line>";
  if (const code_location c = location_of_site(prev_site); !c.file.empty()) where_prev = at_line(c);
  const char* what = kind == access_kind::write    ? "write"
                     : kind == access_kind::atomic ? "atomic update"
                     : kind == access_kind::atomic_read ? "atomic read" : "read";
  char line[512];
  std::string d;
  std::snprintf(line, sizeof line, "  %s at %p by this thread at %s\n", what,
                reinterpret_cast<void*>(addr), at_line(here).c_str());
  d += line;
  std::snprintf(line, sizeof line, "  unordered with a%s by %s at %s\n",
                prev_atomic ? (prev_write ? "n atomic update" : "n atomic read")
                            : prev_write ? " write" : " read (whose value that thread used: no atomic of its own on that word followed)",
                thread_name(prev_tid).c_str(), prev_site ? where_prev.c_str() : "<a line not recorded>");
  d += line;
  if (const allocation* al = find_allocation(reinterpret_cast<void*>(addr)); al && !al->freed) {
    const char* api = al->kind == memory_kind::managed ? "cudaMallocManaged"
                      : al->kind == memory_kind::device ? "cudaMalloc" : "cudaMallocHost";
    d += "  in a " + std::to_string(al->size) + "-byte allocation from " + api + " (offset " +
         std::to_string(addr - al->base) + ")\n";
  }
  d += "  (no __syncthreads, __syncwarp, warp collective or fenced atomic orders these accesses)\n";
  r.details = d;
  r.error = cudaSuccess;  // a race does not fail the launch on a GPU; the exit status shows it
  g_findings.hold(launch, place, order, std::move(r), file.c_str());
}

// --------------------------------------------------------------------------- ordering
// Whether `rec` (an earlier access) happened before the running thread `self` (index `lane`).
constexpr u64 kClockMask = 0x7fffffffu, kAtomic = u64{1} << 31, kWrite = u64{1} << 63;
constexpr u32 kTidMask = (1u << 25) - 1;
inline u32 rec_clock(u64 r) { return static_cast<u32>(r & kClockMask); }
inline u32 rec_tid(u64 r) { return static_cast<u32>(r >> 32) & kTidMask; }
inline unsigned rec_off(u64 r) { return static_cast<unsigned>(r >> 57) & 7u; }
inline unsigned rec_len(u64 r) { return (static_cast<unsigned>(r >> 60) & 7u) + 1; }

bool ordered(u64 rec, const block_tokens& b, unsigned lane, const char* addr) {
  const u32 clock = rec_clock(rec);
  const u32 tid = rec_tid(rec);
  if (clock < g_launch_base.load(std::memory_order_relaxed)) return true;  // an earlier launch
  const u32 other = (tid - b.tid_base) & kTidMask;
  if (other < b.nthreads) {
    if (clock < b.bar_epoch) return true;
    if (other / 32 == lane / 32) {
      if (clock < b.warp_epoch[lane / 32]) return true;
      if (!b.partial.empty() && clock < b.partial[lane][other % 32]) return true;
    }
  } else if ((addr >= b.dyn_begin && addr < b.dyn_end) || (addr >= b.tls_begin && addr < b.tls_end)) {
    // Per-worker memory that is per block by construction (dynamic shared memory, the
    // emulator's thread-local scratch): what an earlier block on this worker left there.
    return true;
  }
  if (b.any_know) {
    if (b.block_know.knows(tid, clock, g_threads_per_block)) return true;
    const auto& k = b.threads[lane].know;
    if (k && k->knows(tid, clock, g_threads_per_block)) return true;
  }
  return false;
}


struct current {
  block_tokens* b;
  unsigned lane;
};

// The running CUDA thread, or nullptr for host code and the thread's own stack.
inline bool running_thread(std::uintptr_t a, current& c) {
  if (!t_block_active) return false;
  const int lane = current_thread_index();
  if (lane < 0) return false;
  if (const auto* sc = current_thread_stack()) {
    const auto top = reinterpret_cast<std::uintptr_t>(sc->sp);
    if (a < top && a >= top - sc->size) return false;
  }
  c.b = &t_block;
  c.lane = static_cast<unsigned>(lane);
  return true;
}

// Whether an earlier record conflicts with an access of `kind`: a plain write with anything; a
// plain read or an atomic with a plain write. Atomics do not race with atomics.
inline bool conflicts(u64 rec, access_kind kind) {
  if (kind == access_kind::write) return true;
  return (rec & kWrite) && !(rec & kAtomic);
}

// How much a record can stand for: a plain write conflicts with every later access; a read and
// an atomic conflict with later plain writes only (and with each other through the idiom rule).
inline int strength(u64 rec) { return (rec & kWrite) && !(rec & kAtomic) ? 2 : 1; }

inline u64 record_of(u64 self, unsigned off, unsigned len, access_kind kind) {
  return self | (u64{off} << 57) | (u64{len - 1} << 60) |
         (kind == access_kind::write || kind == access_kind::atomic ? kWrite : 0) |
         (kind == access_kind::atomic || kind == access_kind::atomic_read ? kAtomic : 0);
}

// A plain read racing with other threads' atomics on the same word is the compare-and-swap idiom
// (`old = *p; do { ... } while (atomicCAS(p, ...) != ...)`) when the reading thread then updates
// the word atomically itself: no report. When it does not (the value read is used as it is, e.g.
// a histogram bin read before the other threads' atomicAdds are ordered before it), it is a
// race: kept pending until the thread's next synchronisation point or exit, and reported then
// unless an atomic of its own on those bytes came first.
void add_pending(block_tokens& b, unsigned lane, std::uintptr_t addr, unsigned len, u64 other,
                 u32 other_site, std::uintptr_t pc) {
  auto& p = b.threads[lane].pending;
  for (const auto& e : p)
    if (e.addr == addr) return;
  if (p.size() < 8) p.push_back({addr, len, other, other_site, pc});
}

// One access of [off, off + len) within the granule at `g` (address `addr` of its first byte).
inline void access_granule(granule& g, std::uintptr_t addr, unsigned off, unsigned len,
                           access_kind kind, u64 self, u32 tid, u32 site, block_tokens& b,
                           unsigned lane, std::uintptr_t pc) {
  const u64 mine = record_of(self, off, len, kind);
  const int my_strength = strength(mine);
  int replace = -1, empty = -1, subsumed = -1;
  for (int i = 0; i < 4; ++i) {
    const u64 r = g.rec[i];
    if (!r) {
      empty = i;
      continue;
    }
    if (r == mine) return;  // the same access in the same interval: checked when recorded
    const unsigned ro = rec_off(r), rl = rec_len(r);
    const bool overlap = ro < off + len && off < ro + rl;
    const bool same_thread = rec_tid(r) == tid;
    if (same_thread) {
      // Its own earlier access of the same bytes, no stronger than this one: replace it.
      if (ro == off && rl == len && strength(r) <= my_strength) replace = i;
      continue;
    }
    if (!overlap) continue;
    const bool before = ordered(r, b, lane, reinterpret_cast<const char*>(addr + ro));
    if (!before) {
      if (conflicts(r, kind)) {
        report_race(addr + std::max(ro, off), kind, r, g.site[i], pc);
      } else if (kind == access_kind::read && (r & kAtomic) && (r & kWrite)) {
        add_pending(b, lane, addr + std::max(ro, off), len, r, g.site[i], pc);
      } else if (kind == access_kind::atomic && !(r & kWrite) && !(r & kAtomic) &&
                 ((rec_tid(r) - b.tid_base) & kTidMask) < b.nthreads) {
        // A plain read of this block's, left without an atomic of the reader's own (that
        // thread's interval has ended: lanes of a block run between synchronisation points).
        report_race(addr + std::max(ro, off), kind, r, g.site[i], pc);
      }
    } else if (ro >= off && ro + rl <= off + len && strength(r) <= my_strength) {
      subsumed = i;  // ordered before this access, covered by it, no stronger: this one stands for it
    }
    // Coherence: an atomic update reads the latest value of its bytes, so it comes after every
    // earlier atomic update of them, and so do this thread's later accesses there (the last
    // block of threadFenceReduction resets the counter every block incremented). This record
    // stands for theirs from now on.
    if (kind == access_kind::atomic && (r & kAtomic) && (r & kWrite) && ro >= off &&
        ro + rl <= off + len) {
      g.rec[i] = 0;
      if (empty < 0) empty = i;
    }
  }
  int at = replace >= 0 ? replace : empty >= 0 ? empty : subsumed;
  if (at < 0) at = static_cast<int>((self ^ addr) & 3u);  // full: evict one
  g.rec[at] = mine;
  g.site[at] = site;
}

void access(std::uintptr_t a, std::size_t size, access_kind kind, std::uintptr_t pc) {
  if (streamcheck::enabled())
    streamcheck::access(a, size,
                        kind == access_kind::read    ? streamcheck::access_kind::read
                        : kind == access_kind::write ? streamcheck::access_kind::write
                                                     : streamcheck::access_kind::atomic,
                        pc);
  if (!racechecking()) return;
  current c;
  if (size == 0 || !running_thread(a, c)) return;
  block_tokens& b = *c.b;
  if (kind == access_kind::atomic) {  // validates its own pending plain reads of these bytes
    auto& p = b.threads[c.lane].pending;
    for (std::size_t k = 0; k < p.size();)
      if (p[k].addr < a + size && a < p[k].addr + p[k].len) p.erase(p.begin() + static_cast<std::ptrdiff_t>(k));
      else ++k;
  }
  const u32 tid = (b.tid_base + c.lane) & kTidMask;
  const u64 self = (u64{tid} << 32) | b.threads[c.lane].clock;
  const u32 site = code_site(pc);
  std::uintptr_t p = a;
  const std::uintptr_t end = a + size;
  // The same access again in the same interval (a loop over the same data): its record is
  // there already, nothing to check or record. Records are 8-byte atomic loads: no lock.
  if ((a & 7) + size <= 8) {
    const std::uintptr_t page = a >> kPageBits;
    if (granule* gs = shadow_page(page)) {
      const granule& g = gs[(a >> 3) & (kGranulesPerPage - 1)];
      const u64 mine = record_of(self, static_cast<unsigned>(a & 7), static_cast<unsigned>(size), kind);
      for (int i = 0; i < 4; ++i)
        if (__atomic_load_n(&g.rec[i], __ATOMIC_RELAXED) == mine) return;
    }
  }
  const bool one_worker = single_worker();
  while (p < end) {
    const std::uintptr_t page = p >> kPageBits;
    const std::uintptr_t page_end = std::min(end, (page + 1) << kPageBits);
    granule* gs = shadow_page(page);
    if (!gs) return;
    stripe_lock& lk = g_shadow.lock_of(p);
    if (!one_worker) lk.lock();
    while (p < page_end) {
      const std::uintptr_t base = p & ~std::uintptr_t{7};
      const unsigned off = static_cast<unsigned>(p - base);
      const unsigned len = static_cast<unsigned>(std::min<std::uintptr_t>(page_end, base + 8) - p);
      access_granule(gs[(p >> 3) & (kGranulesPerPage - 1)], base, off, len, kind, self, tid, site,
                     b, c.lane, pc);
      p += len;
    }
    if (!one_worker) lk.unlock();
  }
}

// --------------------------------------------------------------------------- atomics, fences
// What the running thread releases: its own accesses so far, its block's before the last
// barrier, its warp's before their last collective with it, and what it acquired.
knowledge released_by(const block_tokens& b, unsigned lane) {
  knowledge k;
  const block_tokens::thread& t = b.threads[lane];
  if (t.know) k.join(*t.know);
  k.join(b.block_know);
  knowledge::raise(k.threads, (b.tid_base + lane) & kTidMask, t.clock + 1);
  // Keyed as knows() looks it up: the (wrapped) thread identity over the block size.
  if (b.bar_epoch) knowledge::raise(k.blocks, b.tid_base / g_threads_per_block, b.bar_epoch);
  const unsigned w = lane / 32, first = w * 32;
  for (unsigned q = 0; q < 32 && first + q < b.nthreads; ++q) {
    u32 bound = b.warp_epoch[w];
    if (!b.partial.empty()) bound = std::max(bound, b.partial[lane][q]);
    if (bound) knowledge::raise(k.threads, (b.tid_base + first + q) & kTidMask, bound);
  }
  return k;
}

void acquire_from(block_tokens& b, unsigned lane, std::uintptr_t addr) {
  std::lock_guard<std::mutex> lock(g_sync_mutex);
  auto it = g_sync.find(addr);
  if (it == g_sync.end() || it->second.launch_base != g_launch_base.load() || it->second.k.empty())
    return;
  auto& t = b.threads[lane];
  if (!t.know) t.know = std::make_unique<knowledge>();
  t.know->join(it->second.k);
  b.any_know = true;
}

void release_to(block_tokens& b, unsigned lane, std::uintptr_t addr) {
  knowledge k = released_by(b, lane);
  std::lock_guard<std::mutex> lock(g_sync_mutex);
  sync_object& s = g_sync[addr];
  if (s.launch_base != g_launch_base.load()) s = sync_object{g_launch_base.load(), {}};
  s.k.join(k);
}

// An atomic by the running thread. A read-modify-write or store after a fence releases (CUDA's
// fence + relaxed atomic pattern) and acquires (the threadFenceReduction sample's last block
// reads what the others wrote with no fence after its atomicInc, and a GPU honours that); a
// later fence acquires from its address (atomic, then fence: acquire).
//
// Memory orders: CUDA's atomic functions are relaxed (compiled sequentially consistent here, so
// `mo` 5 orders nothing); PTX's .acquire and .release (libcu++'s cuda::atomic_ref, CUB) arrive as
// acquire (2), release (3) and acq_rel (4) and order as C++'s do.
//
// Blocks run on several workers at once, so the release is made before the operation and the
// acquire after it (atomic_acquire_event): an atomic that reads another's value then always
// finds what that one released. Both inside, a block whose ticket says it is last could acquire
// before the block with the previous ticket had released.
//
// A compare-and-swap that fails modified nothing: the fence before it still waits for the
// atomic that succeeds (atomicInc and atomicAdd on floats are compare-and-swap loops, and the
// last block of threadFenceReduction may need a second attempt).
struct atomic_outcome {
  bool acquires = false;  // acquire once the operation is done
  bool fenced = false;    // a fence preceded it (restored when a compare-and-swap fails)
};

atomic_outcome atomic_event(std::uintptr_t addr, bool modifies, int mo) {
  current c;
  if (!racechecking() || !running_thread(addr, c)) return {};
  block_tokens& b = *c.b;
  auto& t = b.threads[c.lane];
  atomic_outcome o;
  o.acquires = mo == 2 || mo == 4;
  if (modifies && (mo == 3 || mo == 4)) {
    release_to(b, c.lane, addr);
    b.bump(t);
  }
  if (t.fenced && modifies) {
    release_to(b, c.lane, addr);
    o.acquires = o.fenced = true;
    t.fenced = false;
    b.bump(t);
  }
  t.last_atomic = addr;
  return o;
}

// After the operation of an atomic: what atomic_event said it acquires, and the fence back when
// it was a compare-and-swap that failed.
void atomic_done(std::uintptr_t addr, atomic_outcome o, bool failed) {
  current c;
  if (!racechecking() || !running_thread(addr, c)) return;
  if (o.acquires) acquire_from(*c.b, c.lane, addr);
  if (failed && o.fenced) c.b->threads[c.lane].fenced = true;
}

// The running thread's interval ends: its unvalidated plain reads that raced with atomics.
void flush_pending() {
  current c;
  if (!t_block_active || !running_thread(0, c)) return;
  auto& p = c.b->threads[c.lane].pending;
  for (const auto& e : p) report_race(e.addr, access_kind::read, e.other, e.other_site, e.pc);
  p.clear();
}

void fence_event() {
  current c;
  if (!t_block_active || !running_thread(0, c)) return;
  auto& t = c.b->threads[c.lane];
  t.fenced = true;
  if (t.last_atomic) {
    acquire_from(*c.b, c.lane, t.last_atomic);
    t.last_atomic = 0;
  }
}

}  // namespace

// --------------------------------------------------------------------------- scheduler hooks
namespace hooks {
void* create_fiber_context() { return nullptr; }
void destroy_fiber_context(void*) {}
void* current_fiber_context() { return nullptr; }
void before_switch(const switch_target&, void**) {}
void after_switch(void*, const void**, std::size_t*) {}
void before_final_switch(const switch_target&) {}
void on_stack_reuse(void*, std::size_t) {}

void launch_begin(launch_state& l) {
  streamcheck::launch_begin(l);
  g_launch = &l;
  g_threads_per_block = std::max<u32>(1, l.block.x * l.block.y * l.block.z);
  g_launch_base.store(g_max_clock.load() + 1);
}
void launch_end(launch_state& l) {
  g_findings.grid_end(&l);
  streamcheck::launch_end(l);
}

block_tokens* block_begin(const launch_state& l, uint3 idx) {
  block_tokens& b = t_block;
  const u32 n = l.block.x * l.block.y * l.block.z;
  b.block_linear = idx.x + l.grid.x * (idx.y + l.grid.y * idx.z);
  // Thread identities are 25 bits (the records' field): past 32 M threads in a launch they wrap.
  b.tid_base = static_cast<u32>((u64{b.block_linear} * n) & kTidMask);
  b.nthreads = n;
  const u32 base = g_launch_base.load();
  b.bar_epoch = 0;
  b.max_clock = base;
  b.threads.resize(n);
  for (auto& t : b.threads) {
    t.clock = base;
    t.fenced = false;
    t.last_atomic = 0;
    t.know.reset();
    t.pending.clear();
  }
  b.warp_epoch.assign((n + 31) / 32, 0);
  b.partial.clear();
  b.block_know = {};
  b.any_know = false;
  b.dyn_begin = static_cast<const char*>(dynamic_shared_memory());
  b.dyn_end = b.dyn_begin + kDynamicSharedCapacity;
  if (!b.tls_end) {
    // x86-64: the static TLS blocks of all loaded objects lie just below the thread pointer.
    const char* tp = static_cast<const char*>(__builtin_thread_pointer());
    b.tls_begin = tp - static_tls_size();
    b.tls_end = tp;
  }
  t_block_active = true;
  return &b;
}

void block_end(block_tokens* b) {
  t_block_active = false;
  if (!b) return;
  u32 m = g_max_clock.load();
  while (m < b->max_clock && !g_max_clock.compare_exchange_weak(m, b->max_clock)) {}
}

void lane_begin(const launch_state&, void*, const char*) {}
void lane_end(const launch_state&) { flush_pending(); }
void barrier_arrive(block_tokens*) { flush_pending(); }
void collective_arrive(block_tokens*) { flush_pending(); }

void barrier_complete(block_tokens* b) {
  if (!b) return;
  b->bar_epoch = b->max_clock + 1;
  b->max_clock = b->bar_epoch;
  for (auto& t : b->threads) {
    t.clock = b->bar_epoch;
    if (t.know) {
      b->block_know.join(*t.know);
      t.know.reset();
    }
  }
  b->partial.clear();
}

// this_grid().sync(): every access before it, in any block, happens before every access after
// it, as if the grid's phases were launches.
void grid_barrier_arrive(block_tokens* b) {
  if (!b) return;
  u32 m = g_max_clock.load();
  while (m < b->max_clock && !g_max_clock.compare_exchange_weak(m, b->max_clock)) {}
}
void grid_barrier_complete() { g_launch_base.store(g_max_clock.load() + 1); }
void grid_barrier_release(block_tokens* b) {
  if (!b) return;
  b->max_clock = std::max(b->max_clock, g_launch_base.load());
  barrier_complete(b);
}

void collective_complete(block_tokens* b, unsigned first, unsigned m, unsigned existing) {
  if (!b) return;
  u32 c = 0;
  for (unsigned rest = m; rest; rest &= rest - 1) c = std::max(c, b->threads[first + __builtin_ctz(rest)].clock);
  c = std::max(c, b->max_clock) + 1;
  b->max_clock = c;
  for (unsigned rest = m; rest; rest &= rest - 1) b->threads[first + __builtin_ctz(rest)].clock = c;
  if ((m & existing) == existing) {
    b->warp_epoch[first / 32] = c;
  } else {
    if (b->partial.empty()) b->partial.assign(b->nthreads, std::array<u32, 32>{});
    std::array<u32, 32> known{};
    for (unsigned rest = m; rest; rest &= rest - 1) {
      const auto& row = b->partial[first + __builtin_ctz(rest)];
      for (unsigned q = 0; q < 32; ++q) known[q] = std::max(known[q], row[q]);
    }
    for (unsigned rest = m; rest; rest &= rest - 1) known[__builtin_ctz(rest)] = c;
    for (unsigned rest = m; rest; rest &= rest - 1) b->partial[first + __builtin_ctz(rest)] = known;
  }
  // What the participants acquired through atomics, they now share.
  knowledge* shared = nullptr;
  knowledge joined;
  for (unsigned rest = m; rest; rest &= rest - 1) {
    const auto& k = b->threads[first + __builtin_ctz(rest)].know;
    if (k) {
      joined.join(*k);
      shared = &joined;
    }
  }
  if (shared)
    for (unsigned rest = m; rest; rest &= rest - 1) {
      auto& k = b->threads[first + __builtin_ctz(rest)].know;
      if (!k) k = std::make_unique<knowledge>();
      k->join(joined);
    }
}
}  // namespace hooks
}  // namespace cuemu::detail

// --------------------------------------------------------------------------- instrumentation ABI
// The entry points g++'s -fsanitize=thread calls (the same names and signatures as
// ThreadSanitizer's runtime, which is not linked).
using cuemu::detail::access_kind;

#define CUEMU_PC reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))
#define CUEMU_TSAN extern "C" __attribute__((visibility("default"), used))

CUEMU_TSAN void __tsan_init() {}
CUEMU_TSAN void __tsan_func_entry(void*) {}
CUEMU_TSAN void __tsan_func_exit() {}
CUEMU_TSAN void __tsan_ignore_thread_begin() {}
CUEMU_TSAN void __tsan_ignore_thread_end() {}

namespace {
// A volatile access (g++ reports them apart with --param=tsan-distinguish-volatile=1). To global
// memory it is what PTX's memory model makes it, a relaxed atomic at system scope: CUB's
// decoupled look-back publishes and polls tile states with volatile stores and loads between
// blocks, ordered by fences. To shared memory it stays a plain access, so that warp-synchronous
// code without __syncwarp is still reported.
void volatile_access(void* p, std::size_t n, bool write, std::uintptr_t pc) {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  const cuemu::detail::allocation* al = cuemu::detail::find_allocation(p);
  if (al && !al->freed && al->kind != cuemu::detail::memory_kind::host_registered) {
    cuemu::detail::access(addr, n, write ? access_kind::atomic : access_kind::atomic_read, pc);
    const cuemu::detail::atomic_outcome o = cuemu::detail::atomic_event(addr, write, 0);
    if (o.acquires) cuemu::detail::atomic_done(addr, o, false);
  } else {
    cuemu::detail::access(addr, n, write ? access_kind::write : access_kind::read, pc);
  }
  // A thread spinning on a volatile load yields to the others (cuemu/progress.h).
  if (!write && n <= 8 && cuemu::detail::current_thread_index() >= 0) {
    unsigned long long v = 0;
    for (std::size_t i = 0; i < n; ++i)
      v |= static_cast<unsigned long long>(static_cast<const volatile unsigned char*>(p)[i]) << (8 * i);
    cuemu::detail::poll_at(p, v, reinterpret_cast<const char*>(pc) - 1);
  }
}
}  // namespace

#define CUEMU_TSAN_RW(N)                                                                          \
  CUEMU_TSAN void __tsan_read##N(void* p) {                                                       \
    cuemu::detail::access(reinterpret_cast<std::uintptr_t>(p), N, access_kind::read, CUEMU_PC);   \
  }                                                                                               \
  CUEMU_TSAN void __tsan_write##N(void* p) {                                                      \
    cuemu::detail::access(reinterpret_cast<std::uintptr_t>(p), N, access_kind::write, CUEMU_PC);  \
  }                                                                                               \
  CUEMU_TSAN void __tsan_unaligned_read##N(void* p) {                                             \
    cuemu::detail::access(reinterpret_cast<std::uintptr_t>(p), N, access_kind::read, CUEMU_PC);   \
  }                                                                                               \
  CUEMU_TSAN void __tsan_unaligned_write##N(void* p) {                                            \
    cuemu::detail::access(reinterpret_cast<std::uintptr_t>(p), N, access_kind::write, CUEMU_PC);  \
  }                                                                                               \
  CUEMU_TSAN void __tsan_volatile_read##N(void* p) {                                              \
    volatile_access(p, N, false, CUEMU_PC);                                                       \
  }                                                                                               \
  CUEMU_TSAN void __tsan_volatile_write##N(void* p) {                                             \
    volatile_access(p, N, true, CUEMU_PC);                                                        \
  }
CUEMU_TSAN_RW(1)
CUEMU_TSAN_RW(2)
CUEMU_TSAN_RW(4)
CUEMU_TSAN_RW(8)
CUEMU_TSAN_RW(16)

CUEMU_TSAN void __tsan_read_range(void* p, unsigned long n) {
  cuemu::detail::access(reinterpret_cast<std::uintptr_t>(p), n, access_kind::read, CUEMU_PC);
}
CUEMU_TSAN void __tsan_write_range(void* p, unsigned long n) {
  cuemu::detail::access(reinterpret_cast<std::uintptr_t>(p), n, access_kind::write, CUEMU_PC);
}
CUEMU_TSAN void __tsan_vptr_read(void** p) {
  cuemu::detail::access(reinterpret_cast<std::uintptr_t>(p), sizeof(void*), access_kind::read, CUEMU_PC);
}
CUEMU_TSAN void __tsan_vptr_update(void** p, void* v) {
  if (*p != v)
    cuemu::detail::access(reinterpret_cast<std::uintptr_t>(p), sizeof(void*), access_kind::write, CUEMU_PC);
}

CUEMU_TSAN void __tsan_atomic_thread_fence(int) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  cuemu::detail::fence_event();
}
CUEMU_TSAN void __tsan_atomic_signal_fence(int) {}

namespace {
// 16-byte atomics: a lock (x86-64 without -mcx16 has no lock-free 16-byte operation).
std::mutex g_atomic128_mutex;

// An atomic operation's checking: the access and what it releases when made, what it acquires
// when the operation (evaluated in the return statement) is done.
class atomic_access {
 public:
  template <class T>
  atomic_access(volatile T* a, bool modifies, std::uintptr_t pc, int mo)
      : addr_(reinterpret_cast<std::uintptr_t>(const_cast<T*>(a))) {
    cuemu::detail::access(addr_, sizeof(T), modifies ? access_kind::atomic : access_kind::atomic_read, pc);
    outcome_ = cuemu::detail::atomic_event(addr_, modifies, mo);
  }
  ~atomic_access() {
    if (outcome_.acquires || outcome_.fenced) cuemu::detail::atomic_done(addr_, outcome_, failed_);
  }
  bool compare_exchanged(bool ok) {
    failed_ = !ok;
    return ok;
  }
  atomic_access(const atomic_access&) = delete;
  atomic_access& operator=(const atomic_access&) = delete;

 private:
  std::uintptr_t addr_;
  cuemu::detail::atomic_outcome outcome_;
  bool failed_ = false;
};
}  // namespace

#define CUEMU_TSAN_ATOMIC_OPS(N, T, LOAD, STORE, XCHG, FETCH)                                      \
  CUEMU_TSAN T __tsan_atomic##N##_load(const volatile T* a, int mo) {                              \
    atomic_access checking(const_cast<volatile T*>(a), false, CUEMU_PC, mo);                       \
    LOAD;                                                                                          \
  }                                                                                                \
  CUEMU_TSAN void __tsan_atomic##N##_store(volatile T* a, T v, int mo) {                           \
    atomic_access checking(a, true, CUEMU_PC, mo);                                                 \
    STORE;                                                                                         \
  }                                                                                                \
  CUEMU_TSAN T __tsan_atomic##N##_exchange(volatile T* a, T v, int mo) {                           \
    atomic_access checking(a, true, CUEMU_PC, mo);                                                 \
    XCHG;                                                                                          \
  }                                                                                                \
  CUEMU_TSAN T __tsan_atomic##N##_fetch_add(volatile T* a, T v, int mo) {                          \
    atomic_access checking(a, true, CUEMU_PC, mo);                                                 \
    FETCH(add, +);                                                                                 \
  }                                                                                                \
  CUEMU_TSAN T __tsan_atomic##N##_fetch_sub(volatile T* a, T v, int mo) {                          \
    atomic_access checking(a, true, CUEMU_PC, mo);                                                 \
    FETCH(sub, -);                                                                                 \
  }                                                                                                \
  CUEMU_TSAN T __tsan_atomic##N##_fetch_and(volatile T* a, T v, int mo) {                          \
    atomic_access checking(a, true, CUEMU_PC, mo);                                                 \
    FETCH(and, &);                                                                                 \
  }                                                                                                \
  CUEMU_TSAN T __tsan_atomic##N##_fetch_or(volatile T* a, T v, int mo) {                           \
    atomic_access checking(a, true, CUEMU_PC, mo);                                                 \
    FETCH(or, |);                                                                                  \
  }                                                                                                \
  CUEMU_TSAN T __tsan_atomic##N##_fetch_xor(volatile T* a, T v, int mo) {                          \
    atomic_access checking(a, true, CUEMU_PC, mo);                                                 \
    FETCH(xor, ^);                                                                                 \
  }                                                                                                \
  CUEMU_TSAN T __tsan_atomic##N##_fetch_nand(volatile T* a, T v, int mo) {                         \
    atomic_access checking(a, true, CUEMU_PC, mo);                                                 \
    T old = *a;                                                                                    \
    while (!cas_##N(a, &old, static_cast<T>(~(old & v)))) {}                                       \
    return old;                                                                                    \
  }                                                                                                \
  CUEMU_TSAN int __tsan_atomic##N##_compare_exchange_strong(volatile T* a, T* c, T v, int, int mo) { \
    atomic_access checking(a, true, CUEMU_PC, mo);                                                 \
    return checking.compare_exchanged(cas_##N(a, c, v));                                           \
  }                                                                                                \
  CUEMU_TSAN int __tsan_atomic##N##_compare_exchange_weak(volatile T* a, T* c, T v, int, int mo) { \
    atomic_access checking(a, true, CUEMU_PC, mo);                                                 \
    return checking.compare_exchanged(cas_##N(a, c, v));                                           \
  }                                                                                                \
  CUEMU_TSAN T __tsan_atomic##N##_compare_exchange_val(volatile T* a, T c, T v, int, int mo) {     \
    atomic_access checking(a, true, CUEMU_PC, mo);                                                 \
    checking.compare_exchanged(cas_##N(a, &c, v));                                                 \
    return c;                                                                                      \
  }

#define CUEMU_LOCKFREE(N, T)                                                                      \
  namespace {                                                                                     \
  inline bool cas_##N(volatile T* a, T* c, T v) {                                                 \
    return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
  }                                                                                               \
  }                                                                                               \
  CUEMU_TSAN_ATOMIC_OPS(N, T, return __atomic_load_n(a, __ATOMIC_SEQ_CST),                         \
                        __atomic_store_n(a, v, __ATOMIC_SEQ_CST),                                 \
                        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST), CUEMU_FETCH)
#define CUEMU_FETCH(op, sym) return __atomic_fetch_##op(a, v, __ATOMIC_SEQ_CST)

CUEMU_LOCKFREE(8, char)
CUEMU_LOCKFREE(16, short)
CUEMU_LOCKFREE(32, int)
CUEMU_LOCKFREE(64, long)

#undef CUEMU_FETCH
#define CUEMU_FETCH(op, sym)                                                                      \
  std::lock_guard<std::mutex> lock(g_atomic128_mutex);                                            \
  __int128 old = *const_cast<__int128*>(a);                                                       \
  *const_cast<__int128*>(a) = old sym v;                                                          \
  return old
namespace {
inline bool cas_128(volatile __int128* a, __int128* c, __int128 v) {
  std::lock_guard<std::mutex> lock(g_atomic128_mutex);
  if (*const_cast<__int128*>(a) == *c) {
    *const_cast<__int128*>(a) = v;
    return true;
  }
  *c = *const_cast<__int128*>(a);
  return false;
}
}  // namespace
using cuemu_int128 = __int128;
CUEMU_TSAN_ATOMIC_OPS(128, cuemu_int128,
                      std::lock_guard<std::mutex> lock(g_atomic128_mutex);
                      return *const_cast<__int128*>(a),
                      std::lock_guard<std::mutex> lock(g_atomic128_mutex);
                      *const_cast<__int128*>(a) = v,
                      std::lock_guard<std::mutex> lock(g_atomic128_mutex);
                      __int128 old = *const_cast<__int128*>(a); *const_cast<__int128*>(a) = v; return old,
                      CUEMU_FETCH)

#endif  // CUEMU_RACECHECK
