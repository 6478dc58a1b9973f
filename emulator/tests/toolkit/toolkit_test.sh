#!/usr/bin/env bash
# The toolkit directory (build/toolkit) used the way builds written for a CUDA toolkit use one.
#   toolkit_test.sh CASE TOOLKIT WORK_DIR
# CASE: cmake_project | cmake_ninja | cmake_memcheck | cmake_racecheck | makefile | nvcc_cli | install | tvm_ffi
# Each case prints what it checks and exits non-zero at the first difference. Expectations are
# independent of the emulator: the programs check their results against loops on the host, the
# emulated compute capability is the highest that the build lists, and the checkers' findings
# are the bug each build option plants.
set -u
case_name=${1:?usage: toolkit_test.sh CASE TOOLKIT WORK_DIR}
toolkit=$(cd "${2:?}" && pwd)
work=${3:?}
mkdir -p "$work" && work=$(cd "$work" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
nvcc=$toolkit/bin/nvcc
rm -rf "$work/$case_name"
mkdir -p "$work/$case_name"
w=$work/$case_name
# The machine's own CUDA toolkit, if it has one: nothing of it may appear in a build.
real_toolkit=""
for d in "${CUDA_HOME:-}" /usr/local/cuda; do
  [ -n "$d" ] && [ -f "$d/include/cuda_runtime_api.h" ] && [ "$(cd "$d" && pwd -P)" != "$(cd "$toolkit" && pwd -P)" ] &&
    real_toolkit=$d && break
done

fail() { echo "FAIL: $*" >&2; exit 1; }
expect_in() {  # FILE REGEX WHAT
  grep -E -q -- "$2" "$1" || { echo "--- $1:" >&2; tail -30 "$1" >&2; fail "$3 (expected /$2/)"; }
}
expect_not_in() {  # FILE REGEX WHAT
  if grep -E -q -- "$2" "$1"; then echo "--- $1:" >&2; grep -E -m3 -- "$2" "$1" >&2; fail "$3"; fi
}
no_leak() {  # LOG
  [ -z "$real_toolkit" ] && return 0
  expect_not_in "$1" "$real_toolkit/(include|lib|bin)" "the build used the machine's own CUDA toolkit ($real_toolkit)"
  echo "ok: no command of the build names $real_toolkit"
}
cmake_build() {  # BUILD_DIR [CMAKE ARGS...]; the compiler from CUDACXX when that is set
  local b=$1 compiler=(-DCMAKE_CUDA_COMPILER="$nvcc" -DCUDAToolkit_ROOT="$toolkit")
  shift
  [ -n "${CUDACXX:-}" ] && compiler=()
  cmake -S "$here/project" -B "$b" "${compiler[@]}" "$@" \
    >"$b.configure.log" 2>&1 || { tail -40 "$b.configure.log" >&2; fail "cmake could not configure the project"; }
  cmake --build "$b" --verbose >"$b.build.log" 2>&1 || { tail -40 "$b.build.log" >&2; fail "the project did not build"; }
}

case $case_name in
cmake_project)
  # cuRAND's device API needs the toolkit's curand_kernel.h on the machine (as tests/curand does).
  curand=()
  for d in /usr/local/cuda/include /usr/local/include /usr/include; do
    [ -f "$d/curand_kernel.h" ] && curand=(-DCURAND_PROGRAM="$here/../curand/programs/curand_device.cu") && break
  done
  cmake_build "$w/b" "${curand[@]}"
  expect_in "$w/b.configure.log" "The CUDA compiler identification is NVIDIA 13\.0\.88" "CMake identifies the CUDA compiler"
  expect_in "$w/b.configure.log" "toolkit: CUDA 13\.0\.88 at $toolkit/bin, compiler NVIDIA 13\.0\.88, cudart $toolkit/lib64/libcudart\.so" \
    "find_package(CUDAToolkit) finds the toolkit and its cudart"
  expect_in "$w/b/CMakeFiles/3.25.1/CMakeCUDACompiler.cmake" "CMAKE_CUDA_HOST_LINK_LAUNCHER \"$toolkit/bin/cuemu-host-link\"" \
    "CMake links CUDA targets through the toolkit's host link"
  echo "ok: CMake identified the compiler and found the toolkit"
  expect_in "$w/b.build.log" "-dlink" "separable compilation runs a device link"
  no_leak "$w/b.build.log"
  "$w/b/app" >"$w/app.out" 2>&1 || { cat "$w/app.out" >&2; fail "app exited $?"; }
  expect_in "$w/app.out" "^compute capability 8\.0$" "the emulated device is the highest of CMAKE_CUDA_ARCHITECTURES (75 80)"
  expect_in "$w/app.out" "^PASS: 0 of 1000 wrong \(no error\)$" "app's results equal the host's"
  "$w/b/host_query" >"$w/host_query.out" 2>&1 || { cat "$w/host_query.out" >&2; fail "host_query exited $?"; }
  expect_in "$w/host_query.out" "^PASS: 1 device, copied 1 2 3 4$" "a C++ target through CUDA::cudart"
  echo "ok: app and host_query give the host's results"
  expect_in "$w/b/CMakeCache.txt" "^CUDA_curand_LIBRARY:FILEPATH=$toolkit/lib64/libcurand\.so$" "CUDA::curand is the toolkit's stand-in"
  [ ${#curand[@]} = 0 ] && { echo "PASS: $case_name (no curand_kernel.h on this machine: cuRAND not tried)"; exit 0; }
  "$w/b/curand_device" >"$w/curand.out" 2>&1 || { cat "$w/curand.out" >&2; fail "curand_device exited $?"; }
  # Normal and log-normal draws differ from the H200's in the last bits (__sincosf, issue 14;
  # tests/curand compares them within 16 ulps): every other value must be the H200's.
  exact() { sed -E 's/ (normal|lognormal) [0-9a-f]+//g' "$1"; }
  cmp -s <(exact "$w/curand.out") <(exact "$here/../curand/expected/curand_device.txt") ||
    { diff <(exact "$here/../curand/expected/curand_device.txt") <(exact "$w/curand.out") | head >&2
      fail "curand_device's output differs from the H200's"; }
  echo "ok: a target linked with CUDA::curand draws what the H200 drew (tests/curand/expected)"
  ;;
cmake_ninja)
  # The Ninja generator (response files for objects and libraries; ninja from PATH, or the one
  # run_checks.sh installs beside TVM-FFI; exit 77: skipped without one).
  venv=${CUEMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cuemu}/venv-tvm-ffi/bin
  command -v ninja >/dev/null || PATH=$venv:$PATH
  command -v ninja >/dev/null || { echo "SKIP: no ninja"; exit 77; }
  cmake_build "$w/b" -G Ninja
  "$w/b/app" >"$w/app.out" 2>&1 || { cat "$w/app.out" >&2; fail "app exited $?"; }
  expect_in "$w/app.out" "^PASS: 0 of 1000 wrong \(no error\)$" "app built by Ninja gives the host's results"
  "$w/b/host_query" >"$w/host_query.out" 2>&1 || fail "host_query built by Ninja exited $?"
  echo "ok: the project builds with the Ninja generator"
  ;;
cmake_memcheck)
  # The planted bug (BUG=ON: one element past the end) is reported with its line, and the
  # program fails; the same build without it is clean. The mode is chosen by CUEMU_CHECK at
  # build time and recorded in the program (it runs checked without the variable).
  # The compiler named by CUDACXX alone (FindCUDAToolkit then takes the compiler's toolkit).
  CUDACXX=$nvcc CUEMU_CHECK=memcheck cmake_build "$w/bug" -DBUG=ON
  CUDACXX=$nvcc CUEMU_CHECK=memcheck cmake_build "$w/ok"
  expect_in "$w/ok/CMakeCache.txt" "^CUDA_cudart_LIBRARY:FILEPATH=$toolkit/lib64/libcudart\.so$" "FindCUDAToolkit took the compiler's toolkit"
  env -u CUEMU_CHECK "$w/bug/app" >"$w/bug.out" 2>&1 && { cat "$w/bug.out" >&2; fail "the bug's run exited 0"; }
  expect_in "$w/bug.out" "out-of-bounds access in kernel scale_kernel .* at $here/project/scale\.cu:10" \
    "memcheck reports the read past the end at its line"
  env -u CUEMU_CHECK "$w/ok/app" >"$w/ok.out" 2>&1 || { cat "$w/ok.out" >&2; fail "the correct build under memcheck exited $?"; }
  expect_not_in "$w/ok.out" "cuemu:" "the correct build under memcheck reports nothing"
  expect_in "$w/ok.out" "^PASS: 0 of 1000 wrong" "the correct build under memcheck gives the host's results"
  echo "ok: memcheck through CMake reports the planted bug and nothing in the correct build"
  ;;
