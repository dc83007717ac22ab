#ifndef RLOPT_LINALG_PROGRAM_H
#define RLOPT_LINALG_PROGRAM_H

#include "rlopt/core/Result.h"
#include "rlopt/linalg/Analysis.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace rlopt::linalg {

struct LoadOptions {
  unsigned maxLoops = 8; ///< ops with more loops are rejected
  /// 1 x 1 NCHW convolutions read as the matmuls they are (Normalize.h).
  /// Off, the program is read as written: what a hand-written transform
  /// script, which names the ops as the file has them, needs.
  bool pointwiseConvolutionsAsMatmuls = true;
};

/// A validated Linalg program: one function on static-shaped f32/f64
/// tensors whose body holds ops rlopt can schedule.
struct Program {
  std::string path;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::vector<OpInfo> ops;

  mlir::func::FuncOp entry() const;
  const OpInfo *findOp(llvm::StringRef id) const;
};

/// Parses and validates. Every error is one line: `path:line: what is wrong`.
Result<Program> loadProgram(mlir::MLIRContext &context, const std::string &path,
                            const LoadOptions &options = {});
Result<Program> parseProgram(mlir::MLIRContext &context, llvm::StringRef text,
                             const std::string &name,
                             const LoadOptions &options = {});

/// The module's text. Of a loaded program, the IR a transform script built
/// for it applies to: the file as rlopt read it, after Normalize.h.
std::string printedModule(mlir::ModuleOp module);

/// `path:line: ` for diagnostics about `op`.
std::string locationPrefix(mlir::Operation *op, const std::string &path);

} // namespace rlopt::linalg

#endif
