#!/bin/sh
# The bench's row copy and tree reduction as OpenCL C kernels on PoCL (emulator/bench/pocl),
# timed like cuemu_bench: the same table. Installs Debian's PoCL when run as root and it is
# missing (pocl-opencl-icd, ocl-icd-opencl-dev, opencl-c-headers).
#   emulator/bench/run_pocl.sh [build dir]
# Prints the run on all cores, then on one core (taskset -c 0, POCL_MAX_PTHREAD_COUNT=1).
set -eu
OUT=${1:-/tmp/pocl-bench}
HERE=$(cd "$(dirname "$0")" && pwd)
if [ ! -f /usr/include/CL/cl.h ] || [ ! -e /usr/lib/x86_64-linux-gnu/libOpenCL.so ] ||
   ! ls /etc/OpenCL/vendors/pocl.icd >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers
  else
    echo "run_pocl.sh: needs: apt-get install pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers" >&2
    exit 2
  fi
fi
mkdir -p "$OUT"
CXX=${CXX:-g++}
"$CXX" -std=c++17 -O2 -g -DNDEBUG "$HERE/pocl/pocl_bench.cpp" -o "$OUT/pocl_bench" -lOpenCL
echo "== PoCL, all cores"
st=0
"$OUT/pocl_bench" || st=1
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -gt 1 ]; then
  echo
  echo "== PoCL on one core (taskset -c 0, POCL_MAX_PTHREAD_COUNT=1)"
  POCL_MAX_PTHREAD_COUNT=1 taskset -c 0 "$OUT/pocl_bench" || st=1
fi
exit $st
