// img2col: rewrite a 2-D convolution as an image-to-column copy followed by
// a matmul-like linalg.generic, which the rest of the schedule then tiles
// and vectorizes. Depthwise convolutions are left out: MLIR 19's rewrite of
// them produces an invalid batch_matvec.
#include "rlopt/linalg/Transformation.h"
#include "rlopt/measure/MachineInfo.h"

namespace rlopt::linalg {

static std::optional<std::string> check(const ScheduleState &state,
                                        unsigned index,
                                        const std::vector<int64_t> &) {
  const OpState &op = state.ops[index];
  if (op.kind != "linalg.conv_2d_nhwc_hwcf" &&
      op.kind != "linalg.conv_2d_nchw_fchw")
    return "applies to conv_2d_nhwc_hwcf and conv_2d_nchw_fchw, not " + op.kind;
  if (!op.history.empty() || op.fusedInto >= 0)
    return std::string("img2col must be the op's first transformation");
  return std::nullopt;
}

static void emit(ScheduleState &state, unsigned index,
                 const std::vector<int64_t> &) {
  OpState &op = state.ops[index];
  std::string columns = state.script.fresh(op.info->id + "_col");
  std::string reshape = state.script.fresh(op.info->id + "_reshape");
  std::string matmul = state.script.fresh(op.info->id + "_mm");
  // The second result is the expand_shape that restores the output layout;
  // the matmul-like generic is its producer.
  state.script.line(columns + ", " + reshape +
                    " = transform.structured.convert_conv2d_to_img2col " +
                    op.handle + " : (!transform.any_op) -> " +
                    ScriptWriter::anyOps(2));
  state.script.line(matmul + " = transform.get_producer_of_operand " + reshape +
                    "[0] : (!transform.any_op) -> !transform.any_op");
  const std::vector<int64_t> &r = op.ranges;
  bool nhwc = op.kind == "linalg.conv_2d_nhwc_hwcf";
  int64_t taps = nhwc ? r[4] * r[5] : r[5] * r[6];
  // The copy finds each element's source with divisions of its index: as
  // scalar loops it took two thirds of a 3 x 3 convolution's time. Its
  // innermost loop runs in vectors of indices and gathers, four vectors
  // wide, and threads share its tiles. A 1 x 1 window's copy reads rows
  // whole, and gathers measured 10-20% slower there.
  if (taps > 1) {
    int64_t width = 4 * std::max(1, measure::hostMachine().target.f32Lanes);
    std::string sizes = ScriptWriter::intList({1, 1, width});
    std::string copy = state.script.fresh(op.info->id + "_col_tiled");
    std::string copyLoop = state.script.fresh(op.info->id + "_col_forall");
    state.script.line(copy + ", " + copyLoop +
                      " = transform.structured.tile_using_forall " + columns +
                      " tile_sizes " + sizes + " : (!transform.any_op) -> " +
                      ScriptWriter::anyOps(2));
    state.script.line("transform.structured.vectorize " + copy +
                      " vector_sizes " + sizes +
                      " {vectorize_nd_extract} : !transform.any_op");
    state.lowerVectors = true;
  }
  if (nhwc) // (n, oh, ow, f, kh, kw, c)
    op.ranges = {r[0], r[1] * r[2], r[3], r[4] * r[5] * r[6]};
  else // nchw_fchw: (n, f, oh, ow, c, kh, kw)
    op.ranges = {r[0], r[1], r[2] * r[3], r[4] * r[5] * r[6]};
  op.isReduction = {false, false, false, true};
  op.partial.assign(4, false);
  op.rests.assign(4, 0);
  forgetForLoops(op);
  op.handle = matmul;
  op.kind = "linalg.generic";
  op.opClass = OpClass::Matmul;
  op.generalized = true;
  op.img2col = true;
}

Transformation img2colTransformation() {
  return {"img2col", ParamKind::None,
          "rewrite a 2-D convolution as img2col + matmul", check, emit};
}

} // namespace rlopt::linalg
