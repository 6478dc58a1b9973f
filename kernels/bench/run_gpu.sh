#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (called by `./run_checks.sh gpu`):
#   1. builds the self-checks and the bandwidth benchmark with nvcc into BUILD_DIR/gpu/;
#   2. runs the self-checks on the GPU and compares their digest lines with the emulator's digests
#      recorded in selfcheck/expected/h200.txt and, when BUILD_DIR/bin/<check> (the emulator
#      build) exists, with a fresh emulator run of the same check;
#   3. writes BUILD_DIR/gpu/h200.txt, the self-check output in the format of
#      selfcheck/expected/h200.txt (to re-record it when cases are added);
#   4. runs the PyTorch baselines (when python3 has torch) and the benchmark, printing its table.
# Exits non-zero on any failure (a build, a self-check, a digest difference, a wrong benchmark
# output).
#   kernels/bench/run_gpu.sh BUILD_DIR [--explore] [--quick] [--no-bench] [--no-torch]
# Environment: NVCC (default nvcc), GPU_ARCH (default sm_90), NVCC_FLAGS (extra flags).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${1:?usage: run_gpu.sh BUILD_DIR [--explore] [--quick] [--no-bench] [--no-torch]}
shift
bench_args=()
bench=1
torch=1
while [ $# -gt 0 ]; do
  case "$1" in
    --explore|--quick) bench_args+=("$1") ;;
    --no-bench) bench=0 ;;
    --no-torch) torch=0 ;;
    *) echo "run_gpu.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
