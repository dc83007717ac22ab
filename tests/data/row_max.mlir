// Row maxima of a 48x256 matrix, as softmax computes them: the reduction's
// neutral element is -inf.
func.func @row_max(%x: tensor<48x256xf32>) -> tensor<48xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %empty = tensor.empty() : tensor<48xf32>
  %init = linalg.fill ins(%lowest : f32) outs(%empty : tensor<48xf32>) -> tensor<48xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<48x256xf32>) outs(%init : tensor<48xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %v, %acc : f32
    linalg.yield %m : f32
  } -> tensor<48xf32>
  return %max : tensor<48xf32>
}
