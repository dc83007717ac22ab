// A 1 x 1, stride-1 NCHW convolution is read as the matmul it is: the image
// collapsed to C x HW, the filter to F x C, and a linalg.generic over (n, f,
// p, c) between them. The fill is made anew at the collapsed shape, so
// `fuse` moves it into the loop over output tiles. The program as read
// (--emit-program) is what the emitted script replays on.
// RUN: %rlopt apply %s --schedule "op1: fuse(1,8,32,0) tile(1,8,16,1) vectorize" --emit-transform %t.script.mlir --emit-program %t.program.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=PROGRAM < %t.program.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: mlir-opt %t.program.mlir --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// PROGRAM-LABEL: func.func @pointwise
// PROGRAM-DAG: tensor.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : tensor<1x16x8x8xf32> into tensor<1x16x64xf32>
// PROGRAM-DAG: tensor.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : tensor<32x16x1x1xf32> into tensor<32x16xf32>
// PROGRAM: linalg.fill {{.*}} -> tensor<1x32x64xf32>
// PROGRAM: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// PROGRAM: tensor.expand_shape {{.*}} into tensor<1x32x8x8xf32>
// PROGRAM-NOT: linalg.conv_2d_nchw_fchw

// SCRIPT: transform.structured.tile_using_forall %op1 tile_sizes [1, 8, 32, 0]
// SCRIPT: transform.structured.fuse_into_containing_op %op0 into
// SCRIPT: transform.structured.vectorize %op1_tiled_1
func.func @pointwise(%in: tensor<1x16x8x8xf32>, %filter: tensor<32x16x1x1xf32>) -> tensor<1x32x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x32x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x16x8x8xf32>, tensor<32x16x1x1xf32>)
    outs(%acc : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %out : tensor<1x32x8x8xf32>
}
