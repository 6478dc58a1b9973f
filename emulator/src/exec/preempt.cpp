#include "exec/preempt.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <ucontext.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <string_view>
#include <vector>

#include "exec/block.h"
#include "exec/options.h"

namespace cuemu::detail {
namespace {

// A worker's timer ticks every 10 ms of its CPU time; a lane found running at kTicks ticks in a row is
// preempted (about 20 ms).
constexpr long kTickNs = 10 * 1000 * 1000;
constexpr unsigned kTicks = 2;
constexpr int kPreemptSignal = SIGURG;

// Per worker thread, read and written by its own signal handler only.
struct worker_tick {
  const void* lane = nullptr;
  unsigned same = 0;
};
thread_local worker_tick t_tick;
thread_local timer_t t_timer;
thread_local bool t_has_timer = false;

// The user's functions in the program's text, sorted (built once, read by the signal handler).
struct code_range {
  std::uintptr_t begin, end;
};
std::vector<code_range>* g_user_code = nullptr;

bool is_emulator_or_library(std::string_view n) {
  // The batch loop of a kernel is the kernel itself, inlined (cuemu/launch.h).
  if (n.find("run_lane_batch") != std::string_view::npos) return false;
  for (std::string_view p : {"_ZN5cuemu", "_ZNK5cuemu", "_ZZN5cuemu", "_ZZNK5cuemu", "_ZSt",
                             "_ZNSt", "_ZNKSt", "_ZZNSt", "_ZNSo", "_ZNSi", "_ZN9__gnu_cxx",
                             "_ZNK9__gnu_cxx", "_ZN5boost", "_ZNK5boost", "_ZN11__sanitizer",
                             "_ZN6__asan", "_ZN6__tsan", "_ZN7__ubsan", "_ZN10__cxxabiv1",
                             "_ZThn", "_ZTv", "_ZGV", "_ZTW", "_ZTH"})
    if (n.substr(0, p.size()) == p) return true;
  if (n.substr(0, 2) == "_Z") return false;  // the user's C++ functions
  // C names: the user's extern "C" kernels are fine; the runtime's API and the C library's are not.
  return n.empty() || n[0] == '_' || n.substr(0, 4) == "cuda" || n.substr(0, 2) == "cu" ||
         n == "main" || n == "clock";
}

std::uintptr_t executable_base() {
  std::uintptr_t base = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        *static_cast<std::uintptr_t*>(out) = info->dlpi_addr;
        return 1;  // the first object is the program
      },
      &base);
  return base;
}

std::vector<code_range>* read_user_code() {
  auto* ranges = new std::vector<code_range>;
  const int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ranges;
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(sizeof(Elf64_Ehdr))) {
    close(fd);
    return ranges;
  }
  void* map = mmap(nullptr, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return ranges;
  const char* img = static_cast<const char*>(map);
  const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(img);
  const std::size_t size = st.st_size;
  if (std::memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
      eh->e_shoff + eh->e_shnum * sizeof(Elf64_Shdr) <= size) {
    const auto* sh = reinterpret_cast<const Elf64_Shdr*>(img + eh->e_shoff);
    const std::uintptr_t base = executable_base();
    for (unsigned i = 0; i < eh->e_shnum; ++i) {
      if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum) continue;
      const Elf64_Shdr& strtab = sh[sh[i].sh_link];
      if (sh[i].sh_offset + sh[i].sh_size > size || strtab.sh_offset + strtab.sh_size > size) continue;
      const auto* sym = reinterpret_cast<const Elf64_Sym*>(img + sh[i].sh_offset);
      const std::size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
      for (std::size_t k = 0; k < n; ++k) {
        if (ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC || sym[k].st_size == 0 || sym[k].st_value == 0)
          continue;
        if (sym[k].st_name >= strtab.sh_size) continue;
        const char* name = img + strtab.sh_offset + sym[k].st_name;
        if (is_emulator_or_library(name)) continue;
        ranges->push_back({base + sym[k].st_value, base + sym[k].st_value + sym[k].st_size});
      }
    }
  }
  munmap(map, size);
  std::sort(ranges->begin(), ranges->end(),
            [](const code_range& a, const code_range& b) { return a.begin < b.begin; });
  return ranges;
}

bool in_user_code(std::uintptr_t pc) {
  const std::vector<code_range>* r = g_user_code;
  if (!r || r->empty()) return false;
  auto it = std::upper_bound(r->begin(), r->end(), pc,
                             [](std::uintptr_t v, const code_range& c) { return v < c.begin; });
  if (it == r->begin()) return false;
  --it;
  return pc < it->end;
}

void on_preempt(int, siginfo_t*, void* uc) {
  const int saved = errno;
  block_executor* e = t_current_executor;
  if (e) {
    worker_tick& t = t_tick;
    const void* lane = e->running_lane();
    if (lane != t.lane) {  // a lane that keeps coming back after switches may be preempted too
      t.lane = lane;
      t.same = 0;
    } else if (lane && ++t.same >= kTicks) {
      t.same = 0;
      const auto pc =
          static_cast<std::uintptr_t>(static_cast<ucontext_t*>(uc)->uc_mcontext.gregs[REG_RIP]);
      if (in_user_code(pc)) e->preempt();
    }
  }
  errno = saved;
}

}  // namespace

void preemption_register_worker() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_user_code = read_user_code();
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_preempt;
    // On the lane's own stack (no SA_ONSTACK); not blocked while the handler runs, since the
    // handler switches to other lanes and returns only when this one resumes.
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(kPreemptSignal, &sa, nullptr);
  });
  if (t_has_timer) return;
  // A timer of this thread's own (no monitor thread: a process with one worker stays
  // single-threaded, which keeps malloc and the C++ library on their unlocked paths).
  sigevent ev;
  std::memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = kPreemptSignal;
  ev._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
  // The thread's CPU time: an idle worker, or the launching thread asleep in host code, is never
  // signalled (a host sleep() or poll() would return early), and a spinning lane always is.
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &t_timer) != 0) return;
  itimerspec its;
  its.it_interval.tv_sec = its.it_value.tv_sec = 0;
  its.it_interval.tv_nsec = its.it_value.tv_nsec = kTickNs;
  timer_settime(t_timer, 0, &its, nullptr);
  t_has_timer = true;
}

void preemption_unregister_worker() {
  if (!t_has_timer) return;
  timer_delete(t_timer);
  t_has_timer = false;
}

}  // namespace cuemu::detail
