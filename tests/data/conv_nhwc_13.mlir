// 3x3 convolution, NHWC input 1x15x15x128, HWCF filter 3x3x128x32: output
// rows and columns of 13, which no tile wider than one divides, and 1152
// products per result.
func.func @conv_nhwc_13(%in: tensor<1x15x15x128xf32>, %filter: tensor<3x3x128x32xf32>) -> tensor<1x13x13x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x13x13x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x13x13x32xf32>) -> tensor<1x13x13x32xf32>
  %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x15x15x128xf32>, tensor<3x3x128x32xf32>)
    outs(%acc : tensor<1x13x13x32xf32>) -> tensor<1x13x13x32xf32>
  return %out : tensor<1x13x13x32xf32>
}
