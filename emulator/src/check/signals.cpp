#include "check/signals.h"
#include "check/grid_findings.h"

#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "check/report.h"
#include "check/symbolize.h"
#include "exec/current_thread.h"
#include "exec/options.h"

namespace cuemu::detail {
namespace {

std::mutex g_workers_mutex;
std::vector<pthread_t> g_workers;
std::atomic<bool> g_dying{false};

std::string hex_address(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

// Backtrace of the interrupted code: the faulting pc first, then the frames unwound from the
// signal frame (glibc's backtrace steps through the kernel's signal trampoline).
int interrupted_frames(void* ucontext, void** frames, int max) {
  int n = backtrace(frames + 1, max - 1);
  frames[0] = reinterpret_cast<void*>(static_cast<ucontext_t*>(ucontext)->uc_mcontext.gregs[REG_RIP]);
  // Drop the frames of the handler itself (up to and including the trampoline).
  int skip = 1;
  for (int i = 1; i <= n; ++i) {
    if (frames[i] == frames[0]) { skip = i + 1; break; }
  }
  int out = 1;
  for (int i = skip; i <= n; ++i) frames[out++] = frames[i];
  return out;
}

// A crash of host code (outside every kernel): what and where, then the signal's own ending
// (the exit status a shell shows for it).
void host_fault(int sig, void* ucontext) {
  alarm(20);
  void* frames[64];
  const int n = interrupted_frames(ucontext, frames, 64);
  const code_location where = first_user_location(frames, n);
  const char* what = sig == SIGSEGV ? "segmentation fault (invalid memory access)"
                     : sig == SIGBUS ? "bus error" : sig == SIGFPE ? "arithmetic exception"
                     : sig == SIGILL ? "illegal instruction" : "abort()";
  std::fflush(stdout);
  if (where.file.empty())
    std::fprintf(stderr, "cuemu: %s in host code (no line information)\n", what);
  else
    std::fprintf(stderr, "cuemu: %s in host code at %s:%d%s%s\n", what, where.file.c_str(),
                 where.line, where.function.empty() ? "" : " in ", where.function.c_str());
}

void on_fault(int sig, siginfo_t* info, void* ucontext) {
  uint3 block{}, thread{};
  const bool on_worker = current_thread_launch() != nullptr;
  if (!describe_current_thread(block, thread) || g_dying.exchange(true)) {
    if (g_dying.load() && on_worker) pause();  // another CUDA thread is already reporting
    if (!on_worker && !g_dying.exchange(true)) host_fault(sig, ucontext);
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  alarm(20);  // symbolization runs addr2line: never let a report hang
  const launch_state* launch = current_thread_launch();
  const boost::context::stack_context* sc = current_thread_stack();
  const char* addr = static_cast<const char*>(info->si_addr);
  bool overflow = false;
  if (sc && (sig == SIGSEGV || sig == SIGBUS)) {
    // At the guard page, or anywhere below the stack while the stack pointer is below it (a
    // large local array moves it past the guard page in one step).
    const char* bottom = stack_bottom(*sc);
    const char* sp = reinterpret_cast<const char*>(
        static_cast<ucontext_t*>(ucontext)->uc_mcontext.gregs[REG_RSP]);
    overflow = (addr < bottom && addr >= bottom - 64 * 1024) ||
               (sp < bottom && sp + (std::size_t{1} << 40) > bottom && addr < bottom + sc->size);
  }
  void* frames[64];
  const int n = interrupted_frames(ucontext, frames, 64);
  const code_location where = first_user_location(frames, n);

  fault_report r;
  r.kernel = launch ? launch->kernel_name : "?";
  r.block = block;
  r.thread = thread;
  r.file = where.file.empty() ? (launch ? launch->site.file : nullptr) : where.file.c_str();
  r.line = where.file.empty() ? (launch ? launch->site.line : 0) : where.line;
  if (overflow) {
    r.fault_class = "stack overflow";
    r.details = "  the CUDA thread used more than its " + std::to_string(sc->size) +
                "-byte stack; run with a larger --stack-size (e.g. --stack-size=" +
                std::to_string(sc->size * 4 / 1024) + "K)\n";
    r.error = cudaErrorLaunchOutOfResources;
  } else if (sig == SIGSEGV || sig == SIGBUS) {
    r.fault_class = "invalid memory access";
    r.details = "  " + std::string(sig == SIGBUS ? "bus error" : "segmentation fault") +
                " at address " + hex_address(addr) +
                "; run with --check=memcheck to find the allocation it missed\n";
    r.error = cudaErrorIllegalAddress;
  } else if (sig == SIGFPE) {
    r.fault_class = "arithmetic exception";
    r.details =
        "  integer division by zero, or of the most negative integer by -1 (a GPU returns all ones, or that "
        "integer; the kernel gets those values where cuemu's g++ plugin compiles it: g++ as the host "
        "compiler)\n";
    r.error = cudaErrorLaunchFailure;
  } else if (sig == SIGABRT) {
    r.fault_class = "abort";
    r.details = "  abort() on a CUDA thread (an uncaught exception, or a library's own check)\n";
    r.error = cudaErrorLaunchFailure;
  } else {
    r.fault_class = "illegal instruction";
    r.details =
        "  most often a trap the host compiler put where it proved the code undefined: a division by a "
        "constant zero, a null pointer dereferenced, the end of a function that returns a value reached "
        "(see its warnings)\n";
    r.error = cudaErrorIllegalInstruction;
  }
  if (where.file.empty()) r.details += "  (no line information: build with -g for the source line; the launch is shown)\n";
  else if (!where.function.empty()) r.details += "  in " + where.function + "\n";
  report_fault(r);
  std::fflush(nullptr);
  _exit(1);
}

// --- --timeout ---
struct running_thread {
  std::atomic<bool> filled{false};
  uint3 block{}, thread{};
  code_location where;
};
std::vector<running_thread>* g_running = nullptr;
std::atomic<int> g_running_next{0};

void on_timeout_probe(int, siginfo_t*, void* ucontext) {
  uint3 block{}, thread{};
  if (!describe_current_thread(block, thread) || !g_running) return;
  const int slot = g_running_next.fetch_add(1);
  if (slot >= static_cast<int>(g_running->size())) return;
  running_thread& t = (*g_running)[slot];
  void* frames[64];
  const int n = interrupted_frames(ucontext, frames, 64);
  t.where = first_user_location(frames, n);
  t.block = block;
  t.thread = thread;
  t.filled = true;
  pause();  // the watchdog ends the process
}

void fire_timeout(const launch_state& launch, double seconds) {
  if (g_dying.exchange(true)) return;  // another launch's watchdog or a fault is reporting
  std::vector<pthread_t> workers;
  {
    std::lock_guard<std::mutex> lock(g_workers_mutex);
    workers = g_workers;
  }
  static std::vector<running_thread> slots(workers.size() + 1);
  g_running = &slots;
  for (pthread_t w : workers) pthread_kill(w, SIGUSR2);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    const int k = std::min<int>(g_running_next.load(), static_cast<int>(slots.size()));
    bool all = k > 0;
    for (int i = 0; i < k; ++i) all = all && slots[i].filled.load();
    if (all && k >= static_cast<int>(workers.size())) break;
    if (all && std::chrono::steady_clock::now() > deadline - std::chrono::seconds(8)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  report_held_findings();  // races met before the kernel hung
  fault_report r;
  r.fault_class = "timeout";
  r.kernel = launch.kernel_name;
  r.file = launch.site.file;
  r.line = launch.site.line;
  r.error = cudaErrorLaunchTimeout;
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", seconds);
  std::string d = std::string("  the kernel ran longer than --timeout=") + limit + " seconds\n";
  bool first = true;
  for (auto& s : slots) {
    if (!s.filled) continue;
    if (first) {
      r.block = s.block;
      r.thread = s.thread;
      if (!s.where.file.empty()) {
        r.file = s.where.file.c_str();
        r.line = s.where.line;
      }
      first = false;
    }
    d += "  still running: block (" + std::to_string(s.block.x) + "," + std::to_string(s.block.y) +
         "," + std::to_string(s.block.z) + ") thread (" + std::to_string(s.thread.x) + "," +
         std::to_string(s.thread.y) + "," + std::to_string(s.thread.z) + ") at " +
         (s.where.file.empty() ? std::string("<no line information>")
                               : s.where.file + ":" + std::to_string(s.where.line)) +
         "\n";
  }
  r.details = d;
  report_fault(r);
  std::fflush(nullptr);
  _exit(1);
}

}  // namespace

// From the start of the program: a crash of host code is reported too.
namespace {
[[gnu::constructor]] void install_host_fault_reports() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
    struct sigaction old;
    // Keep a handler the program or a sanitizer installed first.
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_DFL) sigaction(sig, &sa, nullptr);
  }
}
}  // namespace

void prepare_worker_signals() {
  // Called for every block: a thread that has been here returns at once.
  thread_local bool ready = false;
  if (ready) return;
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
    sa.sa_sigaction = on_timeout_probe;
    sigaction(SIGUSR2, &sa, nullptr);
  });
  ready = true;
  // An alternate stack, unless the thread has one (AddressSanitizer installs and later unmaps
  // its own: replacing it would make its thread teardown fail).
  stack_t current;
  if (sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE)) {
    static thread_local std::vector<char> alt(256 * 1024);
    stack_t ss;
    ss.ss_sp = alt.data();
    ss.ss_size = alt.size();
    ss.ss_flags = 0;
    sigaltstack(&ss, nullptr);
  }
  std::lock_guard<std::mutex> lock(g_workers_mutex);
  g_workers.push_back(pthread_self());
}

struct launch_watchdog::state {
  std::mutex m;
  std::condition_variable cv;
  bool active = true;
  std::thread thread;
};

launch_watchdog::launch_watchdog(const launch_state& launch) {
  const double seconds = options().timeout_seconds;
  if (seconds <= 0) return;
  s_ = std::make_unique<state>();
  state& w = *s_;
  w.thread = std::thread([&w, &launch, seconds] {
    std::unique_lock<std::mutex> l(w.m);
    if (!w.cv.wait_for(l, std::chrono::duration<double>(seconds), [&] { return !w.active; })) {
      l.unlock();
      fire_timeout(launch, seconds);
    }
  });
}

launch_watchdog::~launch_watchdog() {
  if (!s_) return;
  {
    std::lock_guard<std::mutex> lock(s_->m);
    s_->active = false;
  }
  s_->cv.notify_all();
  if (s_->thread.joinable()) s_->thread.join();
}

}  // namespace cuemu::detail
