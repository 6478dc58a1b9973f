#include "exec/options.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace cuemu::detail {
namespace {

[[noreturn]] void bad(const char* var, const char* value, const char* expected) {
  std::fprintf(stderr, "cuemu: invalid %s=%s (expected %s)\n", var, value, expected);
  std::exit(2);
}

std::uint64_t parse_unsigned(const char* var, const char* s, bool suffixes) {
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s || errno != 0 || *s == '-') bad(var, s, "a non-negative integer");
  if (suffixes && *end) {
    if (!std::strcmp(end, "K") || !std::strcmp(end, "k")) v <<= 10, ++end;
    else if (!std::strcmp(end, "M") || !std::strcmp(end, "m")) v <<= 20, ++end;
  }
  if (*end) bad(var, s, suffixes ? "an integer with an optional K or M suffix" : "an integer");
  return v;
}

exec_options parse() {
  exec_options o;
  if (const char* s = std::getenv("CUEMU_WORKERS"); s && *s) {
    o.workers = static_cast<unsigned>(parse_unsigned("CUEMU_WORKERS", s, false));
    if (o.workers == 0 || o.workers > 4096) bad("CUEMU_WORKERS", s, "1..4096");
  }
  if (o.workers == 0) o.workers = std::max(1u, std::thread::hardware_concurrency());
  if (const char* s = std::getenv("CUEMU_SCHEDULE"); s && *s) {
    if (!std::strcmp(s, "forward")) o.schedule = schedule_kind::forward;
    else if (!std::strcmp(s, "reverse")) o.schedule = schedule_kind::reverse;
    else if (!std::strncmp(s, "random", 6) && (s[6] == 0 || s[6] == ':')) {
      o.schedule = schedule_kind::random;
      o.seed = s[6] ? parse_unsigned("CUEMU_SCHEDULE", s + 7, false) : 1;
    } else {
      bad("CUEMU_SCHEDULE", s, "forward, reverse or random[:SEED]");
    }
  }
  if (const char* s = std::getenv("CUEMU_STACK_SIZE"); s && *s) {
    o.stack_size = parse_unsigned("CUEMU_STACK_SIZE", s, true);
    if (o.stack_size < 16 * 1024 || o.stack_size > (std::size_t{1} << 30))
      bad("CUEMU_STACK_SIZE", s, "16K..1024M");
  }
  if (const char* s = std::getenv("CUEMU_TIMEOUT"); s && *s) {
    char* end = nullptr;
    o.timeout_seconds = std::strtod(s, &end);
    if (end == s || *end || !(o.timeout_seconds >= 0)) bad("CUEMU_TIMEOUT", s, "seconds >= 0");
    // Past a year the watchdog's deadline would overflow the clock: no limit, like 0 and inf.
    if (o.timeout_seconds > 365.0 * 24 * 3600) o.timeout_seconds = 0;
  }
  if (const char* s = std::getenv("CUEMU_CHECK"); s && *s) {
    std::string all(s);
    std::size_t pos = 0;
    while (pos <= all.size()) {
      std::size_t comma = all.find(',', pos);
      std::string m = all.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      if (m == "memcheck") o.memcheck = true;
      else if (m == "racecheck") o.racecheck = true;
      else if (m == "synccheck") o.synccheck = true;
      else if (m == "streams") o.streams = true;
      else if (m == "all") o.memcheck = o.racecheck = o.synccheck = o.streams = true;
      else if (m == "none" || m.empty()) {}
      else bad("CUEMU_CHECK", s, "memcheck, racecheck, synccheck, streams, all or none, comma-separated");
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  }
  if (const char* s = std::getenv("CUEMU_STREAMS"); s && *s) {
    if (!std::strcmp(s, "sync")) o.sync_streams = true;
    else if (std::strcmp(s, "async") != 0) bad("CUEMU_STREAMS", s, "async or sync");
  }
  if (const char* s = std::getenv("CUEMU_EXEC"); s && *s) {
    if (!std::strcmp(s, "fibers")) o.loops = false;
    else if (std::strcmp(s, "loops") != 0) bad("CUEMU_EXEC", s, "loops or fibers");
  }
#if defined(CUEMU_RACECHECK)
  // racecheck orders launches by their issue order (one grid at a time): stream work runs at
  // the call.
  o.sync_streams = true;
#endif
  return o;
}

}  // namespace

const exec_options& options() {
  static const exec_options o = parse();
  return o;
}

}  // namespace cuemu::detail