cmake_racecheck)
  CUEMU_CHECK=racecheck,synccheck cmake_build "$w/b"
  expect_in "$w/b.build.log" "cuemu-host-link" "the link runs the host link"
  env -u CUEMU_CHECK "$w/b/app" >"$w/app.out" 2>&1 || { cat "$w/app.out" >&2; fail "app under racecheck exited $?"; }
  expect_in "$w/app.out" "^PASS: 0 of 1000 wrong" "app under racecheck gives the host's results"
  expect_not_in "$w/app.out" "cuemu:" "app under racecheck reports nothing"
  # Both sanitizers in one program cannot be: a clear error, not a broken build.
  CUEMU_CHECK=memcheck,racecheck "$nvcc" -c "$here/project/offset.cu" -o "$w/x.o" >"$w/both.out" 2>&1 &&
    fail "CUEMU_CHECK=memcheck,racecheck was accepted"
  expect_in "$w/both.out" "need two separate builds" "memcheck and racecheck together are refused"
  echo "ok: racecheck builds run clean; memcheck with racecheck is refused"
  ;;
makefile)
  make -C "$here/makefile" NVCC="$nvcc" CUDA_HOME="$toolkit" OUT="$w/out" >"$w/make.log" 2>&1 ||
    { tail -30 "$w/make.log" >&2; fail "make did not build"; }
  no_leak "$w/make.log"
  [ -s "$w/out/histogram.d" ] || fail "nvcc -MD wrote no dependency file"
  expect_in "$w/out/histogram.d" "^$w/out/histogram\.o:" "the dependency file names the object"
  expect_in "$w/out/histogram.d" "common\.h" "the dependency file names the included header"
  "$w/out/histogram" >"$w/histogram.out" 2>&1 || { cat "$w/histogram.out" >&2; fail "histogram exited $?"; }
  expect_in "$w/histogram.out" "^compute capability 8\.6$" "-gencode arch=compute_86 sets the emulated device"
  expect_in "$w/histogram.out" "^PASS: 100000 counted, 0 of 16 bins wrong \(no error\)$" "the histogram equals the host's"
  # A header changed: make rebuilds through the dependency file.
  cp -r "$here/makefile" "$w/src"
  make -C "$w/src" NVCC="$nvcc" CUDA_HOME="$toolkit" OUT="$w/out2" >/dev/null 2>&1 || fail "make in the copy failed"
  sleep 1
  touch "$w/src/common.h"
  make -C "$w/src" NVCC="$nvcc" CUDA_HOME="$toolkit" OUT="$w/out2" >"$w/remake.log" 2>&1 || fail "make after touching the header failed"
  expect_in "$w/remake.log" "histogram\.cu" "make rebuilt histogram.o after its header changed"
  echo "ok: make with NVCC= and CUDA_HOME= builds, tracks headers and gives the host's results"
  ;;
