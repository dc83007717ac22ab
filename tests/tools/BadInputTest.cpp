// Bad input through the CLI: every kind exits with code 2 and prints exactly
// one line on stderr that names the problem (and, for a file, the file and
// the line), with no stack dump and no output file left behind.
#include "ToolTestUtil.h"

#include <gtest/gtest.h>

#include <regex>
#include <sys/stat.h>

using namespace rlopt::tool::testing;

namespace {

/// The contract for bad input: exit code 2, one line `rlopt: ...` on stderr
/// containing every string of `mentions`, nothing on stdout.
void expectUsageError(const RunResult &run,
                      const std::vector<std::string> &mentions) {
  EXPECT_EQ(run.exitCode, 2) << "stderr: " << run.err;
  ASSERT_FALSE(run.err.empty());
  EXPECT_EQ(run.err.back(), '\n') << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1)
      << "expected exactly one line on stderr, got:\n"
      << run.err;
  EXPECT_EQ(run.err.rfind("rlopt: ", 0), 0u) << run.err;
  for (const char *dump : {"Stack dump", "PLEASE submit", "Assertion",
                           "terminate called", "Segmentation"})
    EXPECT_EQ(run.err.find(dump), std::string::npos) << run.err;
  for (const std::string &text : mentions)
    EXPECT_NE(run.err.find(text), std::string::npos)
        << "stderr does not mention '" << text << "': " << run.err;
  EXPECT_EQ(run.out, "");
}

//===----------------------------------------------------------------------===//
// Files rlopt cannot take
//===----------------------------------------------------------------------===//

struct FileCase {
  std::string name;
  /// The file's content; the file is `<name>.mlir` in the scratch dir.
  std::string content;
  /// What stderr must mention after the file's path, e.g. ":2:" and the
  /// problem.
  std::vector<std::string> mentions;
};

std::string halfOfMatmulFixture() {
  std::string text = readFile(fixturePath("matmul"));
  return text.substr(0, text.size() / 2);
}

std::string binaryGarbage() {
  std::string bytes;
  uint32_t x = 12345;
  for (int i = 0; i < 2000; ++i) {
    x = x * 1103515245 + 12345;
    bytes += static_cast<char>(x >> 24);
  }
  bytes[100] = '\0';
  return bytes;
}

const char *kNineLoops =
    R"(#id = affine_map<(a, b, c, d, e, f, g, h, i) -> (a, b, c, d, e, f, g, h, i)>
func.func @nine(%x: tensor<2x2x2x2x2x2x2x2x2xf32>) -> tensor<2x2x2x2x2x2x2x2x2xf32> {
  %empty = tensor.empty() : tensor<2x2x2x2x2x2x2x2x2xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
    ins(%x : tensor<2x2x2x2x2x2x2x2x2xf32>) outs(%empty : tensor<2x2x2x2x2x2x2x2x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<2x2x2x2x2x2x2x2x2xf32>
  return %y : tensor<2x2x2x2x2x2x2x2x2xf32>
}
)";

/// An elementwise add with element type `type` and shape `shape`.
std::string addOf(const std::string &shape, const std::string &type) {
  std::string t = "tensor<" + shape + "x" + type + ">";
  return "func.func @add(%a: " + t + ", %b: " + t + ") -> " + t +
         " {\n"
         "  %c = linalg.add ins(%a, %b : " +
         t + ", " + t + ") outs(%a : " + t + ") -> " + t +
         "\n"
         "  return %c : " +
         t + "\n}\n";
}

