// 1x1 convolution that widens 8 channels to 64 filters, as MobileNet's
// expansion layers do: NCHW input 1x8x14x14, FCHW filter 64x8x1x1.
func.func @conv_nchw_1x1_wide(%in: tensor<1x8x14x14xf32>, %filter: tensor<64x8x1x1xf32>) -> tensor<1x64x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x64x14x14xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x8x14x14xf32>, tensor<64x8x1x1xf32>)
    outs(%acc : tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32>
  return %out : tensor<1x64x14x14xf32>
}
