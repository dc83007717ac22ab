// fuse: softmax's exponentials are read by the row sums and by the
// division, so the fused loop gets one copy per use; CSE in the loop keeps
// one, and each producer's handle names its op once.
// RUN: %rlopt apply %s --schedule "op5: fuse(8,0) vectorize; op2: tile(8,16) vectorize" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: fuse_into_containing_op %op0 into
// SCRIPT-NEXT: transform.apply_cse to %op5_forall
// SCRIPT-NEXT: %op4_fused_1 = transform.merge_handles deduplicate %op4_fused_0
// SCRIPT: %op2_fused_1 = transform.merge_handles deduplicate %op2_fused_0
// SCRIPT: tile_using_for %op2_fused_1 tile_sizes [8, 16]

// IR-LABEL: func.func @softmax
// IR: scf.forall (%{{.*}}) in (4)
// IR-COUNT-1: math.exp
// IR-NOT: math.exp
// IR: scf.forall.in_parallel
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows2 = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %rows_empty = tensor.empty() : tensor<32xf32>
  %max_init = linalg.fill ins(%ninf : f32) outs(%rows_empty : tensor<32xf32>) -> tensor<32xf32>
  %max = linalg.generic {indexing_maps = [#id2, #rows2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x64xf32>) outs(%max_init : tensor<32xf32>) {
  ^bb0(%v: f32, %m: f32):
    %r = arith.maximumf %v, %m : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %empty = tensor.empty() : tensor<32x64xf32>
  %exp = linalg.generic {indexing_maps = [#id2, #rows2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<32x64xf32>, tensor<32xf32>) outs(%empty : tensor<32x64xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<32x64xf32>
  %sum_init = linalg.fill ins(%zero : f32) outs(%rows_empty : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #rows2], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<32x64xf32>) outs(%sum_init : tensor<32xf32>) {
  ^bb0(%e: f32, %s: f32):
    %r = arith.addf %e, %s : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %y = linalg.generic {indexing_maps = [#id2, #rows2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<32x64xf32>, tensor<32xf32>) outs(%empty : tensor<32x64xf32>) {
  ^bb0(%e: f32, %s: f32, %o: f32):
    %r = arith.divf %e, %s : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  return %y : tensor<32x64xf32>
}
