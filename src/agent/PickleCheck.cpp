#include "rlopt/agent/PickleCheck.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace rlopt {

namespace {

/// True when `bytes` holds `count` bytes from `at` on.
bool holds(std::string_view bytes, uint64_t at, uint64_t count) {
  return at <= bytes.size() && count <= bytes.size() - at;
}

/// The little-endian unsigned number in the `width` bytes at `at`, which the
/// caller has checked are there.
uint64_t readLE(std::string_view bytes, uint64_t at, unsigned width) {
  uint64_t value = 0;
  for (unsigned i = width; i-- > 0;)
    value = value << 8 | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

// ---- Pickles ---------------------------------------------------------------

/// What follows an opcode. The formats are those of Python's
/// Lib/pickletools.py, grouped by how far they reach.
enum class Kind : uint8_t {
  Unknown,   // not an opcode: the stream is damaged
  Fixed,     // n bytes (n = 0: no argument)
  Lines,     // n newline-terminated lines of text
  Counted,   // an n-byte length, then that many bytes
  Frame,     // an n-byte length of the opcodes that follow, which it frames
  MemoIndex, // an n-byte memo index
};
struct Arg {
  Kind kind = Kind::Unknown;
  uint8_t n = 0;
};
constexpr Arg fixed(uint8_t n) { return {Kind::Fixed, n}; }
constexpr Arg lines(uint8_t n) { return {Kind::Lines, n}; }
constexpr Arg counted(uint8_t n) { return {Kind::Counted, n}; }

struct Opcode {
  unsigned char code;
  Arg arg;
};

/// Every opcode of protocols 0 to 5, each with its name and the protocol
/// that introduced it.
constexpr Opcode kOpcodes[] = {
    // No argument.
    {'(', fixed(0)},  // MARK 0
    {'.', fixed(0)},  // STOP 0
    {'0', fixed(0)},  // POP 0
    {'1', fixed(0)},  // POP_MARK 1
    {'2', fixed(0)},  // DUP 0
    {'N', fixed(0)},  // NONE 0
    {0x88, fixed(0)}, // NEWTRUE 2
    {0x89, fixed(0)}, // NEWFALSE 2
    {']', fixed(0)},  // EMPTY_LIST 1
    {'a', fixed(0)},  // APPEND 0
    {'e', fixed(0)},  // APPENDS 1
    {'l', fixed(0)},  // LIST 0
    {')', fixed(0)},  // EMPTY_TUPLE 1
    {'t', fixed(0)},  // TUPLE 0
    {0x85, fixed(0)}, // TUPLE1 2
    {0x86, fixed(0)}, // TUPLE2 2
    {0x87, fixed(0)}, // TUPLE3 2
    {'}', fixed(0)},  // EMPTY_DICT 1
    {'d', fixed(0)},  // DICT 0
    {'s', fixed(0)},  // SETITEM 0
    {'u', fixed(0)},  // SETITEMS 1
    {0x8f, fixed(0)}, // EMPTY_SET 4
    {0x90, fixed(0)}, // ADDITEMS 4
    {0x91, fixed(0)}, // FROZENSET 4
    {0x94, fixed(0)}, // MEMOIZE 4
    {0x93, fixed(0)}, // STACK_GLOBAL 4
    {'R', fixed(0)},  // REDUCE 0
    {'b', fixed(0)},  // BUILD 0
    {'o', fixed(0)},  // OBJ 1
    {0x81, fixed(0)}, // NEWOBJ 2
    {0x92, fixed(0)}, // NEWOBJ_EX 4
    {'Q', fixed(0)},  // BINPERSID 1
    {0x97, fixed(0)}, // NEXT_BUFFER 5
    {0x98, fixed(0)}, // READONLY_BUFFER 5
    // Fixed-size numbers.
    {0x80, fixed(1)}, // PROTO 2
    {'K', fixed(1)},  // BININT1 1
    {'h', fixed(1)},  // BINGET 1
    {'q', fixed(1)},  // BINPUT 1
    {0x82, fixed(1)}, // EXT1 2
    {'M', fixed(2)},  // BININT2 1
    {0x83, fixed(2)}, // EXT2 2
    {'J', fixed(4)},  // BININT 1
    {'j', fixed(4)},  // LONG_BINGET 1
    {0x84, fixed(4)}, // EXT4 2
    {'G', fixed(8)},  // BINFLOAT 1
    // LibTorch sizes its memo table by the index: see pickleLengthsFit.
    {'r', {Kind::MemoIndex, 4}}, // LONG_BINPUT 1
    // Text up to a newline.
    {'I', lines(1)}, // INT 0
    {'L', lines(1)}, // LONG 0
    {'F', lines(1)}, // FLOAT 0
    {'S', lines(1)}, // STRING 0
    {'V', lines(1)}, // UNICODE 0
    {'P', lines(1)}, // PERSID 0
    {'g', lines(1)}, // GET 0
    {'p', lines(1)}, // PUT 0
    {'c', lines(2)}, // GLOBAL 0: module, then name
    {'i', lines(2)}, // INST 0: module, then name
    // Length-prefixed; LONG4 and BINSTRING's lengths are signed, and a
    // negative one, read unsigned, exceeds any pickle.
    {0x8a, counted(1)},       // LONG1 2
    {'U', counted(1)},        // SHORT_BINSTRING 1
    {'C', counted(1)},        // SHORT_BINBYTES 3
    {0x8c, counted(1)},       // SHORT_BINUNICODE 4
    {0x8b, counted(4)},       // LONG4 2
    {'T', counted(4)},        // BINSTRING 1
    {'B', counted(4)},        // BINBYTES 3
    {'X', counted(4)},        // BINUNICODE 1
    {0x8e, counted(8)},       // BINBYTES8 4
    {0x8d, counted(8)},       // BINUNICODE8 4
    {0x96, counted(8)},       // BYTEARRAY8 5
    {0x95, {Kind::Frame, 8}}, // FRAME 4
};

constexpr std::array<Arg, 256> argTable() {
  std::array<Arg, 256> table{};
  for (const Opcode &op : kOpcodes)
    table[op.code] = op.arg;
  return table;
}
constexpr std::array<Arg, 256> kArgOf = argTable();

constexpr unsigned char kStop = '.';

// ---- Zip archives ----------------------------------------------------------
// Record layouts from PKWARE's APPNOTE.TXT, read the way miniz (LibTorch's
// zip reader, in mz_zip_reader_read_central_dir, mz_zip_file_stat_internal
// and mz_zip_reader_extract_to_mem_no_alloc) reads them.

constexpr std::string_view kEndSig("PK\5\6", 4);
constexpr std::string_view kZip64LocatorSig("PK\6\7", 4);
constexpr std::string_view kZip64EndSig("PK\6\6", 4);
constexpr std::string_view kEntrySig("PK\1\2", 4);
constexpr std::string_view kLocalSig("PK\3\4", 4);
constexpr uint64_t kEndSize = 22, kZip64LocatorSize = 20, kZip64EndSize = 56,
                   kEntrySize = 46, kLocalSize = 30;
constexpr uint64_t kZip64Marker = 0xFFFFFFFF;
constexpr uint64_t kStored = 0, kDeflated = 8;
/// Deflate spends at least two bits on a match of at most 258 bytes: at most
/// 1032 bytes out for a byte in.
constexpr uint64_t kMaxDeflateRatio = 1032;

bool sigAt(std::string_view bytes, uint64_t at, std::string_view sig) {
  return holds(bytes, at, sig.size()) && bytes.substr(at, sig.size()) == sig;
}

/// miniz matches record names ignoring ASCII case.
bool isPickleName(std::string_view name) {
  if (name.size() < 3)
    return false;
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; };
  std::string_view tail = name.substr(name.size() - 3);
  return lower(tail[0]) == 'p' && lower(tail[1]) == 'k' &&
         lower(tail[2]) == 'l';
}

/// True when `data`, a record's bytes as stored (`method`), holds
/// `uncompressed` bytes whose CRC-32 is `crc`. LibTorch's miniz is built
/// without CRC checks, and a damaged record it reads unchecked can reach
/// code that trusts it (its TorchScript debug-info unpickler frees what it
/// never allocated); a damaged record is refused here instead.
bool contentMatches(std::string_view data, uint64_t method,
                    uint64_t uncompressed, uint64_t crc) {
  auto crcOf = [](std::string_view bytes) {
    uLong sum = crc32(0, Z_NULL, 0);
    for (size_t at = 0; at < bytes.size();) {
      uInt chunk =
          static_cast<uInt>(std::min<size_t>(bytes.size() - at, uInt(1) << 30));
      sum =
          crc32(sum, reinterpret_cast<const Bytef *>(bytes.data() + at), chunk);
      at += chunk;
    }
    return uint64_t(sum);
  };
  if (method == kStored)
    return data.size() == uncompressed && crcOf(data) == crc;
  // Deflated: inflate into exactly the declared size, which the caller has
  // bounded by the compressed size.
  std::string out(uncompressed, '\0');
  z_stream stream{};
  if (inflateInit2(&stream, -MAX_WBITS) != Z_OK)
    return false;
  stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef *>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  int status = inflate(&stream, Z_FINISH);
  uint64_t produced = stream.total_out;
  inflateEnd(&stream);
  return status == Z_STREAM_END && produced == uncompressed &&
         crcOf(out) == crc;
}

/// A central directory entry marks a size or offset that does not fit 32
/// bits with 0xFFFFFFFF and keeps it in its zip64 extra field (id 1); this
/// reads it from there as miniz does. False when that field is malformed.
bool readZip64Fields(std::string_view extra, uint64_t &uncompressed,
                     uint64_t &compressed, uint64_t &localAt) {
  if (uncompressed != kZip64Marker && compressed != kZip64Marker &&
      localAt != kZip64Marker)
    return true;
  for (uint64_t at = 0; at < extra.size();) {
    if (!holds(extra, at, 4))
      return false;
    uint64_t id = readLE(extra, at, 2), size = readLE(extra, at + 2, 2);
    if (!holds(extra, at + 4, size))
      return false;
    if (id == 1) {
      std::string_view field = extra.substr(at + 4, size);
      uint64_t pos = 0;
      for (uint64_t *value : {&uncompressed, &compressed, &localAt}) {
        if (*value != kZip64Marker)
          continue;
        if (!holds(field, pos, 8))
          return false;
        *value = readLE(field, pos, 8);
        pos += 8;
      }
      return true;
    }
    at += 4 + size;
  }
  return true;
}

} // namespace

