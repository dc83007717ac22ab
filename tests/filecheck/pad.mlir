// pad: the 40 columns tile by 32 and leave a partial last tile. B's padded
// 64 x 32 panels are made once, in a loop of their own ahead of the op's
// loops; A's tiles are full and have no pad (its hoist fails, silenced). The
// result tile is padded and copied back, and the register tiles read whole
// vectors, without masks.
// RUN: %rlopt apply %s --schedule "op0: tile(16,32,0) pad tile(8,16,1) vectorize" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: %op0_tiled_0, %op0_for_0:2 = transform.structured.tile_using_for %op0 tile_sizes [16, 32, 0]
// SCRIPT: %op0_padded_0, %op0_pads_0, %op0_copy_back_0 = transform.structured.pad %op0_tiled_0 {padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2], copy_back_op = "linalg.copy"}
// SCRIPT: %op0_pad_0 = transform.get_producer_of_operand %op0_padded_0[0]
// SCRIPT: transform.sequence %root : !transform.any_op failures(suppress)
// SCRIPT: transform.structured.hoist_pad %op0_pad_0 by 2 loops
// SCRIPT: %op0_pad_1 = transform.get_producer_of_operand %op0_padded_0[1]
// SCRIPT: transform.structured.hoist_pad %op0_pad_1 by 2 loops
// SCRIPT: transform.structured.tile_using_for %op0_padded_0 tile_sizes [8, 16, 1]
// SCRIPT: transform.structured.vectorize %op0_tiled_1 :

// IR-LABEL: func.func @matmul
// IR: %[[PANELS:.*]] = tensor.empty() : tensor<2x64x32xf32>
// IR: scf.for %{{.*}} = %c0 to %c40 step %c32 iter_args(%{{.*}} = %[[PANELS]]) -> (tensor<2x64x32xf32>)
// IR: tensor.pad %{{.*}} low[0, 0] high[0, %{{.*}}]
// IR: tensor<64x?xf32> to tensor<64x32xf32>
// IR: scf.for %{{.*}} = %c0 to %c32 step %c16
// IR-NOT: tensor<64x?xf32> to tensor<64x32xf32>
// IR: tensor.pad %{{.*}} low[0, 0] high[0, %{{.*}}]
// IR: tensor<16x?xf32> to tensor<16x32xf32>
// IR-NOT: vector.mask
// IR-NOT: vector.create_mask
// IR: vector.transfer_read {{.*}} : tensor<1x16xf32>, vector<1x16xf32>
// IR: linalg.copy ins(%{{.*}} : tensor<16x?xf32>)
func.func @matmul(%a: tensor<32x64xf32>, %b: tensor<64x40xf32>, %c: tensor<32x40xf32>) -> tensor<32x40xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x40xf32>) outs(%c : tensor<32x40xf32>) -> tensor<32x40xf32>
  return %r : tensor<32x40xf32>
}
