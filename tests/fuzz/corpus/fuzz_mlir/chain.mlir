// relu(A * B + bias): fill (op0), matmul (op1), bias add (op2), relu (op3);
// 64x64x64.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @chain(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %bias: tensor<64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  %biased = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
    ins(%mm, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%empty : tensor<64x64xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %r = arith.addf %v, %bv : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%biased : tensor<64x64xf32>) outs(%empty : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  return %relu : tensor<64x64xf32>
}
