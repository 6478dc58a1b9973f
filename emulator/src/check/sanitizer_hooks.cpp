// memcheck's side of the scheduler hooks (check/events.h), and the reports of
// AddressSanitizer's and the alignment check's findings in CUDA terms: AddressSanitizer fiber
// annotations, __asan_on_error, the alignment check's handlers. Compiled into the memcheck
// runtime only (racecheck: racecheck.cpp).
#if defined(CUEMU_MEMCHECK)

#include <execinfo.h>
#include <fcntl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "check/report.h"
#include "check/symbolize.h"
#include "exec/current_thread.h"
#include "check/events.h"
#include "exec/shared_memory.h"
#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

// The header of a report for the CUDA thread running on this worker.
bool current_thread(fault_report& r) {
  if (!describe_current_thread(r.block, r.thread)) return false;
  const launch_state* l = current_thread_launch();
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
block_tokens* block_begin(const launch_state&, uint3) { return nullptr; }
void block_end(block_tokens*) {}
void lane_begin(const launch_state&, void*, const char*) {}
void lane_end(const launch_state&) {}
void barrier_arrive(block_tokens*) {}
void barrier_complete(block_tokens*) {}
void collective_complete(block_tokens*, unsigned, unsigned, unsigned) {}
void collective_arrive(block_tokens*) {}
void grid_barrier_arrive(block_tokens*) {}
void grid_barrier_complete() {}
void grid_barrier_release(block_tokens*) {}
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
  if (!current_thread(r)) {  // not in a kernel: AddressSanitizer's report alone
    __sanitizer_set_report_fd(reinterpret_cast<void*>(std::intptr_t{2}));
    return;
  }
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
  std::optional<allocation> al_graph;
  const auto base = reinterpret_cast<std::uintptr_t>(region);
  char what[160];
  std::snprintf(what, sizeof what, "  %s of %zu bytes at %p", write ? "write" : "read", size, addr);
  std::string d = what;
  const char* dyn = static_cast<const char*>(dynamic_shared_memory());
  const launch_state* launch = current_thread_launch();
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
  } else if (desc == "use-after-poison" && (al_graph = lookup_allocation(addr)) &&
             is_graph_memory(reinterpret_cast<const void*>(al_graph->base))) {
    // The runtime poisons a graph allocation while it is not live (runtime/memory.cpp).
    r.fault_class = "use after free";
    d += ", " + std::to_string(a - al_graph->base) + " bytes into a " +
         std::to_string(al_graph->size) +
         "-byte graph allocation (a graph's allocation node, or cudaMallocAsync in a stream "
         "capture), used while not allocated: before the graph launch reached its allocation "
         "node or after its free\n";
  } else if (desc == "use-after-poison" && (al_graph = lookup_allocation(addr)) &&
             is_device_heap(*al_graph)) {
    // Device-heap memory freed by device code stays poisoned (runtime/memory.cpp).
    r.fault_class = "use after free";
    d += ", " + std::to_string(a - al_graph->base) + " bytes into a " +
         std::to_string(al_graph->size) +
         "-byte allocation made by cudaMalloc in device code, freed by device code\n";
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

// AddressSanitizer's own report of a kernel's fault (dozens of the emulator's frames after
// cuemu's report) only with `cuemu -v`: its reports go to /dev/null, and __asan_on_error sends
// them back to stderr for faults outside kernels, where its report is the only one.
namespace {
bool sanitizer_reports_wanted() {
  const char* v = std::getenv("CUEMU_VERBOSE");
  return v && std::strcmp(v, "1") == 0;
}
__attribute__((constructor)) void quiet_sanitizer_reports() {
  if (sanitizer_reports_wanted()) return;
  const int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (devnull >= 0) __sanitizer_set_report_fd(reinterpret_cast<void*>(static_cast<std::intptr_t>(devnull)));
}
}  // namespace

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
  // A GPU faults on a load or store at an address its width does not divide, not on binding a
  // reference or naming a member (CUB binds an Uninitialized<T>, aligned to 16, as a T aligned to
  // 32, and reads it member by member). The accesses that follow are checked themselves.
  if (d->check_kind > 1) return;
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
  uint3 b{}, t{};
  if (describe_current_thread(b, t)) {
    fault_current_thread(pointer == 0 ? "null pointer access" : "misaligned address", d->loc.file,
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

#endif  // CUEMU_MEMCHECK
