#pragma once
#include <cuda_runtime.h>

constexpr int kBins = 16;
void fill(unsigned* data, int n, unsigned seed);                 // fill.cu
void report(const unsigned* bins, const unsigned* expected);     // report.cpp
