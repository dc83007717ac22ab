// A 1x1 NCHW convolution in destination-passing style, batch 2: it
// accumulates into its argument %acc, 2x12x5x16 (rows of 16 pixels).
func.func @conv_nchw_1x1_into_argument(%in: tensor<2x8x5x16xf32>, %filter: tensor<12x8x1x1xf32>, %acc: tensor<2x12x5x16xf32>) -> tensor<2x12x5x16xf32> {
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<2x8x5x16xf32>, tensor<12x8x1x1xf32>)
    outs(%acc : tensor<2x12x5x16xf32>) -> tensor<2x12x5x16xf32>
  return %out : tensor<2x12x5x16xf32>
}
