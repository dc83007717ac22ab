// img2col: the convolution becomes an im2col gather and a matmul-like
// generic over (n, output pixel, filter, reduction). The gather runs in
// parallel tiles of four vectors (the width depends on the host's vectors).
// RUN: %rlopt apply %s --schedule "op1: img2col" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: %op1_col_0, %op1_reshape_0 = transform.structured.convert_conv2d_to_img2col %op1
// SCRIPT-NEXT: %op1_mm_0 = transform.get_producer_of_operand %op1_reshape_0[0]
// SCRIPT-NEXT: %op1_col_tiled_0, %op1_col_forall_0 = transform.structured.tile_using_forall %op1_col_0 tile_sizes [1, 1, [[WIDTH:[0-9]+]]]
// SCRIPT-NEXT: transform.structured.vectorize %op1_col_tiled_0 vector_sizes [1, 1, [[WIDTH]]] {vectorize_nd_extract}

// IR-LABEL: func.func @conv_nhwc
// IR: tensor.collapse_shape %arg1 {{.*}} : tensor<3x3x8x16xf32> into tensor<72x16xf32>
// IR: scf.forall {{.*}} -> (tensor<1x64x72xf32>)
// IR: vector.gather %arg0
// IR: scf.forall.in_parallel
// IR: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x64x72xf32>, tensor<72x16xf32>)
// IR: tensor.expand_shape {{.*}} into tensor<1x8x8x16xf32>
// IR-NOT: linalg.conv_2d
func.func @conv_nhwc(%in: tensor<1x10x10x8xf32>, %filter: tensor<3x3x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x8x8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>)
    outs(%acc : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %out : tensor<1x8x8x16xf32>
}
