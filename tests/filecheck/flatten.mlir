// flatten: an elementwise op over same-shaped operands becomes one loop
// over its 3072 elements, which then tiles in whole vectors across the
// rows of 48.
// RUN: %rlopt apply %s --schedule "op0: flatten tile(64) vectorize" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: %op0_flat_0 = transform.structured.flatten_elementwise %op0
// SCRIPT-NEXT: tile_using_for %op0_flat_0 tile_sizes [64]

// IR-LABEL: func.func @add
// IR: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<64x48xf32> into tensor<3072xf32>
// IR: scf.for %{{.*}} = %c0 to %c3072 step %c64
// IR: arith.addf %{{.*}} : vector<64xf32>
// IR: tensor.expand_shape
func.func @add(%a: tensor<64x48xf32>, %b: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %empty = tensor.empty() : tensor<64x48xf32>
  %c = linalg.add ins(%a, %b : tensor<64x48xf32>, tensor<64x48xf32>) outs(%empty : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %c : tensor<64x48xf32>
}
