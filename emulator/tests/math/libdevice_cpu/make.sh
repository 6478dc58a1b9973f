#!/bin/sh
# Builds ld_probe, which evaluates math_probe's functions through libdevice for the CPU directly
# (without the emulator), for experiments with the build of libdevice itself: the -ftz=true
# reflection, or contraction of libdevice's plain mul+add pairs. See README.md.
#
#   emulator/tests/math/libdevice_cpu/make.sh BUILD_DIR [OUT_DIR]   (default OUT_DIR: BUILD_DIR/libdevice_cpu)
#
# BUILD_DIR: a build of the emulator (its runtime library defines the C library forms that the
# object calls). Needs what the emulator's build needs (clang-14, llvm-14) and NVIDIA's libdevice:
# LIBDEVICE=path/libdevice.10.bc, default the one that BUILD_DIR was configured with.
#   FTZ=1: the -ftz=true build (__CUDA_FTZ reflects 1).
#   CONTRACT=1: leave libdevice's plain fmul/fadd/fsub to clang's contraction (-mfma).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../../../src/libdevice
build=${1:?usage: make.sh BUILD_DIR [OUT_DIR]}
out=${2:-$build/libdevice_cpu}
libdevice=${LIBDEVICE:-$(sed -n 's/^CUEMU_LIBDEVICE:FILEPATH=//p' "$build/CMakeCache.txt")}
mkdir -p "$out"
flags=""
[ "${FTZ:-0}" = 1 ] && flags="$flags --ftz"
[ "${CONTRACT:-0}" = 1 ] && flags="$flags --contract"
python3 "$src/build.py" --libdevice "$libdevice" --clang clang-14 --llvm-dis llvm-dis-14 \
  --llvm-link llvm-link-14 --objcopy objcopy --nm nm --out "$out/libdevice_x86.o" $flags
g++ -O1 -std=c++17 -I"$here" "$here/ld_probe.cpp" "$out/libdevice_x86.o" \
  "$build/lib/libcuemu_runtime.a" -lboost_context -pthread -ldl -o "$out/ld_probe"
echo "built $out/ld_probe"
llvm-dis-14 "$libdevice" -o "$out/libdevice.ll"
python3 "$src/rewrite.py" "$out/libdevice.ll" "$out/libdevice_x86.ll" $flags
opt-14 -O1 "$out/libdevice_x86.ll" -S -o "$out/libdevice_x86_o1.ll"
python3 "$here/intrinsics.py" "$out/libdevice_x86_o1.ll" > "$out/intrinsics.txt"
echo "wrote $out/intrinsics.txt"
