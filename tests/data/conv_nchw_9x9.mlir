// 3x3 convolution with a 9x9 output: NCHW input 1x16x11x11, FCHW filter
// 32x16x3x3, stride 1. After img2col its pixel loop (81) is two tiles of
// two vectors and a rest of 17.
func.func @conv_nchw_9x9(%in: tensor<1x16x11x11xf32>, %filter: tensor<32x16x3x3xf32>) -> tensor<1x32x9x9xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x32x9x9xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x32x9x9xf32>) -> tensor<1x32x9x9xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x16x11x11xf32>, tensor<32x16x3x3xf32>)
    outs(%acc : tensor<1x32x9x9xf32>) -> tensor<1x32x9x9xf32>
  return %out : tensor<1x32x9x9xf32>
}
