// 3x3 convolution with more filters than output pixels (96 > 8 x 8), as
// the last layers of VGG and ResNet have: NCHW input 1x32x10x10, FCHW
// filter 96x32x3x3, stride 1.
func.func @conv_nchw_8x8_many(%in: tensor<1x32x10x10xf32>, %filter: tensor<96x32x3x3xf32>) -> tensor<1x96x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x96x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x96x8x8xf32>) -> tensor<1x96x8x8xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x32x10x10xf32>, tensor<96x32x3x3xf32>)
    outs(%acc : tensor<1x96x8x8xf32>) -> tensor<1x96x8x8xf32>
  return %out : tensor<1x96x8x8xf32>
}
