// pack: C = A B^T with B stored n x k (a linear layer's weight). B is copied
// once into k x 32 panels, A into k x 8 ones, so the register tile reads one
// contiguous row of each per step of k: one 32-float row of B, eight
// broadcasts of A and eight 32-lane FMAs (sixteen AVX-512 ones), with the
// accumulator in registers. The copies are vector transposes; the result
// is unpacked once at the end.
// RUN: %rlopt apply %s --schedule "op0: pack(8,32,1) tile(2,2,64,0,0,0) tile(1,1,1,0,0,0) vectorize" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: transform.structured.pack %op0 packed_sizes = [8, 32, 1]
// A: outer (m, k) as they are, inner tile k x 8.
// SCRIPT: transform.structured.pack_transpose {{.*}} outer_perm = [0, 1] inner_perm = [1, 0]
// B: outer (n, k), inner tile k x 32.
// SCRIPT: transform.structured.pack_transpose {{.*}} outer_perm = [0, 1] inner_perm = [1, 0]
// SCRIPT: transform.structured.lower_pack
// SCRIPT: transform.structured.lower_unpack
// SCRIPT: transform.structured.tile_using_for %op0_packed_op_0 tile_sizes [2, 2, 64, 0, 0, 0]
// SCRIPT: transform.apply_patterns.vector.cast_away_vector_leading_one_dim

// IR-LABEL: func.func @linear
// IR: tensor<8x256x1x8xf32>
// IR: tensor<4x256x1x32xf32>
// IR: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args({{.*}}) -> ({{.*}}vector<8x32xf32>)
// IR-NOT: arith.mulf
// IR-COUNT-8: vector.fma {{.*}} : vector<32xf32>
// IR: scf.yield
func.func @linear(%a: tensor<64x256xf32>, %b: tensor<128x256xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %r = linalg.matmul_transpose_b ins(%a, %b : tensor<64x256xf32>, tensor<128x256xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
