#!/bin/sh
# Builds the bench's workloads in HIP form (emulator/bench/hipcpu/*.cpp) against ROCm's HIP-CPU
# and runs them: the same table as cuemu_bench (HIP-CPU time, serial loop, ratio, ...).
#   emulator/bench/run_hipcpu.sh /tmp/hip-cpu [build dir]
# Needs g++ (C++17), TBB (Debian: apt-get install libtbb-dev; HIP-CPU runs blocks through
# std::execution::par) and Boost.Context (the switch floor printed after the table). Prints the
# run on all cores, then on one core (taskset -c 0) for scaling.
set -eu
HIP_CPU=${1:?usage: run_hipcpu.sh <HIP-CPU checkout> [build dir]}
OUT=${2:-/tmp/hipcpu-bench}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
CXX=${CXX:-g++}
# -O2 -g: the same flags as the emulator's RelWithDebInfo build of cuemu_bench.
"$CXX" -std=c++17 -O2 -g -DNDEBUG -I"$HIP_CPU/include" "$HERE/hipcpu/hip_bench.cpp" \
  -o "$OUT/hip_bench" -ltbb -lboost_context -lpthread
echo "== HIP-CPU $(git -C "$HIP_CPU" rev-parse HEAD 2>/dev/null || echo "(archive)"), all cores"
st=0
"$OUT/hip_bench" || st=1
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -gt 1 ]; then
  echo
  echo "== HIP-CPU on one core (taskset -c 0)"
  taskset -c 0 "$OUT/hip_bench" || st=1
fi
exit $st
