#!/usr/bin/env bash
# Runs NVIDIA's cuda-samples, unchanged, on the emulator and prints a PASS/FAIL table.
#   emulator/tests/samples/run_samples.sh CUDA_SAMPLES_DIR [CUEMU]
# CUDA_SAMPLES_DIR: a checkout of https://github.com/NVIDIA/cuda-samples (tested at commit
# c94ff366aed18c797b8a85dfaac7817b0228b420); CUEMU: the driver (default: build/bin/cuemu of this
# tree, or $CUEMU). Not part of ctest: it needs the samples, which CI does not download.
# A sample passes when it exits 0 and prints its own success line (see emulator/COMPATIBILITY.md).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
samples=${1:?usage: run_samples.sh CUDA_SAMPLES_DIR [CUEMU]}
samples=$(cd "$samples" && pwd)
cuemu=${2:-${CUEMU:-$root/build/bin/cuemu}}
[ -x "$cuemu" ] || { echo "run_samples.sh: no cuemu at $cuemu (build it, or pass its path)" >&2; exit 2; }
S=$samples/Samples
common="-I $samples/Common"


logdir=$(mktemp -d /tmp/cuemu-samples.XXXXXX)
pass=0; fail=0
printf '%-26s %-6s %8s  %s\n' SAMPLE RESULT SECONDS "RESULT LINE"
# name | directory | success pattern | cuemu arguments (relative to the directory) [-- program args]
run() {
  local name=$1 dir=$2 pattern=$3; shift 3
  local log=$logdir/$name.log start end rc line
  start=$(date +%s.%N)
  (cd "$S/$dir" && timeout 1200 "$cuemu" run $common "$@") >"$log" 2>&1
  rc=$?
  end=$(date +%s.%N)
  line=$(grep -E -m1 "$pattern" "$log" | tr -s ' \t' ' ')
  if [ $rc -eq 0 ] && [ -n "$line" ]; then result=PASS; pass=$((pass + 1)); else result=FAIL; fail=$((fail + 1)); line="exit $rc; $(grep -m1 -E 'error|cuemu:|FAIL' "$log" | cut -c1-100)"; fi
  printf '%-26s %-6s %8.1f  %s\n' "$name" "$result" "$(echo "$end - $start" | bc)" "$line"
}

