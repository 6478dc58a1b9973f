// The checking modes' side of the scheduler hooks (exec/check_hooks.h), and the reports of the
// sanitizers' findings in CUDA terms. Compiled into the memcheck runtime (CUEMU_MEMCHECK:
// AddressSanitizer fiber annotations, __asan_on_error, the alignment check's handlers) and the
// racecheck runtime (CUEMU_RACECHECK: ThreadSanitizer fibers and the happens-before edges that
// barriers, warp collectives and launches really give). The plain runtime compiles nothing here.
#if defined(CUEMU_MEMCHECK) || defined(CUEMU_RACECHECK)

#include <execinfo.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "check/report.h"
#include "check/symbolize.h"
#include "exec/block.h"
#include "exec/check_hooks.h"
#include "exec/shared_memory.h"
#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

std::string at_line(const code_location& c) {
  return c.file.empty() ? std::string("<unknown>") : c.file + ":" + std::to_string(c.line);
}

// The header of a report for the CUDA thread running on this worker.
bool current_thread(fault_report& r) {
  block_executor* e = current_executor();
  if (!e || !e->describe_current(r.block, r.thread)) return false;
  const launch_state* l = e->current_launch();
  r.kernel = l ? l->kernel_name : "?";
  return true;
}

[[maybe_unused]] code_location here_in_user_code() {
  void* frames[64];
  const int n = backtrace(frames, 64);
  return first_user_location(frames, n);
}

}  // namespace
}  // namespace cuemu::detail

// ===================================================================== memcheck
#if defined(CUEMU_MEMCHECK)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>

namespace cuemu::detail {

struct block_tokens {};

namespace hooks {
void* create_fiber_context() { return nullptr; }
void destroy_fiber_context(void*) {}
void* current_fiber_context() { return nullptr; }
void before_switch(const switch_target& to, void** fake_stack) {
  __sanitizer_start_switch_fiber(fake_stack, to.stack_bottom, to.stack_size);
}
void after_switch(void* fake_stack, const void** from_bottom, std::size_t* from_size) {
  __sanitizer_finish_switch_fiber(fake_stack, from_bottom, from_size);
}
void before_final_switch(const switch_target& to) {
  __sanitizer_start_switch_fiber(nullptr, to.stack_bottom, to.stack_size);
}
void on_stack_reuse(void* bottom, std::size_t size) { __asan_unpoison_memory_region(bottom, size); }
void launch_begin(launch_state&) {}
void launch_end(launch_state&) {}
block_tokens* block_begin(const launch_state&) { return nullptr; }
void block_end(block_tokens*) {}
void lane_begin(const launch_state&, void*, const char*) {}
void lane_end(const launch_state&) {}
void barrier_arrive(block_tokens*, unsigned) {}
void barrier_depart(block_tokens*, unsigned) {}
void collective_arrive(block_tokens*, unsigned, unsigned) {}
void collective_depart(block_tokens*, unsigned, unsigned, unsigned) {}
}  // namespace hooks

namespace {

// Where the first user frame of an allocation or free stack is.
code_location user_frame_of(std::size_t (*get)(void*, void**, std::size_t, int*), void* addr) {
  void* trace[64];
  int tid = 0;
  const std::size_t n = get(addr, trace, 64, &tid);
  return first_user_location(trace, static_cast<int>(n));
}

}  // namespace
}  // namespace cuemu::detail

