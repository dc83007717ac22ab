// Projected and permuted maps: out[b, i, j] = x[b, j, i] + bias[j].
#x = affine_map<(b, i, j) -> (b, j, i)>
#bias = affine_map<(b, i, j) -> (j)>
#out = affine_map<(b, i, j) -> (b, i, j)>
func.func @generic_projected(%x: tensor<4x32x48xf32>, %bias: tensor<32xf32>) -> tensor<4x48x32xf32> {
  %e = tensor.empty() : tensor<4x48x32xf32>
  %r = linalg.generic {indexing_maps = [#x, #bias, #out], iterator_types = ["parallel", "parallel", "parallel"]}
    ins(%x, %bias : tensor<4x32x48xf32>, tensor<32xf32>) outs(%e : tensor<4x48x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %s = arith.addf %v, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x48x32xf32>
  return %r : tensor<4x48x32xf32>
}
