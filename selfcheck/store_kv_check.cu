// Self-check of store_kv through the host launcher (kernels/launchers.h).
//   nvcc -std=c++17 -O2 -arch=sm_90 -I kernels selfcheck/store_kv_check.cu kernels/launchers.cu
//   cuemu run selfcheck/store_kv_check.cu kernels/launchers.cu -I kernels
// Random data from fixed seeds, a CPU reference, whole buffers compared byte for byte (rows that
// must stay untouched included), one PASS/FAIL line per case and one digest line per output
// buffer (FNV-1a 64), then "selfcheck: N passed, M failed"; exit status 0 only if all pass.
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
using kernels::IndexType;
using kernels::LaunchPlan;
using kernels::Status;
using kernels::StoreKvArgs;
using selfcheck::Case;
using selfcheck::DeviceBuffer;

namespace {

struct StoreSpec {
  std::string name;
  int64_t n = 0;
  int64_t cache_rows = 0;
  int64_t row_bytes = 0;
  int64_t element_size = 2;
  int64_t cache_stride = 0;  // bytes; 0 means row_bytes (2 * row_bytes with pool_view)
  int64_t input_stride = 0;  // bytes; 0 means row_bytes (3 * row_bytes with qkv_view)
  int64_t cache_offset = 0;  // bytes added to the cache base pointers (alignment cases)
  int64_t input_offset = 0;  // bytes added to the input base pointers
  int64_t v_cache_shift = 0;  // more bytes added to v_cache only (separate cache buffers)
  int64_t v_input_shift = 0;  // more bytes added to v only (separate input buffers)
  bool tight = false;        // buffers end at their last row's last byte, no guard zones
  bool pool_view = false;    // k_cache/v_cache: views into one [cache_rows, 2, row] pool
  bool qkv_view = false;     // k/v: views into one [n, 3, row] q|k|v buffer
  bool int64 = false;        // int64 indices
  int64_t outside = 0;       // how many indices lie outside [0, cache_rows) (skipped rows)
  int64_t max_blocks = 0;
  CopyPath path = CopyPath::kUint4;  // what the launcher must choose
  int splits = 1;
  int64_t blocks = -1;  // expected grid size, -1: selfcheck::expected_blocks()
};

// The buffers of one store_kv case, their device pointers and the CPU reference.
struct StoreSetup {
  std::vector<std::unique_ptr<DeviceBuffer>> bufs;
  DeviceBuffer* kc = nullptr;
  DeviceBuffer* vc = nullptr;  // == kc with pool_view
  DeviceBuffer* k = nullptr;
  DeviceBuffer* v = nullptr;  // == k with qkv_view
  DeviceBuffer* idx = nullptr;
  int64_t v_cache_delta = 0;  // byte offset of v_cache from k_cache's base
  int64_t k_delta = 0;        // byte offset of k from its buffer's base (input_offset included)
  int64_t v_delta = 0;
  std::vector<int64_t> slots;

