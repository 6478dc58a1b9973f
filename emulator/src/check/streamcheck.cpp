// --check=streams: the races a GPU's asynchronous streams make, found on a run whose stream work
// runs at the call (the racecheck runtime's streams are synchronous), so that every run finds the
// same ones whatever the timing. Compiled into the racecheck runtime only.
//
// Two findings:
//   - host code touching memory that work it has not waited for reads or writes (an async copy's
//     destination read before cudaStreamSynchronize, a pinned source rewritten while its copy may
//     still run, managed memory a running kernel uses);
//   - work on one stream touching memory that unordered work of another stream writes (or reads,
//     when this one writes).
//
// Time. The host and each stream are agents with vector clocks. A work item (kernel, copy,
// memset, host function, event record, wait) takes as its clock its place in its stream's queue,
// and knows, when issued: what the host knew then, its stream's earlier work, CUDA's implicit
// ordering with the legacy default stream, and what the items its cudaStreamWaitEvent named knew.
// The host learns what an item knew when it waits for it: a stream, event or device
// synchronisation, a query that returned cudaSuccess, a blocking call. All host threads share one
// knowledge: an ordering between host threads (a join, a mutex, an OpenMP barrier) is not seen,
// so a thread may read what another thread waited for.
//
// Shadow. Every 8 bytes that work touched outside a thread's own stack have four records: the work
// item, the code address (of a CUDA thread's access; 0 for the runtime's copies), the bytes (a
// mask) and the kind (read, write, atomic). Work records; host code only checks, and only while
// some work exists that the host has not waited for. Reads do not conflict with reads, nor
// atomics with atomics.
#if defined(CUEMU_RACECHECK)

#include "check/streamcheck.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <malloc.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <cuemu/launch.h>

#include "check/grid_findings.h"
#include "check/report.h"
#include "check/shadow_memory.h"
#include "check/stream_events.h"
#include "check/symbolize.h"
#include "check/thread_storage.h"
#include "exec/current_thread.h"
#include "exec/options.h"
#include "exec/shared_memory.h"

