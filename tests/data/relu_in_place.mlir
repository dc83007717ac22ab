// x = max(x, 0) in place: the op's only operand is its output.
func.func @relu_in_place(%x: tensor<64x80xf32>) -> tensor<64x80xf32> {
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    outs(%x : tensor<64x80xf32>) {
  ^bb0(%o: f32):
    %m = arith.maximumf %o, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x80xf32>
  return %r : tensor<64x80xf32>
}
