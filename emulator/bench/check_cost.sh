#!/usr/bin/env bash
# The cost of each checking mode over the plain build, on the self-checks.
#   emulator/bench/check_cost.sh [CUEMU] [RUNS]
# Builds each self-check once per mode with `cuemu cc --check=MODE` and runs it RUNS times
# (default 3); prints the median run time of the program and its ratio to the plain build's, and
# the peak memory. Run from anywhere; CUEMU defaults to build/bin/cuemu of this tree.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cuemu=${1:-$root/build/bin/cuemu}
runs=${2:-3}
[ -x "$cuemu" ] || { echo "check_cost.sh: no cuemu at $cuemu" >&2; exit 2; }
work=$(mktemp -d /tmp/cuemu-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT
median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
printf '%-18s %-10s %9s %7s %9s\n' self-check mode seconds ratio "peak MiB"
for src in "$root"/selfcheck/*_check.cu; do
  name=$(basename "$src" .cu)
  plain=
  for mode in none synccheck memcheck racecheck streams; do
    exe=$work/$name.$mode
    "$cuemu" cc --check=$mode "$src" "$root/kernels/launchers.cu" -I "$root/kernels" \
      -I "$root/selfcheck" -o "$exe"
    : >"$work/times"; : >"$work/mem"
    for _ in $(seq "$runs"); do
      /usr/bin/time -f '%e %M' -o "$work/t" "$exe" >/dev/null 2>&1 ||
        { echo "$name under $mode failed" >&2; exit 1; }
      awk '{print $1}' "$work/t" >>"$work/times"; awk '{print $2}' "$work/t" >>"$work/mem"
    done
    t=$(median <"$work/times"); m=$(median <"$work/mem")
    [ "$mode" = none ] && plain=$t
    printf '%-18s %-10s %9.2f %6.1fx %9.0f\n' "$name" "$([ $mode = none ] && echo plain || echo $mode)" \
      "$t" "$(echo "$t / $plain" | bc -l)" "$(echo "$m / 1024" | bc -l)"
  done
done
