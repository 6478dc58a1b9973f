// Linear filtering bit for bit as an H200 filters: the texture probe (tests/texture_probe/
// texture_probe.cu) runs on the emulator and every one of its ~60 000 reads must equal, bit for
// bit, what the H200 printed (tests/texture_probe/h200.txt.gz): 8/16-bit unsigned and signed
// normalised texels, float and half texels, 1D, 2D, 3D, layered and pitched textures, point and
// linear filtering, every address mode and border colours.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <unordered_map>

#include "run_cuemu.h"

namespace {

TEST(TextureProbe, EveryReadIsBitExact) {
  const cuemu_result r =
      run_cuemu(std::string("run -O2 ") + PROBE_CU + " 2>/dev/null; exit $?");
  ASSERT_EQ(r.status, 0) << r.out.substr(0, 2000);
  // The probe's output: the reads by key (the text before "->"), the case headers.
  std::unordered_map<std::string, std::string> reads;
  std::string headers;
  {
    std::istringstream got(r.out);
    std::string line;
    while (std::getline(got, line)) {
      if (line.rfind("#case ", 0) == 0) {
        headers += line + "\n";
      } else if (const auto at = line.find(" -> "); at != std::string::npos) {
        reads[line.substr(0, at)] = line;
      }
    }
  }
  std::istringstream want(read_gzip_file(H200_FILE));
  std::string w;
  int compared = 0, differing = 0, cases = 0;
  while (std::getline(want, w)) {
    if (w.rfind("#case ", 0) == 0) {  // the same case, texels included
      ++cases;
      EXPECT_NE(headers.find(w + "\n"), std::string::npos) << "no case: " << w.substr(0, 200);
      continue;
    }
    const auto at = w.find(" -> ");
    if (at == std::string::npos) continue;  // the closing count
    const auto it = reads.find(w.substr(0, at));
    ASSERT_NE(it, reads.end()) << "no read: " << w;
    ++compared;
    if (it->second != w) {
      if (++differing <= 20) ADD_FAILURE() << "want " << w << "\n got  " << it->second;
    }
  }
  EXPECT_EQ(differing, 0) << differing << " of " << compared << " reads differ";
  EXPECT_EQ(compared, static_cast<int>(reads.size()));
  EXPECT_GT(compared, 59000);
  EXPECT_GT(cases, 130);
}

}  // namespace
