// The register tile of a matmul keeps its 8 x 32 accumulator in vector
// registers across the reduction loop: C is read before the k loop and
// written after it, and each step is one row of B and FMAs (outer
// products), with no transfer of C inside the loop.
// RUN: %rlopt apply %s --schedule "op0: tile(8,32,1) vectorize" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: transform.structured.tile_using_for %op0 tile_sizes [8, 32, 1]
// SCRIPT: transform.loop.hoist_loop_invariant_subsets %for_loops

// IR-LABEL: func.func @matmul
// IR: %[[C:.*]] = vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// IR: scf.for %{{.*}} = %c0 to %c256 step %c1 iter_args({{.*}}%[[ACC:.*]] = %[[C]]) -> ({{.*}}vector<8x32xf32>)
// IR-NOT: tensor<8x32xf32>, vector<8x32xf32>
// IR: vector.fma {{.*}} : vector<32xf32>
// IR: scf.yield
// IR: vector.transfer_write {{.*}} : vector<8x32xf32>, tensor<8x32xf32>
func.func @matmul(%a: tensor<64x256xf32>, %b: tensor<256x128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
