#!/usr/bin/env bash
# Differential run of cuda-samples on the emulator's two execution paths (issue 16): each named
# sample is built once (`cuemu cc`, the arguments of its manifest.txt line) and the same program
# runs three times in its own directory: kernels with a region form as loops over threads
# (CUEMU_EXEC=loops), every kernel on coroutines (CUEMU_EXEC=fibers), and loops under a random
# schedule (CUEMU_SCHEDULE=random:7). The three outputs must be the same, except the figures of
# lines that report times or rates (masked), and all three must exit 0 and print the sample's
# own success line.
#   emulator/tests/samples/compare_paths.sh CUDA_SAMPLES_DIR [CUEMU] NAME[=PROGRAM_ARGS]...
# NAME=PROGRAM_ARGS replaces the program arguments of the manifest line (its own options, e.g.
# reduction=--kernel=0). Exit status: 0 when every sample printed the same on every path.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
. "$here/manifest.sh"
samples=${1:?usage: compare_paths.sh CUDA_SAMPLES_DIR [CUEMU] NAME[=PROGRAM_ARGS]...}
samples=$(cd "$samples" && pwd) || exit 2
shift
cuemu=${CUEMU:-$root/build/bin/cuemu}
if [ $# -gt 0 ] && [ -x "$1" ] && [ ! -d "$1" ]; then cuemu=$1; shift; fi
[ -x "$cuemu" ] || { echo "compare_paths.sh: no cuemu at $cuemu" >&2; exit 2; }
[ $# -gt 0 ] || { echo "compare_paths.sh: name at least one sample" >&2; exit 2; }
timeout_s=${CUEMU_SAMPLE_TIMEOUT:-900}
work=$(mktemp -d /tmp/cuemu-paths.XXXXXX)
# Lines that report a time, a rate or a count of spins: their figures differ from run to run.
timing='([0-9.]+ ?(ms|msec|s|sec|us|usec|seconds)\b|GB/s|GFlop|TFLOPS|MB/s|Throughput|[Tt]ime|clocks|iterations|[Bb]andwidth|per second|/sec)'
mask() { sed -E "\%$timing% s%[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?%#%g" "$1"; }
status=0
printf '%-28s %-8s %s\n' SAMPLE RESULT "SECONDS (loops / fibers / random)"
for spec in "$@"; do
  want=${spec%%=*}
  override=
  [[ $spec == *=* ]] && override=${spec#*=}
  found=0
  while IFS= read -r raw; do
    parse_entry "$raw"
    [ "$name" = "$want" ] && [ "$scope" != out ] && { found=1; break; }
  done < <(manifest_entries)
  [ $found = 1 ] || { echo "compare_paths.sh: $want is not an in-scope sample of manifest.txt" >&2; exit 2; }
  build_args=${args%% -- *}
  prog_args=
  [[ $args == *" -- "* ]] && prog_args=${args#* -- }
  [ -n "$override" ] && prog_args=$override
  exe=$work/$name.exe
  read -ra bargv <<<"$build_args"
  if ! (cd "$samples/Samples/$dir" && "$cuemu" cc -I "$samples/Common" "${bargv[@]}" -o "$exe") \
      >"$work/$name.build.log" 2>&1; then
    printf '%-28s %-8s %s\n' "$name" BUILD "see $work/$name.build.log"
    status=1
    continue
  fi
  read -ra pargv <<<"$prog_args"
  times=()
  ok=1
  for path in loops fibers random; do
    env=(CUEMU_EXEC=loops)
    [ $path = fibers ] && env=(CUEMU_EXEC=fibers)
    [ $path = random ] && env=(CUEMU_EXEC=loops CUEMU_SCHEDULE=random:7)
    start=$(date +%s.%N)
    (cd "$samples/Samples/$dir" && env "${env[@]}" timeout "$timeout_s" "$exe" "${pargv[@]}") \
      </dev/null >"$work/$name.$path.log" 2>&1
    rc=$?
    times+=("$(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)")")
    if [ $rc -ne 0 ] || ! grep -Eq -- "$what" "$work/$name.$path.log"; then ok=0; fi
    mask "$work/$name.$path.log" >"$work/$name.$path.masked"
  done
  result=SAME
  [ $ok = 1 ] || result=FAIL
  for path in fibers random; do
    if ! cmp -s "$work/$name.loops.masked" "$work/$name.$path.masked"; then
      result=DIFFERS
      diff "$work/$name.loops.masked" "$work/$name.$path.masked" | head -6 | sed "s/^/  $path: /"
    fi
  done
  [ $result = SAME ] || status=1
  printf '%-28s %-8s %s\n' "$spec" "$result" "${times[*]}"
done
echo "logs: $work"
exit $status
