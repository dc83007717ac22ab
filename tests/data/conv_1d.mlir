// A 1-D convolution: one reduction loop (the window), read through the
// input at ow + kw, which is not a projected permutation.
func.func @conv_1d(%x: tensor<70xf32>, %w: tensor<7xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %r = linalg.conv_1d ins(%x, %w : tensor<70xf32>, tensor<7xf32>) outs(%y : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
