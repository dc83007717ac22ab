// Two results: a matmul and its ReLU; the second also returns an argument.
func.func @two_results(%a: tensor<32x24xf32>, %b: tensor<24x40xf32>) -> (tensor<32x40xf32>, tensor<32x40xf32>, tensor<32x24xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x40xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<32x40xf32>) -> tensor<32x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<32x24xf32>, tensor<24x40xf32>) outs(%acc : tensor<32x40xf32>) -> tensor<32x40xf32>
  %e2 = tensor.empty() : tensor<32x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%mm : tensor<32x40xf32>) outs(%e2 : tensor<32x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<32x40xf32>
  return %mm, %r, %a : tensor<32x40xf32>, tensor<32x40xf32>, tensor<32x24xf32>
}
