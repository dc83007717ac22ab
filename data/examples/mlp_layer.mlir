// One MLP layer: matmul, bias add (broadcast) and ReLU, for fusion.
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @mlp_layer(%x: tensor<128x256xf32>, %w: tensor<256x128xf32>, %b: tensor<128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<128x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<128x256xf32>, tensor<256x128xf32>) outs(%acc : tensor<128x128xf32>) -> tensor<128x128xf32>
  %out = tensor.empty() : tensor<128x128xf32>
  %act = linalg.generic {indexing_maps = [#rowmajor, #bias, #rowmajor], iterator_types = ["parallel", "parallel"]}
    ins(%mm, %b : tensor<128x128xf32>, tensor<128xf32>) outs(%out : tensor<128x128xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %sum = arith.addf %v, %bv : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<128x128xf32>
  return %act : tensor<128x128xf32>
}
