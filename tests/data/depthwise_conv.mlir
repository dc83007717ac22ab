// 3x3 depthwise convolution, NHWC input 1x10x10x8, HWC filter 3x3x8.
func.func @depthwise_conv(%in: tensor<1x10x10x8xf32>, %filter: tensor<3x3x8xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x8x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %out = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x10x10x8xf32>, tensor<3x3x8xf32>)
    outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %out : tensor<1x8x8x8xf32>
}