run vectorAdd                0_Introduction/vectorAdd                  'Test PASSED'        vectorAdd.cu
run matrixMul                0_Introduction/matrixMul                  'Result = PASS'      matrixMul.cu
run transpose                6_Performance/transpose                   'Test passed'        transpose.cu
run reduction                2_Concepts_and_Techniques/reduction       'Test passed'        reduction.cpp reduction_kernel.cu
run reduction-cg             2_Concepts_and_Techniques/reduction       'Test passed'        reduction.cpp reduction_kernel.cu -- --kernel=9 --n=1048576
run shfl_scan                2_Concepts_and_Techniques/shfl_scan       'CheckSum: 2073600'  shfl_scan.cu
run simpleVoteIntrinsics     0_Introduction/simpleVoteIntrinsics       'Shutting down'      simpleVoteIntrinsics.cu
run simpleAtomicIntrinsics   0_Introduction/simpleAtomicIntrinsics     'returned OK'        simpleAtomicIntrinsics.cu simpleAtomicIntrinsics_cpu.cpp
run histogram                2_Concepts_and_Techniques/histogram       'Test passed'        main.cpp histogram64.cu histogram256.cu histogram_gold.cpp
run simpleTemplates          0_Introduction/simpleTemplates            '0 Failures'         simpleTemplates.cu
run simpleCooperativeGroups  0_Introduction/simpleCooperativeGroups    '\.\.\.Done\.'       simpleCooperativeGroups.cu
run simplePrintf             0_Introduction/simplePrintf               'Value is:10'        simplePrintf.cu
run threadFenceReduction     2_Concepts_and_Techniques/threadFenceReduction 'GPU result'   threadFenceReduction.cu
run warpAggregatedAtomicsCG  3_CUDA_Features/warpAggregatedAtomicsCG   'Atomics PASSED'     warpAggregatedAtomicsCG.cu
run fp16ScalarProduct        0_Introduction/fp16ScalarProduct          'fp16ScalarProduct PASSED'  fp16ScalarProduct.cu
run simpleHyperQ             0_Introduction/simpleHyperQ               'Measured time for sample'  simpleHyperQ.cu
run reductionMultiBlockCG    2_Concepts_and_Techniques/reductionMultiBlockCG 'GPU result'  reductionMultiBlockCG.cu
run simpleAWBarrier          0_Introduction/simpleAWBarrier            'Result = PASSED'   simpleAWBarrier.cu
run globalToShmemAsyncCopy   3_CUDA_Features/globalToShmemAsyncCopy    'Result = PASS'     globalToShmemAsyncCopy.cu -- -wA=256 -hA=256 -wB=256 -hB=256
run conjugateGradientMultiBlockCG 4_CUDA_Libraries/conjugateGradientMultiBlockCG 'conjugateGradientMultiBlockCG PASSED' conjugateGradientMultiBlockCG.cu
run asyncAPI                 0_Introduction/asyncAPI                   'while waiting for GPU to finish' asyncAPI.cu
run simpleStreams            0_Introduction/simpleStreams              '4 streams:'        simpleStreams.cu
run simpleCallback           0_Introduction/simpleCallback             '^Success'          simpleCallback.cu multithreading.cpp
run simpleCudaGraphs         3_CUDA_Features/simpleCudaGraphs          'Cloned Graph Output' simpleCudaGraphs.cu
run graphConditionalNodes    3_CUDA_Features/graphConditionalNodes     'simpleSwitchGraph: Complete' graphConditionalNodes.cu
run graphMemoryNodes         3_CUDA_Features/graphMemoryNodes          'Cleanup complete'  graphMemoryNodes.cu
run jacobiCudaGraphs         3_CUDA_Features/jacobiCudaGraphs          'jacobiCudaGraphs PASSED' main.cpp jacobi.cu
run streamOrderedAllocation  2_Concepts_and_Techniques/streamOrderedAllocation 'streamOrderedAllocationPostSync PASSED' streamOrderedAllocation.cu
run StreamPriorities         3_CUDA_Features/StreamPriorities          'HI  priority stream' StreamPriorities.cu
run simpleTexture            0_Introduction/simpleTexture              'simpleTexture completed, returned OK' simpleTexture.cu
run simpleLayeredTexture     0_Introduction/simpleLayeredTexture       'Comparing kernel output' simpleLayeredTexture.cu
run simpleSurfaceWrite       0_Introduction/simpleSurfaceWrite         'simpleSurfaceWrite completed, returned OK' simpleSurfaceWrite.cu
run simpleCubemapTexture     0_Introduction/simpleCubemapTexture       'Comparing kernel output' simpleCubemapTexture.cu
run convolutionTexture       2_Concepts_and_Techniques/convolutionTexture 'Test passed'      convolutionTexture.cu convolutionTexture_gold.cpp main.cpp
run dct8x8                   2_Concepts_and_Techniques/dct8x8          'Test passed'        dct8x8.cu BmpUtil.cpp DCT8x8_Gold.cpp
run stereoDisparity          5_Domain_Specific/stereoDisparity         'CPU Checksum'       stereoDisparity.cu
run HSOpticalFlow            5_Domain_Specific/HSOpticalFlow           'L1 error'           flowCUDA.cu flowGold.cpp main.cpp
run simplePitchLinearTexture 0_Introduction/simplePitchLinearTexture  'completed, returned OK' simplePitchLinearTexture.cu
run MC_EstimatePiInlineP     2_Concepts_and_Techniques/MC_EstimatePiInlineP 'Relative error'  -I inc src/main.cpp src/piestimator.cu src/test.cpp
run MC_SingleAsianOptionP    2_Concepts_and_Techniques/MC_SingleAsianOptionP 'MonteCarloSingleAsianOptionP, Performance' -I inc src/main.cpp src/pricingengine.cu src/test.cpp
run clock                    0_Introduction/clock                      'Average clocks/block' clock.cu
run simpleOccupancy          0_Introduction/simpleOccupancy            'Test PASSED'        simpleOccupancy.cu
run template                 0_Introduction/template                   'Processing time'    template.cu template_cpu.cpp
run inlinePTX                2_Concepts_and_Techniques/inlinePTX       'Test Successful'    inlinePTX.cu
run alignedTypes             6_Performance/alignedTypes                'Test passed'        alignedTypes.cu

echo "passed $pass, failed $fail (logs in $logdir)"
[ $fail -eq 0 ]
