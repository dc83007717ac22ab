// unroll: the register tile's reduction loop unrolled by 4 steps by 4, its
// body holds four rows of B's FMAs, and the accumulator still stays in
// registers across the loop. The unroll runs after vectorize, so every copy
// is vectorized.
// RUN: %rlopt apply %s --schedule "op0: tile(8,32,1) unroll(0,0,4) vectorize" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: %op0_tiled_0, %op0_for_0:3 = transform.structured.tile_using_for %op0 tile_sizes [8, 32, 1]
// SCRIPT: transform.structured.vectorize
// SCRIPT: transform.loop.unroll %op0_for_0#2 { factor = 4 }
// SCRIPT: transform.loop.hoist_loop_invariant_subsets %for_loops

// IR-LABEL: func.func @matmul
// IR: %[[C:.*]] = vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// IR: scf.for %{{.*}} = %c0 to %c256 step %c4 iter_args({{.*}}%[[ACC:.*]] = %[[C]]) -> ({{.*}}vector<8x32xf32>)
// IR-NOT: tensor<8x32xf32>, vector<8x32xf32>
// IR-COUNT-4: vector.transfer_read {{.*}} : tensor<1x32xf32>, vector<1x32xf32>
// IR: scf.yield
// IR: vector.transfer_write {{.*}} : vector<8x32xf32>, tensor<8x32xf32>
func.func @matmul(%a: tensor<64x256xf32>, %b: tensor<256x128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
