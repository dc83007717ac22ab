// 3x3 "same" convolution of an NHWC input with a zero border of one pixel.
func.func @conv_padded(%in: tensor<1x12x12x8xf32>, %filter: tensor<3x3x8x16xf32>) -> tensor<1x12x12x16xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %in low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%n: index, %h: index, %w: index, %c: index):
    tensor.yield %zero : f32
  } : tensor<1x12x12x8xf32> to tensor<1x14x14x8xf32>
  %e = tensor.empty() : tensor<1x12x12x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x12x16xf32>) -> tensor<1x12x12x16xf32>
  %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%padded, %filter : tensor<1x14x14x8xf32>, tensor<3x3x8x16xf32>) outs(%acc : tensor<1x12x12x16xf32>) -> tensor<1x12x12x16xf32>
  return %out : tensor<1x12x12x16xf32>
}
