#!/usr/bin/env bash
# Runs a selection of libcu++'s own tests (NVIDIA/cccl at tag v3.0.3, libcudacxx/test, unchanged)
# on the emulator, as its lit harness runs them with nvcc: each `*.pass.cpp` compiled as CUDA with
# libcudacxx/test/libcudacxx/force_include.h pre-included (its main runs the test on the host, then
# in a <<<1, 1>>> kernel) and libcudacxx/test/support on the include path. A test passes when it
# exits 0 (its asserts hold on the host and on the device) and nothing is reported.
#   emulator/tests/cccl/run_libcudacxx_tests.sh CCCL_CHECKOUT [CUEMU] [--check MODE | --list]
# Not part of ctest: it needs the checkout, which CI does not download.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cccl=${1:?usage: run_libcudacxx_tests.sh CCCL_CHECKOUT [CUEMU] [--check MODE]}
cccl=$(cd "$cccl" && pwd)
cuemu=${2:-${CUEMU:-$root/build/bin/cuemu}}
check=()
[ "${3:-}" = "--check" ] && check=("--check=${4:?--check needs a mode}")
t=$cccl/libcudacxx/test
[ -f "$t/libcudacxx/force_include.h" ] || { echo "run_libcudacxx_tests.sh: $cccl has no libcudacxx/test" >&2; exit 2; }
logdir=$(mktemp -d /tmp/cuemu-libcudacxx-tests.XXXXXX)
# cuda::atomic and atomic_ref, cuda::barrier, cuda::pipeline and memcpy_async at every thread
# scope, the cuda:: bit utilities, warp shuffles, and cuda::std atomics and fences.
tests=(
  cuda/atomics/atomic.ext/atomic_fetch_max.pass.cpp cuda/atomics/atomic.ext/atomic_fetch_min.pass.cpp
  cuda/atomics/atomic.local.pass.cpp cuda/atomics/atomic.uninitialized.pass.cpp cuda/atomics/atomic_ref_small.pass.cpp
  cuda/barrier/init.pass.cpp cuda/barrier/aligned_size_t.pass.cpp
  cuda/memcpy_async_8.pass.cpp cuda/memcpy_async_16.pass.cpp cuda/memcpy_async_32.pass.cpp
  cuda/memcpy_async_64.pass.cpp cuda/memcpy_async_large.pass.cpp
  cuda/pipeline_group_concept_thread_scope_block.pass.cpp cuda/pipeline_group_concept_thread_scope_device.pass.cpp
  cuda/pipeline_group_concept_thread_scope_system.pass.cpp cuda/pipeline_memcpy_async_producer_consumer.pass.cpp
  cuda/pipeline_memcpy_async_thread_scope_block_8.pass.cpp cuda/pipeline_memcpy_async_thread_scope_block_large_type.pass.cpp
  cuda/pipeline_memcpy_async_thread_scope_device_16.pass.cpp cuda/pipeline_memcpy_async_thread_scope_system_32.pass.cpp
  cuda/pipeline_memcpy_async_thread_scope_thread_8.pass.cpp cuda/pipeline_memcpy_async_thread_scope_thread_large_type.pass.cpp
  cuda/bit/bit_reverse.pass.cpp cuda/bit/bitfield.pass.cpp cuda/bit/bitmask.pass.cpp
)
# Tests that do not build here, each with the reason; they run too, and count as KNOWN while the
# build still stops (exit 2), as FAIL if the program then fails.
known=(
  "cuda/barrier/native_handle.pass.cpp|the test's own mbarrier PTX has no CPU meaning (a compile error naming it)"
  "cuda/pipeline_arrive_on.pass.cpp|<cuda_pipeline.h> (the toolkit's __pipeline_* primitives) is not provided"
  "cuda/pipeline_divergent_threads.pass.cpp|<cuda_pipeline.h> (the toolkit's __pipeline_* primitives) is not provided"
  "cuda/warp/warp_shuffle.pass.cpp|g++ finds no operator== for warp_shuffle_result<T> == T, which nvcc's front end accepts"
)
for f in "$t"/libcudacxx/std/atomics/atomics.fences/*.pass.cpp "$t"/libcudacxx/std/atomics/atomics.flag/*.pass.cpp; do
  [ -f "$f" ] && tests+=("${f#"$t/libcudacxx/"}")
done
# --list (as the third argument): print the selection, one test per line, and stop.
if [ "${3:-}" = "--list" ]; then
  printf '%s\n' "${tests[@]}"
  exit 0
fi
pass=0; fail=0; failed=""; nknown=0
printf '%-72s %-9s %8s\n' TEST RESULT SECONDS
for entry in "${tests[@]}" "${known[@]/#/known:}"; do
  rel=${entry#known:}; rel=${rel%%|*}
  src=$t/libcudacxx/$rel
  name=$(echo "$rel" | tr / _)
  start=$(date +%s.%N)
  if [ ! -f "$src" ]; then
    rc=2; echo "missing $src" >"$logdir/$name.err"
  else
    (cd "$(dirname "$src")" && timeout 900 "$cuemu" run "${check[@]}" -include "$t/libcudacxx/force_include.h" \
       -I "$t/support" -x cu "$(basename "$src")") </dev/null >"$logdir/$name.out" 2>"$logdir/$name.err"
    rc=$?
    [ $rc = 0 ] && grep -v -E '^cuemu: (checking summary:|running the )' "$logdir/$name.err" | grep -q '^cuemu: ' && rc=99
  fi
  if [ "$entry" != "${entry#known:}" ] && [ $rc = 2 ]; then
    result=KNOWN; nknown=$((nknown + 1))
  elif [ $rc = 0 ]; then
    result=PASS; pass=$((pass + 1))
  else
    result="FAIL($rc)"; fail=$((fail + 1)); failed="$failed $rel"
  fi
  printf '%-72s %-9s %8.1f\n' "$rel" "$result" "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')"
done
echo "passed $pass, failed $fail${failed:+ (failed:$failed)}, known not to build $nknown (logs in $logdir)"
[ $fail -eq 0 ]
