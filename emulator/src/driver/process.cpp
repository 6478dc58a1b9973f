#include "driver/process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cuemu::driver {
namespace {
volatile sig_atomic_t g_child = 0;        // the process running now (compiler or program)
volatile sig_atomic_t g_stop_signal = 0;  // a SIGINT/SIGTERM/SIGHUP/SIGQUIT the driver got

void on_termination_signal(int sig) {
  g_stop_signal = sig;
  if (g_child > 0) kill(static_cast<pid_t>(g_child), sig);
}
}  // namespace

void forward_termination_signals() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_termination_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaction(sig, &sa, nullptr);
}

int termination_signal() { return g_stop_signal; }

namespace {
const char* g_verbose_prefix = "+ ";
}

void set_verbose_prefix(const char* prefix) { g_verbose_prefix = prefix; }

int run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                bool verbose, const std::string& stdout_path, const std::string& stderr_path) {
  if (verbose) {
    std::string line;
    for (const auto& e : env) line += e + " ";
    for (const auto& a : argv) line += a + " ";
    std::fprintf(stderr, "%s%s\n", g_verbose_prefix, line.c_str());
  }
  std::fflush(nullptr);
  if (g_stop_signal) return 128 + g_stop_signal;
  const pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "cuemu: cannot start %s: %s\n", argv[0].c_str(), std::strerror(errno));
    return 127;
  }
  if (pid == 0) {
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) signal(sig, SIG_DFL);
    if (!stdout_path.empty()) {
      const int fd = open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (fd < 0 || dup2(fd, 1) < 0) _exit(127);
      close(fd);
    }
    if (!stderr_path.empty()) {
      const int fd = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (fd < 0 || dup2(fd, 2) < 0) _exit(127);
      close(fd);
    }
    for (const auto& e : env) putenv(const_cast<char*>(e.c_str()));
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cuemu: cannot run %s: %s\n", argv[0].c_str(), std::strerror(errno));
    _exit(127);
  }
  g_child = pid;
  if (g_stop_signal) kill(pid, g_stop_signal);  // arrived between fork and here
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      g_child = 0;
      return 127;
    }
  }
  g_child = 0;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 127;
}

std::string executable_dir() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  buf[n] = 0;
  std::string p(buf);
  return p.substr(0, p.rfind('/'));
}

}  // namespace cuemu::driver
