#include "rlopt/linalg/Program.h"
#include "rlopt/core/File.h"
#include "rlopt/linalg/Normalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;

namespace rlopt::linalg {

func::FuncOp Program::entry() const {
  for (auto func : module.get().getOps<func::FuncOp>())
    if (!func.isExternal())
      return func;
  return nullptr;
}

const OpInfo *Program::findOp(llvm::StringRef id) const {
  for (const OpInfo &op : ops)
    if (op.id == id)
      return &op;
  return nullptr;
}

std::string printedModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

std::string locationPrefix(Operation *op, const std::string &path) {
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    return path + ":" + std::to_string(loc.getLine()) + ": ";
  return path + ": ";
}

static std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// What the host lacks to convert `element` in hardware, or nullopt. On
/// x86, f16 takes F16C and bf16 AVX-512 BF16; AArch64 has both.
static std::optional<std::string> missingHalfSupport(Type element) {
  if (!element.isF16() && !element.isBF16())
    return std::nullopt;
  if (!llvm::Triple(llvm::sys::getProcessTriple()).isX86())
    return std::nullopt;
  static const llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  const char *feature = element.isF16() ? "f16c" : "avx512bf16";
  if (features.lookup(feature))
    return std::nullopt;
  return std::string("a CPU with ") + feature + ", which this one lacks";
}

/// 1 TiB: far beyond any machine here, and far from overflowing int64.
constexpr int64_t kMaxTensorBytes = int64_t(1) << 40;

/// Checks one function argument or result type.
static std::optional<std::string> checkTensorType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return "type " + typeString(type) +
           " is not a ranked tensor (rlopt programs take and return tensors)";
  if (!tensor.hasStaticShape())
    return "dynamic shape in " + typeString(type) +
           " (rlopt needs static shapes)";
  if (llvm::is_contained(tensor.getShape(), 0))
    return "zero-sized dimension in " + typeString(type);
  Type element = tensor.getElementType();
  if (!element.isF32() && !element.isF64() && !element.isF16() &&
      !element.isBF16())
    return "element type " + typeString(element) + " in " + typeString(type) +
           " is not supported (f32, f64, f16 and bf16 only)";
  if (auto missing = missingHalfSupport(element))
    return "element type " + typeString(element) + " in " + typeString(type) +
           " needs " + *missing;
  // Checked before anything runs: the measurement worker allocates every
  // tensor, and a size that overflows would crash it instead.
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  for (int64_t dim : tensor.getShape())
    if (llvm::MulOverflow(bytes, dim, bytes) || bytes > kMaxTensorBytes)
      return typeString(type) + " is larger than " +
             std::to_string(kMaxTensorBytes >> 30) +
             " GiB, more than rlopt allocates for one tensor";
  return std::nullopt;
}

/// Top-level ops a program may hold besides the Linalg ops it schedules.
static bool isGlueOp(Operation *op) {
  return isa<arith::ConstantOp, tensor::EmptyOp, tensor::ExpandShapeOp,
             tensor::CollapseShapeOp, tensor::PadOp, tensor::ExtractSliceOp,
             tensor::InsertSliceOp, func::ReturnOp>(op);
}