const std::vector<FileCase> kFileCases = {
    {"truncated", halfOfMatmulFixture(), {":5:"}},
    {"garbage", binaryGarbage(), {"binary"}},
    {"unknown_op",
     "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = \"foo.bar\"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
     "  return %0 : tensor<4xf32>\n}\n",
     {":2:", "unknown op 'foo.bar'"}},
    {"unsupported_op",
     "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = math.exp %a : tensor<4xf32>\n"
     "  return %0 : tensor<4xf32>\n}\n",
     {":2:", "unsupported op math.exp"}},
    {"dynamic_shape", addOf("?x4", "f32"), {":1:", "dynamic shape"}},
    {"f8", addOf("4x4", "f8E5M2"), {":1:", "f8E5M2", "not supported"}},
    {"i8", addOf("4x4", "i8"), {":1:", "i8", "not supported"}},
    {"complex", addOf("4x4", "complex<f32>"), {":1:", "complex<f32>"}},
    {"zero_sized", addOf("0x4", "f32"), {":1:", "zero-sized"}},
    {"too_large",
     addOf("9223372036854775807", "f32"),
     {":1:", "is larger than 1024 GiB"}},
    {"too_large_product",
     addOf("1048576x1048576x1048576", "f64"),
     {":1:", "is larger than 1024 GiB"}},
    {"nine_loops", kNineLoops, {":4:", "9 loops", "max_loops"}},
    {"empty", "", {"no func.func"}},
    {"no_linalg",
     "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  return %a : tensor<4xf32>\n}\n",
     {":1:", "no Linalg op"}},
    {"memref",
     "func.func @f(%a: memref<4x4xf32>, %b: memref<4x4xf32>) {\n"
     "  linalg.add ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%b : "
     "memref<4x4xf32>)\n"
     "  return\n}\n",
     {":1:", "memref"}},
    {"two_functions",
     readFile(fixturePath("add")) + readFile(fixturePath("sub")),
     {"more than one function"}},
    {"no_results",
     "func.func @f(%a: tensor<4xf32>) {\n  return\n}\n",
     {":1:", "returns nothing"}},
    // MLIR 19's own parser crashes on this (mlir-opt-19 too); found by
    // fuzz_mlir.
    {"linalg_properties_not_a_dictionary",
     "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %z = arith.constant 0.0 : f32\n"
     "  %r = linalg.fill<3> ins(%z : f32) outs(%a : tensor<4xf32>) -> "
     "tensor<4xf32>\n"
     "  return %r : tensor<4xf32>\n}\n",
     {":3:", "properties must be a dictionary"}},
    // The same for linalg.generic's iterator_types; found by fuzz_mlir.
    {"iterator_type_not_a_string",
     "func.func @f(%a: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4xf32> "
     "{\n"
     "  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, "
     "affine_map<(i, k) -> (i)>],\n"
     "      iterator_types = [\"parallel\", 32]}\n"
     "      ins(%a : tensor<4x8xf32>) outs(%b : tensor<4xf32>) {\n"
     "  ^bb0(%x: f32, %s: f32):\n"
     "    %y = arith.addf %x, %s : f32\n"
     "    linalg.yield %y : f32\n"
     "  } -> tensor<4xf32>\n"
     "  return %r : tensor<4xf32>\n}\n",
     {":3:", "iterator_types must list quoted strings"}},
    {"invalid_ir",
     "func.func @f(%a: tensor<4x5xf32>, %b: tensor<4x4xf32>) -> "
     "tensor<4x4xf32> {\n"
     "  %c = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<4x4xf32>) "
     "outs(%b : tensor<4x4xf32>) -> tensor<4x4xf32>\n"
     "  return %c : tensor<4x4xf32>\n}\n",
     {":2:"}},
};

std::ostream &operator<<(std::ostream &os, const FileCase &c) {
  return os << c.name;
}

class BadFileTest : public ::testing::TestWithParam<FileCase> {};

