// 3x3 convolution with stride 2, as ResNet's downsampling layers have: NCHW
// input 1x16x17x17, FCHW filter 32x16x3x3, 8x8 output.
func.func @conv_nchw_stride2(%in: tensor<1x16x17x17xf32>, %filter: tensor<32x16x3x3xf32>) -> tensor<1x32x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x32x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x16x17x17xf32>, tensor<32x16x3x3xf32>)
    outs(%acc : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %out : tensor<1x32x8x8xf32>
}
