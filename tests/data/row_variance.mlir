// Sums of squared deviations along the rows of a 2x16x512 tensor, as
// layernorm computes its variance: one operand reads the reduction loop,
// the other (the row means) does not.
func.func @row_variance(%x: tensor<2x16x512xf32>, %mean: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x16xf32>) -> tensor<2x16xf32>
  %var = linalg.generic {indexing_maps = [affine_map<(b, s, k) -> (b, s, k)>, affine_map<(b, s, k) -> (b, s)>, affine_map<(b, s, k) -> (b, s)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %mean : tensor<2x16x512xf32>, tensor<2x16xf32>) outs(%init : tensor<2x16xf32>) {
  ^bb0(%v: f32, %m: f32, %acc: f32):
    %d = arith.subf %v, %m : f32
    %sq = arith.mulf %d, %d : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x16xf32>
  return %var : tensor<2x16xf32>
}
