// promote: the 3 x 3 x 8 filter slice of 16 output channels (of 32) has rows
// 32 floats apart. Tiled over the channels first, each slice is copied into
// a contiguous buffer of its own, once per channel tile (a pad that pads
// nothing, kept by pack_paddings), and every output row of the tile reads
// the copy. The input image's tile is the whole image and is not copied;
// nothing is copied back.
// RUN: %rlopt apply %s --schedule "op0: tile(0,0,0,16,0,0,0) promote tile(1,1,8,0,1,1,8) vectorize" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: %op0_tiled_0, %op0_for_0:1 = transform.structured.tile_using_for %op0 tile_sizes [0, 0, 0, 16, 0, 0, 0]
// SCRIPT: %op0_padded_0, %op0_pads_0, %op0_copy_back_0 = transform.structured.pad %op0_tiled_0 {padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2, 3, 4, 5, 6], pack_paddings = [0, 1, 0], copy_back_op = "none"}
// SCRIPT: transform.structured.tile_using_for %op0_padded_0 tile_sizes [1, 1, 8, 0, 1, 1, 8]

// IR-LABEL: func.func @conv
// IR: scf.for %{{.*}} = %c0 to %c32 step %c16
// IR: %[[SLICE:.*]] = tensor.extract_slice %arg1[0, 0, 0, %{{.*}}] [3, 3, 8, 16] [1, 1, 1, 1] : tensor<3x3x8x32xf32> to tensor<3x3x8x16xf32>
// IR: %[[COPY:.*]] = tensor.pad %[[SLICE]] nofold low[0, 0, 0, 0] high[0, 0, 0, 0]
// IR-NOT: tensor.pad
// IR: scf.for %{{.*}} = %c0 to %c8 step %c1
// IR: tensor.extract_slice %arg0[0, %{{.*}}, %{{.*}}, 0] [1, 1, 8, 8]
// IR: tensor.extract_slice %[[COPY]][%{{.*}}, %{{.*}}, 0, 0] [1, 1, 8, 16]
// IR-COUNT-8: vector.fma {{.*}} : vector<16xf32>
// IR-NOT: linalg.copy
func.func @conv(%in: tensor<1x10x10x8xf32>, %filter: tensor<3x3x8x32xf32>, %acc: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x10x10x8xf32>, tensor<3x3x8x32xf32>)
    outs(%acc : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %out : tensor<1x8x8x32xf32>
}