nvcc_cli)
  src=$here/makefile/histogram.cu
  cd "$w" || exit 1
  "$nvcc" --version >version.out 2>&1 || fail "nvcc --version exited $?"
  expect_in version.out "^nvcc: NVIDIA \(R\) Cuda compiler driver$" "--version has the line CMake identifies nvcc by"
  expect_in version.out "V13\.0\.88" "--version names the CUDA version"
  expect_in version.out "cuemu" "--version names the emulator"
  "$nvcc" -E -I "$here/makefile" "$src" -o pre.ii 2>pre.err || { cat pre.err >&2; fail "nvcc -E exited $?"; }
  expect_in pre.ii "atomicAdd\(&local\[data\[i\] % kBins\], 1u\)" "nvcc -E writes the preprocessed source"
  expect_not_in pre.ii "^#include" "nvcc -E leaves no #include"
  "$nvcc" -M -I "$here/makefile" "$src" >deps.out 2>&1 || { cat deps.out >&2; fail "nvcc -M exited $?"; }
  # The host compiler wraps long lines, so the rule is read with its continuations joined.
  sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' deps.out >deps.joined
  expect_in deps.joined "^histogram\.o: .*histogram\.cu" "nvcc -M names the object and the source"
  expect_in deps.out "common\.h" "nvcc -M names the included header"
  "$nvcc" -M -MT custom_target -I "$here/makefile" "$src" >deps2.out 2>&1 || fail "nvcc -M -MT exited $?"
  expect_in deps2.out "^custom_target:" "-MT sets the target"
  printf '%s\n' "-I$here/makefile" "-O2" > opts.rsp
  "$nvcc" --options-file opts.rsp -dc "$here/makefile/fill.cu" -o fill.o 2>rsp.err || { cat rsp.err >&2; fail "--options-file"; }
  "$nvcc" -dlink fill.o -o dlink.o 2>dlink.err || { cat dlink.err >&2; fail "nvcc -dlink exited $?"; }
  [ -s dlink.o ] || fail "nvcc -dlink wrote no object"
  "$nvcc" -forward-unknown-to-host-compiler -Wall -Wextra -pthread -c "$here/makefile/fill.cu" -I "$here/makefile" -o fwd.o \
    2>fwd.err || { cat fwd.err >&2; fail "-forward-unknown-to-host-compiler"; }
  # -Xcompiler's value as a shell reads it (PyTorch's cpp_extension passes --compiler-options "'-fPIC'").
  "$nvcc" --compiler-options "'-fPIC'" -Xcompiler "-Wall -Wextra","-O1" -c "$here/makefile/fill.cu" -I "$here/makefile" -o q.o \
    2>q.err || { cat q.err >&2; fail "quoted and spaced -Xcompiler values"; }
  for bad in "-ptx" "-cubin" "-fatbin"; do
    "$nvcc" "$bad" "$src" -o x >bad.out 2>&1 && fail "nvcc $bad was accepted"
    expect_in bad.out "nvcc fatal   : option '$bad' makes GPU code" "nvcc $bad is refused with the reason"
  done
  "$nvcc" --no-such-option "$src" >bad.out 2>&1 && fail "an unknown option was accepted"
  expect_in bad.out "unknown option '--no-such-option'" "an unknown option is named"
  "$nvcc" --options-file missing.rsp "$src" >bad.out 2>&1 && fail "a missing options file was accepted"
  expect_in bad.out "cannot read options file 'missing.rsp'" "a missing options file is named"
  CUEMU_CHECK=bogus "$nvcc" -c "$here/project/offset.cu" -o x.o >bad.out 2>&1 && fail "CUEMU_CHECK=bogus was accepted"
  expect_in bad.out "unknown check 'bogus'" "an unknown checking mode is named"
  printf '#include <cublas_v2.h>\nint main() { return 0; }\n' > uses_cublas.cu
  "$nvcc" uses_cublas.cu -o x >leak.out 2>&1 && fail "a header the emulator lacks was accepted"
  expect_in leak.out "cuemu does not provide <cublas_v2.h>" "a header the emulator lacks is named"
  [ -n "$real_toolkit" ] && { expect_not_in leak.out "error: #error|cublas_api.h" "the real toolkit's cuBLAS header leaked in"; }
  "$nvcc" -v -arch=sm_89 "$src" -I "$here/makefile" -c -o v.o >v.out 2>&1 || { cat v.out >&2; fail "nvcc -v exited $?"; }
  expect_in v.out "^#\\$ TOP=$toolkit$" "nvcc -v names the toolkit (TOP=)"
  expect_in v.out "^#\\$ INCLUDES=\"-I$toolkit/include\"" "nvcc -v names the include directory (INCLUDES=)"
  expect_in v.out "-arch compute_89" "nvcc -v names the emulated architecture"
  "$nvcc" -v "$src" "$here/makefile/fill.cu" "$here/makefile/report.cpp" -I "$here/makefile" -o linked >v2.out 2>&1 ||
    { cat v2.out >&2; fail "nvcc -v link exited $?"; }
  expect_in v2.out "^#\\$ $toolkit/bin/cuemu-host-link .*-L$toolkit/lib64 -lcudadevrt -lcudart_static" "nvcc -v shows the host link"
  ./linked >linked.out 2>&1 || { cat linked.out >&2; fail "the program nvcc linked exited $?"; }
  # nvcc found through PATH by a link of the user's own: the toolkit is still the link's target.
  mkdir -p mybin && ln -sf "$nvcc" mybin/nvcc
  (PATH=$w/mybin:$PATH && nvcc -v -c "$here/project/offset.cu" -o off.o) >v3.out 2>&1 || { cat v3.out >&2; fail "nvcc through a link"; }
  expect_in v3.out "^#\\$ TOP=$toolkit$" "nvcc through a link of its own finds the toolkit"
  expect_in linked.out "^PASS: 100000 counted" "the program nvcc compiled and linked in one step works"
  echo "ok: nvcc's command line: --version, -E, -M, -MT, -dlink, --options-file, -forward-unknown-to-host-compiler, -v, refusals"
  ;;
