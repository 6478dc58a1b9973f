// Runs the cuemu driver as a user does (`cuemu <args>`) and collects its output, exit status and
// time; the tests of the driver and of the bug zoo use it. CUEMU_EXE names the driver.
#pragma once

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
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

// A file's whole text ("" if it cannot be read): the expected outputs recorded on an H200.
inline std::string read_text_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The text of a gzip-compressed file (a recorded H200 output), or "" if it cannot be read.
inline std::string read_gzip_file(const std::string& path) {
  const std::string command = "gzip -dc '" + path + "'";
  FILE* p = popen(command.c_str(), "r");
  std::string out;
  if (!p) return out;
  char buf[65536];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  pclose(p);
  return out;
}

// A run's output without the driver's own lines (`cuemu: running the memcheck build`, the
// checking summary): what the program printed.
inline std::string without_driver_lines(const std::string& out) {
  std::istringstream in(out);
  std::string line, kept;
  while (std::getline(in, line))
    if (line.rfind("cuemu: ", 0) != 0) kept += line + "\n";
  return kept;
}
