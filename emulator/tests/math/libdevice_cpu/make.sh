#!/bin/sh
# Builds libdevice for x86-64 (the prototype of issue 14; see README.md) and ld_probe, which
# evaluates math_probe's functions through it.
#
#   emulator/tests/math/libdevice_cpu/make.sh [OUT_DIR]     (default: build/libdevice_cpu)
#
# Needs clang-14, llvm-dis-14, llvm-link-14 (Debian: clang-14 llvm-14) or set LLVM_SUFFIX=-16
# etc., g++, python3, and NVIDIA's libdevice: LIBDEVICE=path/libdevice.10.bc, default the
# toolkit's /usr/local/cuda/nvvm/libdevice/libdevice.10.bc (pip: nvidia-cuda-nvcc-cu12 /
# nvidia-cuda-nvcc carries it under nvidia/cuda_nvcc/nvvm/libdevice/). Nothing derived from
# libdevice is kept in the repository: everything lands in OUT_DIR.
#   FTZ=1: the -ftz=true build (__CUDA_FTZ reflects 1).
#   CONTRACT=1: leave libdevice's plain fmul/fadd/fsub to the host compiler (-ffp-contract=fast
#               -mfma), for the experiment of whether NVVM contracts them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-build/libdevice_cpu}
sfx=${LLVM_SUFFIX:--14}
libdevice=${LIBDEVICE:-/usr/local/cuda/nvvm/libdevice/libdevice.10.bc}
mkdir -p "$out"
flags=""
[ "${FTZ:-0}" = 1 ] && flags="$flags --ftz"
cflags="-ffp-contract=off"
if [ "${CONTRACT:-0}" = 1 ]; then flags="$flags --contract"; cflags="-ffp-contract=fast -mfma"; fi

"llvm-dis$sfx" "$libdevice" -o "$out/libdevice.ll"
python3 "$here/rewrite.py" "$out/libdevice.ll" "$out/libdevice_x86.ll" $flags
"clang$sfx" -O2 -frounding-math -ffp-contract=off -c -emit-llvm "$here/shim.c" -o "$out/shim.bc"
"llvm-link$sfx" "$out/libdevice_x86.ll" "$out/shim.bc" "$here/shim_asm.ll" -o "$out/linked.bc"
"clang$sfx" -O2 $cflags -c "$out/linked.bc" -o "$out/libdevice_x86.o"
g++ -O1 -std=c++17 -I"$here" "$here/ld_probe.cpp" "$out/libdevice_x86.o" -lm -o "$out/ld_probe"
g++ -O1 -std=c++17 "$here/ld_check.cpp" "$out/libdevice_x86.o" -lm -o "$out/ld_check"
echo "built $out/libdevice_x86.o, $out/ld_probe and $out/ld_check"
"opt$sfx" -O1 "$out/libdevice_x86.ll" -S -o "$out/libdevice_x86_o1.ll"
python3 "$here/intrinsics.py" "$out/libdevice_x86_o1.ll" > "$out/intrinsics.txt"
echo "wrote $out/intrinsics.txt"