bool pickleLengthsFit(std::string_view pickle) {
  uint64_t at = 0;
  while (at < pickle.size()) {
    unsigned char code = pickle[at++];
    if (code == kStop)
      return true;
    Arg arg = kArgOf[code];
    switch (arg.kind) {
    case Kind::Unknown:
      return false;
    case Kind::Fixed:
      if (!holds(pickle, at, arg.n))
        return false;
      at += arg.n;
      break;
    case Kind::Lines:
      for (unsigned line = 0; line < arg.n; ++line) {
        size_t newline = pickle.find('\n', at);
        if (newline == std::string_view::npos)
          return false;
        at = newline + 1;
      }
      break;
    case Kind::Counted:
    case Kind::Frame:
    case Kind::MemoIndex: {
      if (!holds(pickle, at, arg.n))
        return false;
      uint64_t value = readLE(pickle, at, arg.n);
      at += arg.n;
      // Memo entries are numbered from 0, one opcode each, so a real index
      // is smaller than the pickle; a length must fit in what follows.
      bool fits = arg.kind == Kind::MemoIndex ? value < pickle.size()
                                              : holds(pickle, at, value);
      if (!fits)
        return false;
      if (arg.kind == Kind::Counted)
        at += value;
      break;
    }
    }
  }
  return false; // no STOP
}

