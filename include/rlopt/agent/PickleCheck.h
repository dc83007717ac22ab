#ifndef RLOPT_AGENT_PICKLECHECK_H
#define RLOPT_AGENT_PICKLECHECK_H

// A look at a LibTorch archive before LibTorch reads it. LibTorch trusts
// what a file declares: PyTorchStreamReader::getRecord allocates a record's
// declared size before reading it, Unpickler::readBytes reserves a string's
// declared length before reading it, a LONG_BINPUT memo index sizes the memo
// table, and its zip reader skips the CRC-32 of each record. One damaged
// number in a policy file would make it allocate gigabytes, and one damaged
// byte of its debug information crashes it; these checks refuse both,
// before LibTorch allocates anything.

#include <string_view>

namespace rlopt {

/// True when `pickle`, an opcode stream of pickle protocol 0 to 5, reaches
/// STOP with every opcode known and every argument whole: no length prefix
/// declares more bytes than follow it, no FRAME more than remain, and no
/// LONG_BINPUT memo index is as large as the pickle (picklers number memo
/// entries from 0, each with its own opcode, so a real index is smaller).
bool pickleLengthsFit(std::string_view pickle);

/// False when the zip archive `archive` declares a record larger than it can
/// hold (a stored record longer than the archive, a deflated one more than
/// 1032 times its compressed size, deflate's limit), holds a record whose
/// content does not match its CRC-32 (LibTorch's zip reader does not check
/// it), or holds a pickle record (a name ending in "pkl": data.pkl,
/// constants.pkl, *.debug_pkl) that is not stored or fails
/// pickleLengthsFit. It finds the records as LibTorch's zip reader (miniz)
/// does; what it cannot follow, LibTorch refuses too, so that is left to
/// LibTorch.
bool archiveIsWhole(std::string_view archive);

} // namespace rlopt

#endif
