// NaN-propagating minimum and maximum in fewer instructions where the host
// has AVX-512DQ.
#ifndef RLOPT_LINALG_RANGEMINMAX_H
#define RLOPT_LINALG_RANGEMINMAX_H

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace rlopt::linalg {

/// Rewrites the vector calls of `llvm.maximum` and `llvm.minimum` (what
/// `arith.maximumf` and `arith.minimumf` lower to: NaN if either operand is
/// NaN, -0 below +0) in `module` as VRANGEPS / VRANGEPD, which order zeros,
/// infinities and denormals the same way but return the other operand for
/// a NaN, followed by one masked add that puts the NaN back. LLVM 19 lowers
/// each call to six instructions a vector; this is three. Does nothing
/// unless `machine` targets x86 with AVX-512F and DQ (256-bit vectors also
/// need VL); vectors whose lanes fill no whole register stay as they are.
/// Returns the number of calls rewritten.
unsigned lowerMinMaxWithRange(llvm::Module &module,
                              const llvm::TargetMachine &machine);

} // namespace rlopt::linalg

#endif
