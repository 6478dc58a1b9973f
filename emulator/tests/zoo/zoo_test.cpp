// Each planted bug is reported by the mode that must catch it, with the report's header line
// naming the right kernel, block, thread and source line, and a non-zero exit status.
#include <gtest/gtest.h>

#include "run_cuemu.h"

#include <chrono>
#include <cstdio>
#include <cctype>
#include <sstream>
#include <string>

namespace {

using result = cuemu_result;
result cuemu(const std::string& args) { return run_cuemu(args); }

struct bug {
  const char* program;  // in the zoo, or "programs/..." for the driver's programs
  const char* mode;     // --check=..., or "" for the always-on checks
  const char* header;   // the report's first line up to " at "
  int line;             // the source line the report must name
};

std::string path_of(const char* program) {
  const std::string p(program);
  if (p.rfind("programs/", 0) == 0) return std::string(PROGRAMS_DIR) + "/" + p.substr(9);
  return std::string(ZOO_DIR) + "/" + p;
}

void expect_caught(const bug& b) {
  const std::string opts = *b.mode ? std::string("--check=") + b.mode + " " : std::string("--timeout=2 ");
  const result r = cuemu("run " + opts + path_of(b.program));
  EXPECT_NE(r.status, 0) << r.out;
  const std::string header = std::string("cuemu: ") + b.header + " at ";
  const std::size_t at = r.out.find(header);
  ASSERT_NE(at, std::string::npos) << "expected '" << header << "' in:\n" << r.out;
  const std::size_t eol = r.out.find('\n', at);
  const std::string line = r.out.substr(at, eol - at);
  const std::string file = std::string(b.program).substr(std::string(b.program).rfind('/') + 1);
  EXPECT_NE(line.find(file + ":" + std::to_string(b.line)), std::string::npos)
      << "expected " << file << ":" << b.line << " in the header line: " << line;
  std::printf("[ zoo ] %-28s %-10s %6.2fs  %s\n", b.program, *b.mode ? b.mode : "(always)",
              r.seconds, line.c_str());
}

}  // namespace

TEST(Zoo, OutOfBoundsGlobalWrite) {
  expect_caught({"oob_global_write.cu", "memcheck", "out-of-bounds access in kernel fill block (0,0,0) thread (100,0,0)", 7});
}
TEST(Zoo, OutOfBoundsGlobalRead) {
  expect_caught({"oob_global_read.cu", "memcheck", "out-of-bounds access in kernel diff block (0,0,0) thread (0,0,0)", 7});
}
TEST(Zoo, SharedOverflowIntoNeighbour) {
  expect_caught({"shared_overflow.cu", "memcheck", "out-of-bounds access in kernel tiles block (0,0,0) thread (31,0,0)", 11});
}
TEST(Zoo, DynamicSharedOverflow) {
  expect_caught({"dynamic_shared_overflow.cu", "memcheck", "out-of-bounds access in kernel stage block (0,0,0) thread (32,0,0)", 7});
}
TEST(Zoo, MisalignedUint4) {
  expect_caught({"misaligned_uint4.cu", "memcheck", "misaligned address in kernel copy16 block (0,0,0) thread (0,0,0)", 7});
}
TEST(Zoo, UseAfterFree) {
  expect_caught({"use_after_free.cu", "memcheck", "use after free in kernel scale block (0,0,0) thread (0,0,0)", 5});
}
TEST(Zoo, MissingSyncthreads) {
  expect_caught({"missing_syncthreads.cu", "racecheck", "data race in kernel rotate block (0,0,0) thread (1,0,0)", 7});
}
TEST(Zoo, RaceBetweenBlocks) {
  // One worker: blocks run in order, so block 1 is the one whose write meets block 0's.
  expect_caught({"race_between_blocks.cu", "racecheck --workers=1", "data race in kernel count block (1,0,0) thread (0,0,0)", 6});
}
TEST(Zoo, DivergentBarrier) {
  expect_caught({"divergent_barrier.cu", "synccheck", "barrier divergence in kernel split block (0,0,0) thread (32,0,0)", 11});
}
TEST(Zoo, WrongShuffleMask) {
  expect_caught({"wrong_shuffle_mask.cu", "synccheck", "invalid warp synchronization in kernel half_sum block (0,0,0) thread (0,0,0)", 8});
}
TEST(Zoo, Deadlock) {
  expect_caught({"programs/deadlock.cu", "", "deadlock in kernel half_barrier block (0,0,0) thread (32,0,0)", 9});
}
TEST(Zoo, StackOverflow) {
  expect_caught({"programs/stack_overflow.cu", "", "stack overflow in kernel recurse block (0,0,0) thread (0,0,0)", 6});
}
TEST(Zoo, RunawayLoop) {
  expect_caught({"programs/runaway.cu", "", "timeout in kernel spin block (0,0,0) thread (3,0,0)", 6});
}