  DeviceBuffer* add(const std::string& name, size_t bytes, size_t stride, bool out,
                    bool tight = false) {
    bufs.emplace_back(new DeviceBuffer(name, bytes, stride, out, tight));
    return bufs.back().get();
  }
};

void normalise(StoreSpec& s) {
  if (s.cache_stride == 0) s.cache_stride = s.pool_view ? 2 * s.row_bytes : s.row_bytes;
  if (s.input_stride == 0) s.input_stride = s.qkv_view ? 3 * s.row_bytes : s.row_bytes;
  if (s.blocks < 0) {
    // Chunks per lane (kernels/launchers.cu): 1 on the uint4 path; on the chunked paths 2 once a
    // segment is over 256 bytes.
    const int64_t seg_bytes = (s.row_bytes + s.splits - 1) / s.splits;
    const int64_t unroll = s.path != CopyPath::kUint4 && seg_bytes > 256 ? 2 : 1;
    s.blocks = selfcheck::expected_blocks(s.n, s.row_bytes, s.splits, unroll);
  }
}

// Allocates and fills the buffers (not yet uploaded) for spec s.
void build(const StoreSpec& s, StoreSetup& st) {
  selfcheck::SplitMix64 rng(selfcheck::seed_of(s.name));
  // Bytes of `rows` rows at `stride` after `offset` bytes; a tight buffer ends with its last row
  // (the views' last row is their widest one: v, at `last_row_at` bytes into the row stride).
  auto bytes_for = [&](int64_t offset, int64_t rows, int64_t stride, int64_t last_row_at) {
    if (!s.tight) return static_cast<size_t>(offset + rows * stride);
    return static_cast<size_t>(offset + (rows - 1) * stride + last_row_at + s.row_bytes);
  };
  const size_t cs = static_cast<size_t>(s.cache_stride), is = static_cast<size_t>(s.input_stride);
  if (s.pool_view) {
    st.kc = st.vc = st.add("kv_pool", bytes_for(s.cache_offset, s.cache_rows, s.cache_stride,
                                                 s.row_bytes), cs, true, s.tight);
    st.v_cache_delta = s.row_bytes;
  } else {
    st.kc = st.add("k_cache", bytes_for(s.cache_offset, s.cache_rows, s.cache_stride, 0), cs, true,
                   s.tight);
    st.vc = st.add("v_cache", bytes_for(s.cache_offset + s.v_cache_shift, s.cache_rows,
                                        s.cache_stride, 0), cs, true, s.tight);
    st.v_cache_delta = s.v_cache_shift;
  }
  if (s.qkv_view) {
    st.k = st.v = st.add("qkv", bytes_for(s.input_offset, s.n, s.input_stride, 2 * s.row_bytes),
                         is, false, s.tight);
    st.k_delta = s.input_offset + s.row_bytes;
    st.v_delta = s.input_offset + 2 * s.row_bytes;
  } else {
    st.k = st.add("k", bytes_for(s.input_offset, s.n, s.input_stride, 0), is, false, s.tight);
    st.v = st.add("v", bytes_for(s.input_offset + s.v_input_shift, s.n, s.input_stride, 0), is,
                  false, s.tight);
    st.k_delta = s.input_offset;
    st.v_delta = s.input_offset + s.v_input_shift;
  }
  for (auto& b : st.bufs) rng.fill(b->init.data(), b->init.size());

  st.slots = selfcheck::distinct_slots(rng, s.cache_rows, s.n);
  // Indices outside the pool, spread over the batch: the launcher skips these rows.
  const int64_t wide = std::numeric_limits<int64_t>::max();
  const int64_t bad32[] = {-1, std::numeric_limits<int32_t>::min(), s.cache_rows,
                           std::numeric_limits<int32_t>::max()};
  const int64_t bad64[] = {-1, std::numeric_limits<int64_t>::min(), s.cache_rows, wide,
                           s.cache_rows + (int64_t{1} << 40), -(int64_t{1} << 32)};
  for (int64_t j = 0; j < s.outside && s.n > 0; ++j) {
    const size_t at = static_cast<size_t>((j * 7919) % s.n);
    st.slots[at] = s.int64 ? bad64[j % 6] : bad32[j % 4];
  }
  st.idx = st.add("indices", 0, static_cast<size_t>(s.int64 ? 8 : 4), false);
  selfcheck::store_indices(st.idx->init, st.slots, s.int64);
}

// The CPU reference: expected final bytes of every buffer.
std::vector<std::vector<uint8_t>> reference(const StoreSpec& s, const StoreSetup& st) {
  std::vector<std::vector<uint8_t>> exp;
  for (const auto& b : st.bufs) exp.push_back(b->init);
  auto index_of = [&](const DeviceBuffer* p) {
    for (size_t i = 0; i < st.bufs.size(); ++i)
      if (st.bufs[i].get() == p) return i;
    return size_t{0};
  };
  std::vector<uint8_t>& kc = exp[index_of(st.kc)];
  std::vector<uint8_t>& vc = exp[index_of(st.vc)];
  selfcheck::Stopwatch watch(selfcheck::reference_ms());
  for (int64_t i = 0; i < s.n; ++i) {
    const int64_t slot = st.slots[static_cast<size_t>(i)];
    if (slot < 0 || slot >= s.cache_rows) continue;
    const int64_t dst = s.cache_offset + slot * s.cache_stride;
    std::memcpy(&kc[static_cast<size_t>(dst)],
                &st.k->init[static_cast<size_t>(st.k_delta + i * s.input_stride)],
                static_cast<size_t>(s.row_bytes));
    std::memcpy(&vc[static_cast<size_t>(dst + st.v_cache_delta)],
                &st.v->init[static_cast<size_t>(st.v_delta + i * s.input_stride)],
                static_cast<size_t>(s.row_bytes));
  }
  return exp;
}

StoreKvArgs make_args(const StoreSpec& s, const StoreSetup& st) {
  StoreKvArgs a;
  a.k_cache = st.kc->dev() + s.cache_offset;
  a.v_cache = st.vc->dev() + s.cache_offset + st.v_cache_delta;
  a.indices = st.idx->dev();
  a.k = st.k->dev() + st.k_delta;
  a.v = st.v->dev() + st.v_delta;
  a.n = s.n;
  a.row_bytes = s.row_bytes;
  a.element_size = s.element_size;
  a.cache_rows = s.cache_rows;
  a.cache_stride_bytes = s.cache_stride;
  a.input_stride_bytes = s.input_stride;
  a.index_type = s.int64 ? IndexType::kInt64 : IndexType::kInt32;
  a.max_blocks = s.max_blocks;
  return a;
}

std::string plan_note(const std::string& name, const LaunchPlan& p) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "plan %s path=%s splits=%d blocks=%lld threads=%d",
                name.c_str(), kernels::copy_path_name(p.path), p.num_splits,
                static_cast<long long>(p.blocks), p.threads);
  return buf;
}