TEST_P(BadFileTest, EveryCommandRejectsItWithOneLine) {
  const FileCase &c = GetParam();
  ScratchDir scratch;
  std::string file = (scratch / (c.name + ".mlir")).string();
  writeFile(file, c.content);
  std::string out = (scratch / "out.mlir").string();
  std::string transform = (scratch / "t.mlir").string();
  std::vector<std::vector<std::string>> commands = {
      {"inspect", file},
      {"inspect", file, "--json"},
      {"apply", file, "--schedule", "op0: stop", "-o", out, "--emit-transform",
       transform},
      {"measure", file, "--no-cache"},
  };
  for (const auto &args : commands) {
    SCOPED_TRACE(args[0]);
    RunResult run = runRlopt(args, scratch.path());
    // The file, and the line as `path:line:` where the case gives one.
    std::vector<std::string> mentions = {file};
    for (const std::string &text : c.mentions) {
      if (text[0] == ':')
        mentions[0] = file + text;
      else
        mentions.push_back(text);
    }
    expectUsageError(run, mentions);
  }
  // Nothing written besides the input.
  EXPECT_EQ(scratch.entries(), std::vector<std::string>{c.name + ".mlir"});
}

INSTANTIATE_TEST_SUITE_P(Files, BadFileTest, ::testing::ValuesIn(kFileCases),
                         [](const ::testing::TestParamInfo<FileCase> &info) {
                           return info.param.name;
                         });

TEST(BadInputTest, NonexistentFile) {
  ScratchDir scratch;
  std::string missing = (scratch / "missing.mlir").string();
  for (const char *command : {"inspect", "apply", "measure"}) {
    SCOPED_TRACE(command);
    std::vector<std::string> args = {command, missing};
    if (std::string(command) == "apply")
      args.insert(args.end(), {"--schedule", "op0: stop", "-o",
                               (scratch / "out.mlir").string()});
    if (std::string(command) == "measure")
      args.push_back("--no-cache");
    expectUsageError(runRlopt(args, scratch.path()),
                     {missing + ": cannot read file"});
  }
  EXPECT_TRUE(scratch.entries().empty());
}

TEST(BadInputTest, DirectoryInsteadOfFile) {
  ScratchDir scratch;
  std::string dir = scratch.path().string();
  expectUsageError(runRlopt({"inspect", dir}, scratch.path()),
                   {dir + ": cannot read file"});
}

TEST(BadInputTest, DbInMissingDirectory) {
  ScratchDir scratch;
  std::string db = (scratch / "no" / "such" / "dir" / "m.sqlite").string();
  expectUsageError(
      runRlopt({"measure", fixturePath("add"), "--db", db}, scratch.path()),
      {db, "does not exist"});
  EXPECT_FALSE(fs::exists(scratch / "no"));
}

TEST(BadInputTest, UnknownOption) {
  ScratchDir scratch;
  expectUsageError(runRlopt({"apply", fixturePath("matmul"), "--schedule",
                             "op1: stop", "--bogus"},
                            scratch.path()),
                   {"unknown option --bogus"});
  expectUsageError(
      runRlopt({"measure", fixturePath("matmul"), "--frobnicate=3"},
               scratch.path()),
      {"unknown option --frobnicate"});
  expectUsageError(
      runRlopt({"inspect", fixturePath("matmul"), "--schedule", "op1: stop"},
               scratch.path()),
      {"unknown option --schedule"});
}

TEST(BadInputTest, BadOptionValues) {
  ScratchDir scratch;
  expectUsageError(
      runRlopt({"measure", fixturePath("add"), "--threads", "0", "--no-cache"},
               scratch.path()),
      {"--threads", "'0'"});
  expectUsageError(
      runRlopt({"measure", fixturePath("add"), "--seed", "x", "--no-cache"},
               scratch.path()),
      {"--seed", "'x'"});
  expectUsageError(
      runRlopt({"apply", fixturePath("add"), "--schedule"}, scratch.path()),
      {"--schedule needs a value"});
  expectUsageError(runRlopt({"apply", fixturePath("add")}, scratch.path()),
                   {"--schedule is required"});
  expectUsageError(
      runRlopt({"apply", "--schedule", "op0: stop"}, scratch.path()),
      {"expected one FILE"});
  expectUsageError(runRlopt({"frobnicate"}, scratch.path()),
                   {"unknown command 'frobnicate'"});
}