// Called by AddressSanitizer when it has found an error, before it prints its own report: the
// emulator's header line and the finding in CUDA terms come first.
extern "C" void __asan_on_error() {
  using namespace cuemu::detail;
  fault_report r;
  if (!current_thread(r)) return;  // not in a kernel: AddressSanitizer's report alone
  const code_location where = here_in_user_code();
  r.file = where.file.empty() ? nullptr : where.file.c_str();
  r.line = where.line;
  const std::string desc = __asan_get_report_description();
  void* addr = __asan_get_report_address();
  const bool write = __asan_get_report_access_type() != 0;
  const std::size_t size = __asan_get_report_access_size();
  // __asan_locate_address takes a lock the report holds for non-heap memory: heap only.
  const bool heap = desc == "heap-buffer-overflow" || desc == "heap-use-after-free";
  char name[256] = {0};
  void* region = nullptr;
  std::size_t region_size = 0;
  if (heap) __asan_locate_address(addr, name, sizeof name, &region, &region_size);
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  const auto base = reinterpret_cast<std::uintptr_t>(region);
  char what[160];
  std::snprintf(what, sizeof what, "  %s of %zu bytes at %p", write ? "write" : "read", size, addr);
  std::string d = what;
  const char* dyn = static_cast<const char*>(dynamic_shared_memory());
  const launch_state* launch = current_executor()->current_launch();
  if (addr >= dyn && static_cast<const char*>(addr) < dyn + kDynamicSharedCapacity) {
    r.fault_class = "out-of-bounds access";
    d += ": " + std::to_string(static_cast<const char*>(addr) - dyn) +
         " bytes into this block's dynamic shared memory, of which " +
         std::to_string(launch ? launch->dynamic_shared : 0) +
         " bytes were requested at the launch (extern __shared__)\n";
  } else if (heap) {
    const bool after_free = desc == "heap-use-after-free";
    r.fault_class = after_free ? "use after free" : "out-of-bounds access";
    const bool shared = is_block_shared_object(region);
    const code_location alloc = user_frame_of(__asan_get_alloc_stack, addr);
    std::string object;
    if (shared) {
      object = "a " + std::to_string(region_size) + "-byte __shared__ variable declared at " +
               at_line(alloc);
    } else {
      const allocation* al = find_allocation(region);
      const char* api = !al ? "malloc/new" : al->kind == memory_kind::managed ? "cudaMallocManaged"
                        : al->kind == memory_kind::device ? "cudaMalloc" : "cudaMallocHost";
      object = "a " + std::to_string(region_size) + "-byte allocation made by " + api + " at " +
               at_line(alloc);
    }
    if (after_free) {
      const code_location freed = user_frame_of(__asan_get_free_stack, addr);
      d += ", " + std::to_string(a - base) + " bytes into " + object + ", freed at " +
           at_line(freed) + (shared ? " (the block that owned it has ended)" : "") + "\n";
    } else if (a >= base + region_size) {
      d += ", " + std::to_string(a - (base + region_size)) + " bytes after the end of " + object + "\n";
    } else {
      d += ", " + std::to_string(base - a) + " bytes before the start of " + object + "\n";
    }
  } else if (desc == "global-buffer-overflow") {
    r.fault_class = "out-of-bounds access";
    d += " outside a global variable (a __device__ or __constant__ variable, or a host global)\n";
  } else if (desc == "stack-buffer-overflow" || desc == "stack-buffer-underflow") {
    r.fault_class = "out-of-bounds access";
    d += " outside a local array of the CUDA thread\n";
  } else {
    r.fault_class = desc;
    d += "\n";
  }
  r.details = d;
  r.error = cudaErrorIllegalAddress;
  report_fault(r);
}

// -fsanitize=alignment: misaligned accesses (a GPU faults on a misaligned vector access).
namespace {
struct ubsan_source_location {
  const char* file;
  std::uint32_t line, column;
};
struct ubsan_type_descriptor {
  std::uint16_t kind, info;
  char name[1];
};
struct ubsan_type_mismatch_data {
  ubsan_source_location loc;
  const ubsan_type_descriptor* type;
  unsigned char log_alignment;
  unsigned char check_kind;
};
const char* const kCheckKinds[] = {"load of",          "store to",          "reference binding to",
                                   "member access within", "member call on", "constructor call on",
                                   "downcast of",      "downcast of",       "upcast of",
                                   "cast to virtual base of", "_Nonnull binding to",
                                   "dynamic operation on"};

void type_mismatch(ubsan_type_mismatch_data* d, std::uintptr_t pointer) {
  using namespace cuemu::detail;
  const std::uintptr_t align = std::uintptr_t{1} << d->log_alignment;
  const char* how = d->check_kind < sizeof kCheckKinds / sizeof *kCheckKinds ? kCheckKinds[d->check_kind] : "access to";
  char detail[512];
  if (pointer == 0) {
    std::snprintf(detail, sizeof detail, "  %s a null pointer of type %s\n", how, d->type->name);
  } else {
    std::snprintf(detail, sizeof detail,
                  "  %s address 0x%lx of type %s, which requires %lu-byte alignment (a GPU "
                  "faults with cudaErrorMisalignedAddress)\n",
                  how, static_cast<unsigned long>(pointer), d->type->name,
                  static_cast<unsigned long>(align));
  }
  block_executor* e = current_executor();
  uint3 b{}, t{};
  if (e && e->describe_current(b, t)) {
    e->fault_current_lane(pointer == 0 ? "null pointer access" : "misaligned address", d->loc.file,
                          static_cast<int>(d->loc.line), detail,
                          pointer == 0 ? cudaErrorIllegalAddress : cudaErrorMisalignedAddress);
  }
  std::fprintf(stderr, "%s:%u:%u: runtime error:%s", d->loc.file, d->loc.line, d->loc.column, detail + 1);
  std::abort();
}
}  // namespace