static Status validate(Program &program, const LoadOptions &options) {
  const std::string &path = program.path;
  ModuleOp module = *program.module;
  unsigned bodies = 0;
  for (auto func : module.getOps<func::FuncOp>())
    bodies += !func.isExternal();
  if (bodies == 0)
    return makeError(path + ": no func.func with a body");
  func::FuncOp entry = program.entry();
  if (bodies > 1)
    return makeError(locationPrefix(entry, path) +
                     "more than one function; rlopt takes one function per "
                     "file");
  FunctionType type = entry.getFunctionType();
  for (auto [i, input] : llvm::enumerate(type.getInputs()))
    if (auto problem = checkTensorType(input))
      return makeError(locationPrefix(entry, path) + "argument " +
                       std::to_string(i) + " of @" + entry.getSymName().str() +
                       ": " + *problem);
  if (type.getNumResults() == 0)
    return makeError(locationPrefix(entry, path) + "@" +
                     entry.getSymName().str() +
                     " returns nothing; rlopt compares the returned tensors");
  for (auto [i, result] : llvm::enumerate(type.getResults()))
    if (auto problem = checkTensorType(result))
      return makeError(locationPrefix(entry, path) + "result " +
                       std::to_string(i) + " of @" + entry.getSymName().str() +
                       ": " + *problem);

  std::optional<Error> failure;
  entry.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<mlir::linalg::LinalgOp>(op)) {
      for (Type t : op->getOperandTypes()) {
        if (isa<MemRefType>(t)) {
          failure = makeError(locationPrefix(op, path) +
                              op->getName().getStringRef().str() +
                              " works on memrefs; rlopt schedules tensors");
          return WalkResult::interrupt();
        }
        if (auto tensor = dyn_cast<RankedTensorType>(t))
          if (auto problem = checkTensorType(tensor)) {
            failure =
                makeError(locationPrefix(op, path) +
                          op->getName().getStringRef().str() + ": " + *problem);
            return WalkResult::interrupt();
          }
      }
      return WalkResult::skip();
    }
    if (op->getParentOp() == entry.getOperation() || isGlueOp(op)) {
      if (!isGlueOp(op)) {
        failure = makeError(
            locationPrefix(op, path) + "unsupported op " +
            op->getName().getStringRef().str() +
            " (rlopt schedules Linalg ops on tensors, with arith.constant, "
            "tensor.empty, reshapes, pads and slices between them)");
        return WalkResult::interrupt();
      }
      // A pad's body yields its padding value: any scalar code lowers.
      return isa<tensor::PadOp>(op) ? WalkResult::skip()
                                    : WalkResult::advance();
    }
    failure = makeError(locationPrefix(op, path) + "unsupported op " +
                        op->getName().getStringRef().str());
    return WalkResult::interrupt();
  });
  if (failure)
    return *failure;

  program.ops = analyzeOps(module);
  if (program.ops.empty())
    return makeError(locationPrefix(entry, path) +
                     "no Linalg op to schedule in @" +
                     entry.getSymName().str());
  for (const OpInfo &op : program.ops) {
    if (op.numLoops() > options.maxLoops)
      return makeError(locationPrefix(op.op, path) + op.id + " (" + op.kind +
                       ") has " + std::to_string(op.numLoops()) +
                       " loops; the configuration allows at most " +
                       std::to_string(options.maxLoops) + " (max_loops)");
    for (int64_t range : op.loopRanges)
      if (range <= 0)
        return makeError(locationPrefix(op.op, path) + op.id +
                         " has a loop of non-positive or dynamic range");
  }
  return Status::success();
}

/// ` 'name'` for the generic-form op `"name"(...)` at `loc`, or "".
static std::string quotedOpName(const llvm::SourceMgr &sourceMgr,
                                Location loc) {
  auto fileLoc = dyn_cast<FileLineColLoc>(loc);
  if (!fileLoc || sourceMgr.getNumBuffers() == 0)
    return "";
  llvm::StringRef text =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  for (unsigned line = 1; line < fileLoc.getLine() && !text.empty(); ++line)
    text = text.split('\n').second;
  // The location points just past the quoted name: take the last quoted
  // string before it.
  text = text.split('\n').first.take_front(fileLoc.getColumn() - 1);
  size_t close = text.rfind('"');
  if (close == llvm::StringRef::npos || close == 0)
    return "";
  size_t open = text.rfind('"', close - 1);
  if (open == llvm::StringRef::npos)
    return "";
  return " '" + text.slice(open + 1, close).str() + "'";
}

/// MLIR 19's parser for Linalg named ops reads `linalg.NAME<ATTR>` and
/// casts ATTR to a dictionary without checking: `linalg.fill<3>` crashes it
/// (mlir-opt-19 too). Such text is refused before MLIR sees it.
static Status checkLinalgProperties(llvm::StringRef text,
                                    const std::string &path) {
  int line = 0;
  while (!text.empty()) {
    auto [current, rest] = text.split('\n');
    text = rest;
    ++line;
    llvm::StringRef code = current.split("//").first;
    for (size_t at = code.find("linalg."); at != llvm::StringRef::npos;
         at = code.find("linalg.", at + 1)) {
      // #linalg.iterator_type<...> is an attribute, !linalg... a type and
      // "linalg.fill" the generic form: none goes through that parser.
      if (at > 0 && llvm::StringRef("#!\".").contains(code[at - 1]))
        continue;
      llvm::StringRef after = code.drop_front(at + 7);
      after =
          after.drop_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
      after = after.ltrim();
      if (!after.starts_with("<") ||
          after.drop_front().ltrim().starts_with("{"))
        continue;
      return makeError(path + ":" + std::to_string(line) + ":" +
                       std::to_string(at + 1) +
                       ": a Linalg op's properties must be a dictionary, "
                       "<{...}>");
    }
  }
  return Status::success();
}

