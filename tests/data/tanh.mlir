// Elementwise tanh as a linalg.generic, 64x48.
func.func @tanh(%x: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %empty = tensor.empty() : tensor<64x48xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
    ins(%x : tensor<64x48xf32>) outs(%empty : tensor<64x48xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.tanh %v : f32
    linalg.yield %e : f32
  } -> tensor<64x48xf32>
  return %out : tensor<64x48xf32>
}
