// Runs the cuemu driver as a user does (`cuemu <args>`) and collects its output, exit status and
// time; the tests of the driver and of the bug zoo use it. CUEMU_EXE names the driver.
#pragma once

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <string>

struct cuemu_result {
  int status = -1;
  std::string out;  // stdout and stderr together
  double seconds = 0;
};

inline cuemu_result run_cuemu(const std::string& args) {
  const std::string cmd = std::string(CUEMU_EXE) + " " + args + " 2>&1";
  const auto t0 = std::chrono::steady_clock::now();
  FILE* p = popen(cmd.c_str(), "r");
  cuemu_result r;
  char buf[4096];
  while (p && std::fgets(buf, sizeof buf, p)) r.out += buf;
  const int st = p ? pclose(p) : -1;
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}
