// Plain C++ against the toolkit's headers (-I$(CUDA_HOME)/include), compiled by the host compiler.
#include <cstdio>
#include <cstdlib>

#include "common.h"

void report(const unsigned* bins, const unsigned* expected) {
  int wrong = 0;
  unsigned total = 0;
  for (int b = 0; b < kBins; ++b) {
    wrong += bins[b] != expected[b];
    total += bins[b];
  }
  std::printf("%s: %u counted, %d of %d bins wrong (%s)\n", wrong ? "FAIL" : "PASS", total, wrong, kBins,
              cudaGetErrorString(cudaGetLastError()));
  if (wrong) std::exit(1);
}
