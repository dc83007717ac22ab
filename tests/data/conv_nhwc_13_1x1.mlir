// 1x1 convolution, NHWC input 1x13x13x40, HWCF filter 1x1x40x64: output
// columns of 13, and only 40 products per result.
func.func @conv_nhwc_13_1x1(%in: tensor<1x13x13x40xf32>, %filter: tensor<1x1x40x64xf32>) -> tensor<1x13x13x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x13x13x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x13x13x64xf32>) -> tensor<1x13x13x64xf32>
  %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x13x13x40xf32>, tensor<1x1x40x64xf32>)
    outs(%acc : tensor<1x13x13x64xf32>) -> tensor<1x13x13x64xf32>
  return %out : tensor<1x13x13x64xf32>
}