extern "C" void __ubsan_handle_type_mismatch_v1(ubsan_type_mismatch_data* d, std::uintptr_t p) {
  type_mismatch(d, p);
}
extern "C" void __ubsan_handle_type_mismatch_v1_abort(ubsan_type_mismatch_data* d, std::uintptr_t p) {
  type_mismatch(d, p);
}

#endif  // CUEMU_MEMCHECK

// ===================================================================== racecheck
#if defined(CUEMU_RACECHECK)
extern "C" {
void* __tsan_get_current_fiber(void);
void* __tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void* fiber);
void __tsan_switch_to_fiber(void* fiber, unsigned flags);
void __tsan_set_fiber_name(void* fiber, const char* name);
void __tsan_acquire(void* addr);
void __tsan_release(void* addr);
void* __tsan_get_current_report();
int __tsan_get_report_data(void* report, const char** description, int* count, int* stack_count,
                           int* mop_count, int* loc_count, int* mutex_count, int* thread_count,
                           int* unique_tid_count, void** sleep_trace, unsigned long trace_size);
int __tsan_get_report_mop(void* report, unsigned long idx, int* tid, void** addr, int* size,
                          int* write, int* atomic, void** trace, unsigned long trace_size);
int __tsan_get_report_thread(void* report, unsigned long idx, int* tid, unsigned long* os_id,
                             int* running, const char** name, int* parent_tid, void** trace,
                             unsigned long trace_size);
}

namespace cuemu::detail {

struct block_tokens {
  char barrier[2];
  char lanes[1024][2];
};

namespace hooks {
constexpr unsigned kNoSync = 1;  // __tsan_switch_to_fiber_no_sync

void* create_fiber_context() { return __tsan_create_fiber(0); }
void destroy_fiber_context(void* f) {
  if (f) __tsan_destroy_fiber(f);
}
void* current_fiber_context() { return __tsan_get_current_fiber(); }
void before_switch(const switch_target& to, void**) {
  if (to.tsan_fiber) __tsan_switch_to_fiber(to.tsan_fiber, kNoSync);
}
void after_switch(void*, const void**, std::size_t*) {}
void before_final_switch(const switch_target& to) {
  if (to.tsan_fiber) __tsan_switch_to_fiber(to.tsan_fiber, kNoSync);
}
void on_stack_reuse(void*, std::size_t) {}

// The host's work before a launch (copies) happens before every CUDA thread of it; every CUDA
// thread happens before the host's work after it. Nothing else orders the threads.
void launch_begin(launch_state& l) { __tsan_release(&l.entry); }
void launch_end(launch_state& l) { __tsan_acquire(&l.grid); }
void lane_begin(const launch_state& l, void* fiber, const char* name) {
  if (fiber) __tsan_set_fiber_name(fiber, name);
  __tsan_acquire(const_cast<kernel_entry*>(&l.entry));
}
void lane_end(const launch_state& l) { __tsan_release(const_cast<dim3*>(&l.grid)); }

block_tokens* block_begin(const launch_state&) {
  return static_cast<block_tokens*>(std::calloc(1, sizeof(block_tokens)));
}
void block_end(block_tokens* t) { std::free(t); }
void barrier_arrive(block_tokens* t, unsigned g) { __tsan_release(&t->barrier[g & 1]); }
void barrier_depart(block_tokens* t, unsigned g) { __tsan_acquire(&t->barrier[g & 1]); }
void collective_arrive(block_tokens* t, unsigned lane, unsigned parity) {
  __tsan_release(&t->lanes[lane][parity]);
}
void collective_depart(block_tokens* t, unsigned first, unsigned participants, unsigned parities) {
  for (unsigned j = 0; j < 32; ++j)
    if (participants & (1u << j)) __tsan_acquire(&t->lanes[first + j][(parities >> j) & 1u]);
}
}  // namespace hooks
}  // namespace cuemu::detail

