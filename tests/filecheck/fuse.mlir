// fuse: the consumer (relu) is tiled with scf.forall and its producer (the
// bias add) is fused into the loop; the matmul stays outside.
// RUN: %rlopt apply %s --schedule "op3: fuse(16,32)" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: %op3_tiled_0, %op3_forall_0 = transform.structured.tile_using_forall %op3 tile_sizes [16, 32]
// SCRIPT-NEXT: %op2_fused_0, %op3_forall_0_0 = transform.structured.fuse_into_containing_op %op2 into %op3_forall_0

// IR-LABEL: func.func @chain
// IR: linalg.matmul ins(%arg0, %arg1 : tensor<64x64xf32>, tensor<64x64xf32>)
// IR: scf.forall (%{{.*}}, %{{.*}}) in (4, 2)
// IR: arith.addf
// IR: arith.maximumf
// IR: scf.forall.in_parallel
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @chain(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %bias: tensor<64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  %biased = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
    ins(%mm, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%empty : tensor<64x64xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %r = arith.addf %v, %bv : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%biased : tensor<64x64xf32>) outs(%empty : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  return %relu : tensor<64x64xf32>
}
