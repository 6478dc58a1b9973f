#!/usr/bin/env bash
# Runs NVIDIA's cuda-samples, unchanged, on the emulator: every sample that manifest.txt (beside
# this script) says is in scope, with the arguments of its own build, and prints a PASS/FAIL table
# and the counts; the out-of-scope ones are listed with their reason (--out). Samples marked slow
# (hours on a CPU, no size options of their own) run only with --slow, else count as not passing.
#   emulator/tests/samples/run_samples.sh [--out|--slow] [--check MODES] CUDA_SAMPLES_DIR [CUEMU] [NAME...]
# CUDA_SAMPLES_DIR: a checkout of https://github.com/NVIDIA/cuda-samples (tested at commit
# c94ff366aed18c797b8a85dfaac7817b0228b420); CUEMU: the driver (default: build/bin/cuemu of this
# tree, or $CUEMU); NAME...: run only these. Not part of ctest: it needs the samples, which CI
# does not download. A sample passes when it exits 0 and prints its own success line.
# --check MODES: run each sample under cuemu's checking modes (e.g. streams, memcheck,racecheck);
# a report fails the sample (cuemu's exit status). Exit status: 0 when every sample run passed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
. "$here/manifest.sh"
list_out=0; run_slow=0
if [ "${1:-}" = "--out" ]; then list_out=1; shift; fi
if [ "${1:-}" = "--slow" ]; then run_slow=1; shift; fi
check=()
if [ "${1:-}" = "--check" ]; then check=("--check=${2:?--check needs the modes}"); shift 2; fi
case "${1:-}" in --check=*) check=("$1"); shift ;; esac
samples=${1:?usage: run_samples.sh [--out|--slow] [--check MODES] CUDA_SAMPLES_DIR [CUEMU] [NAME...]}
samples=$(cd "$samples" && pwd) || exit 2
shift
cuemu=${CUEMU:-$root/build/bin/cuemu}
if [ $# -gt 0 ] && [ -x "$1" ] && [ ! -d "$1" ]; then cuemu=$1; shift; fi
[ -x "$cuemu" ] || { echo "run_samples.sh: no cuemu at $cuemu (build it, or pass its path)" >&2; exit 2; }
S=$samples/Samples
[ -d "$S" ] || { echo "run_samples.sh: $samples has no Samples/ directory" >&2; exit 2; }
only=" $* "
timeout_s=${CUEMU_SAMPLE_TIMEOUT:-900}

logdir=$(mktemp -d /tmp/cuemu-samples.XXXXXX)
pass=0; fail=0; out=0; slow=0; failed=""
if [ $list_out = 1 ]; then
  printf '%-34s %s\n' "OUT OF SCOPE" REASON
else
  printf '%-34s %-6s %8s  %s\n' SAMPLE RESULT SECONDS "RESULT LINE"
fi
while IFS= read -r raw; do
  parse_entry "$raw"
  if [ "$scope" = out ]; then
    out=$((out + 1))
    [ $list_out = 1 ] && printf '%-34s %s\n' "$name" "$what"
    continue
  fi
  [ $list_out = 1 ] && continue
  if [ "$only" != "  " ] && [[ $only != *" $name "* ]]; then continue; fi
  if [ "$scope" = slow ] && [ $run_slow = 0 ]; then
    slow=$((slow + 1)); failed="$failed $name"
    printf '%-34s %-6s %8s  %s\n' "$name" "SLOW" "-" "not run: hours on a CPU, no size options (--slow runs it)"
    continue
  fi
  [ -d "$S/$dir" ] || { echo "run_samples.sh: $S/$dir does not exist (manifest line: $name)" >&2; exit 2; }
  read -ra argv <<<"$args"
  log=$logdir/$name.log
  start=$(date +%s.%N)
  (cd "$S/$dir" && timeout "$timeout_s" "$cuemu" run "${check[@]}" -I "$samples/Common" "${argv[@]}") </dev/null >"$log" 2>&1
  rc=$?
  end=$(date +%s.%N)
  line=$(grep -E -m1 -- "$what" "$log" | tr -s ' \t' ' ' | cut -c1-90)
  if [ $rc -eq 0 ] && [ -n "$line" ]; then
    result=PASS; pass=$((pass + 1))
  else
    result=FAIL; fail=$((fail + 1)); failed="$failed $name"
    [ $rc -eq 124 ] && line="timed out after ${timeout_s} s" ||
      line="exit $rc; $(grep -m1 -E 'error|cuemu:|FAIL|Error' "$log" | cut -c1-90)"
  fi
  printf '%-34s %-6s %8.1f  %s\n' "$name" "$result" "$(echo "$end - $start" | bc)" "$line"
done < <(manifest_entries)
if [ $list_out = 1 ]; then
  echo "$out out of scope"
  exit 0
fi
total=$((pass + fail + slow))
echo "in scope: $total; passed: $pass; failed: $fail; too slow to run: $slow${failed:+ (not passing:}${failed:+$failed)}; out of scope: $out (--out lists them)"
[ $total -gt 0 ] && echo "pass rate: $((1000 * pass / total / 10)).$((1000 * pass / total % 10))%"
echo "logs: $logdir"
[ $fail -eq 0 ] && [ $slow -eq 0 ]