namespace cuemu::detail {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// --------------------------------------------------------------------------- agents and work
constexpr u32 kMaxAgents = 1u << 16;  // the host and the streams a program makes

struct agent_info {
  const CUstream_st* queue = nullptr;
  unsigned long long stream_id = 0;
  bool legacy = false, blocking = false;
  std::vector<u32> vc;                         // what its latest work knew
  std::deque<std::pair<u32, u32>> unretired;   // (clock, work) the host has not waited for
};

// Every work item's agent and clock, by its number (1, 2, ...): a table of chunks that never
// move, read without a lock by the threads that check records.
struct work_entry {
  u32 agent = 0, clock = 0;
};
constexpr unsigned kChunkBits = 16;
std::atomic<work_entry*> g_chunks[std::size_t{1} << 16];

work_entry work_at(u32 id) {
  const work_entry* c = g_chunks[id >> kChunkBits].load(std::memory_order_acquire);
  return c ? c[id & ((1u << kChunkBits) - 1)] : work_entry{};
}

// What a report says of a work item, kept while the host has not waited for it.
struct work_details {
  const char* what = nullptr;
  std::string name;
  u32 agent = 0;
  void* frames[16];
  int nframes = 0;
  std::size_t frames_hash = 0;       // tells calls made from the same place apart from others
  const char* launch_file = nullptr;  // a kernel: its launch in host code
  int launch_line = 0;
  std::vector<u32> vc;
};

struct state {
  std::mutex mutex;
  std::vector<agent_info> agents = std::vector<agent_info>(1);  // [0]: the host
  std::unordered_map<const CUstream_st*, u32> agent_of;
  std::unordered_map<u32, work_details> live;
  u32 next = 1;
  bool full = false;  // past kMaxAgents or 2^32 items: later work is not checked
};
state& st() {
  static state* s = new state;  // never destroyed: work may run during exit
  return *s;
}
std::atomic<u32> g_host_vc[kMaxAgents];  // what the host knows of each agent
std::atomic<u32> g_unretired{0};         // work the host has not waited for

// Work running on a thread: immutable while it runs (a grid's workers read it).
struct running_work {
  u32 id = 0, agent = 0;
  std::vector<u32> vc;
  std::uintptr_t stack_lo = 0, stack_hi = 0;  // the issuing host thread's stack
  running_work* outer = nullptr;
};
thread_local running_work* t_work = nullptr;
// What a host thread knows beyond the host's shared knowledge: a thread started by a host function
// (or by such a thread) knows what that work knew.
thread_local std::vector<u32>* t_known = nullptr;

bool checking() {
  static const bool on = options().streams;
  return on;
}

// --------------------------------------------------------------------------- thread memory
struct range {
  std::uintptr_t lo = 0, hi = 0;
  bool has(std::uintptr_t a) const { return a >= lo && a < hi; }
};

// The calling thread's own (native) stack.
const range& native_stack() {
  thread_local range r = [] {
    range x;
    pthread_attr_t at;
    if (pthread_getattr_np(pthread_self(), &at) == 0) {
      void* addr = nullptr;
      std::size_t size = 0;
      if (pthread_attr_getstack(&at, &addr, &size) == 0) {
        x.lo = reinterpret_cast<std::uintptr_t>(addr);
        x.hi = x.lo + size;
      }
      pthread_attr_destroy(&at);
    }
    return x;
  }();
  return r;
}

// The calling thread's static thread-local storage (x86-64: just below the thread pointer).
const range& thread_storage() {
  thread_local range r = [] {
    const std::size_t size = static_tls_size();
    const auto tp = reinterpret_cast<std::uintptr_t>(__builtin_thread_pointer());
    return range{tp - size, tp + 64};
  }();
  return r;
}

// Memory that is a CUDA thread's or its worker's alone: its stack, the worker's stack and
// thread-local storage, the block's dynamic shared memory, the issuing host thread's stack (a
// launch's parameters).
bool private_to_cuda_thread(std::uintptr_t a, const running_work& w) {
  if (const auto* sc = current_thread_stack()) {
    const auto top = reinterpret_cast<std::uintptr_t>(sc->sp);
    if (a < top && a >= top - sc->size) return true;
  }
  if (a >= w.stack_lo && a < w.stack_hi) return true;
  const auto dyn = reinterpret_cast<std::uintptr_t>(dynamic_shared_memory());
  if (a >= dyn && a < dyn + kDynamicSharedCapacity) return true;
  return native_stack().has(a) || thread_storage().has(a);
}

// --------------------------------------------------------------------------- shadow
enum : unsigned { k_read = 1, k_write = 2, k_atomic = 3 };
struct cell {
  u32 work[4];
  u32 site[4];
  std::uint16_t meta[4];  // bits 0-7: the bytes; 8-9: the kind
};
constinit shadow_memory<cell> g_shadow("the streams checker", std::size_t{1} << 38);

inline unsigned kind_of(std::uint16_t m) { return m >> 8; }
inline unsigned mask_of(std::uint16_t m) { return m & 0xffu; }
inline bool conflicts(unsigned a, unsigned b) {
  return !(a == k_read && b == k_read) && !(a == k_atomic && b == k_atomic);
}

// Whether the work item `id` is ordered before an access of `me` (nullptr: host code).
bool known(u32 id, const running_work* me) {
  if (me && id == me->id) return true;
  const work_entry e = work_at(id);
  if (me) return e.agent < me->vc.size() && e.clock <= me->vc[e.agent];
  if (e.clock <= g_host_vc[e.agent].load(std::memory_order_acquire)) return true;
  return t_known && e.agent < t_known->size() && e.clock <= (*t_known)[e.agent];
}

// --------------------------------------------------------------------------- reports
// Reports once per place (this access's code, the other work's), at most 32; a CUDA thread's
// findings wait for its grid's end (check/grid_findings.h).
grid_findings g_findings(32);

std::string stream_name(const agent_info& a) {
  if (a.legacy) return "the legacy default stream";
  if (a.stream_id == 1) return "the per-thread default stream";
  return "stream " + std::to_string(a.stream_id);
}

const char* kind_name(unsigned k) {
  return k == k_write ? "write" : k == k_atomic ? "atomic update" : "read";
}

// "kernel produce (issued on stream 3 at main.cu:40)", under the state's lock.
std::string describe_work_locked(state& s, u32 id, code_location* issued_at = nullptr) {
  auto it = s.live.find(id);
  if (it == s.live.end()) return "earlier work";
  const work_details& d = it->second;
  code_location at;
  if (d.launch_file) {
    at.file = d.launch_file;
    at.line = d.launch_line;
  } else {
    at = first_user_location(d.frames, d.nframes);
  }
  if (issued_at) *issued_at = at;
  std::string what = d.what ? d.what : "stream work";
  if (!d.name.empty()) what += " " + d.name;
  return what + " (issued to " + stream_name(s.agents[d.agent]) + " at " + at_line(at) + ")";
}

std::string allocation_note(std::uintptr_t addr) {
  const allocation* al = find_allocation(reinterpret_cast<void*>(addr));
  if (!al || al->freed) return {};
  const char* api = al->kind == memory_kind::managed          ? "cudaMallocManaged"
                    : al->kind == memory_kind::device          ? "cudaMalloc"
                    : al->kind == memory_kind::host_pinned     ? "cudaMallocHost"
                    : al->kind == memory_kind::host_registered ? "cudaHostRegister"
                                                               : "a __device__ variable";
  return "  in a " + std::to_string(al->size) + "-byte allocation from " + api + " (offset " +
         std::to_string(addr - al->base) + ")\n";
}

[[gnu::noinline, gnu::cold]] void report(std::uintptr_t addr, std::size_t bytes, unsigned kind,
                                         const running_work* me, u32 other, u32 other_site,
                                         unsigned other_kind, std::uintptr_t pc) {
  // Once per place of this access and of the other (its code, or the call that issued it): a
  // loop that issues the same copy again and again races the same way each time.
  std::size_t other_place = other_site;
  {
    state& s = st();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (auto it = s.live.find(other); it != s.live.end()) other_place ^= it->second.frames_hash << 1;
  }
  const grid_findings::place place{pc, other_place};
  const bool on_cuda_thread = current_thread_index() >= 0;
  const launch_state* launch = on_cuda_thread ? current_thread_launch() : nullptr;
  const std::uint64_t order = launch ? current_thread_order() : 0;
  if (!g_findings.wanted(launch, place, order)) return;
  void* frames[64];
  const int n = backtrace(frames, 64);
  const code_location here = first_user_location(frames, n);
  fault_report r;
  r.error = cudaSuccess;  // as on a GPU: wrong data, no error; the exit status shows it
  std::string other_text, mine_text;
  code_location issued;
  {
    state& s = st();
    std::lock_guard<std::mutex> lock(s.mutex);
    other_text = describe_work_locked(s, other);
    if (me) mine_text = describe_work_locked(s, me->id, &issued);
  }
  std::string other_line;
  if (const code_location c = location_of_site(other_site); !c.file.empty())
    other_line = " at " + at_line(c);
  static thread_local std::string file;
  char line[640];
  std::string d;
  if (on_cuda_thread) {
    describe_current_thread(r.block, r.thread);
    const launch_state* l = current_thread_launch();
    r.kernel = l ? l->kernel_name : "?";
    r.fault_class = "stream race";
    file = here.file;
    r.file = file.empty() ? nullptr : file.c_str();
    r.line = here.line;
    std::snprintf(line, sizeof line, "  %zu-byte %s at %p by this thread, work of %s\n", bytes,
                  kind_name(kind), reinterpret_cast<void*>(addr), mine_text.c_str());
  } else if (me) {
    // The runtime's copy or memset, or a host function: named by its call.
    r.fault_class = "stream race";
    r.origin = mine_text;
    file = here.file.empty() ? issued.file : here.file;
    r.file = file.empty() ? nullptr : file.c_str();
    r.line = here.file.empty() ? issued.line : here.line;
    std::snprintf(line, sizeof line, "  %zu-byte %s at %p by this work\n", bytes, kind_name(kind),
                  reinterpret_cast<void*>(addr));
  } else {
    r.fault_class = "unsynchronised host access";
    r.origin = "host code";
    file = here.file;
    r.file = file.empty() ? nullptr : file.c_str();
    r.line = here.line;
    std::snprintf(line, sizeof line, "  %zu-byte %s at %p by the host\n", bytes, kind_name(kind),
                  reinterpret_cast<void*>(addr));
  }
  d += line;
  std::snprintf(line, sizeof line, "  unordered with a%s by %s%s\n",
                other_kind == k_write ? " write" : other_kind == k_atomic ? "n atomic update" : " read",
                other_text.c_str(), other_line.c_str());
  d += line;
  d += allocation_note(addr);
  d += me ? "  (no cudaStreamWaitEvent, shared stream, legacy default stream or host "
            "synchronisation between their calls orders them)\n"
          : "  (the host has not waited for that work: no stream, event or device "
            "synchronisation, successful query or blocking call since it was issued)\n";
  r.details = d;
  if (launch) {
    g_findings.hold(launch, place, order, std::move(r), file.c_str());
  } else {
    g_findings.report_once(place, r);
  }
}

// --------------------------------------------------------------------------- the CAS idiom
// A plain read by host code racing only with work's atomics is the compare-and-swap idiom
// (`expected = *p; old = __sync_val_compare_and_swap(p, expected, ...)`, the systemWideAtomics
// sample's host side beside a kernel's atomics on managed memory) when the same thread then
// updates those bytes atomically itself: no report. Otherwise it is reported at the thread's next
// call into the runtime, its next such read past eight, or the end of the program.
struct pending_read {
  std::uintptr_t addr;
  std::size_t bytes;
  const running_work* me;
  u32 other, other_site;
  std::uintptr_t pc;
};
// Never destroyed: the main thread's is flushed by an atexit handler, after thread-local
// destructors ran.
thread_local std::vector<pending_read>& t_pending = *new std::vector<pending_read>;

void flush_pending();

void add_pending(const pending_read& p) {
  for (const auto& e : t_pending)
    if (e.addr == p.addr && e.pc == p.pc && e.other == p.other) return;
  if (t_pending.size() >= 8) flush_pending();
  static std::once_flag at_exit;
  std::call_once(at_exit, [] { std::atexit(flush_pending); });
  t_pending.push_back(p);
}

void validate_pending(std::uintptr_t a, std::size_t n) {
  for (std::size_t k = 0; k < t_pending.size();)
    if (t_pending[k].addr < a + n && a < t_pending[k].addr + t_pending[k].bytes)
      t_pending.erase(t_pending.begin() + static_cast<std::ptrdiff_t>(k));
    else
      ++k;
}

// --------------------------------------------------------------------------- accesses
void access_cell(cell& c, std::uintptr_t base, unsigned mask, unsigned kind, const running_work* me,
                 u32 site, std::uintptr_t pc, std::size_t bytes) {
  int same = -1, empty = -1, replace = -1;
  for (int i = 0; i < 4; ++i) {
    const u32 w = c.work[i];
    if (!w) {
      empty = i;
      continue;
    }
    const unsigned m = mask_of(c.meta[i]), k = kind_of(c.meta[i]);
    if (me && w == me->id) {
      if (k == kind) same = i;
      continue;
    }
    if (!(m & mask)) continue;
    const bool before = known(w, me);
    if (!before && conflicts(k, kind) && kind == k_read && k == k_atomic &&
        current_thread_index() < 0) {
      add_pending({base + static_cast<unsigned>(__builtin_ctz(m & mask)), bytes, me, w, c.site[i], pc});
    } else if (!before && conflicts(k, kind)) {
      report(base + static_cast<unsigned>(__builtin_ctz(m & mask)), bytes, kind, me, w, c.site[i], k,
             pc);
    } else if (before && me && (m & ~mask) == 0 && (k == kind || kind == k_write)) {
      replace = i;  // ordered before this one, covered by it, no stronger: this one stands for it
    }
  }
  if (!me) return;
  int at = same >= 0 ? same : empty >= 0 ? empty : replace;
  if (at < 0) {  // full: the oldest known record goes, else one by the address
    for (int i = 0; i < 4 && at < 0; ++i)
      if (known(c.work[i], me)) at = i;
    if (at < 0) at = static_cast<int>((base >> 3) & 3u);
  }
  if (at == same) {
    c.meta[at] = static_cast<std::uint16_t>(c.meta[at] | mask);
    if (site) c.site[at] = site;
    return;
  }
  c.work[at] = me->id;
  c.site[at] = site;
  c.meta[at] = static_cast<std::uint16_t>(mask | (kind << 8));
}

void access_range(std::uintptr_t a, std::size_t n, unsigned kind, const running_work* me, u32 site,
                  std::uintptr_t pc) {
  const std::uintptr_t end = a + n;
  std::uintptr_t p = a;
  while (p < end) {
    const std::uintptr_t page_end = std::min(end, ((p >> 12) + 1) << 12);
    cell* cells = me ? g_shadow.page_of(p) : g_shadow.find_page_of(p);
    if (!cells) {
      if (me) return;  // past the address space
      p = page_end;
      continue;
    }
    stripe_lock& lk = g_shadow.lock_of(p);
    lk.lock();
    while (p < page_end) {
      const std::uintptr_t base = p & ~std::uintptr_t{7};
      const std::uintptr_t stop = std::min(page_end, base + 8);
      const unsigned mask = ((1u << (stop - base)) - 1) & ~((1u << (p - base)) - 1);
      access_cell(shadow_memory<cell>::cell_in(cells, p), base, mask, kind, me, site, pc, n);
      p = stop;
    }
    lk.unlock();
  }
}

void flush_pending() {
  std::vector<pending_read> p;
  p.swap(t_pending);
  for (const auto& e : p) report(e.addr, e.bytes, k_read, e.me, e.other, e.other_site, k_atomic, e.pc);
}

void join(std::vector<u32>& into, const std::vector<u32>& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (std::size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

// The host now knows `vc`: work it covers needs no details any more.
void host_learns_locked(state& s, const std::vector<u32>& vc) {
  for (std::size_t a = 0; a < vc.size() && a < kMaxAgents; ++a) {
    u32 v = g_host_vc[a].load(std::memory_order_relaxed);
    if (vc[a] <= v) continue;
    g_host_vc[a].store(vc[a], std::memory_order_release);
    auto& q = s.agents[a].unretired;
    while (!q.empty() && q.front().first <= vc[a]) {
      s.live.erase(q.front().second);
      q.pop_front();
      g_unretired.fetch_sub(1, std::memory_order_relaxed);
    }
  }
}

std::vector<u32> host_vc_locked(const state& s) {
  std::vector<u32> vc(s.agents.size());
  for (std::size_t a = 0; a < vc.size(); ++a) vc[a] = g_host_vc[a].load(std::memory_order_relaxed);
  return vc;
}

// The agent of a queue, made on its first work.
u32 agent_locked(state& s, const stream_work& w) {
  auto it = s.agent_of.find(w.queue);
  if (it != s.agent_of.end()) return it->second;
  if (s.agents.size() >= kMaxAgents) return 0;
  const u32 a = static_cast<u32>(s.agents.size());
  agent_info info;
  info.queue = w.queue;
  info.stream_id = w.stream_id;
  info.legacy = w.legacy;
  info.blocking = w.blocking;
  s.agents.push_back(std::move(info));
  s.agent_of.emplace(w.queue, a);
  return a;
}

// The vector clock of the item at position p (its agent's latest if the host already knows it).
void join_position_locked(state& s, std::vector<u32>& vc, const stream_position& p) {
  auto it = s.agent_of.find(p.stream);
  if (it == s.agent_of.end()) return;
  const agent_info& a = s.agents[it->second];
  for (const auto& [clock, id] : a.unretired)
    if (clock == p.count) {
      join(vc, s.live[id].vc);
      return;
    }
  // Known to the host already (or never checked): the host's knowledge covers it.
}

}  // namespace

namespace streamcheck {

bool enabled() { return checking(); }

void access(std::uintptr_t a, std::size_t n, access_kind k, std::uintptr_t pc) {
  if (!checking() || n == 0) return;
  const unsigned kind = k == access_kind::write ? k_write : k == access_kind::atomic ? k_atomic : k_read;
  if (kind == k_atomic && !t_pending.empty()) validate_pending(a, n);
  const running_work* me = nullptr;
  if (current_thread_index() >= 0) {
    const launch_state* l = current_thread_launch();
    me = l ? static_cast<const running_work*>(l->check_work) : nullptr;
    if (!me || !me->id || private_to_cuda_thread(a, *me)) return;
    // The same access again by the same work (a loop over the same data): nothing new.
    if ((a & 7) + n <= 8) {
      if (cell* cells = g_shadow.find_page_of(a)) {
        const cell& c = shadow_memory<cell>::cell_in(cells, a);
        const unsigned mask = ((1u << n) - 1) << (a & 7);
        for (int i = 0; i < 4; ++i)
          if (__atomic_load_n(&c.work[i], __ATOMIC_RELAXED) == me->id) {
            const std::uint16_t m = __atomic_load_n(&c.meta[i], __ATOMIC_RELAXED);
            if (kind_of(m) == kind && (mask_of(m) & mask) == mask) return;
          }
      }
    }
  } else if (t_work) {  // a host function, running as its stream's work
    me = t_work;
    if (!me->id) return;
    if (native_stack().has(a) || thread_storage().has(a)) return;
  } else {
    if (g_unretired.load(std::memory_order_relaxed) == 0) return;  // the host waited for all work
    if (native_stack().has(a) || thread_storage().has(a)) return;
  }
  access_range(a, n, kind, me, me ? code_site(pc) : 0, pc);
}

void launch_begin(launch_state& launch) {
  launch.check_work = t_work;
  // A graph's kernel node has no launch site of its own (line 0): its work keeps the site of
  // the cudaGraphLaunch that issued it.
  if (!checking() || !t_work || !t_work->id || !launch.site.file || launch.site.line == 0 ||
      launch.depth > 0)
    return;
  state& s = st();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (auto it = s.live.find(t_work->id); it != s.live.end()) {
    it->second.launch_file = launch.site.file;
    it->second.launch_line = launch.site.line;
  }
}

void launch_end(launch_state& launch) {
  if (checking()) g_findings.grid_end(&launch);
}

}  // namespace streamcheck

namespace hooks {

bool streams_checked() { return checking(); }

void stream_work_begin(const stream_work& w) {
  if (!checking()) return;
  if (!t_pending.empty()) flush_pending();
  auto* r = new running_work;
  r->outer = t_work;
  t_work = r;
  const range& stack = native_stack();
  r->stack_lo = stack.lo;
  r->stack_hi = stack.hi;
  state& s = st();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.full) return;
  const u32 a = agent_locked(s, w);
  if (a == 0 || s.next == 0xffffffffu) {
    s.full = true;
    std::fprintf(stderr, "cuemu: the streams checker keeps %u streams and 2^32 work items; later "
                         "work is not checked\n", kMaxAgents - 1);
    return;
  }
  agent_info& ag = s.agents[a];
  std::vector<u32> vc = ag.vc;
  join(vc, host_vc_locked(s));
  if (w.legacy) {
    for (const agent_info& b : s.agents)
      if (b.blocking && !b.legacy) join(vc, b.vc);
  } else if (w.blocking) {
    for (const agent_info& b : s.agents)
      if (b.legacy) join(vc, b.vc);
  }
  for (std::size_t i = 0; i < w.after_count; ++i) join_position_locked(s, vc, w.after[i]);
  if (vc.size() <= a) vc.resize(a + 1, 0);
  const u32 clock = std::max<u64>(vc[a] + 1, w.position) > 0xffffffffu
                        ? vc[a] + 1
                        : static_cast<u32>(std::max<u64>(vc[a] + 1, w.position));
  vc[a] = clock;
  ag.vc = vc;

  const u32 id = s.next++;
  std::atomic<work_entry*>& chunk = g_chunks[id >> kChunkBits];
  if (!chunk.load(std::memory_order_relaxed))
    chunk.store(new work_entry[std::size_t{1} << kChunkBits](), std::memory_order_release);
  chunk.load(std::memory_order_relaxed)[id & ((1u << kChunkBits) - 1)] = {a, clock};

  work_details& d = s.live[id];
  d.what = w.what;
  if (w.name) d.name = *w.name;
  d.agent = a;
  d.nframes = backtrace(d.frames, 16);
  for (int i = 0; i < d.nframes; ++i)
    d.frames_hash = d.frames_hash * 1000003u ^ reinterpret_cast<std::uintptr_t>(d.frames[i]);
  d.vc = vc;
  ag.unretired.emplace_back(clock, id);
  g_unretired.fetch_add(1, std::memory_order_relaxed);
  r->id = id;
  r->agent = a;
  r->vc = std::move(vc);
}

void stream_work_end() {
  running_work* r = t_work;
  if (!r) return;
  if (!t_pending.empty()) flush_pending();
  t_work = r->outer;
  delete r;
}

void host_waited(const stream_position& p) {
  if (!t_pending.empty()) flush_pending();
  if (!checking() || !p.stream) return;
  state& s = st();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::vector<u32> vc = host_vc_locked(s);
  join_position_locked(s, vc, p);
  host_learns_locked(s, vc);
}

void host_waited_stream(const CUstream_st* q) {
  if (!t_pending.empty()) flush_pending();
  if (!checking()) return;
  state& s = st();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.agent_of.find(q);
  if (it == s.agent_of.end()) return;
  std::vector<u32> vc = host_vc_locked(s);
  join(vc, s.agents[it->second].vc);
  if (s.agents[it->second].legacy)
    for (const agent_info& b : s.agents)
      if (b.blocking) join(vc, b.vc);
  host_learns_locked(s, vc);
}

void host_waited_device() {
  if (!t_pending.empty()) flush_pending();
  if (!checking()) return;
  state& s = st();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::vector<u32> vc = host_vc_locked(s);
  for (const agent_info& b : s.agents) join(vc, b.vc);
  host_learns_locked(s, vc);
}

void work_accessed(const void* p, std::size_t n, bool write) {
  if (!checking() || !t_work || !t_work->id || n == 0) return;
  access_range(reinterpret_cast<std::uintptr_t>(p), n, write ? k_write : k_read, t_work, 0,
               reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
}

void memory_released(const void* p, std::size_t n) {
  if (!checking() || !p || n == 0) return;
  g_shadow.clear(reinterpret_cast<std::uintptr_t>(p), n);
}

}  // namespace hooks
}  // namespace cuemu::detail

// Threads the program starts: a thread started from a host function (simpleCallback starts one
// per callback to process the data its stream copied) knows what that work knew. The program's
// definition of pthread_create takes the place of the C library's (std::thread calls it too) and
// hands on to it.
namespace {
struct thread_start {
  void* (*fn)(void*);
  void* arg;
  std::vector<cuemu::detail::u32>* known;
};
void* start_thread(void* p) {
  auto* s = static_cast<thread_start*>(p);
  cuemu::detail::t_known = s->known;
  void* (*fn)(void*) = s->fn;
  void* arg = s->arg;
  delete s;
  return fn(arg);
}
}  // namespace

extern "C" __attribute__((visibility("default"))) int pthread_create(
    pthread_t* thread, const pthread_attr_t* attr, void* (*fn)(void*), void* arg) {
  using real_t = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
  static const real_t real = reinterpret_cast<real_t>(dlsym(RTLD_NEXT, "pthread_create"));
  using cuemu::detail::t_known;
  using cuemu::detail::t_work;
  std::vector<cuemu::detail::u32>* known = nullptr;
  if (cuemu::detail::checking() && t_work && t_work->id) {
    known = new std::vector<cuemu::detail::u32>(t_work->vc);
  } else if (cuemu::detail::checking() && t_known) {
    known = new std::vector<cuemu::detail::u32>(*t_known);
  }
  if (!known) return real(thread, attr, fn, arg);
  auto* s = new thread_start{fn, arg, known};
  const int rc = real(thread, attr, &start_thread, s);
  if (rc != 0) {
    delete known;
    delete s;
  }
  return rc;
}

#endif  // CUEMU_RACECHECK
