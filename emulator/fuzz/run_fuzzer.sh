#!/usr/bin/env bash
# Builds the translator's libFuzzer target and runs it.
#   emulator/fuzz/run_fuzzer.sh [SECONDS] [JOBS]      (default 600 s, 1 job)
# Seeds: every .cu and .cuh of the repository (our own test programs and kernels, as written: the
# translator sees the same text with line markers after g++ -E) plus emulator/fuzz/corpus/
# (inputs that once crashed the translator, kept as regression seeds). New interesting inputs go to build-fuzz/corpus (not committed); crashes
# to build-fuzz/crashes. Needs clang++ with libFuzzer (apt-get install clang-19 libclang-rt-19-dev).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seconds=${1:-600}
jobs=${2:-1}
cxx=$(command -v clang++-19 || command -v clang++-16 || command -v clang++ || true)
[ -n "$cxx" ] || { echo "run_fuzzer.sh: no clang++ (apt-get install clang-19 libclang-rt-19-dev)" >&2; exit 2; }
out=$root/build-fuzz
cmake -S "$here" -B "$out" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$out" -j "$(nproc)" >/dev/null
mkdir -p "$out/seeds" "$out/corpus" "$out/crashes"
find "$root/emulator" "$root/selfcheck" "$root/kernels" \( -name '*.cu' -o -name '*.cuh' \) |
  while read -r f; do cp "$f" "$out/seeds/$(echo "$f" | md5sum | cut -c1-16).cu"; done
cd "$out"  # libFuzzer writes its fuzz-N.log files into the working directory
"$out/cuemu_translate_fuzzer" -max_total_time="$seconds" -jobs="$jobs" -workers="$jobs" \
  -max_len=16384 -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$out/crashes/" \
  -print_final_stats=1 "$out/corpus" "$here/corpus" "$out/seeds"
