// 1x1 convolution over a 7 x 7 image, as the last layers of MobileNet and
// ResNet have: NCHW input 1x64x7x7, FCHW filter 32x64x1x1. Read as a matmul,
// its 49 pixels are one register tile of two vectors and a rest of 17.
func.func @conv_nchw_1x1_7x7(%in: tensor<1x64x7x7xf32>, %filter: tensor<32x64x1x1xf32>) -> tensor<1x32x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x32x7x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x64x7x7xf32>, tensor<32x64x1x1xf32>)
    outs(%acc : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  return %out : tensor<1x32x7x7xf32>
}