bool archiveIsWhole(std::string_view zip) {
  // The end of central directory record: miniz takes the last signature
  // with room for the record after it.
  if (zip.size() < kEndSize)
    return true;
  size_t end = zip.rfind(kEndSig, zip.size() - kEndSize);
  if (end == std::string_view::npos)
    return true; // not a zip archive
  uint64_t entries = readLE(zip, end + 10, 2);
  uint64_t directorySize = readLE(zip, end + 12, 4);
  uint64_t directoryAt = readLE(zip, end + 16, 4);
  // A zip64 locator right before it points at a zip64 record, whose numbers
  // miniz uses instead (LibTorch writes one).
  if (end >= kZip64LocatorSize + kZip64EndSize &&
      sigAt(zip, end - kZip64LocatorSize, kZip64LocatorSig)) {
    uint64_t zip64End = readLE(zip, end - kZip64LocatorSize + 8, 8);
    if (holds(zip, zip64End, kZip64EndSize) &&
        sigAt(zip, zip64End, kZip64EndSig)) {
      entries = readLE(zip, zip64End + 32, 8);
      directorySize = readLE(zip, zip64End + 40, 8);
      directoryAt = readLE(zip, zip64End + 48, 8);
    }
  }
  if (!holds(zip, directoryAt, directorySize))
    return true; // miniz refuses the archive
  std::string_view directory = zip.substr(directoryAt, directorySize);

  uint64_t at = 0;
  for (uint64_t entry = 0; entry < entries; ++entry) {
    if (!holds(directory, at, kEntrySize) || !sigAt(directory, at, kEntrySig))
      return true; // miniz refuses the archive
    uint64_t method = readLE(directory, at + 10, 2);
    uint64_t crc = readLE(directory, at + 16, 4);
    uint64_t compressed = readLE(directory, at + 20, 4);
    uint64_t uncompressed = readLE(directory, at + 24, 4);
    uint64_t nameSize = readLE(directory, at + 28, 2);
    uint64_t extraSize = readLE(directory, at + 30, 2);
    uint64_t commentSize = readLE(directory, at + 32, 2);
    uint64_t localAt = readLE(directory, at + 42, 4);
    uint64_t entrySize = kEntrySize + nameSize + extraSize + commentSize;
    if (!holds(directory, at, entrySize))
      return true; // miniz refuses the archive
    std::string_view name = directory.substr(at + kEntrySize, nameSize);
    std::string_view extra =
        directory.substr(at + kEntrySize + nameSize, extraSize);
    at += entrySize;
    if (!readZip64Fields(extra, uncompressed, compressed, localAt))
      continue; // miniz cannot read this record

    // LibTorch allocates the uncompressed size before it reads a record.
    if (compressed > zip.size())
      return false;
    uint64_t most = method == kDeflated ? compressed * kMaxDeflateRatio
                                        : uint64_t(zip.size());
    if (uncompressed > most)
      return false;

    // LibTorch stores its pickles; a compressed one could hide any length.
    bool pickle = isPickleName(name);
    if (pickle && method != kStored)
      return false;
    if (method != kStored && method != kDeflated)
      continue; // miniz cannot read this record
    if (!holds(zip, localAt, kLocalSize) || !sigAt(zip, localAt, kLocalSig))
      continue; // miniz cannot read this record
    uint64_t dataAt = localAt + kLocalSize + readLE(zip, localAt + 26, 2) +
                      readLE(zip, localAt + 28, 2);
    uint64_t dataSize = method == kStored ? uncompressed : compressed;
    if (!holds(zip, dataAt, dataSize))
      continue; // miniz cannot read this record
    std::string_view data = zip.substr(dataAt, dataSize);
    if (!contentMatches(data, method, uncompressed, crc))
      return false;
    if (pickle && !pickleLengthsFit(data))
      return false;
  }
  return true;
}

} // namespace rlopt
