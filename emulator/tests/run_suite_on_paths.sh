#!/bin/sh
# The whole test suite on each execution path and schedule (issue 16's differential testing): the
# suite's tests compare every program's output with expectations that do not depend on the path
# (the GPU's records, CPU references), so a variant that passes prints what the default does.
# ctest runs the default (loops where a kernel allows them, the forward schedule); this runs it
# again with the environment of each variant:
#   emulator/tests/run_suite_on_paths.sh [build dir] [variant ...]
# Variants: fibers (every kernel on coroutines), random (loops, a random schedule), fibers_random,
# reverse. Default: fibers random fibers_random. About 12 minutes each on 2 cores. Prints ctest's
# summary per variant and exits 1 when one failed (its log is kept in the build dir).
set -u
BUILD=${1:-build}
[ $# -gt 0 ] && shift
VARIANTS=${*:-fibers random fibers_random}
if [ ! -f "$BUILD/CTestTestfile.cmake" ]; then
  echo "run_suite_on_paths.sh: $BUILD is not a configured build directory (cmake -B $BUILD)" >&2
  exit 2
fi
# Under another schedule these tests expect what the forward order gives, by design: a report
# naming the first thread to fault, arrive or race (another thread comes first), printf lines of
# several threads in the GPU's order, and a livelock that needs the grid's last block to start
# last. Left out of the schedule variants (random:7 on 2 cores failed exactly these 18).
SCHEDULE_DEPENDENT='^Livelock/LivelockWorkers|^Driver\.(IntegerDivisionByZeroIsTheGpusOrAReport|InvalidMemoryAccessNamesTheLine|StackOverflowNamesStackSize)$|^Zoo\.(DynamicSharedOverflow|UseAfterFree|MissingSyncthreads|RaceBetweenBlocks|MisalignedUint4|StackOverflow)$|^fibers\.exec_faults_test$|^Faults\.MaskWithoutTheCallingLane$|printf_order'
jobs=$(nproc 2>/dev/null || echo 2)
st=0
for v in $VARIANTS; do
  exclude=$SCHEDULE_DEPENDENT
  case $v in
    fibers) env="CUEMU_EXEC=fibers"; exclude='^$' ;;
    random) env="CUEMU_EXEC=loops CUEMU_SCHEDULE=random:7" ;;
    fibers_random) env="CUEMU_EXEC=fibers CUEMU_SCHEDULE=random:7" ;;
    reverse) env="CUEMU_SCHEDULE=reverse" ;;
    *) echo "run_suite_on_paths.sh: unknown variant '$v' (fibers, random, fibers_random, reverse)" >&2
       exit 2 ;;
  esac
  log="$BUILD/suite_$v.log"
  echo "== $v: $env"
  # shellcheck disable=SC2086
  (cd "$BUILD" && env $env ctest -j"$jobs" --timeout 900 -E "$exclude") > "$log" 2>&1 || st=1
  grep -E "tests passed|tests failed|Total Test time" "$log"
  grep -E "\*\*\*Failed|\(Timeout\)|Not Run" "$log" | sed 's/^/  /'
done
exit $st
