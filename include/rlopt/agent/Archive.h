#ifndef RLOPT_AGENT_ARCHIVE_H
#define RLOPT_AGENT_ARCHIVE_H

// Policy, checkpoint and optimizer files go through the same atomic write
// and the same checked read as every other file rlopt writes and reads.

#include "rlopt/agent/PickleCheck.h"
#include "rlopt/core/File.h"

#include <nlohmann/json.hpp>
#include <torch/serialize.h>

#include <sstream>

namespace rlopt {

/// Serializes `archive` and writes it to `path` atomically; `what` names the
/// file in the error ("policy", "checkpoint", ...).
inline Status saveArchive(torch::serialize::OutputArchive &archive,
                          const std::string &path, const std::string &what) {
  std::ostringstream bytes;
  try {
    archive.save_to(bytes);
  } catch (const std::exception &) {
    return makeError(path + ": cannot serialize the " + what);
  }
  if (Status s = writeFileAtomically(path, bytes.str()); !s)
    return makeError(s.error().message + "; the " + what + " was not saved");
  return Status::success();
}

/// Reads `path` (a regular file only) into `archive`; `what` names the file
/// in the error. LibTorch reports a damaged archive with c10::Error or, from
/// its TorchScript unpickler, torch::jit::ErrorReport: both are caught. It
/// allocates whatever sizes the file declares and reads records without
/// their checksums, though, so sizes the file cannot hold and records that
/// do not match their CRC-32 are refused before it reads any
/// (PickleCheck.h).
inline Status loadArchive(torch::serialize::InputArchive &archive,
                          const std::string &path, const std::string &what) {
  auto bytes = readRegularFile(path);
  if (!bytes)
    return bytes.error();
  std::string unreadable = path + ": not a readable rlopt " + what + " file";
  if (!archiveIsWhole(bytes.value()))
    return makeError(unreadable);
  std::istringstream in(bytes.takeValue());
  try {
    archive.load_from(in);
  } catch (const std::exception &) {
    return makeError(unreadable);
  }
  return Status::success();
}

/// Stores `meta` in `archive` as the JSON text every rlopt archive carries
/// under "meta": its format, and what its tensors were made for.
inline void writeArchiveMeta(torch::serialize::OutputArchive &archive,
                             const nlohmann::json &meta) {
  archive.write("meta", c10::IValue(meta.dump()));
}

/// Loads `path` into `archive` (loadArchive) and returns its metadata, an
/// object whose "format" is `format`. `what` names the file ("policy",
/// "checkpoint"); `otherFormat` is the error for another format ("not a
/// discrete-agent policy").
inline Result<nlohmann::json>
loadArchiveWithMeta(torch::serialize::InputArchive &archive,
                    const std::string &path, const std::string &what,
                    const std::string &format, const std::string &otherFormat) {
  if (Status s = loadArchive(archive, path, what); !s)
    return s.error();
  c10::IValue text;
  if (!archive.try_read("meta", text) || !text.isString())
    return makeError(path + ": not an rlopt " + what + " (no metadata)");
  auto meta = nlohmann::json::parse(text.toStringRef(), nullptr, false);
  if (!meta.is_object() || meta.value("format", nlohmann::json()) != format)
    return makeError(path + ": " + otherFormat);
  return meta;
}

} // namespace rlopt

#endif
