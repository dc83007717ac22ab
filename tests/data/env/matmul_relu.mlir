#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_relu(%A: tensor<64x48xf32>, %B: tensor<48x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<64x32xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<64x32xf32>) -> tensor<64x32xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x48xf32>, tensor<48x32xf32>) outs(%filled : tensor<64x32xf32>) -> tensor<64x32xf32>
  %out = tensor.empty() : tensor<64x32xf32>
  %relu = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x32xf32>) outs(%out : tensor<64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x32xf32>
  return %relu : tensor<64x32xf32>
}
