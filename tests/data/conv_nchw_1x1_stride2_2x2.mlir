// 1x1 convolution with stride 2 onto 2 x 2 output pixels (the last
// ResNet-50 downsampling layer at a small input): NCHW input 1x64x4x4,
// FCHW filter 128x64x1x1.
func.func @conv_nchw_1x1_stride2_2x2(%in: tensor<1x64x4x4xf32>, %filter: tensor<128x64x1x1xf32>) -> tensor<1x128x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x128x2x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x128x2x2xf32>) -> tensor<1x128x2x2xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x64x4x4xf32>, tensor<128x64x1x1xf32>)
    outs(%acc : tensor<1x128x2x2xf32>) -> tensor<1x128x2x2xf32>
  return %out : tensor<1x128x2x2xf32>
}
