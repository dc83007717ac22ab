// peel on a window op: 37 channels split into 32 and a rest of 5. The
// convolution vectorizer cannot mask, so the loops are canonicalized first:
// the rest's single tile becomes static, and both parts vectorize unmasked.
// RUN: %rlopt apply %s --schedule "op1: peel(0,0,0,32,0,0) tile(1,1,4,32,1,1) vectorize" --emit-transform %t.script.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.script.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%t.script.mlir --transform-interpreter -o %t.replay.mlir
// RUN: diff -B %t.mlir %t.replay.mlir

// SCRIPT: %op1_main_0, %op1_rest_0 = transform.structured.split %op1 after 32 { dimension = 3 }
// SCRIPT: transform.structured.tile_using_for %op1_peeled_0 tile_sizes [1, 1, 4, 32, 1, 1]
// SCRIPT: %op1_func_0 = transform.get_parent_op %op1_tiled_0 {isolated_from_above, deduplicate}
// SCRIPT: transform.apply_patterns to %op1_func_0 { transform.apply_patterns.scf.for_loop_canonicalization
// SCRIPT: transform.structured.decompose %op1_tiled_0
// SCRIPT-NOT: vector_sizes
// SCRIPT: transform.structured.vectorize %op1_1d_0 :

// IR-LABEL: func.func @pool
// IR-NOT: vector.mask
// IR-NOT: _mask
// IR: arith.maximumf %{{.*}}, %{{.*}} : vector<1x1x32xf32>
// IR: arith.maximumf %{{.*}}, %{{.*}} : vector<1x1x5xf32>
func.func @pool(%in: tensor<2x9x9x37xf32>) -> tensor<2x4x4x37xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %empty = tensor.empty() : tensor<2x4x4x37xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%empty : tensor<2x4x4x37xf32>) -> tensor<2x4x4x37xf32>
  %out = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %window : tensor<2x9x9x37xf32>, tensor<3x3xf32>)
    outs(%acc : tensor<2x4x4x37xf32>) -> tensor<2x4x4x37xf32>
  return %out : tensor<2x4x4x37xf32>
}
