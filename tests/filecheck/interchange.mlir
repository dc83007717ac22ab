// interchange: a named op is generalized, then loop i becomes loop p_i.
// RUN: %rlopt apply %s --schedule "op1: interchange(2,0,1)" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: %op1_generic_0 = transform.structured.generalize %op1
// SCRIPT-NEXT: %op1_perm_0 = transform.structured.interchange %op1_generic_0 iterator_interchange = [2, 0, 1]

// IR-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d1, d0)>
// IR-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// IR-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// IR-LABEL: func.func @matmul
// IR: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["reduction", "parallel", "parallel"]}
// IR-NOT: linalg.matmul
func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