//===----------------------------------------------------------------------===//
// Schedules rlopt cannot apply
//===----------------------------------------------------------------------===//

struct ScheduleCase {
  std::string name;
  std::string fixture;
  std::string schedule;
  std::vector<std::string> mentions;
};

const std::vector<ScheduleCase> kScheduleCases = {
    {"missing_op", "matmul", "op7: stop", {"op7", "op0..op1"}},
    {"wrong_count",
     "matmul",
     "op1: tile(8,8)",
     {"op1: tile", "expects 3 parameters", "got 2"}},
    {"negative_size", "matmul", "op1: tile(-8,8,8)", {"negative size -8"}},
    {"enormous_size",
     "matmul",
     "op1: tile(99999999999,8,8)",
     {"size 99999999999 exceeds loop 0 of range 64"}},
    {"integer_overflow",
     "matmul",
     "op1: tile(99999999999999999999,1,1)",
     {"schedule:11:", "integer out of range"}},
    {"missing_colon", "matmul", "op1 tile(1,2", {"schedule:5:", "':'"}},
    {"not_an_integer",
     "matmul",
     "op1: tile(a)",
     {"schedule:11:", "expected an integer"}},
    {"unclosed", "matmul", "op1: tile(1,2", {"schedule:14:", "')'"}},
    {"bad_op_id", "matmul", "x: stop", {"schedule:1:", "bad op id 'x'"}},
    {"twice", "matmul", "op1: stop; op1: stop", {"op1 is scheduled twice"}},
    {"unknown_transformation",
     "matmul",
     "op1: frobnicate",
     {"frobnicate", "unknown transformation", "tile"}},
    {"not_a_permutation",
     "matmul",
     "op1: interchange(0,0,1)",
     {"op1: interchange", "not a permutation"}},
    {"parallel_reduction",
     "matmul",
     "op1: parallelize(8,8,8)",
     {"op1: parallelize", "loop 2 is a reduction"}},
    {"vectorize_too_large",
     "matmul",
     "op1: vectorize",
     {"op1: vectorize", "262144 points", "max_vector_elements"}},
    {"after_vectorize",
     "matmul",
     "op1: tile(8,8,8) vectorize tile(4,4,4)",
     {"already vectorized"}},
    {"img2col_on_matmul",
     "matmul",
     "op1: img2col",
     {"op1: img2col", "not linalg.matmul"}},
    {"fuse_without_producer",
     "matmul",
     "op0: fuse(8,8)",
     {"op0: fuse", "no untransformed Linalg producer"}},
    {"conv_vectorize_untiled",
     "conv_nhwc",
     "op1: tile(1,2,2,4,3,3,8) vectorize",
     {"op1: vectorize", "tile the output row and window row loops"}},
    {"conv_interchange",
     "conv_nhwc",
     "op1: interchange(0,2,1,3,4,5,6)",
     {"op1: interchange", "img2col first"}},
};

std::ostream &operator<<(std::ostream &os, const ScheduleCase &c) {
  return os << c.fixture << " '" << c.schedule << "'";
}

class BadScheduleTest : public ::testing::TestWithParam<ScheduleCase> {};

TEST_P(BadScheduleTest, ApplyAndMeasureRejectItWithOneLine) {
  const ScheduleCase &c = GetParam();
  ScratchDir scratch;
  std::string out = (scratch / "out.mlir").string();
  std::string transform = (scratch / "t.mlir").string();
  {
    SCOPED_TRACE("apply");
    expectUsageError(
        runRlopt({"apply", fixturePath(c.fixture), "--schedule", c.schedule,
                  "-o", out, "--emit-transform", transform},
                 scratch.path()),
        c.mentions);
  }
  {
    SCOPED_TRACE("measure");
    expectUsageError(runRlopt({"measure", fixturePath(c.fixture), "--schedule",
                               c.schedule, "--no-cache"},
                              scratch.path()),
                     c.mentions);
  }
  // A rejected schedule leaves no output, transform or temporary file.
  EXPECT_TRUE(scratch.entries().empty());
}

