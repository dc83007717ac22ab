// 1x1 convolution with stride 2 (a ResNet downsampling layer) and output
// rows of 32 pixels: NCHW input 1x16x8x64, FCHW filter 16x16x1x1.
func.func @conv_nchw_1x1_stride2(%in: tensor<1x16x8x64xf32>, %filter: tensor<16x16x1x1xf32>) -> tensor<1x16x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x16x4x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x16x4x32xf32>) -> tensor<1x16x4x32xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x16x8x64xf32>, tensor<16x16x1x1xf32>)
    outs(%acc : tensor<1x16x4x32xf32>) -> tensor<1x16x4x32xf32>
  return %out : tensor<1x16x4x32xf32>
}