/// Line and column (from 1) of `offset` in `text`.
static std::string lineColumn(llvm::StringRef text, size_t offset) {
  llvm::StringRef before = text.take_front(offset);
  size_t lineStart = before.rfind('\n');
  size_t column =
      lineStart == llvm::StringRef::npos ? offset + 1 : offset - lineStart;
  return std::to_string(before.count('\n') + 1) + ":" + std::to_string(column);
}

/// MLIR 19's custom parser for linalg.generic casts every element of
/// `iterator_types = [...]` to a string without checking: `[32, "parallel"]`
/// crashes it (mlir-opt-19 too). The generic form, "linalg.generic", takes
/// #linalg.iterator_type attributes and is left to MLIR.
static Status checkIteratorTypes(llvm::StringRef text,
                                 const std::string &path) {
  const llvm::StringRef key = "iterator_types";
  for (size_t at = text.find(key); at != llvm::StringRef::npos;
       at = text.find(key, at + key.size())) {
    size_t op = text.take_front(at).rfind("linalg.generic");
    if (op == llvm::StringRef::npos || (op > 0 && text[op - 1] == '"'))
      continue;
    llvm::StringRef rest = text.drop_front(at + key.size()).ltrim();
    if (!rest.consume_front("="))
      continue;
    rest = rest.ltrim();
    if (!rest.consume_front("["))
      continue;
    // Each element up to the closing bracket must be a quoted string.
    while (true) {
      rest = rest.ltrim();
      if (rest.empty() || rest.starts_with("]"))
        break;
      if (!rest.starts_with("\"")) {
        size_t offset = text.size() - rest.size();
        return makeError(path + ":" + lineColumn(text, offset) +
                         ": iterator_types must list quoted strings, "
                         "\"parallel\" or \"reduction\"");
      }
      size_t close = rest.find('"', 1);
      if (close == llvm::StringRef::npos)
        break; // an unterminated string: MLIR's lexer reports it
      rest = rest.drop_front(close + 1).ltrim();
      if (!rest.consume_front(","))
        break;
    }
  }
  return Status::success();
}

/// Parses with a diagnostic handler that keeps the first error as one line.
static Result<Program> parseSource(MLIRContext &context,
                                   std::unique_ptr<llvm::MemoryBuffer> buffer,
                                   const std::string &path,
                                   const LoadOptions &options) {
  if (buffer->getBufferSize() > 0 &&
      llvm::any_of(buffer->getBuffer(), [](char c) { return c == '\0'; }))
    return makeError(path + ": binary data, not MLIR text");
  if (Status ok = checkLinalgProperties(buffer->getBuffer(), path); !ok)
    return ok.error();
  if (Status ok = checkIteratorTypes(buffer->getBuffer(), path); !ok)
    return ok.error();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  std::optional<std::string> firstError;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error || firstError)
      return success();
    std::string where = path + ": ";
    if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation()))
      where = path + ":" + std::to_string(loc.getLine()) + ":" +
              std::to_string(loc.getColumn()) + ": ";
    std::string message = diag.str();
    if (message.find("unregistered dialect") != std::string::npos)
      message = "unknown op" + quotedOpName(sourceMgr, diag.getLocation()) +
                " (unregistered dialect)";
    std::replace(message.begin(), message.end(), '\n', ' ');
    firstError = where + message;
    return success();
  });
  Program program;
  program.path = path;
  ParserConfig config(&context);
  program.module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!program.module)
    return makeError(firstError ? *firstError
                                : path + ": cannot parse as MLIR");
  if (failed(verify(*program.module)))
    return makeError(firstError ? *firstError : path + ": invalid IR");
  if (options.pointwiseConvolutionsAsMatmuls)
    convolutionsAsMatmuls(*program.module);
  Status status = validate(program, options);
  if (!status)
    return status.error();
  return program;
}

Result<Program> loadProgram(MLIRContext &context, const std::string &path,
                            const LoadOptions &options) {
  auto text = readRegularFile(path);
  if (!text)
    return text.error();
  return parseSource(context, llvm::MemoryBuffer::getMemBufferCopy(*text, path),
                     path, options);
}

Result<Program> parseProgram(MLIRContext &context, llvm::StringRef text,
                             const std::string &name,
                             const LoadOptions &options) {
  return parseSource(context, llvm::MemoryBuffer::getMemBufferCopy(text, name),
                     name, options);
}

} // namespace rlopt::linalg