install)
  build_dir=$(cd "$toolkit/.." && pwd)
  cmake --install "$build_dir" --prefix "$w/prefix" >"$w/install.log" 2>&1 || { tail -20 "$w/install.log" >&2; fail "cmake --install"; }
  installed=$w/prefix/toolkit
  for f in bin/nvcc bin/cuemu-host-link include/cuda_runtime.h lib64/libcudart.so lib64/libcudart_static.a version.json; do
    [ -e "$installed/$f" ] || fail "the installed toolkit lacks $f"
  done
  cmake -S "$here/project" -B "$w/b" -DCMAKE_CUDA_COMPILER="$installed/bin/nvcc" -DCUDAToolkit_ROOT="$installed" \
    >"$w/configure.log" 2>&1 || { tail -30 "$w/configure.log" >&2; fail "configure against the installed toolkit"; }
  cmake --build "$w/b" -- VERBOSE=1 >"$w/build.log" 2>&1 || { tail -30 "$w/build.log" >&2; fail "build against the installed toolkit"; }
  expect_not_in "$w/build.log" "$build_dir/(toolkit|bin|lib|emulator/include)/" "the build against the installed toolkit used the build tree"
  "$w/b/app" >"$w/app.out" 2>&1 || { cat "$w/app.out" >&2; fail "app exited $?"; }
  expect_in "$w/app.out" "^PASS: 0 of 1000 wrong" "app built with the installed toolkit gives the host's results"
  echo "ok: cmake --install makes <prefix>/toolkit, and a project builds and runs with it"
  ;;
