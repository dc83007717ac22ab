// parallelize: scf.forall over the tiled parallel loops; 0 leaves a loop out.
// RUN: %rlopt apply %s --schedule "op1: parallelize(32,16,0)" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: %op1_tiled_0, %op1_forall_0 = transform.structured.tile_using_forall %op1 tile_sizes [32, 16, 0]

// IR-LABEL: func.func @matmul
// IR: scf.forall (%{{.*}}, %{{.*}}) in (2, 4)
// IR: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x64xf32>, tensor<64x16xf32>) outs(%{{.*}} : tensor<32x16xf32>)
// IR: scf.forall.in_parallel
// IR-NOT: scf.for
func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