case "$build_dir" in /*) ;; *) build_dir="$PWD/$build_dir" ;; esac
out="$build_dir/gpu"
mkdir -p "$out"
cd "$here"

nvcc=${NVCC:-nvcc}
arch=${GPU_ARCH:-sm_90}
checks=(store_kv_check embedding_check)
expected=selfcheck/expected/h200.txt
failed=0
fail() { echo "run_gpu.sh: FAIL: $*" >&2; failed=1; }

# --- 1. build (the self-checks with the flags of expected/h200.txt) ---
echo "==> nvcc build ($("$nvcc" --version | tail -1), -arch=$arch)"
pids=()
for c in "${checks[@]}"; do
  "$nvcc" -std=c++17 -O2 -arch="$arch" ${NVCC_FLAGS:-} -Ikernels -Iselfcheck \
    "selfcheck/$c.cu" kernels/launchers.cu -o "$out/$c" >"$out/build-$c.log" 2>&1 &
  pids+=($!)
done
if [ "$bench" = 1 ]; then
  "$nvcc" -std=c++17 -O3 -arch="$arch" ${NVCC_FLAGS:-} -Ikernels \
    kernels/bench/row_copy_bandwidth.cu kernels/launchers.cu -o "$out/row_copy_bandwidth" \
    >"$out/build-bench.log" 2>&1 &
  pids+=($!)
fi
for p in "${pids[@]}"; do wait "$p" || failed=1; done
if [ "$failed" = 1 ]; then
  cat "$out"/build-*.log >&2
  fail "nvcc build"
  exit 1
fi

# --- 2. self-checks on the GPU, digests against the emulator's ---
digests() { grep -E '^digest ' "$1" | sort; }
families() { sed -E 's|^digest ([^/ ]+)/.*|\1|' "$1" | sort -u; }
{
  nvcc_release=$("$nvcc" --version | grep -o 'release [0-9.]*' | head -1 | cut -d' ' -f2)
  nvcc_build=$("$nvcc" --version | grep -o 'V[0-9][0-9.]*' | head -1)
  gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
  echo "# Output of selfcheck/store_kv_check.cu and selfcheck/embedding_check.cu built with nvcc $nvcc_release ($nvcc_build)"
  echo "# -std=c++17 -O2 -arch=$arch and run on an $gpu_name (driver $driver), $(date +%F)."
  echo "# The digest lines are the fidelity reference for the emulator (selfcheck.digest.* tests)."
} >"$out/h200.txt"
for c in "${checks[@]}"; do
  echo "==> self-check $c on the GPU"
  "$out/$c" >"$out/$c.txt" 2>&1
  rc=$?
  cat "$out/$c.txt" >>"$out/h200.txt"
  echo "exit status $rc" >>"$out/h200.txt"
  grep -E '^(FAIL|selfcheck:)' "$out/$c.txt"
  [ "$rc" = 0 ] || fail "$c exited with $rc on the GPU"
  digests "$out/$c.txt" >"$out/$c.gpu.digests"
  [ -s "$out/$c.gpu.digests" ] || fail "$c printed no digest lines"
  # Expected digests of this check's families.
  families "$out/$c.gpu.digests" >"$out/$c.families"
  digests "$expected" | grep -E "^digest ($(paste -sd'|' "$out/$c.families"))/" \
    >"$out/$c.expected.digests" || true
  # A digest of $expected that the GPU run lacks is a difference (or a lost case); one the GPU run
  # has and $expected lacks is a case added since it was recorded: listed, not a failure
  # (re-record $expected from $out/h200.txt).
  comm -23 "$out/$c.expected.digests" "$out/$c.gpu.digests" >"$out/$c.expected.diff"
  comm -13 "$out/$c.expected.digests" "$out/$c.gpu.digests" >"$out/$c.gpu-only.digests"
  sed -E 's/ [0-9a-f]+$//' "$out/$c.expected.digests" | sort -u >"$out/$c.expected.keys"
  sed -E 's/ [0-9a-f]+$//' "$out/$c.gpu-only.digests" | sort -u |
    comm -23 - "$out/$c.expected.keys" >"$out/$c.new.keys"
  if [ ! -s "$out/$c.expected.diff" ]; then
    echo "    $(wc -l <"$out/$c.expected.digests") digests identical to $expected"
  else
    fail "$c: digests of $expected that the GPU run differs from or lacks (GPU lines: $out/$c.gpu.digests):"
    cat "$out/$c.expected.diff" >&2
  fi
  if [ -s "$out/$c.new.keys" ]; then
    echo "    $(wc -l <"$out/$c.new.keys") digests not yet in $expected (new cases; listed in $out/$c.new.keys)"
  fi
  emu="$build_dir/bin/$c"
  if [ -x "$emu" ]; then
    "$emu" >"$out/$c.emu.txt" 2>&1 || fail "$c exited with $? on the emulator"
    digests "$out/$c.emu.txt" >"$out/$c.emu.digests"
    if diff "$out/$c.emu.digests" "$out/$c.gpu.digests" >"$out/$c.emu.diff"; then
      echo "    $(wc -l <"$out/$c.gpu.digests") digests identical to a fresh emulator run ($emu)"
    else
      fail "$c: GPU digests differ from the emulator's (< emulator, > GPU):"
      cat "$out/$c.emu.diff" >&2
    fi
  fi
done

# --- 3. PyTorch baselines and the benchmark ---
if [ "$bench" = 1 ]; then
  torch_args=()
  if [ "$torch" = 1 ] && python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
    echo "==> PyTorch baselines"
    if python3 kernels/bench/torch_index_put.py "$out/torch.csv"; then
      torch_args=(--torch "$out/torch.csv")
    else
      fail "PyTorch baselines"
    fi
  else
    echo "==> PyTorch baselines skipped (no torch with CUDA)"
  fi
  echo "==> benchmark"
  "$out/row_copy_bandwidth" "${bench_args[@]}" "${torch_args[@]}" --csv "$out/bench.csv" \
    | tee "$out/bench.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || fail "benchmark"
fi

if [ "$failed" = 0 ]; then echo "run_gpu.sh: all passed"; else echo "run_gpu.sh: FAILURES above"; fi
exit "$failed"
