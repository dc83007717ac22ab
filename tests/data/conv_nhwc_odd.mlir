// 3x3 convolution, NHWC input 1x8x8x5, HWCF filter 3x3x5x24: 24 filters, one
// and a half AVX-512 vectors.
func.func @conv_nhwc_odd(%in: tensor<1x8x8x5xf32>, %filter: tensor<3x3x5x24xf32>) -> tensor<1x6x6x24xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x6x6x24xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x6x6x24xf32>) -> tensor<1x6x6x24xf32>
  %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x8x8x5xf32>, tensor<3x3x5x24xf32>)
    outs(%acc : tensor<1x6x6x24xf32>) -> tensor<1x6x6x24xf32>
  return %out : tensor<1x6x6x24xf32>
}
