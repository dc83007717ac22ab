// tile: one scf.for per tiled loop, in loop order; 0 leaves a loop untiled.
// RUN: %rlopt apply %s --schedule "op1: tile(16,0,4)" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: %op0, %op1 = transform.split_handle %linalg_ops
// SCRIPT: %op1_tiled_0, %op1_for_0:2 = transform.structured.tile_using_for %op1 tile_sizes [16, 0, 4]
// SCRIPT-NOT: vectorize

// IR-LABEL: func.func @matmul
// IR: %[[C16:.*]] = arith.constant 16 : index
// IR: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C16]]
// IR: %[[C4:.*]] = arith.constant 4 : index
// IR: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C4]]
// IR: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x4xf32>, tensor<4x64xf32>) outs(%{{.*}} : tensor<16x64xf32>)
// IR-NOT: scf.for
func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
