// The records of exhaustive/ and sampled/: per function, blocks of "hash RANGE H D" lines (the
// FNV-1a hash H of the GPU's results in RANGE, D of them computed differently by the emulator's
// library), and the emulator's output of the same program with one range ("hash NAME RANGE H").
#pragma once

#include <map>
#include <sstream>
#include <string>

struct range_record {
  std::string hash;
  unsigned long long differing = 0;
};

// RECORD's blocks ("#fn NAME ..." then its hash lines): each function's record of RANGE.
inline std::map<std::string, range_record> records_of_range(const std::string& record, int range) {
  std::map<std::string, range_record> want;
  std::istringstream in(record);
  std::string line, fn;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string tag;
    f >> tag;
    if (tag == "#fn") {
      f >> fn;
    } else if (tag == "hash") {
      int r;
      range_record rec;
      f >> r >> rec.hash >> rec.differing;
      if (r == range) want[fn] = rec;
    }
  }
  return want;
}

// The emulator's hash of RANGE per function, from its output OUT.
inline std::map<std::string, std::string> hashes_of_range(const std::string& out, int range) {
  std::map<std::string, std::string> got;
  std::istringstream in(out);
  std::string tag, fn, h;
  int r;
  while (in >> tag >> fn >> r >> h)
    if (tag == "hash" && r == range) got[fn] = h;
  return got;
}