tvm_ffi)
  # TVM-FFI's build helper finds nvcc and cudart through CUDA_HOME (run_checks.sh installs it,
  # pinned, into a virtual environment in the cache; exit 77: skipped when it is not there).
  python=${CUEMU_TVM_FFI_PYTHON:-${CUEMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cuemu}/venv-tvm-ffi/bin/python}
  if [ ! -x "$python" ]; then echo "SKIP: no TVM-FFI environment at $python (./run_checks.sh makes it)"; exit 77; fi
  mkdir -p "$w/build"
  PATH=$(dirname "$python"):$PATH CUDA_HOME=$toolkit TVM_FFI_CUDA_ARCH_LIST=9.0 \
    "$python" "$here/tvm_ffi_inline.py" "$w/build" >"$w/tvm.out" 2>&1 || { tail -30 "$w/tvm.out" >&2; fail "the TVM-FFI module did not build or run"; }
  expect_in "$w/tvm.out" "^square_sum\(1000\) = 332833500, expected 332833500: PASS$" "the module's kernel gives the host's sum"
  expect_in "$w/build/build.ninja" "^nvcc = $toolkit/bin/nvcc$" "TVM-FFI took nvcc from CUDA_HOME"
  no_leak "$w/build/build.ninja"
  echo "ok: TVM-FFI's load_inline builds, loads and runs a CUDA module with CUDA_HOME=<toolkit>"
  ;;
*)
  fail "unknown case '$case_name'"
  ;;
esac
echo "PASS: $case_name"