// ThreadSanitizer's report hook: the report is rewritten in CUDA terms (which CUDA threads,
// which lines) and ThreadSanitizer's own printing is suppressed.
namespace __tsan {
struct ReportDesc;
bool OnReport(const ReportDesc* rep, bool suppressed) {
  (void)rep;
  using namespace cuemu::detail;
  if (suppressed) return true;
  void* report = __tsan_get_current_report();
  const char* desc = nullptr;
  int count = 0, stacks = 0, mops = 0, locs = 0, mutexes = 0, threads = 0, unique = 0;
  void* sleep[1];
  __tsan_get_report_data(report, &desc, &count, &stacks, &mops, &locs, &mutexes, &threads, &unique,
                         sleep, 1);
  fault_report r;
  if (!current_thread(r)) return false;  // a race outside kernels: ThreadSanitizer's own report
  r.fault_class = desc && std::strcmp(desc, "data-race") == 0 ? "data race" : (desc ? desc : "race");
  std::string d;
  for (int i = 0; i < mops; ++i) {
    int tid = 0, size = 0, write = 0, atomic = 0;
    void* addr = nullptr;
    void* trace[64] = {nullptr};
    __tsan_get_report_mop(report, i, &tid, &addr, &size, &write, &atomic, trace, 64);
    int n = 0;
    while (n < 64 && trace[n]) ++n;
    const code_location at = first_user_location(trace, n);
    std::string who = "thread T" + std::to_string(tid);
    for (int k = 0; k < threads; ++k) {
      int ttid = 0, running = 0, parent = 0;
      unsigned long os = 0;
      const char* name = nullptr;
      void* tt[1];
      __tsan_get_report_thread(report, k, &ttid, &os, &running, &name, &parent, tt, 1);
      if (ttid == tid && name && *name) who = name;
    }
    if (i == 0) {
      if (!at.file.empty()) {
        static thread_local std::string file;
        file = at.file;
        r.file = file.c_str();
        r.line = at.line;
      }
    }
    char line[256];
    std::snprintf(line, sizeof line, "  %s%s%s of %d bytes at %p by %s at %s\n",
                  i == 0 ? "" : "previous ", atomic ? "atomic " : "", write ? "write" : "read", size,
                  addr, who.c_str(), at_line(at).c_str());
    d += line;
  }
  const allocation* al = nullptr;
  {
    void* addr = nullptr;
    int tid, size, write, atomic;
    void* tr[1];
    if (mops > 0 && __tsan_get_report_mop(report, 0, &tid, &addr, &size, &write, &atomic, tr, 1))
      al = find_allocation(addr);
    if (al && !al->freed)
      d += "  in a " + std::to_string(al->size) + "-byte allocation from cudaMalloc (offset " +
           std::to_string(reinterpret_cast<std::uintptr_t>(addr) - al->base) + ")\n";
  }
  d += "  (no __syncthreads, __syncwarp, warp collective or atomic orders these accesses)\n";
  r.details = d;
  r.error = cudaSuccess;  // a race does not fail the launch on a GPU; the exit status shows it
  report_fault(r);
  return true;
}
}  // namespace __tsan

#endif  // CUEMU_RACECHECK
#endif  // CUEMU_MEMCHECK || CUEMU_RACECHECK
