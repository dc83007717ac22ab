// The look at a LibTorch archive before LibTorch reads it: pickles Python
// writes pass, a length or size a file cannot hold is refused, and a policy
// file damaged that way is a one-line error instead of a huge allocation.
#include "rlopt/agent/PickleCheck.h"
#include "rlopt/agent/Archive.h"

#include "../tools/ToolTestUtil.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <string>
#include <string_view>

using namespace std::literals;
using rlopt::archiveIsWhole;
using rlopt::pickleLengthsFit;
using rlopt::tool::testing::readFile;
using rlopt::tool::testing::ScratchDir;
using rlopt::tool::testing::writeFile;

namespace {

// pickle.dumps({'name': 'policy', 'sizes': [3, -7, 70000, 2**40],
//               'scale': 0.5, 'flags': (True, False, None),
//               'blob': b'\x00\x01.\n'}, protocol=P) from Python 3.11; the
// blob puts STOP and newline bytes inside arguments.
constexpr std::string_view kProtocol0 =
    "(dp0\nVname\np1\nVpolicy\np2\nsVsizes\np3\n(lp4\nI3\naI-7\naI70000\naL"
    "1099511627776L\nasVscale\np5\nF0.5\nsVflags\np6\n(I01\nI00\nNtp7\nsVblob"
    "\np8\nc_codecs\nencode\np9\n(V\\u0000\x01.\\u000a\np10\nVlatin1\np11\ntp"
    "12\nRp13\ns."sv;
constexpr std::string_view kProtocol2 =
    "\x80\x02}q\x00(X\x04\x00\x00\x00nameq\x01X\x06\x00\x00\x00policyq\x02X"
    "\x05\x00\x00\x00sizesq\x03]q\x04(K\x03J\xf9\xff\xff\xffJp\x11\x01\x00"
    "\x8a\x06\x00\x00\x00\x00\x00\x01"
    "eX\x05\x00\x00\x00scaleq\x05G?\xe0\x00\x00\x00\x00\x00\x00X\x05\x00\x00"
    "\x00"
    "flagsq\x06\x88\x89N\x87q\x07X\x04\x00\x00\x00"
    "blobq\x08"
    "c_codecs\nencode\nq\x09X\x04\x00\x00\x00\x00\x01.\nq\nX\x06\x00\x00\x00"
    "latin1q\x0b\x86q\x0cRq\x0du."sv;
constexpr std::string_view kProtocol4 =
    "\x80\x04\x95"
    "a\x00\x00\x00\x00\x00\x00\x00}\x94(\x8c\x04name\x94\x8c\x06policy\x94"
    "\x8c\x05sizes\x94]\x94(K\x03J\xf9\xff\xff\xffJp\x11\x01\x00\x8a\x06\x00"
    "\x00\x00\x00\x00\x01"
    "e\x8c\x05scale\x94G?\xe0\x00\x00\x00\x00\x00\x00\x8c\x05"
    "flags\x94\x88\x89N\x87\x94\x8c\x04"
    "blob\x94"
    "C\x04\x00\x01.\n\x94u."sv;

void putLE32(std::string &bytes, size_t at, uint32_t value) {
  for (int i = 0; i < 4; ++i)
    bytes[at + i] = static_cast<char>(value >> (8 * i) & 0xFF);
}

uint32_t readLE(const std::string &bytes, size_t at, int width) {
  uint32_t value = 0;
  for (int i = width - 1; i >= 0; --i)
    value = value << 8 | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

/// The offset of the central directory entry whose name ends in `suffix`
/// (archives this test writes are small: no zip64 numbers needed).
size_t directoryEntry(const std::string &zip, std::string_view suffix) {
  size_t end = zip.rfind("PK\5\6"sv);
  EXPECT_NE(end, std::string::npos);
  size_t at = readLE(zip, end + 16, 4);
  for (size_t entry = 0; entry < readLE(zip, end + 10, 2); ++entry) {
    size_t nameSize = readLE(zip, at + 28, 2);
    std::string_view name(zip.data() + at + 46, nameSize);
    if (name.size() >= suffix.size() &&
        name.substr(name.size() - suffix.size()) == suffix)
      return at;
    at += 46 + nameSize + readLE(zip, at + 30, 2) + readLE(zip, at + 32, 2);
  }
  ADD_FAILURE() << "no record named *" << suffix;
  return 0;
}

/// `zip` with the CRC-32 of its stored record named *`suffix` made to
/// match the record's content again, in the directory and the local header:
/// a damaged record that only the other checks can catch.
std::string withMatchingCrc(std::string zip, std::string_view suffix) {
  size_t entry = directoryEntry(zip, suffix);
  size_t local = readLE(zip, entry + 42, 4);
  size_t dataAt =
      local + 30 + readLE(zip, local + 26, 2) + readLE(zip, local + 28, 2);
  uint32_t size = readLE(zip, entry + 24, 4);
  uint32_t crc = static_cast<uint32_t>(
      crc32(0, reinterpret_cast<const Bytef *>(zip.data() + dataAt), size));
  putLE32(zip, entry + 16, crc);
  putLE32(zip, local + 14, crc);
  return zip;
}

/// `pickle` with the 4-byte length of its BINUNICODE `text` replaced.
std::string withUnicodeLength(std::string pickle, std::string_view text,
                              uint32_t length) {
  std::string opcode = "X    " + std::string(text);
  putLE32(opcode, 1, static_cast<uint32_t>(text.size()));
  size_t at = pickle.find(opcode);
  EXPECT_NE(at, std::string::npos) << "no BINUNICODE " << text;
  if (at != std::string::npos)
    putLE32(pickle, at + 1, length);
  return pickle;
}

TEST(PickleCheck, PicklesPythonWritesPass) {
  for (std::string_view pickle : {kProtocol0, kProtocol2, kProtocol4})
    EXPECT_TRUE(pickleLengthsFit(pickle)) << pickle;
  // Bytes after STOP are not the pickle's.
  EXPECT_TRUE(pickleLengthsFit(std::string(kProtocol2) + "\xff garbage"));
}

TEST(PickleCheck, ALengthBeyondThePickleFails) {
  std::string damaged =
      withUnicodeLength(std::string(kProtocol2), "policy", 0xFFFFFFF0);
  EXPECT_FALSE(pickleLengthsFit(damaged));

  // The protocol 4 FRAME frames the 0x61 bytes after it: one more is too many.
  std::string frame(kProtocol4);
  ASSERT_EQ(frame[3], '\x61');
  frame[3] = '\x62';
  EXPECT_FALSE(pickleLengthsFit(frame));
  // Lengths of 1 and 8 bytes.
  EXPECT_FALSE(pickleLengthsFit("\x80\x02U\x05"
                                "abc."sv)); // SHORT_BINSTRING
  EXPECT_FALSE(pickleLengthsFit("\x80\x04\x8d\x00\x00\x00\x00\x01\x00\x00\x00"
                                "abc."sv)); // BINUNICODE8
  // LONG4 and BINSTRING lengths are signed: a negative one fails.
  EXPECT_FALSE(pickleLengthsFit("\x80\x02T\xff\xff\xff\xff."sv));
}

TEST(PickleCheck, TruncatedOrUnknownFails) {
  for (std::string_view pickle : {kProtocol0, kProtocol2, kProtocol4})
    for (size_t size = 0; size < pickle.size(); ++size)
      EXPECT_FALSE(pickleLengthsFit(pickle.substr(0, size))) << size;
  EXPECT_FALSE(pickleLengthsFit("\x80\x02\xff."sv)) << "no opcode 0xff";
  EXPECT_FALSE(pickleLengthsFit("\x80\x02}"sv)) << "no STOP";
}

TEST(PickleCheck, AMemoIndexBeyondThePickleFails) {
  // LibTorch grows its memo table to the index of a LONG_BINPUT.
  EXPECT_TRUE(pickleLengthsFit("\x80\x02}r\x00\x00\x00\x00."sv));
  EXPECT_FALSE(pickleLengthsFit("\x80\x02}r\x00\x00\x00\x10."sv));
}

class PolicyArchive : public ::testing::Test {
protected:
  void SetUp() override {
    torch::serialize::OutputArchive archive;
    archive.write("meta", c10::IValue(std::string("rlopt-test-policy")));
    archive.write("weight", torch::arange(6, torch::kFloat).reshape({2, 3}));
    ASSERT_TRUE(rlopt::saveArchive(archive, good, "policy").ok());
    bytes = readFile(good);
  }

  /// loadArchive's answer for `damaged`, which must be its one-line error.
  void expectRefused(const std::string &damaged) {
    std::string path = (scratch / "damaged.pt").string();
    writeFile(path, damaged);
    torch::serialize::InputArchive archive;
    rlopt::Status loaded = rlopt::Status::success();
    EXPECT_NO_THROW(loaded = rlopt::loadArchive(archive, path, "policy"));
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().message,
              path + ": not a readable rlopt policy file");
  }

  ScratchDir scratch;
  std::string good = (scratch / "policy.pt").string();
  std::string bytes;
};

TEST_F(PolicyArchive, ASavedPolicyLoads) {
  EXPECT_TRUE(archiveIsWhole(bytes));
  torch::serialize::InputArchive archive;
  rlopt::Status loaded = rlopt::loadArchive(archive, good, "policy");
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  torch::Tensor weight;
  archive.read("weight", weight);
  EXPECT_TRUE(
      torch::equal(weight, torch::arange(6, torch::kFloat).reshape({2, 3})));
}

TEST_F(PolicyArchive, TheShippedPoliciesPass) {
  for (const char *name : {"discrete_ppo_autophase.pt", "linalg_tiny.pt"}) {
    std::string path =
        std::string(RLOPT_TEST_DATA) + "/../fuzz/corpus/fuzz_policy/" + name;
    EXPECT_TRUE(archiveIsWhole(readFile(path))) << path;
  }
}

TEST_F(PolicyArchive, ALengthBeyondItsPickleIsAOneLineError) {
  // The key "weight" is a BINUNICODE in data.pkl.
  std::string damaged = withMatchingCrc(
      withUnicodeLength(bytes, "weight", 0xFFFFFFF0), "/data.pkl");
  ASSERT_NE(damaged, bytes);
  EXPECT_FALSE(archiveIsWhole(damaged));
  expectRefused(damaged);
}

TEST_F(PolicyArchive, AChangedByteInsideARecordIsAOneLineError) {
  // One byte of the code record, whose CRC-32 no longer matches: LibTorch
  // would read it unchecked.
  std::string damaged = bytes;
  size_t code = damaged.find("class ");
  ASSERT_NE(code, std::string::npos);
  damaged[code] = 'k';
  EXPECT_FALSE(archiveIsWhole(damaged));
  expectRefused(damaged);
  EXPECT_TRUE(archiveIsWhole(withMatchingCrc(damaged, ".py")));
}

TEST_F(PolicyArchive, ARecordLargerThanTheArchiveIsAOneLineError) {
  // Without a zip64 field, 0xFFFFFFFF is what miniz takes as the size.
  std::string stored = bytes;
  size_t entry = directoryEntry(stored, "/data/0");
  putLE32(stored, entry + 20, 0xFFFFFFFF);
  putLE32(stored, entry + 24, 0xFFFFFFFF);
  EXPECT_FALSE(archiveIsWhole(stored));
  expectRefused(stored);

  // A deflated record may expand 1032 times, no more. (This archive's code
  // is too small for LibTorch to deflate: call it deflated.)
  std::string deflated = bytes;
  entry = directoryEntry(deflated, ".py");
  deflated[entry + 10] = 8;
  uint32_t compressed = readLE(deflated, entry + 20, 4);
  putLE32(deflated, entry + 24, compressed * 1032 + 1);
  EXPECT_FALSE(archiveIsWhole(deflated));
  expectRefused(deflated);
}

TEST_F(PolicyArchive, TheFuzzersBadFreeInputIsAOneLineError) {
  // A fuzzer's input with damaged TorchScript code and a damaged string
  // length in its debug information: LibTorch 1.13 freed memory it never
  // allocated while describing the parse error (free(): invalid size).
  std::string seed = std::string(RLOPT_TEST_DATA) +
                     "/../fuzz/corpus/fuzz_policy/"
                     "bad-free-debug-pkl-string-length.pt";
  EXPECT_FALSE(archiveIsWhole(readFile(seed)));
  expectRefused(readFile(seed));
}

TEST_F(PolicyArchive, ACompressedPickleIsAOneLineError) {
  std::string damaged = bytes;
  damaged[directoryEntry(damaged, "/data.pkl") + 10] = 8;
  EXPECT_FALSE(archiveIsWhole(damaged));
  expectRefused(damaged);
}

TEST_F(PolicyArchive, TheFuzzersOutOfMemoryInputIsAOneLineError) {
  // A fuzzer's input whose data.pkl declares a 4 GB BINUNICODE.
  std::string seed = std::string(RLOPT_TEST_DATA) +
                     "/../fuzz/corpus/fuzz_policy/"
                     "oom-data-pkl-binunicode-length.pt";
  EXPECT_FALSE(archiveIsWhole(readFile(seed)));
  expectRefused(readFile(seed));
}

TEST(PickleCheck, WhatIsNotAZipIsLeftToLibTorch) {
  EXPECT_TRUE(archiveIsWhole(""));
  EXPECT_TRUE(archiveIsWhole("this is not a policy\n"));
}

} // namespace
