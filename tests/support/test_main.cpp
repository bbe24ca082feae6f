// The main of rowbridge_tests: GoogleTest's, plus two flags that force the
// converters the test helpers make (TestConverterOptions in
// row_test_util.hpp) onto one kernel set or nested writer:
//
//   rowbridge_tests --rowbridge_kernels=portable|avx2|avx512
//                   --rowbridge_nested_writer=depth-first|levels
//
// ctest runs the nested and converter suites again under each (see
// tests/CMakeLists.txt). A forced run fails at its end unless the helpers
// made converters with the forced choice and those really ran it: the
// depth-first writer wrote tiles, the level writer none, the plans were
// compiled with the forced kernels. Kernels the CPU lacks skip every test.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "row/kernel_isa.hpp"
#include "rowbridge/converter.hpp"
#include "support/row_test_util.hpp"

namespace {

using rowbridge::Kernels;
using rowbridge::NestedWriter;
using rowbridge::testing::Forced;
using rowbridge::testing::ForcedRunTally;
using rowbridge::testing::Tally;

/// Sets `*out` from `text` (a KernelIsaName); false when it names none.
bool ParseKernels(const char* text, Kernels* out) {
  for (rowbridge::row::KernelIsa isa : rowbridge::row::kKernelIsas) {
    if (std::strcmp(text, rowbridge::row::KernelIsaName(isa)) == 0) {
      *out = rowbridge::row::KernelsOf(isa);
      return true;
    }
  }
  return false;
}

bool ParseNestedWriter(const char* text, NestedWriter* out) {
  if (std::strcmp(text, "depth-first") == 0) {
    *out = NestedWriter::kDepthFirst;
  } else if (std::strcmp(text, "levels") == 0) {
    *out = NestedWriter::kLevels;
  } else {
    return false;
  }
  return true;
}

/// Skips every test when the forced kernels do not run here, and checks
/// at the end that the forced choices reached converters and ran.
class ForcedChoicesCheck : public ::testing::Environment {
 public:
  void SetUp() override {
    const Kernels kernels = Forced().kernels;
    rowbridge::row::KernelIsa isa;
    if (kernels != Kernels::kAuto && !rowbridge::row::ResolveKernels(kernels, &isa).ok()) {
      skipped_ = true;
      GTEST_SKIP() << "the forced kernels need hardware this CPU (or build) lacks";
    }
  }

  void TearDown() override {
    if (skipped_ || ::testing::UnitTest::GetInstance()->test_to_run_count() == 0) return;
    const ForcedRunTally& tally = Tally();
    switch (Forced().nested_writer) {
      case NestedWriter::kDepthFirst:
        EXPECT_GT(tally.writer_converters, 0) << "no test converted with the forced writer";
        EXPECT_GT(tally.depth_first_tiles, 0) << "the forced depth-first writer wrote no tile";
        break;
      case NestedWriter::kLevels:
        EXPECT_GT(tally.writer_converters, 0) << "no test converted with the forced writer";
        EXPECT_EQ(tally.depth_first_tiles, 0) << "the forced level writer ran depth-first";
        break;
      case NestedWriter::kAuto: break;
    }
    if (Forced().kernels != Kernels::kAuto) {
      EXPECT_GT(tally.kernel_converters, 0) << "no test converted with the forced kernels";
      EXPECT_EQ(tally.other_kernels, 0) << "plans compiled with other kernels than the forced";
    }
  }

 private:
  bool skipped_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  static const char kKernels[] = "--rowbridge_kernels=";
  static const char kNestedWriter[] = "--rowbridge_nested_writer=";
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    bool parsed = false;
    if (std::strncmp(arg, kKernels, sizeof(kKernels) - 1) == 0) {
      parsed = ParseKernels(arg + sizeof(kKernels) - 1, &Forced().kernels);
    } else if (std::strncmp(arg, kNestedWriter, sizeof(kNestedWriter) - 1) == 0) {
      parsed = ParseNestedWriter(arg + sizeof(kNestedWriter) - 1, &Forced().nested_writer);
    }
    if (!parsed) {
      std::fprintf(stderr,
                   "unknown argument %s; besides GoogleTest's flags: "
                   "--rowbridge_kernels=portable|avx2|avx512, "
                   "--rowbridge_nested_writer=depth-first|levels\n",
                   arg);
      return 2;
    }
  }
  ::testing::AddGlobalTestEnvironment(new ForcedChoicesCheck);
  return RUN_ALL_TESTS();
}
