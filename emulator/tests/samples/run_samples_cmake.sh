#!/usr/bin/env bash
# Builds NVIDIA's cuda-samples through their own CMakeLists.txt with the emulator's toolkit
# directory as the CUDA toolkit, unchanged, and runs each: the in-scope samples of manifest.txt
# (beside this script), with the program arguments their line gives after `--`.
#   emulator/tests/samples/run_samples_cmake.sh CUDA_SAMPLES_DIR [TOOLKIT] [NAME...]
# TOOLKIT: the toolkit directory (default: build/toolkit of this tree). Each sample is configured
# with `cmake -S <sample> -B <tmp> -DCMAKE_CUDA_COMPILER=TOOLKIT/bin/nvcc` (FindCUDAToolkit takes
# the compiler's toolkit) and built with `cmake --build <tmp> -- VERBOSE=1`; it passes when its program exits 0 and prints
# its own success line, and no command of its build names the machine's real CUDA toolkit
# (CUDA_HOME, /usr/local/cuda). Not part of ctest: it needs the samples checkout.
# Exit status: 0 when every sample run passed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
. "$here/manifest.sh"
samples=${1:?usage: run_samples_cmake.sh CUDA_SAMPLES_DIR [TOOLKIT] [NAME...]}
samples=$(cd "$samples" && pwd) || exit 2
shift
toolkit=$root/build/toolkit
if [ $# -gt 0 ] && [ -x "$1/bin/nvcc" ]; then toolkit=$(cd "$1" && pwd); shift; fi
[ -x "$toolkit/bin/nvcc" ] || { echo "run_samples_cmake.sh: no nvcc in $toolkit/bin (build cuemu first)" >&2; exit 2; }
S=$samples/Samples
only=" $* "
timeout_s=${CUEMU_SAMPLE_TIMEOUT:-900}
real_toolkit=${CUDA_HOME:-/usr/local/cuda}

logdir=$(mktemp -d /tmp/cuemu-samples-cmake.XXXXXX)
mkdir -p "$logdir/build"
pass=0; fail=0; failed=""
printf '%-34s %-6s %8s  %s\n' SAMPLE RESULT SECONDS "RESULT LINE"
while IFS= read -r raw; do
  parse_entry "$raw"
  [ "$scope" = run ] || continue
  if [ "$only" != "  " ] && [[ $only != *" $name "* ]]; then continue; fi
  [ -d "$S/$dir" ] || { echo "run_samples_cmake.sh: $S/$dir does not exist (manifest line: $name)" >&2; exit 2; }
  program_args=()
  [[ " $args " == *" -- "* ]] && read -ra program_args <<<"${args#* -- }"
  build=$logdir/build/$(echo "$dir" | tr / _)
  log=$logdir/$name.log
  blog=$build.log  # one build per sample directory (several manifest lines may share it)
  start=$(date +%s.%N)
  rc=0; line=""
  if [ ! -f "$build/.built" ]; then
    { cmake -S "$S/$dir" -B "$build" -DCMAKE_CUDA_COMPILER="$toolkit/bin/nvcc" &&
      cmake --build "$build" -j "$(nproc)" -- VERBOSE=1; } </dev/null >"$blog" 2>&1 && touch "$build/.built"
  fi
  exe="$build/$(basename "$dir")"
  if [ ! -f "$build/.built" ]; then
    rc=1; line="build failed: $(grep -m1 -E 'error|Error' "$blog" | cut -c1-80)"
  elif grep -q -- "$real_toolkit" "$blog"; then
    rc=1; line="the build named $real_toolkit: $(grep -m1 -- "$real_toolkit" "$blog" | cut -c1-60)"
  elif [ ! -x "$exe" ]; then
    rc=1; line="no program $exe"
  else
    (cd "$S/$dir" && timeout "$timeout_s" "$exe" "${program_args[@]}") </dev/null >"$log" 2>&1
    rc=$?
    line=$(grep -E -m1 -- "$what" "$log" | tr -s ' \t' ' ' | cut -c1-90)
    [ $rc -eq 0 ] && [ -z "$line" ] && rc=1 && line="no success line"
    [ $rc -eq 124 ] && line="timed out after ${timeout_s} s"
    [ $rc -ne 0 ] && [ -z "$line" ] && line="exit $rc; $(grep -m1 -E 'error|cuemu:|FAIL|Error' "$log" | cut -c1-80)"
  fi
  end=$(date +%s.%N)
  if [ $rc -eq 0 ]; then result=PASS; pass=$((pass + 1)); else result=FAIL; fail=$((fail + 1)); failed="$failed $name"; fi
  printf '%-34s %-6s %8.1f  %s\n' "$name" "$result" "$(echo "$end - $start" | bc)" "$line"
done < <(manifest_entries)
echo "built and run: $((pass + fail)); passed: $pass; failed: $fail${failed:+ (not passing:}${failed:+$failed)}"
echo "logs: $logdir"
[ $fail -eq 0 ]
