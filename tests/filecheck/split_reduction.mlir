// split_reduction: the row sum keeps 16 partial sums per row (a new parallel
// loop after the reduction loop, last in the partials' tensor); a combining
// op adds them into the output, tiled by rows and vectorized.
// RUN: %rlopt apply %s --schedule "op0: split_reduction(0,16) tile(4,1,0) vectorize" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: %op0_split_init_0, %op0_split_fill_0, %op0_split_0, %op0_combine_0 = transform.structured.split_reduction %op0 { split_factor = 16, insert_split_dimension = 1, inner_parallel }
// SCRIPT: transform.structured.tile_using_for %op0_combine_0 tile_sizes [16, 0]
// SCRIPT: transform.structured.tile_using_for %op0_split_0 tile_sizes [4, 1, 0]
// SCRIPT: transform.get_parent_op %op0_tiled_0
// SCRIPT: transform.structured.vectorize %op0_tiled_0
// SCRIPT-NEXT: transform.apply_patterns to %op0_parent_0 { transform.apply_patterns.canonicalization }

// IR-LABEL: func.func @rowsum
// IR: tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [64, 8, 16]
// The loop over the 8 chunks of a row adds whole vectors of 4 x 16 partials.
// IR: scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args({{.*}}vector<4x16xf32>)
// IR: arith.addf %{{.*}}, %{{.*}} : vector<4x16xf32>
// The 16 partials of a row are reduced across their lanes once, 16 rows at a
// time.
// IR: scf.for %{{.*}} = %c0 to %c64 step %c16
// IR: vector.transfer_read {{.*}} : tensor<16x16xf32>, vector<16x16xf32>
// IR: vector.reduction <add>, %{{.*}}, %{{.*}} : vector<16xf32> into f32
// IR-NOT: linalg.generic
func.func @rowsum(%a: tensor<64x128xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<64x128xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
