// Self-check of the vocabulary-parallel embedding lookup through the host launcher.
//   nvcc -std=c++17 -O2 -arch=sm_90 -I kernels selfcheck/embedding_check.cu kernels/launchers.cu
//   cuemu run selfcheck/embedding_check.cu kernels/launchers.cu -I kernels
// out[t] = weight[ids[t] - start] for ids in [start, start + length), else a row of zeros.
// Output buffers start filled with random bytes so that written zero rows are visible, and the
// gaps between strided output rows must stay untouched.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "launchers.h"
#include "selfcheck_common.h"

using kernels::CopyPath;
using kernels::EmbeddingArgs;
using kernels::IndexType;
using kernels::LaunchPlan;
using kernels::Status;
using selfcheck::Case;
using selfcheck::DeviceBuffer;

namespace {

enum class Ids { kInVocab, kWide };

struct EmbSpec {
  std::string name;
  int64_t n = 0;
  int64_t vocab = 0;           // ids drawn from [0, vocab) (kInVocab) or around it (kWide)
  int64_t start = 0;           // the shard [start, start + length)
  int64_t length = 0;
  int64_t row_bytes = 0;
  int64_t element_size = 2;
  int64_t out_stride = 0;      // bytes; 0 means row_bytes
  int64_t weight_stride = 0;   // bytes; 0 means row_bytes
  int64_t out_offset = 0;      // bytes added to the base pointers (alignment cases)
  int64_t weight_offset = 0;
  bool tight = false;          // buffers end at their last row's last byte, no guard zones
  bool int64 = false;
  Ids ids = Ids::kInVocab;
  int64_t max_blocks = 0;
  CopyPath path = CopyPath::kUint4;
  int splits = 1;
  int64_t blocks = -1;  // expected grid size, -1: selfcheck::expected_blocks()
};

struct EmbSetup {
  std::unique_ptr<DeviceBuffer> out, weight, ids;
  std::vector<int64_t> id_values;
};

void normalise(EmbSpec& s) {
  if (s.out_stride == 0) s.out_stride = s.row_bytes;
  if (s.weight_stride == 0) s.weight_stride = s.row_bytes;
  if (s.blocks < 0) {
    // Chunks per lane (kernels/launchers.cu): 4 on the uint4 path; on the chunked paths 2 when
    // every weight row is as far off a 16-byte boundary as its output row (buffers start 16-byte
    // aligned, so: the offsets and strides), 8 when the kernel realigns.
    const bool realign = (s.weight_offset - s.out_offset) % 16 != 0 || s.out_stride % 16 != 0 ||
                         s.weight_stride % 16 != 0;
    const int64_t unroll = s.path == CopyPath::kUint4 ? 4 : realign ? 8 : 2;
    s.blocks = selfcheck::expected_blocks(s.n, s.row_bytes, s.splits, unroll);
  }
}

std::vector<int64_t> make_ids(const EmbSpec& s, selfcheck::SplitMix64& rng) {
  std::vector<int64_t> ids(static_cast<size_t>(s.n));
  for (auto& id : ids) {
    if (s.ids == Ids::kInVocab) {
      id = static_cast<int64_t>(rng.below(static_cast<uint64_t>(s.vocab)));
    } else {
      id = static_cast<int64_t>(rng.below(static_cast<uint64_t>(3 * s.vocab))) - s.vocab;
    }
  }
  if (s.ids == Ids::kWide) {
    // The edges of the shard and values whose low 32 bits would fall inside it.
    std::vector<int64_t> edge = {-1,
                                 0,
                                 s.start - 1,
                                 s.start,
                                 s.start + s.length - 1,
                                 s.start + s.length,
                                 std::numeric_limits<int32_t>::min(),
                                 std::numeric_limits<int32_t>::max(),
                                 std::numeric_limits<int32_t>::min() + s.start};
    if (s.int64) {
      const std::vector<int64_t> more = {std::numeric_limits<int64_t>::min(),
                                         std::numeric_limits<int64_t>::max(),
                                         (int64_t{1} << 32) + s.start,
                                         -(int64_t{1} << 32) + s.start + 1,
                                         std::numeric_limits<int64_t>::min() + s.start};
      edge.insert(edge.end(), more.begin(), more.end());
    }
    for (size_t j = 0; j < edge.size() && j < ids.size(); ++j)
      ids[(j * 7919) % ids.size()] = edge[j];
  }
  return ids;
}

void build(const EmbSpec& s, EmbSetup& st) {
  selfcheck::SplitMix64 rng(selfcheck::seed_of(s.name));
  // A tight buffer ends with its last row (no padding after it, no guard zone).
  auto bytes_for = [&](int64_t offset, int64_t rows, int64_t stride) {
    if (!s.tight || rows == 0) return static_cast<size_t>(offset + rows * stride);
    return static_cast<size_t>(offset + (rows - 1) * stride + s.row_bytes);
  };
  st.out.reset(new DeviceBuffer("out", bytes_for(s.out_offset, s.n, s.out_stride),
                                static_cast<size_t>(s.out_stride), true, s.tight));
  st.weight.reset(new DeviceBuffer("weight",
                                   bytes_for(s.weight_offset, s.length, s.weight_stride),
                                   static_cast<size_t>(s.weight_stride), false, s.tight));
  rng.fill(st.out->init.data(), st.out->init.size());
  rng.fill(st.weight->init.data(), st.weight->init.size());
  st.id_values = make_ids(s, rng);
  st.ids.reset(new DeviceBuffer("ids", 0, static_cast<size_t>(s.int64 ? 8 : 4), false));
  selfcheck::store_indices(st.ids->init, st.id_values, s.int64);
}

// The CPU reference for `out`. An int32 id is sign-extended, as the kernel's Index type says.
std::vector<uint8_t> reference(const EmbSpec& s, const EmbSetup& st) {
  std::vector<uint8_t> out = st.out->init;
  selfcheck::Stopwatch watch(selfcheck::reference_ms());
  for (int64_t t = 0; t < s.n; ++t) {
    int64_t id = st.id_values[static_cast<size_t>(t)];
    if (!s.int64) id = static_cast<int32_t>(id);
    uint8_t* dst = &out[static_cast<size_t>(s.out_offset + t * s.out_stride)];
    if (id >= s.start && id < s.start + s.length) {
      std::memcpy(dst,
                  &st.weight->init[static_cast<size_t>(s.weight_offset +
                                                       (id - s.start) * s.weight_stride)],
                  static_cast<size_t>(s.row_bytes));
    } else {
      std::memset(dst, 0, static_cast<size_t>(s.row_bytes));
    }
  }
  return out;
}

EmbeddingArgs make_args(const EmbSpec& s, const EmbSetup& st) {
  EmbeddingArgs a;
  a.out = st.out->dev() + s.out_offset;
  a.weight = st.weight->dev() + s.weight_offset;
  a.ids = st.ids->dev();
  a.n = s.n;
  a.row_bytes = s.row_bytes;
  a.element_size = s.element_size;
  a.start = s.start;
  a.length = s.length;
  a.out_stride_bytes = s.out_stride;
  a.weight_stride_bytes = s.weight_stride;
  a.index_type = s.int64 ? IndexType::kInt64 : IndexType::kInt32;
  a.max_blocks = s.max_blocks;
  return a;
}

bool upload_all(Case& c, EmbSetup& st) {
  return st.out->upload(c) && st.weight->upload(c) && st.ids->upload(c);
}

void finish_buffers(Case& c, EmbSetup& st, const std::vector<uint8_t>& out_expected) {
  if (!c.cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize")) return;
  if (!st.out->download(c) || !st.weight->download(c) || !st.ids->download(c)) return;
  st.out->compare(c, out_expected);
  st.weight->compare(c, st.weight->init);
  st.ids->compare(c, st.ids->init);
  st.out->record_digest(c);
}

Case run_embedding(EmbSpec s) {
  normalise(s);
  Case c("embedding/" + s.name);
  EmbSetup st;
  build(s, st);
  if (!upload_all(c, st)) return c;
  const EmbeddingArgs a = make_args(s, st);
  LaunchPlan planned;
  const Status ps = kernels::plan_embedding(a, &planned);
  LaunchPlan p;
  const Status ls =
      selfcheck::timed(selfcheck::kernel_ms(), [&] { return kernels::launch_embedding(a, nullptr, &p); });
  char note[256];
  std::snprintf(note, sizeof note, "plan %s path=%s splits=%d blocks=%lld threads=%d",
                c.name.c_str(), kernels::copy_path_name(p.path), p.num_splits,
                static_cast<long long>(p.blocks), p.threads);
  c.notes.push_back(note);
  if (ps != Status::kOk || ls != Status::kOk) {
    c.fail(std::string("launcher returned '") + kernels::status_message(ls) + "' (plan: '" +
           kernels::status_message(ps) + "')");
  }
  if (ls == Status::kCudaError) c.cuda(p.cuda_error, "launch");
  const CopyPath want_path = s.n > 0 ? s.path : CopyPath::kNone;
  const int want_splits = s.n > 0 ? s.splits : 0;
  if (p.path != want_path || p.num_splits != want_splits || p.blocks != s.blocks) {
    char msg[256];
    std::snprintf(msg, sizeof msg, "launcher chose path %s splits %d blocks %lld, expected %s %d %lld",
                  kernels::copy_path_name(p.path), p.num_splits, static_cast<long long>(p.blocks),
                  kernels::copy_path_name(want_path), want_splits,
                  static_cast<long long>(s.blocks));
    c.fail(msg);
  }
  if (planned.path != p.path || planned.num_splits != p.num_splits || planned.blocks != p.blocks)
    c.fail("plan_embedding and launch_embedding disagree");
  finish_buffers(c, st, reference(s, st));
  return c;
}

struct BadCase {
  const char* name;
  Status want;
  void (*mutate)(EmbeddingArgs&);
};

Case run_invalid(const BadCase& bad) {
  EmbSpec s;
  s.name = std::string("invalid/") + bad.name;
  s.n = 8;
  s.vocab = 64;
  s.start = 16;
  s.length = 32;
  s.row_bytes = 64;
  normalise(s);
  Case c("embedding/" + s.name);
  EmbSetup st;
  build(s, st);
  if (!upload_all(c, st)) return c;
  EmbeddingArgs a = make_args(s, st);
  bad.mutate(a);
  LaunchPlan p;
  p.path = CopyPath::kUint4;  // must be reset by the launcher
  p.blocks = 99;
  const Status got = kernels::launch_embedding(a, nullptr, &p);
  if (got != bad.want) {
    c.fail(std::string("expected status '") + kernels::status_message(bad.want) + "', got '" +
           kernels::status_message(got) + "'");
  } else {
    c.notes.push_back("status " + c.name + " " + kernels::status_message(got));
  }
  if (p.path != CopyPath::kNone || p.blocks != 0) c.fail("launcher planned a launch anyway");
  if (!c.cuda(cudaGetLastError(), "cudaGetLastError after a rejected launch")) return c;
  finish_buffers(c, st, st.out->init);
  return c;
}

const BadCase kBadCases[] = {
    {"null_out", Status::kNullPointer, [](EmbeddingArgs& a) { a.out = nullptr; }},
    {"null_ids", Status::kNullPointer, [](EmbeddingArgs& a) { a.ids = nullptr; }},
    {"null_weight", Status::kNullPointer, [](EmbeddingArgs& a) { a.weight = nullptr; }},
    {"negative_n", Status::kNegativeCount, [](EmbeddingArgs& a) { a.n = -5; }},
    {"row_not_multiple_of_element", Status::kBadRowBytes,
     [](EmbeddingArgs& a) { a.element_size = 8; a.row_bytes = 60; }},
    {"row_negative", Status::kBadRowBytes, [](EmbeddingArgs& a) { a.row_bytes = -64; }},
    {"element_size_16", Status::kBadElementSize, [](EmbeddingArgs& a) { a.element_size = 16; }},
    {"out_stride_below_row", Status::kBadStride,
     [](EmbeddingArgs& a) { a.out_stride_bytes = 48; }},
    {"weight_stride_below_row", Status::kBadStride,
     [](EmbeddingArgs& a) { a.weight_stride_bytes = 0; }},
    {"bad_index_type", Status::kBadIndexType,
     [](EmbeddingArgs& a) { a.index_type = static_cast<IndexType>(-1); }},
    {"negative_start", Status::kBadShard, [](EmbeddingArgs& a) { a.start = -1; }},
    {"negative_length", Status::kBadShard, [](EmbeddingArgs& a) { a.length = -1; }},
    {"shard_end_overflows", Status::kBadShard,
     [](EmbeddingArgs& a) { a.start = std::numeric_limits<int64_t>::max(); a.length = 1; }},
    {"odd_out_pointer", Status::kMisaligned,
     [](EmbeddingArgs& a) { a.out = static_cast<uint8_t*>(a.out) + 1; }},
    {"misaligned_int64_ids", Status::kMisaligned,
     [](EmbeddingArgs& a) {
       a.index_type = IndexType::kInt64;
       a.ids = static_cast<const uint8_t*>(a.ids) + 4;
     }},
    {"weight_too_large", Status::kTooLarge,
     [](EmbeddingArgs& a) { a.length = int64_t{1} << 60; }},
    {"negative_max_blocks", Status::kBadMaxBlocks, [](EmbeddingArgs& a) { a.max_blocks = -3; }},
};

// Valid degenerate calls: nothing to launch.
Case run_n0_null() {
  Case c("embedding/n0_null_pointers");
  EmbeddingArgs a;
  a.row_bytes = 128;
  a.out_stride_bytes = a.weight_stride_bytes = 128;
  a.length = 10;
  LaunchPlan p;
  const Status s = kernels::launch_embedding(a, nullptr, &p);
  if (s != Status::kOk) c.fail(std::string("expected ok, got '") + kernels::status_message(s) + "'");
  if (p.blocks != 0 || p.path != CopyPath::kNone) c.fail("launcher planned a launch for n == 0");
  c.cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  return c;
}

std::vector<EmbSpec> specs() {
  std::vector<EmbSpec> v;
  auto add = [&](const EmbSpec& s) { v.push_back(s); };
  EmbSpec s;
  // The full vocabulary on one rank, then a shard of it (bf16 rows of 64, moved as uint4).
  s = {}; s.name = "full_vocab"; s.n = 23; s.vocab = 1000; s.start = 0; s.length = 1000;
  s.row_bytes = 128; add(s);
  s = {}; s.name = "shard"; s.n = 41; s.vocab = 1000; s.start = 500; s.length = 250;
  s.row_bytes = 128; add(s);
  // Ids outside the shard: negative, past the end, extremes of int32 and int64.
  s = {}; s.name = "ids_outside_shard_int32"; s.n = 64; s.vocab = 1000; s.start = 500;
  s.length = 250; s.row_bytes = 128; s.ids = Ids::kWide; add(s);
  s = {}; s.name = "ids_outside_shard_int64"; s.n = 64; s.vocab = 1000; s.start = 500;
  s.length = 250; s.row_bytes = 128; s.ids = Ids::kWide; s.int64 = true; add(s);
  s = {}; s.name = "full_vocab_int64"; s.n = 30; s.vocab = 300; s.start = 0; s.length = 300;
  s.row_bytes = 96; s.int64 = true; add(s);
  s = {}; s.name = "empty_shard"; s.n = 12; s.vocab = 100; s.start = 40; s.length = 0;
  s.row_bytes = 64; add(s);
  // The copy paths, chosen by the launcher from sizes, pointers and strides.
  s = {}; s.name = "uint32"; s.n = 35; s.vocab = 200; s.start = 50; s.length = 100;
  s.row_bytes = 36; s.element_size = 4; s.ids = Ids::kWide; s.path = CopyPath::kUint32; add(s);
  s = {}; s.name = "uint16"; s.n = 35; s.vocab = 200; s.start = 50; s.length = 100;
  s.row_bytes = 6; s.ids = Ids::kWide; s.path = CopyPath::kUint16; add(s);
  s = {}; s.name = "uint32_from_out_pointer"; s.n = 27; s.vocab = 500; s.start = 0;
  s.length = 500; s.row_bytes = 128; s.out_offset = 4; s.path = CopyPath::kUint32; add(s);
  s = {}; s.name = "uint16_from_weight_stride"; s.n = 27; s.vocab = 500; s.start = 100;
  s.length = 300; s.row_bytes = 128; s.weight_stride = 130; s.path = CopyPath::kUint16; add(s);
  s = {}; s.name = "uint64_elements_uint4"; s.n = 20; s.vocab = 64; s.start = 0; s.length = 64;
  s.row_bytes = 8 * 6; s.element_size = 8; s.ids = Ids::kWide; s.path = CopyPath::kUint4; add(s);
  // Strided output rows: the gaps must stay untouched.
  s = {}; s.name = "strided_out"; s.n = 33; s.vocab = 400; s.start = 100; s.length = 200;
  s.row_bytes = 128; s.out_stride = 192; s.weight_stride = 160; add(s);
  // Sizes.
  s = {}; s.name = "n0"; s.n = 0; s.vocab = 100; s.start = 0; s.length = 100; s.row_bytes = 128;
  add(s);
  s = {}; s.name = "n1"; s.n = 1; s.vocab = 100; s.start = 0; s.length = 100; s.row_bytes = 128;
  add(s);
  s = {}; s.name = "n65600"; s.n = 65600; s.vocab = 5000; s.start = 1000; s.length = 2000;
  s.row_bytes = 32; s.ids = Ids::kWide; add(s);
  s = {}; s.name = "n70000_grid_stride"; s.n = 70000; s.vocab = 3000; s.start = 0;
  s.length = 3000; s.row_bytes = 16; s.max_blocks = 5; s.blocks = 5; add(s);
  // Split rows.
  s = {}; s.name = "split2_uint4"; s.n = 29; s.vocab = 300; s.start = 100; s.length = 100;
  s.row_bytes = 1024; s.ids = Ids::kWide; s.splits = 2; add(s);
  s = {}; s.name = "split4_uint4"; s.n = 31; s.vocab = 300; s.start = 0; s.length = 300;
  s.row_bytes = 2048; s.splits = 4; add(s);
  s = {}; s.name = "split4_uint16_int64"; s.n = 25; s.vocab = 200; s.start = 50; s.length = 100;
  s.row_bytes = 4096; s.out_offset = 2; s.int64 = true; s.ids = Ids::kWide;
  s.path = CopyPath::kUint16; s.splits = 4; add(s);
  s = {}; s.name = "split2_uint32_strided"; s.n = 22; s.vocab = 100; s.start = 0; s.length = 100;
  s.row_bytes = 3072; s.element_size = 4; s.out_stride = 3072 + 4; s.path = CopyPath::kUint32;
  s.splits = 2; add(s);
  s = {}; s.name = "split4_grid_stride"; s.n = 300; s.vocab = 400; s.start = 100;
  s.length = 200; s.row_bytes = 2048; s.ids = Ids::kWide; s.splits = 4; s.max_blocks = 7;
  s.blocks = 7; add(s);
  // Many rows: 4 KiB rows in 4 segments, 4 uint4 per lane and step.
  s = {}; s.name = "many_rows_split4"; s.n = 4096; s.vocab = 600; s.start = 100;
  s.length = 400; s.row_bytes = 4096; s.ids = Ids::kWide; s.splits = 4; add(s);
  // Rows only 4- or 2-byte aligned: 16-byte chunks between a narrow head and tail, realigned in
  // registers when weight and out rows are off a 16-byte boundary by different amounts; ids
  // outside the shard give zero rows, written with aligned 16-byte stores between a narrow head
  // and tail.
  auto mis = [&](const char* name, int64_t n, int64_t row, int64_t out_off, int64_t weight_off,
                 CopyPath path) {
    s = {}; s.name = name; s.n = n; s.vocab = 300; s.start = 50; s.length = 200;
    s.row_bytes = row; s.out_offset = out_off; s.weight_offset = weight_off; s.ids = Ids::kWide;
    s.path = path; s.splits = row % 2048 == 0 ? 4 : row % 1024 == 0 ? 2 : 1;
    return s;
  };
  add(mis("chunked/same_offset_6", 37, 256, 6, 6, CopyPath::kUint16));
  add(mis("chunked/same_offset_4", 37, 256, 4, 4, CopyPath::kUint32));
  add(mis("chunked/out0_weight2", 37, 256, 0, 2, CopyPath::kUint16));
  add(mis("chunked/out6_weight2", 37, 256, 6, 2, CopyPath::kUint16));
  add(mis("chunked/out4_weight10", 37, 256, 4, 10, CopyPath::kUint16));
  add(mis("chunked/out14_weight0", 37, 256, 14, 0, CopyPath::kUint16));
  add(mis("chunked/out8_weight4_uint32", 37, 256, 8, 4, CopyPath::kUint32));
  // Every even phase against every even output offset, rows of 250 bytes.
  for (int64_t oo = 0; oo < 16; oo += 2) {
    for (int64_t wo = 0; wo < 16; wo += 2) {
      if (oo == 0 && wo == 0) continue;
      const std::string name = "chunked/phases_row250_out" + std::to_string(oo) + "_weight" +
                               std::to_string(wo);
      add(mis(name.c_str(), 11, 250, oo, wo, CopyPath::kUint16));
    }
  }
  // Short rows, rows whose head and tail cover them, row sizes not multiples of 16.
  add(mis("chunked/row2", 23, 2, 4, 6, CopyPath::kUint16));
  add(mis("chunked/row14", 23, 14, 2, 8, CopyPath::kUint16));
  add(mis("chunked/row16_no_chunk", 23, 16, 2, 4, CopyPath::kUint16));
  add(mis("chunked/row28_head_tail_only", 23, 28, 2, 10, CopyPath::kUint16));
  add(mis("chunked/row36", 41, 36, 4, 10, CopyPath::kUint16));
  add(mis("chunked/row36_uint32", 41, 36, 8, 4, CopyPath::kUint32));
  add(mis("chunked/row100_two_chunks_per_lane", 41, 100, 2, 12, CopyPath::kUint16));
  add(mis("chunked/row1030", 33, 1030, 6, 0, CopyPath::kUint16));
  add(mis("chunked/row2050", 33, 2050, 0, 14, CopyPath::kUint16));
  add(mis("chunked/row6000_three_steps", 17, 6000, 10, 4, CopyPath::kUint16));
  // Split segments.
  add(mis("chunked/split4_row2048", 29, 2048, 2, 6, CopyPath::kUint16));
  add(mis("chunked/split2_row3072", 29, 3072, 12, 8, CopyPath::kUint32));
  add(mis("chunked/split4_row4096", 21, 4096, 14, 0, CopyPath::kUint16));
  add(mis("chunked/split4_row8192", 13, 8192, 6, 2, CopyPath::kUint16));
  // Strides that are not multiples of 16: the phase changes from row to row.
  s = mis("chunked/strides_not_16", 300, 36, 0, 0, CopyPath::kUint16);
  s.out_stride = 36 + 6; s.weight_stride = 36 + 2; add(s);
  s = mis("chunked/strides_not_16_row250_int64", 120, 250, 2, 0, CopyPath::kUint16);
  s.out_stride = 250 + 4; s.weight_stride = 250 + 10; s.int64 = true; add(s);
  s = mis("chunked/strides_not_16_split2", 40, 1024, 0, 0, CopyPath::kUint16);
  s.out_stride = 1024 + 2; s.weight_stride = 1024 + 12; s.splits = 2; add(s);
  // Many rows; zero rows only; a capped grid.
  s = mis("chunked/many_rows_row1030", 4000, 1030, 6, 2, CopyPath::kUint16); add(s);
  s = mis("chunked/many_rows_row256_same_phase", 5000, 256, 4, 4, CopyPath::kUint32);
  s.ids = Ids::kInVocab; s.start = 0; s.length = 300; add(s);
  s = mis("chunked/empty_shard_zero_rows", 50, 250, 6, 2, CopyPath::kUint16);
  s.length = 0; add(s);
  s = mis("chunked/grid_stride", 3000, 250, 2, 6, CopyPath::kUint16);
  s.max_blocks = 5; s.blocks = 5; add(s);
  // Tight buffers (see store_kv_check.cu): the first and last weight and out rows at the start
  // and end of their allocations; the kWide ids include the shard's first and last rows.
  for (int64_t wo : {int64_t{0}, int64_t{2}, int64_t{6}}) {
    for (int64_t row : {int64_t{250}, int64_t{36}, int64_t{14}, int64_t{2050}}) {
      const std::string name = "chunked/tight_row" + std::to_string(row) + "_weight" +
                               std::to_string(wo);
      s = mis(name.c_str(), 40, row, 10, wo, CopyPath::kUint16);
      s.tight = true; add(s);
    }
  }
  return v;
}

}  // namespace

int main() {
  selfcheck::Report report;
  for (const EmbSpec& s : specs()) report.finish(run_embedding(s));
  report.finish(run_n0_null());
  for (const BadCase& b : kBadCases) report.finish(run_invalid(b));
  return report.summary();
}
