// 3x3 max pooling, stride 2, NHWC input 2x9x9x37: 37 channels, which no
// vector divides.
func.func @pool_nhwc_odd(%in: tensor<2x9x9x37xf32>) -> tensor<2x4x4x37xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %empty = tensor.empty() : tensor<2x4x4x37xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%empty : tensor<2x4x4x37xf32>) -> tensor<2x4x4x37xf32>
  %out = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %window : tensor<2x9x9x37xf32>, tensor<3x3xf32>)
    outs(%acc : tensor<2x4x4x37xf32>) -> tensor<2x4x4x37xf32>
  return %out : tensor<2x4x4x37xf32>
}