INSTANTIATE_TEST_SUITE_P(
    Schedules, BadScheduleTest, ::testing::ValuesIn(kScheduleCases),
    [](const ::testing::TestParamInfo<ScheduleCase> &info) {
      return info.param.name;
    });

TEST(BadInputTest, RejectedScheduleKeepsAnExistingOutput) {
  // -o names a file from an earlier run: a failed run must not touch it.
  ScratchDir scratch;
  std::string out = (scratch / "out.mlir").string();
  writeFile(out, "earlier result\n");
  expectUsageError(runRlopt({"apply", fixturePath("matmul"), "--schedule",
                             "op1: tile(8,8)", "-o", out},
                            scratch.path()),
                   {"expects 3 parameters"});
  EXPECT_EQ(readFile(out), "earlier result\n");
  EXPECT_EQ(scratch.entries(), std::vector<std::string>{"out.mlir"});
}

// Errors about a schedule that does not fit the program name the program.
TEST(BadInputTest, ScheduleErrorsNameTheProgramFile) {
  ScratchDir scratch;
  std::string file = fixturePath("matmul");
  for (const char *schedule :
       {"op7: stop", "op1: tile(8,8)", "op1: tile(99999999999,8,8)",
        "op1: parallelize(8,8,8)", "op1: vectorize", "op1: img2col"}) {
    SCOPED_TRACE(schedule);
    for (const char *command : {"apply", "measure"}) {
      SCOPED_TRACE(command);
      std::vector<std::string> args = {command, file, "--schedule", schedule};
      if (std::string(command) == "measure")
        args.push_back("--no-cache");
      RunResult run = runRlopt(args, scratch.path());
      expectUsageError(run, {file});
    }
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Inputs that are not regular files, and IR that fails the verifier
//===----------------------------------------------------------------------===//

namespace {

TEST(BadInputTest, FifoOrDeviceGivenAsInputIsRefusedAtOnce) {
  ScratchDir scratch;
  // Names every command takes; `passes run` also compiles a .c file.
  fs::path fifo = scratch / "fifo.ll";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  fs::path fifoC = scratch / "fifo.c";
  ASSERT_EQ(mkfifo(fifoC.c_str(), 0600), 0);
  fs::path zero = scratch / "zero.ll";
  fs::create_symlink("/dev/zero", zero);
  // Nothing ever writes to the FIFO: a reader that opens it blocks forever.
  const std::vector<std::vector<std::string>> commands = {
      {"inspect"}, {"graph", "inspect"}, {"passes", "run"}};
  for (const auto &command : commands)
    for (const auto &[input, kind] :
         {std::pair{fifo, "a FIFO"}, std::pair{fifoC, "a FIFO"},
          std::pair{zero, "a device"}}) {
      std::vector<std::string> args = command;
      args.push_back(input.string());
      SCOPED_TRACE(args[0] + " " + args.back());
      expectUsageError(runRlopt(args, scratch.path()),
                       {input.string() + ": cannot read file: " + kind});
    }
}

TEST(BadInputTest, LlvmIrThatFailsTheVerifierIsRefusedOnLoad) {
  ScratchDir scratch;
  // Parses, but %x does not dominate its use; passes loop on such IR.
  writeFile(scratch / "bad.ll", R"(define i32 @f(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %x = add i32 1, 2
  br label %b
b:
  ret i32 %x
}
)");
  std::string path = (scratch / "bad.ll").string();
  expectUsageError(
      runRlopt({"passes", "run", path, "--passes", "instcombine"},
               scratch.path()),
      {path + ": invalid IR: Instruction does not dominate all uses!"});
}

} // namespace
