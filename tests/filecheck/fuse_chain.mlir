// fuse: the consumer's whole chain of streaming producers moves into its
// loop, consumers before their producers: each block of rows computes its
// sums, means and deviations just before it normalizes them.
// RUN: %rlopt apply %s --schedule "op6: fuse(1,8,0)" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: %op6_tiled_0, %op6_forall_0 = transform.structured.tile_using_forall %op6 tile_sizes [1, 8, 0]
// SCRIPT-NEXT: fuse_into_containing_op %op5 into
// SCRIPT-NEXT: fuse_into_containing_op %op4 into
// SCRIPT-NEXT: fuse_into_containing_op %op3 into
// SCRIPT-NEXT: fuse_into_containing_op %op2 into
// SCRIPT-NEXT: fuse_into_containing_op %op1 into
// SCRIPT-NEXT: fuse_into_containing_op %op0 into
// The two fills of zeros into one tensor are one op to CSE: the script
// leaves the copies alone rather than name one op by two handles.
// SCRIPT-NOT: apply_cse

// The whole chain runs on 1x8 blocks of rows inside the one loop.
// IR-LABEL: func.func @layernorm
// IR: scf.forall (%{{.*}}, %{{.*}}) in (2, 2)
// IR: linalg.fill {{.*}} -> tensor<1x8xf32>
// IR: linalg.generic {{.*}}ins(%{{.*}} : tensor<1x8x256xf32>) outs(%{{.*}} : tensor<1x8xf32>)
// IR: math.rsqrt
// IR: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x8x256xf32>)
// IR: scf.forall.in_parallel
// IR-NOT: scf.forall
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#last3 = affine_map<(d0, d1, d2) -> (d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @layernorm(%x: tensor<2x16x256xf32>, %gamma: tensor<256xf32>, %beta: tensor<256xf32>) -> tensor<2x16x256xf32> {
  %zero = arith.constant 0.0 : f32
  %width = arith.constant 256.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %rows_empty = tensor.empty() : tensor<2x16xf32>
  %sum_init = linalg.fill ins(%zero : f32) outs(%rows_empty : tensor<2x16xf32>) -> tensor<2x16xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #rows3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x16x256xf32>) outs(%sum_init : tensor<2x16xf32>) {
  ^bb0(%v: f32, %s: f32):
    %r = arith.addf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<2x16xf32>
  %mean = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<2x16xf32>) outs(%rows_empty : tensor<2x16xf32>) {
  ^bb0(%s: f32, %o: f32):
    %r = arith.divf %s, %width : f32
    linalg.yield %r : f32
  } -> tensor<2x16xf32>
  %sq_init = linalg.fill ins(%zero : f32) outs(%rows_empty : tensor<2x16xf32>) -> tensor<2x16xf32>
  %sq = linalg.generic {indexing_maps = [#id3, #rows3, #rows3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %mean : tensor<2x16x256xf32>, tensor<2x16xf32>) outs(%sq_init : tensor<2x16xf32>) {
  ^bb0(%v: f32, %m: f32, %s: f32):
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %s : f32
    linalg.yield %r : f32
  } -> tensor<2x16xf32>
  %rstd = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sq : tensor<2x16xf32>) outs(%rows_empty : tensor<2x16xf32>) {
  ^bb0(%s: f32, %o: f32):
    %var = arith.divf %s, %width : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<2x16xf32>
  %empty = tensor.empty() : tensor<2x16x256xf32>
  %y = linalg.generic {indexing_maps = [#id3, #rows3, #rows3, #last3, #last3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mean, %rstd, %gamma, %beta : tensor<2x16x256xf32>, tensor<2x16xf32>, tensor<2x16xf32>, tensor<256xf32>, tensor<256xf32>) outs(%empty : tensor<2x16x256xf32>) {
  ^bb0(%v: f32, %m: f32, %r: f32, %g: f32, %b: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %nrm = arith.mulf %d, %r : f32
    %s = arith.mulf %nrm, %g : f32
    %res = arith.addf %s, %b : f32
    linalg.yield %res : f32
  } -> tensor<2x16x256xf32>
  return %y : tensor<2x16x256xf32>
}
