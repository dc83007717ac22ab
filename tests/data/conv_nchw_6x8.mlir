// 3x3 convolution with a 6x8 output: NCHW input 1x8x8x10, FCHW filter
// 16x8x3x3, stride 1. After img2col its 48 pixels are three whole vectors
// of 16 but no whole pair of them.
func.func @conv_nchw_6x8(%in: tensor<1x8x8x10xf32>, %filter: tensor<16x8x3x3xf32>) -> tensor<1x16x6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x16x6x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x16x6x8xf32>) -> tensor<1x16x6x8xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x8x8x10xf32>, tensor<16x8x3x3xf32>)
    outs(%acc : tensor<1x16x6x8xf32>) -> tensor<1x16x6x8xf32>
  return %out : tensor<1x16x6x8xf32>
}
