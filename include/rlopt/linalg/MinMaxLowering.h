// NaN-propagating minimums and maximums in fewer instructions than LLVM 19
// lowers them to on x86.
#ifndef RLOPT_LINALG_MINMAXLOWERING_H
#define RLOPT_LINALG_MINMAXLOWERING_H

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace rlopt::linalg {

/// Rewrites the calls of `llvm.maximum` and `llvm.minimum` in `module`
/// (what `arith.maximumf` and `arith.minimumf` lower to: NaN if either
/// operand is NaN, -0 below +0), each of which LLVM 19 lowers on x86 to
/// about six instructions a register:
/// - with a constant operand that is no NaN (a relu's 0, a relu6's 6), as
///   one compare and a select, on any CPU;
/// - otherwise, where `machine` targets x86 with AVX-512F and DQ (and VL
///   for 256-bit vectors), each vector that fills whole registers as
///   VRANGEPS / VRANGEPD, which order zeros, infinities and denormals the
///   same way but return the other operand for a NaN, and one masked add
///   that puts the NaN back: three instructions.
/// Returns the number of calls rewritten.
unsigned lowerMinimumsAndMaximums(llvm::Module &module,
                                  const llvm::TargetMachine &machine);

} // namespace rlopt::linalg

#endif
