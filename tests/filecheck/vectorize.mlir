// vectorize: the whole op becomes vector transfers and one vector add.
// RUN: %rlopt apply %s --schedule "op0: vectorize" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: transform.structured.vectorize %op0
// SCRIPT: transform.apply_patterns.vector.reduction_to_contract
// SCRIPT: transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"

// IR-LABEL: func.func @add
// IR: vector.transfer_read %arg0{{.*}} : tensor<64x48xf32>, vector<64x48xf32>
// IR: vector.transfer_read %arg1{{.*}} : tensor<64x48xf32>, vector<64x48xf32>
// IR: arith.addf %{{.*}}, %{{.*}} : vector<64x48xf32>
// IR: vector.transfer_write %{{.*}} : vector<64x48xf32>, tensor<64x48xf32>
// IR-NOT: linalg.add
func.func @add(%a: tensor<64x48xf32>, %b: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %empty = tensor.empty() : tensor<64x48xf32>
  %c = linalg.add ins(%a, %b : tensor<64x48xf32>, tensor<64x48xf32>) outs(%empty : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %c : tensor<64x48xf32>
}
