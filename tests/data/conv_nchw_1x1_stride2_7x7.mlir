// 1x1 convolution with stride 2 over a small image (a late ResNet
// downsampling layer): NCHW input 1x32x13x13, FCHW filter 48x32x1x1,
// 7 x 7 output pixels.
func.func @conv_nchw_1x1_stride2_7x7(%in: tensor<1x32x13x13xf32>, %filter: tensor<48x32x1x1xf32>) -> tensor<1x48x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x48x7x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x48x7x7xf32>) -> tensor<1x48x7x7xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x32x13x13xf32>, tensor<48x32x1x1xf32>)
    outs(%acc : tensor<1x48x7x7xf32>) -> tensor<1x48x7x7xf32>
  return %out : tensor<1x48x7x7xf32>
}
