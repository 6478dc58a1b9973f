#!/usr/bin/env bash
# Builds the translator's libFuzzer target and runs it.
#   emulator/fuzz/run_fuzzer.sh [SECONDS] [JOBS]      (default 600 s, 1 job)
# Seeds: every .cu of the repository (our own test programs, preprocessed by g++ -E as the
# driver does) plus emulator/fuzz/corpus/ (inputs that once crashed the translator, kept as
# regression seeds). New interesting inputs go to build-fuzz/corpus (not committed); crashes
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
# Seeds as the translator sees them: preprocessed like the driver does (cuemu's headers first).
find "$root/emulator" "$root/selfcheck" "$root/kernels" -name '*.cu' | while read -r f; do
  g++ -E -x c++ -std=c++20 -D__CUEMU_TRANSLATE__ -I "$root/emulator/include" -I "$root/kernels" \
      -I "$root/selfcheck" -I "$root/emulator/tests/common" -include cuda_runtime.h "$f" \
      -o "$out/seeds/$(echo "$f" | md5sum | cut -c1-16).ii" 2>/dev/null || true
done
"$out/cuemu_translate_fuzzer" -max_total_time="$seconds" -jobs="$jobs" -workers="$jobs" \
  -max_len=65536 -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$out/crashes/" \
  -print_final_stats=1 "$out/corpus" "$here/corpus" "$out/seeds"
