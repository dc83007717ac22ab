// 1x1 convolution over 8 channels with output rows of 40 pixels, which no
// vector of 16 lanes divides but one of 8 does: NCHW input 1x8x2x40, FCHW
// filter 16x8x1x1, stride 1.
func.func @conv_nchw_1x1_rows40(%in: tensor<1x8x2x40xf32>, %filter: tensor<16x8x1x1xf32>) -> tensor<1x16x2x40xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x16x2x40xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x16x2x40xf32>) -> tensor<1x16x2x40xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x8x2x40xf32>, tensor<16x8x1x1xf32>)
    outs(%acc : tensor<1x16x2x40xf32>) -> tensor<1x16x2x40xf32>
  return %out : tensor<1x16x2x40xf32>
}