TEST(Zoo, CorrectProgramsGiveNoReportUnderEveryMode) {
  for (const char* program : {"correct_reduction.cu", "programs/hello.cu"}) {
    const result r = cuemu(std::string("run --check=all ") + path_of(program));
    EXPECT_EQ(r.status, 0) << program << "\n" << r.out;
    EXPECT_EQ(r.out.find("cuemu: ") == std::string::npos ||
                  r.out.find("cuemu: running the") != std::string::npos,
              true)
        << r.out;
    std::size_t pos = 0;
    while ((pos = r.out.find("cuemu: ", pos)) != std::string::npos) {
      const bool progress = r.out.compare(pos, 19, "cuemu: running the ") == 0;
      const bool summary = r.out.compare(pos, 25, "cuemu: checking summary: ") == 0;
      EXPECT_TRUE(progress || summary) << "unexpected report:\n" << r.out;
      ++pos;
    }
    EXPECT_NE(r.out.find("cuemu: checking summary: memcheck+synccheck: clean, racecheck+streams+synccheck: clean\n"),
              std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("Sanitizer"), std::string::npos) << r.out;
  }
}

TEST(Zoo, OrderDependenceFoundByComparingSchedules) {
  const result r = cuemu("run --compare-schedules=3 " + path_of("order_dependent.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("cuemu: output differs between --schedule=forward and --schedule=reverse"),
            std::string::npos) << r.out;
  // 32 threads write their id; forward order leaves the last lane's, reverse the first's.
  EXPECT_NE(r.out.find("forward: winner 31"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reverse: winner 0"), std::string::npos) << r.out;
}

TEST(Zoo, CorrectProgramIsTheSameUnderEverySchedule) {
  const result r = cuemu("run --compare-schedules=5 " + path_of("correct_reduction.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("cuemu: 5 schedules (forward, reverse, random:1..) gave identical output"),
            std::string::npos) << r.out;
}

// --- the checking gate (a CI runs these mode combinations) ---

// A race in a 256-thread tree reduction (and 512, 1024): ThreadSanitizer's 256 thread slots once
// hid it; the detector has no limit on CUDA threads.
TEST(Zoo, TreeReductionWithoutLoopBarrierAnyBlockSize) {
  for (int threads : {64, 255, 256, 257, 512, 1024}) {
    const result r = cuemu("run --check=racecheck -DTHREADS=" + std::to_string(threads) + " " +
                           path_of("tree_reduction_no_loop_barrier.cu"));
    EXPECT_NE(r.status, 0) << threads << "\n" << r.out;
    EXPECT_NE(r.out.find("cuemu: data race in kernel tree_sum block ("), std::string::npos)
        << threads << " threads per block:\n" << r.out;
    EXPECT_NE(r.out.find("tree_reduction_no_loop_barrier.cu:17"), std::string::npos) << r.out;
  }
}

// The reports of a race inside each block read the same at any worker count: each names the
// first thread of the grid (in block and thread order) that met it, not the first a worker ran.
// (Addresses aside: each worker has its own shared memory.)
TEST(Zoo, RaceReportsAreTheSameAtAnyWorkerCount) {
  auto reports = [](const std::string& out) {
    std::string lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("cuemu: ", 0) != 0 && line.rfind("  ", 0) != 0) continue;
      for (std::size_t at; (at = line.find("0x")) != std::string::npos;) {
        std::size_t end = at + 2;
        while (end < line.size() && std::isxdigit(static_cast<unsigned char>(line[end]))) ++end;
        line.replace(at, end - at, "ADDR");
      }
      lines += line + "\n";
    }
    return lines;
  };
  const std::string program = " -DTHREADS=256 " + path_of("tree_reduction_no_loop_barrier.cu");
  const result one = cuemu("run --check=racecheck --workers=1" + program);
  ASSERT_NE(one.status, 0) << one.out;
  const std::string want = reports(one.out);
  ASSERT_NE(want.find("cuemu: data race in kernel tree_sum block (0,0,0) thread ("), std::string::npos) << one.out;
  for (const char* workers : {"2", "4"})
    for (int run = 0; run < 3; ++run) {
      const result r = cuemu(std::string("run --check=racecheck --workers=") + workers + program);
      EXPECT_NE(r.status, 0) << r.out;
      EXPECT_EQ(reports(r.out), want) << workers << " workers, run " << run;
    }
}

// Blocks of one launch are unordered whichever worker runs them: the same verdict every run.
TEST(Zoo, RaceBetweenBlocksEveryRunAnyWorkers) {
  for (const char* workers : {"1", "2", "4"})
    for (int run = 0; run < 4; ++run) {
      const result r = cuemu(std::string("run --check=racecheck --schedule=random:") +
                             std::to_string(run + 1) + " --workers=" + workers + " " +
                             path_of("race_between_blocks.cu"));
      EXPECT_NE(r.status, 0) << workers << " workers, run " << run << "\n" << r.out;
      EXPECT_NE(r.out.find("cuemu: data race in kernel count block ("), std::string::npos)
          << workers << " workers, run " << run << "\n" << r.out;
      EXPECT_NE(r.out.find("race_between_blocks.cu:6"), std::string::npos) << r.out;
    }
}

// A plain read racing only with atomics (the Programming Guide's atomicCAS loop) is no race.
TEST(Zoo, CompareAndSwapLoopIsNotARace) {
  for (const char* mode : {"racecheck", "all"}) {
    const result r = cuemu(std::string("run --check=") + mode + " " + path_of("cas_loop.cu"));
    EXPECT_EQ(r.status, 0) << mode << "\n" << r.out;
    EXPECT_EQ(r.out.find("data race"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("max 1998 (expected 1998)"), std::string::npos) << r.out;
  }
}

// threadFenceReduction's last block over many launches and workers: a fenced atomicInc whose
// compare-and-swap fails at first still orders the other blocks' partials before the last
// block's reads (the checker once lost the fence on a retry, and reported a race on a few runs
// in a hundred; with four workers the old checker reported it on nearly every run).
TEST(Zoo, LastBlockReductionIsNotARaceOnAnyWorker) {
  for (const char* workers : {"2", "4"})
    for (int run = 0; run < 2; ++run) {
      const result r = cuemu(std::string("run --check=racecheck --workers=") + workers + " " +
                             path_of("last_block_of_many.cu"));
      EXPECT_EQ(r.status, 0) << workers << " workers\n" << r.out;
      EXPECT_EQ(r.out.find("data race"), std::string::npos) << workers << " workers\n" << r.out;
      EXPECT_NE(r.out.find("2000 launches of 64 blocks, 0 wrong totals"), std::string::npos) << r.out;
    }
}

// A plain read racing with atomics whose value is used without an atomic of the reader's own
// (not the compare-and-swap idiom): reported, under every schedule.
TEST(Zoo, PlainReadOfAWordOthersStillUpdateAtomically) {
  for (const char* sched : {"forward", "reverse", "random:3"}) {
    const result r = cuemu(std::string("run --check=racecheck --schedule=") + sched + " " +
                           path_of("read_before_atomics_done.cu"));
    EXPECT_NE(r.status, 0) << sched << "\n" << r.out;
    EXPECT_NE(r.out.find("cuemu: data race in kernel count_then_read block (0,0,0) thread ("),
              std::string::npos) << sched << "\n" << r.out;
    EXPECT_NE(r.out.find("read_before_atomics_done.cu:13"), std::string::npos) << r.out;
  }
}

// Every mode compiles what the plain build compiles: C++20 kernels.
TEST(Zoo, Cpp20UnderEveryMode) {
  for (const char* mode : {"none", "memcheck", "racecheck", "synccheck", "all"}) {
    const result r = cuemu(std::string("run -std=c++20 --check=") + mode + " " + path_of("cpp20_kernels.cu"));
    EXPECT_EQ(r.status, 0) << mode << "\n" << r.out;
    EXPECT_NE(r.out.find("block sums correct"), std::string::npos) << mode << "\n" << r.out;
    EXPECT_EQ(r.out.find("cuemu: data race"), std::string::npos) << r.out;
  }
}

// Any list of modes: non-zero when any mode reported, every mode's report printed, and a
// summary naming which mode found it.
TEST(Zoo, EveryModeCombinationFailsOnAnyModesFinding) {
  struct planted {
    const char* program;
    const char* finder;  // the mode that reports it
    const char* report;
  };
  const planted bugs[] = {
      {"oob_global_write.cu", "memcheck", "cuemu: out-of-bounds access in kernel fill"},
      {"misaligned_uint4.cu", "memcheck", "cuemu: misaligned address in kernel copy16"},
      {"missing_syncthreads.cu", "racecheck", "cuemu: data race in kernel rotate"},
      {"race_between_blocks.cu", "racecheck", "cuemu: data race in kernel count"},
      {"divergent_barrier.cu", "synccheck", "cuemu: barrier divergence in kernel split"},
  };
  const char* combos[] = {"all", "memcheck,racecheck", "racecheck,memcheck",
                          "memcheck,racecheck,synccheck", "memcheck,synccheck",
                          "racecheck,synccheck", "memcheck", "racecheck", "synccheck"};
  for (const planted& b : bugs) {
    for (const char* combo : combos) {
      const std::string c = combo;
      const bool covered = c == "all" || c.find(b.finder) != std::string::npos;
      const result r = cuemu("run --check=" + c + " " + path_of(b.program));
      if (covered) {
        EXPECT_NE(r.status, 0) << b.program << " --check=" << c << "\n" << r.out;
        EXPECT_NE(r.out.find(b.report), std::string::npos) << b.program << " --check=" << c << "\n" << r.out;
        if (c.find(',') != std::string::npos || c == "all") {  // a summary for several modes
          EXPECT_NE(r.out.find("cuemu: checking summary: "), std::string::npos) << r.out;
          EXPECT_NE(r.out.find("(the run fails)"), std::string::npos) << r.out;
        }
      }
      std::printf("[ gate ] %-24s --check=%-30s exit %d\n", b.program, combo, r.status);
    }
  }
}

// The sanitizer's own report (the emulator's frames) only with -v; cuemu's report always.
TEST(Zoo, SanitizerReportOnlyWhenVerbose) {
  const result quiet = cuemu("run --check=memcheck " + path_of("oob_global_write.cu"));
  EXPECT_NE(quiet.status, 0);
  EXPECT_NE(quiet.out.find("cuemu: out-of-bounds access in kernel fill"), std::string::npos) << quiet.out;
  EXPECT_EQ(quiet.out.find("AddressSanitizer"), std::string::npos) << quiet.out;
  EXPECT_EQ(quiet.out.find("__invoke_impl"), std::string::npos) << quiet.out;
  EXPECT_EQ(quiet.out.find("===="), std::string::npos) << quiet.out;
  const result verbose = cuemu("run -v --check=memcheck " + path_of("oob_global_write.cu"));
  EXPECT_NE(verbose.status, 0);
  EXPECT_NE(verbose.out.find("ERROR: AddressSanitizer"), std::string::npos) << verbose.out;
}