// Downloads every buffer, compares each with `exp`, records digests of the output buffers.
void finish_buffers(Case& c, StoreSetup& st, const std::vector<std::vector<uint8_t>>& exp) {
  if (!c.cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize")) return;
  for (size_t i = 0; i < st.bufs.size(); ++i) {
    if (!st.bufs[i]->download(c)) return;
    st.bufs[i]->compare(c, exp[i]);
    if (st.bufs[i]->is_output()) st.bufs[i]->record_digest(c);
  }
}

Case run_store(StoreSpec s) {
  normalise(s);
  Case c("store_kv/" + s.name);
  StoreSetup st;
  build(s, st);
  for (auto& b : st.bufs)
    if (!b->upload(c)) return c;
  const StoreKvArgs a = make_args(s, st);

  LaunchPlan planned;
  const Status ps = kernels::plan_store_kv(a, &planned);
  LaunchPlan p;
  const Status ls =
      selfcheck::timed(selfcheck::kernel_ms(), [&] { return kernels::launch_store_kv(a, nullptr, &p); });
  c.notes.push_back(plan_note(c.name, p));
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
    c.fail("plan_store_kv and launch_store_kv disagree");
  finish_buffers(c, st, reference(s, st));
  return c;
}

// A bad argument: the launcher must return `want`, launch nothing and leave every buffer as it was.
struct BadCase {
  const char* name;
  Status want;
  void (*mutate)(StoreKvArgs&);
};

Case run_invalid(const BadCase& bad) {
  StoreSpec s;
  s.name = std::string("invalid/") + bad.name;
  s.n = 8;
  s.cache_rows = 32;
  s.row_bytes = 64;
  normalise(s);
  Case c("store_kv/" + s.name);
  StoreSetup st;
  build(s, st);
  for (auto& b : st.bufs)
    if (!b->upload(c)) return c;
  StoreKvArgs a = make_args(s, st);
  bad.mutate(a);
  LaunchPlan p;
  p.path = CopyPath::kUint4;  // must be reset by the launcher
  p.blocks = 99;
  const Status got = kernels::launch_store_kv(a, nullptr, &p);
  if (got != bad.want) {
    c.fail(std::string("expected status '") + kernels::status_message(bad.want) + "', got '" +
           kernels::status_message(got) + "'");
  } else {
    c.notes.push_back("status " + c.name + " " + kernels::status_message(got));
  }
  if (p.path != CopyPath::kNone || p.blocks != 0) c.fail("launcher planned a launch anyway");
  if (!c.cuda(cudaGetLastError(), "cudaGetLastError after a rejected launch")) return c;
  std::vector<std::vector<uint8_t>> untouched;
  for (const auto& b : st.bufs) untouched.push_back(b->init);
  finish_buffers(c, st, untouched);
  return c;
}

const BadCase kBadCases[] = {
    {"null_k_cache", Status::kNullPointer, [](StoreKvArgs& a) { a.k_cache = nullptr; }},
    {"null_v_cache", Status::kNullPointer, [](StoreKvArgs& a) { a.v_cache = nullptr; }},
    {"null_indices", Status::kNullPointer, [](StoreKvArgs& a) { a.indices = nullptr; }},
    {"null_k", Status::kNullPointer, [](StoreKvArgs& a) { a.k = nullptr; }},
    {"null_v", Status::kNullPointer, [](StoreKvArgs& a) { a.v = nullptr; }},
    {"negative_n", Status::kNegativeCount, [](StoreKvArgs& a) { a.n = -1; }},
    {"row_not_multiple_of_element", Status::kBadRowBytes,
     [](StoreKvArgs& a) { a.row_bytes = 63; }},
    {"row_zero", Status::kBadRowBytes, [](StoreKvArgs& a) { a.row_bytes = 0; }},
    {"element_size_3", Status::kBadElementSize, [](StoreKvArgs& a) { a.element_size = 3; }},
    {"element_size_1", Status::kBadElementSize, [](StoreKvArgs& a) { a.element_size = 1; }},
    {"cache_stride_below_row", Status::kBadStride,
     [](StoreKvArgs& a) { a.cache_stride_bytes = 62; }},
    {"input_stride_below_row", Status::kBadStride,
     [](StoreKvArgs& a) { a.input_stride_bytes = 32; }},
    {"stride_not_multiple_of_element", Status::kBadStride,
     [](StoreKvArgs& a) { a.element_size = 4; a.input_stride_bytes = 66; }},
    {"bad_index_type", Status::kBadIndexType,
     [](StoreKvArgs& a) { a.index_type = static_cast<IndexType>(2); }},
    {"odd_k_pointer", Status::kMisaligned,
     [](StoreKvArgs& a) { a.k = static_cast<const uint8_t*>(a.k) + 1; }},
    {"misaligned_indices", Status::kMisaligned,
     [](StoreKvArgs& a) { a.indices = static_cast<const uint8_t*>(a.indices) + 2; }},
    {"zero_cache_rows", Status::kBadCacheRows, [](StoreKvArgs& a) { a.cache_rows = 0; }},
    {"cache_too_large", Status::kTooLarge,
     [](StoreKvArgs& a) { a.cache_rows = int64_t{1} << 62; }},
    {"negative_max_blocks", Status::kBadMaxBlocks, [](StoreKvArgs& a) { a.max_blocks = -1; }},
};

// n == 0 with every pointer null is valid: nothing to do, nothing launched.
Case run_n0_null() {
  Case c("store_kv/n0_null_pointers");
  StoreKvArgs a;
  a.row_bytes = 256;
  a.cache_stride_bytes = a.input_stride_bytes = 256;
  LaunchPlan p;
  const Status s = kernels::launch_store_kv(a, nullptr, &p);
  if (s != Status::kOk) c.fail(std::string("expected ok, got '") + kernels::status_message(s) + "'");
  if (p.blocks != 0 || p.path != CopyPath::kNone) c.fail("launcher planned a launch for n == 0");
  c.cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  return c;
}

std::vector<StoreSpec> specs() {
  std::vector<StoreSpec> v;
  auto add = [&](StoreSpec s) { v.push_back(s); };
  StoreSpec s;
  // The three copy paths, chosen by the launcher from the row's size.
  s = {}; s.name = "uint4"; s.n = 37; s.cache_rows = 300; s.row_bytes = 256;
  s.path = CopyPath::kUint4; add(s);
  s = {}; s.name = "uint32"; s.n = 41; s.cache_rows = 200; s.row_bytes = 36; s.element_size = 4;
  s.path = CopyPath::kUint32; add(s);
  s = {}; s.name = "uint16"; s.n = 17; s.cache_rows = 64; s.row_bytes = 6;
  s.path = CopyPath::kUint16; add(s);
  // ... and from pointer and stride alignment.
  s = {}; s.name = "uint32_from_input_pointer"; s.n = 29; s.cache_rows = 100; s.row_bytes = 256;
  s.input_offset = 4; s.path = CopyPath::kUint32; add(s);
  s = {}; s.name = "uint16_from_cache_pointer"; s.n = 29; s.cache_rows = 100; s.row_bytes = 256;
  s.cache_offset = 2; s.path = CopyPath::kUint16; add(s);
  s = {}; s.name = "uint16_from_input_stride"; s.n = 29; s.cache_rows = 100; s.row_bytes = 256;
  s.input_stride = 258; s.path = CopyPath::kUint16; add(s);
  s = {}; s.name = "uint32_from_cache_stride"; s.n = 29; s.cache_rows = 100; s.row_bytes = 256;
  s.cache_stride = 260; s.path = CopyPath::kUint32; add(s);
  // Strided cache views into a [tokens, 2, heads, dim] pool, inputs from a [n, 3, row] qkv buffer.
  s = {}; s.name = "pool_view_uint4"; s.n = 50; s.cache_rows = 128; s.row_bytes = 4 * 64 * 2;
  s.pool_view = true; s.qkv_view = true; s.path = CopyPath::kUint4; add(s);
  s = {}; s.name = "pool_view_uint32"; s.n = 50; s.cache_rows = 128; s.row_bytes = 5 * 4;
  s.element_size = 4; s.pool_view = true; s.path = CopyPath::kUint32; add(s);
  s = {}; s.name = "pool_view_uint16"; s.n = 20; s.cache_rows = 40; s.row_bytes = 1 * 3 * 2;
  s.pool_view = true; s.qkv_view = true; s.path = CopyPath::kUint16; add(s);
  s = {}; s.name = "pool_view_padded_stride"; s.n = 31; s.cache_rows = 64; s.row_bytes = 320;
  s.pool_view = true; s.cache_stride = 2 * 320 + 64; s.path = CopyPath::kUint4; add(s);
  // Sizes.
  s = {}; s.name = "n0"; s.n = 0; s.cache_rows = 16; s.row_bytes = 256; add(s);
  s = {}; s.name = "n1"; s.n = 1; s.cache_rows = 16; s.row_bytes = 256; add(s);
  s = {}; s.name = "n65600"; s.n = 65600; s.cache_rows = 70000; s.row_bytes = 64; add(s);
  s = {}; s.name = "n70000_grid_stride"; s.n = 70000; s.cache_rows = 70000; s.row_bytes = 16;
  s.max_blocks = 13; s.blocks = 13; add(s);
  // Index types, and indices outside the pool (skipped: those cache rows stay as they were).
  s = {}; s.name = "int64_indices"; s.n = 60; s.cache_rows = 1000; s.row_bytes = 384;
  s.int64 = true; add(s);
  s = {}; s.name = "int32_outside_pool"; s.n = 40; s.cache_rows = 90; s.row_bytes = 128;
  s.outside = 4; add(s);
  s = {}; s.name = "int64_outside_pool"; s.n = 40; s.cache_rows = 90; s.row_bytes = 128;
  s.int64 = true; s.outside = 6; add(s);
  // Split rows: 2 warps per row when the row is a multiple of 1 KiB, 4 when of 2 KiB.
  s = {}; s.name = "split2_uint4"; s.n = 33; s.cache_rows = 100; s.row_bytes = 8 * 64 * 2;
  s.path = CopyPath::kUint4; s.splits = 2; add(s);
  s = {}; s.name = "split4_uint4"; s.n = 37; s.cache_rows = 300; s.row_bytes = 8 * 128 * 2;
  s.path = CopyPath::kUint4; s.splits = 4; add(s);
  // Rows not 16-byte aligned are never split (a cut off a sector boundary costs two partly
  // written sectors): whole rows of 2 and 3 KiB.
  s = {}; s.name = "whole_row2048_uint32"; s.n = 21; s.cache_rows = 50; s.row_bytes = 2048;
  s.element_size = 4; s.input_offset = 4; s.path = CopyPath::kUint32; s.splits = 1; add(s);
  s = {}; s.name = "whole_row3072_uint16"; s.n = 19; s.cache_rows = 40; s.row_bytes = 3072;
  s.cache_offset = 2; s.path = CopyPath::kUint16; s.splits = 1; add(s);
  s = {}; s.name = "split4_int64_pool_view"; s.n = 24; s.cache_rows = 64; s.row_bytes = 4096;
  s.int64 = true; s.pool_view = true; s.path = CopyPath::kUint4; s.splits = 4; add(s);
  s = {}; s.name = "split2_grid_stride"; s.n = 500; s.cache_rows = 600; s.row_bytes = 1024;
  s.max_blocks = 3; s.blocks = 3; s.splits = 2; add(s);
  // Many rows: 4 KiB rows in 4 segments of 2 steps each, indices outside too; uint32 rows of
  // 257 units (the last step of a lane group copies one unit).
  s = {}; s.name = "many_rows_split4_two_steps"; s.n = 4096; s.cache_rows = 4200;
  s.row_bytes = 4096; s.outside = 5; s.path = CopyPath::kUint4; s.splits = 4; add(s);
  s = {}; s.name = "many_rows_uint32_tail"; s.n = 4100; s.cache_rows = 4100; s.row_bytes = 1028;
  s.element_size = 4; s.int64 = true; s.path = CopyPath::kUint32; s.splits = 1; add(s);
  // Rows only 4- or 2-byte aligned: 16-byte chunks between a narrow head and tail, realigned in
  // registers when the source and the destination are off a 16-byte boundary by different amounts
  // (phase = (input - cache) mod 16). Equal nonzero offsets first (phase 0, a plain chunk copy).
  auto mis = [&](const char* name, int64_t n, int64_t rows, int64_t row, int64_t cache_off,
                 int64_t input_off, CopyPath path) {
    s = {}; s.name = name; s.n = n; s.cache_rows = rows; s.row_bytes = row;
    s.cache_offset = cache_off; s.input_offset = input_off; s.path = path;
    s.splits = 1;  // the chunked paths copy whole rows
    return s;
  };
  add(mis("chunked/same_offset_6", 37, 100, 256, 6, 6, CopyPath::kUint16));
  add(mis("chunked/same_offset_12", 37, 100, 256, 12, 12, CopyPath::kUint32));
  add(mis("chunked/cache2_input6", 37, 100, 256, 2, 6, CopyPath::kUint16));
  add(mis("chunked/cache4_input10", 37, 100, 256, 4, 10, CopyPath::kUint16));
  add(mis("chunked/cache14_input0", 37, 100, 256, 14, 0, CopyPath::kUint16));
  add(mis("chunked/cache0_input2", 37, 100, 256, 0, 2, CopyPath::kUint16));
  add(mis("chunked/cache4_input8_uint32", 37, 100, 256, 4, 8, CopyPath::kUint32));
  add(mis("chunked/cache12_input4_uint32", 37, 100, 256, 12, 4, CopyPath::kUint32));
  // k and v rows with phases of their own (separate buffers shifted apart).
  s = mis("chunked/k_v_phases_differ", 45, 120, 256, 2, 6, CopyPath::kUint16);
  s.v_cache_shift = 8; s.v_input_shift = 2; add(s);
  s = mis("chunked/k_aligned_v_realigned", 45, 120, 512, 0, 0, CopyPath::kUint16);
  s.v_cache_shift = 10; add(s);
  // Every even phase against every even destination offset, rows of 250 bytes (not a multiple
  // of 16): the cache offset sets the head, the input offset minus it the phase.
  for (int64_t co = 0; co < 16; co += 2) {
    for (int64_t io = 0; io < 16; io += 2) {
      if (co == 0 && io == 0) continue;
      const std::string name = "chunked/phases_row250_cache" + std::to_string(co) + "_input" +
                               std::to_string(io);
      add(mis(name.c_str(), 9, 20, 250, co, io, CopyPath::kUint16));
    }
  }
  // Short rows: shorter than 16 bytes, and rows whose head and tail cover them (no whole chunk).
  add(mis("chunked/row2", 23, 50, 2, 4, 6, CopyPath::kUint16));
  add(mis("chunked/row14", 23, 50, 14, 2, 8, CopyPath::kUint16));
  add(mis("chunked/row16_no_chunk", 23, 50, 16, 2, 4, CopyPath::kUint16));
  add(mis("chunked/row28_head_tail_only", 23, 50, 28, 2, 10, CopyPath::kUint16));
  add(mis("chunked/row30_one_chunk", 23, 50, 30, 14, 2, CopyPath::kUint16));
  add(mis("chunked/row36", 41, 90, 36, 4, 10, CopyPath::kUint16));
  add(mis("chunked/row36_uint32", 41, 90, 36, 8, 4, CopyPath::kUint32));
  add(mis("chunked/row1030", 33, 70, 1030, 6, 0, CopyPath::kUint16));
  add(mis("chunked/row2050", 33, 70, 2050, 0, 14, CopyPath::kUint16));
  add(mis("chunked/row6000_three_steps", 17, 40, 6000, 10, 4, CopyPath::kUint16));
  // Long whole rows (the uint4 path would split them), several steps per row.
  add(mis("chunked/whole_row2048", 29, 64, 2048, 2, 6, CopyPath::kUint16));
  add(mis("chunked/whole_row3072", 29, 64, 3072, 12, 8, CopyPath::kUint32));
  add(mis("chunked/whole_row4096", 21, 48, 4096, 14, 0, CopyPath::kUint16));
  add(mis("chunked/whole_row8192_steps", 13, 30, 8192, 6, 2, CopyPath::kUint16));
  // Strides that are not multiples of 16: the phase changes from row to row, so lane groups of
  // one warp copy rows of different phases.
  s = mis("chunked/strides_not_16", 300, 400, 36, 0, 0, CopyPath::kUint16);
  s.cache_stride = 36 + 6; s.input_stride = 36 + 2; s.outside = 7; add(s);
  s = mis("chunked/strides_not_16_row250", 120, 200, 250, 2, 0, CopyPath::kUint16);
  s.cache_stride = 250 + 4; s.input_stride = 250 + 10; s.int64 = true; add(s);
  s = mis("chunked/strides_not_16_row1024", 40, 90, 1024, 0, 0, CopyPath::kUint16);
  s.cache_stride = 1024 + 2; s.input_stride = 1024 + 12; add(s);
  // Views: k and v rows of a qkv buffer and a k|v pool, off by the row size (250: phases differ).
  s = mis("chunked/pool_qkv_views_row250", 50, 128, 250, 0, 2, CopyPath::kUint16);
  s.pool_view = true; s.qkv_view = true; add(s);
  // Indices outside the pool.
  s = mis("chunked/int32_outside_pool", 60, 100, 1030, 2, 6, CopyPath::kUint16);
  s.outside = 4; add(s);
  s = mis("chunked/int64_outside_pool", 60, 100, 250, 4, 10, CopyPath::kUint16);
  s.int64 = true; s.outside = 6; add(s);
  // Many rows.
  s = mis("chunked/many_rows_row1030", 4000, 4100, 1030, 6, 2, CopyPath::kUint16);
  s.outside = 9; add(s);
  s = mis("chunked/many_rows_row256_same_phase", 5000, 5000, 256, 4, 4, CopyPath::kUint32);
  add(s);
  s = mis("chunked/grid_stride", 3000, 3000, 250, 2, 6, CopyPath::kUint16);
  s.max_blocks = 5; s.blocks = 5; add(s);
  // Tight buffers: the inputs' and caches' allocations end with the last row, so a read or
  // write past the row's bytes (even inside the last aligned 16-byte chunk) leaves the
  // allocation, which the emulator's memcheck reports; the first rows start at the allocation.
  for (int64_t io : {int64_t{0}, int64_t{2}, int64_t{6}}) {
    for (int64_t row : {int64_t{250}, int64_t{36}, int64_t{14}, int64_t{2050}}) {
      const std::string name = "chunked/tight_row" + std::to_string(row) + "_input" +
                               std::to_string(io);
      s = mis(name.c_str(), 19, 19, row, 10, io, CopyPath::kUint16);
      s.tight = true; add(s);
    }
  }
  s = mis("chunked/tight_views_row250", 19, 19, 250, 6, 0, CopyPath::kUint16);
  s.tight = true; s.pool_view = true; s.qkv_view = true; add(s);
  return v;
}

}  // namespace

int main() {
  selfcheck::Report report;
  for (const StoreSpec& s : specs()) report.finish(run_store(s));
  report.finish(run_n0_null());
  for (const BadCase& b : kBadCases) report.finish(run_invalid(b));
  return report.summary();
}
