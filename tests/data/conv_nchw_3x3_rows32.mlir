// 3x3 convolution over 4 channels with output rows of 32 pixels: NCHW input
// 1x4x6x34, FCHW filter 16x4x3x3, stride 1.
func.func @conv_nchw_3x3_rows32(%in: tensor<1x4x6x34xf32>, %filter: tensor<16x4x3x3xf32>) -> tensor<1x16x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x16x4x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x16x4x32xf32>) -> tensor<1x16x4x32xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x4x6x34xf32>, tensor<16x4x3x3xf32>)
    outs(%acc : tensor<1x16x4x32xf32>) -> tensor<1x16x4x32xf32>
  return %out : tensor<1x16x4x32xf32>
}
