// peel: the 100 columns split into 96 that a tile of 32 divides and a rest
// of 4; both parts are tiled, and each is vectorized at its own tile's
// sizes, so neither is masked.
// RUN: %rlopt apply %s --schedule "op0: peel(0,32) tile(8,32) vectorize" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: %op0_main_0, %op0_rest_0 = transform.structured.split %op0 after 96 { dimension = 1 }
// SCRIPT: %op0_peeled_0 = transform.merge_handles %op0_main_0, %op0_rest_0
// SCRIPT: transform.structured.tile_using_for %op0_peeled_0 tile_sizes [8, 32]
// SCRIPT: %op0_part_0, %op0_part_1 = transform.split_handle %op0_tiled_0
// SCRIPT: transform.structured.vectorize %op0_part_0 vector_sizes [8, 32]
// SCRIPT: transform.structured.vectorize %op0_part_1 vector_sizes [8, 4]

// IR-LABEL: func.func @add
// The main part: full 8 x 32 tiles, no masks.
// IR: scf.for %{{.*}} = %c0 to %c96 step %c32
// IR-NOT: _mask
// IR: arith.addf %{{.*}}, %{{.*}} : vector<8x32xf32>
// The rest: 4 columns in an 8 x 4 vector, not a masked 8 x 32 one.
// IR: tensor.extract_slice %arg0[0, 96] [64, 4]
// IR-NOT: _mask
// IR: arith.addf %{{.*}}, %{{.*}} : vector<8x4xf32>
func.func @add(%a: tensor<64x100xf32>, %b: tensor<64x100xf32>) -> tensor<64x100xf32> {
  %empty = tensor.empty() : tensor<64x100xf32>
  %c = linalg.add ins(%a, %b : tensor<64x100xf32>, tensor<64x100xf32>) outs(%empty : tensor<64x100xf32>) -> tensor<64x100xf32>
  return %c : tensor<64x100xf32>
}
