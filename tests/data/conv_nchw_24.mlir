// 3x3 convolution with 24 filters, which no vector of 16 divides: NCHW input
// 1x16x9x9, FCHW filter 24x16x3x3, stride 1.
func.func @conv_nchw_24(%in: tensor<1x16x9x9xf32>, %filter: tensor<24x16x3x3xf32>) -> tensor<1x24x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x24x7x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x24x7x7xf32>) -> tensor<1x24x7x7xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x16x9x9xf32>, tensor<24x16x3x3xf32>)
    outs(%acc : tensor<1x24x7x7xf32>) -> tensor<1x24x7x7xf32>
  return %out : tensor<1x24x7x7xf32>
}
