#ifndef RLOPT_AGENT_ARCHIVE_H
#define RLOPT_AGENT_ARCHIVE_H

// Policy, checkpoint and optimizer files go through the same atomic write
// and the same checked read as every other file rlopt writes and reads.

#include "rlopt/agent/PickleCheck.h"
#include "rlopt/core/File.h"

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
/// allocates whatever sizes the file declares, though, so sizes the file
/// cannot hold are refused before it reads any (PickleCheck.h).
inline Status loadArchive(torch::serialize::InputArchive &archive,
                          const std::string &path, const std::string &what) {
  auto bytes = readRegularFile(path);
  if (!bytes)
    return bytes.error();
  std::string unreadable = path + ": not a readable rlopt " + what + " file";
  if (!archiveSizesFit(bytes.value()))
    return makeError(unreadable);
  std::istringstream in(bytes.takeValue());
  try {
    archive.load_from(in);
  } catch (const std::exception &) {
    return makeError(unreadable);
  }
  return Status::success();
}

} // namespace rlopt

#endif
