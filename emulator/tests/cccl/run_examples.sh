#!/usr/bin/env bash
# Runs CCCL's own examples (NVIDIA/cccl at tag v3.0.3, the 3.0 line the pinned CCCL belongs to),
# unchanged, on the emulator and compares each one's output with the H200's (expected/examples/).
#   emulator/tests/cccl/run_examples.sh CCCL_CHECKOUT [CUEMU] [--check MODE | --record DIR]
# --check MODE: run each under `cuemu run --check=MODE` (memcheck, racecheck, synccheck, all);
# an example then passes only if its output is still the H200's and nothing is reported.
# --record DIR: instead, build each with nvcc -arch=sm_90 and write its output to DIR (on a
# machine with a GPU). Not part of ctest: it needs the checkout, which CI does not download.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cccl=${1:?usage: run_examples.sh CCCL_CHECKOUT [CUEMU] [--record DIR]}
cccl=$(cd "$cccl" && pwd)
cuemu=${2:-${CUEMU:-$root/build/bin/cuemu}}
record=""; check=()
[ "${3:-}" = "--record" ] && record=${4:?--record needs a directory}
[ "${3:-}" = "--check" ] && check=("--check=${4:?--check needs a mode}")
expected=$here/expected/examples
logdir=$(mktemp -d /tmp/cuemu-cccl-examples.XXXXXX)
pass=0; fail=0
examples=(
  thrust/examples/basic_vector.cu thrust/examples/bounding_box.cu thrust/examples/constant_iterator.cu
  thrust/examples/counting_iterator.cu thrust/examples/device_ptr.cu thrust/examples/dot_products_with_zip.cu
  thrust/examples/expand.cu thrust/examples/fill_copy_sequence.cu thrust/examples/histogram.cu
  thrust/examples/lambda.cu thrust/examples/lexicographical_sort.cu thrust/examples/max_abs_diff.cu
  thrust/examples/minmax.cu thrust/examples/mode.cu thrust/examples/monte_carlo.cu thrust/examples/norm.cu
  thrust/examples/permutation_iterator.cu thrust/examples/remove_points2d.cu thrust/examples/run_length_encoding.cu
  thrust/examples/saxpy.cu thrust/examples/scan_by_key.cu thrust/examples/set_operations.cu
  thrust/examples/simple_moving_average.cu thrust/examples/sort.cu thrust/examples/sparse_vector.cu
  thrust/examples/stream_compaction.cu thrust/examples/sum.cu thrust/examples/sum_rows.cu
  thrust/examples/summary_statistics.cu thrust/examples/transform_iterator.cu thrust/examples/weld_vertices.cu
  thrust/examples/word_count.cu
  cub/examples/block/example_block_radix_sort.cu cub/examples/block/example_block_reduce.cu
  cub/examples/block/example_block_scan.cu cub/examples/device/example_device_partition_if.cu
  cub/examples/device/example_device_radix_sort.cu cub/examples/device/example_device_reduce.cu
  cub/examples/device/example_device_scan.cu cub/examples/device/example_device_select_if.cu
  cub/examples/device/example_device_select_unique.cu
)
printf '%-58s %-6s %8s\n' EXAMPLE RESULT SECONDS
for ex in "${examples[@]}"; do
  name=$(basename "$ex" .cu)
  dir=$cccl/$(dirname "$ex")
  start=$(date +%s.%N)
  if [ -n "$record" ]; then
    mkdir -p "$record"
    (cd "$dir" && nvcc -std=c++17 -arch=sm_90 -I "$cccl/cub" -I "$cccl/c2h/include" -o "$logdir/$name" "$(basename "$ex")" && "$logdir/$name") \
      >"$record/$name.txt" 2>"$logdir/$name.err"
    rc=$?
    result=$([ $rc = 0 ] && echo RECORDED || echo "FAIL($rc)")
  else
    (cd "$dir" && timeout 1200 "$cuemu" run "${check[@]}" -I "$cccl/cub" -I "$cccl/c2h/include" "$(basename "$ex")") >"$logdir/$name.out" 2>"$logdir/$name.err"
    rc=$?
    # A checking mode's report is a failure even if the output is right.
    [ $rc = 0 ] && grep -v -E '^cuemu: (checking summary:|running the )' "$logdir/$name.err" | grep -q '^cuemu: ' && rc=99
    # CUB's examples also print the device and timings: those lines are left out of the comparison.
    keep() { grep -v -E '^Using device|Average|timing iterations' "$1"; }
    if [ $rc = 0 ] && [ -f "$expected/$name.txt" ] && cmp -s <(keep "$logdir/$name.out") <(keep "$expected/$name.txt"); then
      result=PASS; pass=$((pass + 1))
    else
      result="FAIL($rc)"; fail=$((fail + 1))
    fi
  fi
  printf "%-58s %-6s %8.1f\n" "$ex" "$result" "$(awk -v a="$start" -v b="$(date +%s.%N)" "BEGIN { print b - a }")"
done
[ -n "$record" ] && exit 0
echo "passed $pass, failed $fail (logs in $logdir)"
[ $fail -eq 0 ]
