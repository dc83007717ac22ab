// A relu feeding a 3x3 max pooling of stride 2, NHWC 1x9x9x16: the pooling
// reads the relu through its window.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @relu_max_pool(%in: tensor<1x9x9x16xf32>) -> tensor<1x4x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %empty = tensor.empty() : tensor<1x4x4x16xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%empty : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %relu_empty = tensor.empty() : tensor<1x9x9x16xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%in : tensor<1x9x9x16xf32>) outs(%relu_empty : tensor<1x9x9x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x9x9x16xf32>
  %out = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%relu, %window : tensor<1x9x9x16xf32>, tensor<3x3xf32>)
    outs(%acc : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %out : tensor<1x4x4x16xf32>
}
