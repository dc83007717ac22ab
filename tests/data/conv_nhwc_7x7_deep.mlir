// 3x3 convolution, NHWC input 1x9x9x64, HWCF filter 3x3x64x64: output rows
// and columns of 7, as a network's last stage has them, and 576 products
// per result.
func.func @conv_nhwc_7x7_deep(%in: tensor<1x9x9x64xf32>, %filter: tensor<3x3x64x64xf32>) -> tensor<1x7x7x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x7x7x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x7x7x64xf32>) -> tensor<1x7x7x64xf32>
  %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x9x9x64xf32>, tensor<3x3x64x64xf32>)
    outs(%acc : tensor<1x7x7x64xf32>) -> tensor<1x7x7x64xf32>
  return %out : tensor<1x7x7x64xf32>
}
