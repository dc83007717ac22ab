// Broadcast bias add: out[i, j] = x[i, j] + bias[j], 64x48.
func.func @bias_add(%x: tensor<64x48xf32>, %bias: tensor<48xf32>) -> tensor<64x48xf32> {
  %empty = tensor.empty() : tensor<64x48xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
    ins(%x, %bias : tensor<64x48xf32>, tensor<48xf32>) outs(%empty : tensor<64x48xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %r = arith.addf %v, %b : f32
    linalg.yield %r : f32
  } -> tensor<64x48xf32>
  return %out : tensor<64x48xf32>
}
