// A 3x3 convolution from a ResNet basic block (28x28, 32 -> 32 channels).
func.func @conv2d(%input: tensor<1x30x30x32xf32>, %filter: tensor<3x3x32x32xf32>) -> tensor<1x28x28x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1x28x28x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x28x28x32xf32>) -> tensor<1x28x28x32xf32>
  %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %filter : tensor<1x30x30x32xf32>, tensor<3x3x32x32xf32>)
    outs(%acc : tensor<1x28x28x32xf32>) -> tensor<1x28x28x32xf32>
  return %out : tensor<1x28x28x32xf32>
}
