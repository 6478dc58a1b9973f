// Volta's execution model on the emulator, against what an H200 prints for the same programs
// (expected/, recorded with the commands in expected/README.md): threads and blocks that wait for
// each other by spinning, this_grid().sync() of cooperative launches, __activemask() after
// partial warp synchronisation, device clocks; and the livelock report where a GPU spins forever.
#include <gtest/gtest.h>

#include "recorded_programs.h"

#include <string>

namespace {

class Progress : public ::testing::TestWithParam<recorded_case> {};

TEST_P(Progress, PrintsWhatTheGpuPrints) {
  const recorded_case& c = GetParam();
  const cuemu_result r = run_stdout(c.options, c.name);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected(c.name));
}

// Every program with all workers, with one worker (blocks that wait for each other need helper
// threads then), and under the checking modes a CI uses (a report would fail the run).
INSTANTIATE_TEST_SUITE_P(
    Programs, Progress,
    ::testing::Values(recorded_case{"producer_consumer", ""},
                      recorded_case{"producer_consumer", "--workers=1"},
                      recorded_case{"producer_consumer", "--check=memcheck,synccheck"},
                      recorded_case{"spin_lock", ""}, recorded_case{"spin_lock", "--workers=1"},
                      recorded_case{"spin_lock", "--check=racecheck,synccheck"},
                      recorded_case{"spin_lock", "--check=memcheck"},
                      recorded_case{"lookback_scan", ""},
                      recorded_case{"lookback_scan", "--workers=1"},
                      recorded_case{"lookback_scan", "--check=racecheck"},
                      recorded_case{"grid_sync", ""}, recorded_case{"grid_sync", "--workers=1"},
                      recorded_case{"grid_sync", "--check=racecheck,synccheck"},
                      recorded_case{"grid_sync", "--check=memcheck"},
                      recorded_case{"activemask", ""},
                      recorded_case{"activemask", "--check=racecheck,synccheck"},
                      recorded_case{"clock_rate", ""}),
    recorded_case_name);

// A thread spinning on a flag nobody sets: a GPU spins forever; the emulator reports a livelock
// naming the spinning thread and its line, within seconds, and the launch fails.
TEST(Livelock, IsReportedWithTheSpinningLine) {
  const cuemu_result r = run_cuemu("run " + program("livelock.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("cuemu: livelock in kernel spin_forever block (0,0,0) thread (0,0,0)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("thread (0,0,0) spins at "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("livelock.cu:8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("after launch: cudaErrorLaunchFailure"), std::string::npos) << r.out;
  EXPECT_LT(r.seconds, 30) << r.out;
}

// The poll loops of CCCL's look-back scans, waiting for a flag nobody sets. A fence and an
// atomic load in turn (two polls, each reading what it read the round before) ran until
// --timeout before; now a livelock report names the spinning line, like the single poll above.
// A warp that votes with __any_sync every round still runs until --timeout (its lanes take turns
// at every vote, and a lane's poll counts restart when another lane polls: keeping them per lane
// cost the coroutine path 10-20%, RESULTS V); the timeout names it.
// A leader lane that polls and broadcasts with __shfl_sync each round: the shuffle completes
// every round with the same result, which counted as progress before (the same --timeout).
class LivelockLoops : public ::testing::TestWithParam<const char*> {};
INSTANTIATE_TEST_SUITE_P(Livelock, LivelockLoops, ::testing::Values("fence", "broadcast"));
TEST_P(LivelockLoops, IsReportedNotTimedOut) {
  const bool fence = std::string(GetParam()) == "fence";
  const std::string kernel = fence ? "fence_and_load" : "leader_broadcast";
  const std::string line = fence ? "livelock_in_turn.cu:22" : "livelock_in_turn.cu:29";
  for (const char* options : {"", "--exec=fibers --schedule=random:3", "--workers=1"}) {
    const cuemu_result r = run_cuemu("run --timeout=60 " + std::string(options) + " " +
                                     program("livelock_in_turn.cu") + " -- " + GetParam());
    EXPECT_NE(r.status, 0) << options << "\n" << r.out;
    EXPECT_NE(r.out.find("cuemu: livelock in kernel " + kernel + " block ("), std::string::npos)
        << options << "\n" << r.out;
    EXPECT_NE(r.out.find(line), std::string::npos) << options << "\n" << r.out;
    EXPECT_NE(r.out.find("after launch: cudaErrorLaunchFailure"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("timeout"), std::string::npos) << options << "\n" << r.out;
    EXPECT_LT(r.seconds, 30) << options << "\n" << r.out;
  }
}

TEST(Livelock, WarpVotingInItsPollLoopEndsAtTheTimeout) {
  const cuemu_result r =
      run_cuemu("run --timeout=3 " + program("livelock_in_turn.cu") + " -- vote");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("cuemu: timeout in kernel warp_vote block ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("livelock_in_turn.cu:1"), std::string::npos) << r.out;
}

// More blocks than an H200 keeps resident, each waiting for the last block's flag: the first 264
// blocks (132 multiprocessors x 2 blocks of 1024 threads) spin while the last cannot start. A GPU
// hangs; the emulator reports a livelock naming a spinning thread and its line, the blocks in
// flight, and the block that cannot start, and the launch fails. With one worker, helper threads
// alone start the blocks past the first; with several, blocks stall at once on different workers
// and each asks for a helper (this once started a 265th block in 1 run of 11).
class LivelockWorkers : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Livelock, LivelockWorkers, ::testing::Values(1, 2, 4, 8));
TEST_P(LivelockWorkers, WaitOnABlockThatCannotBeResidentIsReported) {
  const cuemu_result r = run_cuemu("run --workers=" + std::to_string(GetParam()) + " " +
                                   program("nonresident_wait.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("resident: 132 x 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cuemu: livelock in kernel wait_for_last block ("), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("nonresident_wait.cu:9"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(264 blocks of the grid are in flight, all of them spinning)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("1 blocks of the grid have not started: an H200 keeps at most 264 blocks "
                       "of this kernel resident at once"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("cudaErrorLaunchFailure"), std::string::npos) << r.out;
  EXPECT_LT(r.seconds, 60) << r.out;
}

// The volatile variant with its flag in shared memory is racy by CUDA's rules (a volatile store
// is not a release); compute-sanitizer's racecheck reports hazards in this program on an H200
// too. racecheck names the flag's store and the spinning load; the atomic and cuda::atomic_ref
// variants (release/acquire) are not reported.
TEST(Racecheck, VolatileFlagInSharedMemoryIsARace) {
  const cuemu_result r = run_cuemu("run --check=racecheck " + program("producer_consumer.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("data race in kernel variant_volatile<false>"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("producer_consumer.cu:89"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("producer_consumer.cu:92"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("in kernel variant_atomic"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("in kernel across_blocks"), std::string::npos) << r.out;
}

// The preemption timer counts a worker's CPU time: the launching thread, asleep in host code
// after its launches, is never signalled (a signal would end usleep/nanosleep early).
TEST(Preemption, HostSleepsAreNotCutShort) {
  const cuemu_result r = run_cuemu("run " + program("host_sleep.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "usleep ok, nanosleep ok, slept the whole time\n");
}

}  // namespace
