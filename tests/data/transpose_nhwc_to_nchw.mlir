// NHWC -> NCHW: the output's rows run along W, the input's along C.
func.func @transpose_nhwc_to_nchw(%x: tensor<2x6x8x32xf32>) -> tensor<2x32x6x8xf32> {
  %empty = tensor.empty() : tensor<2x32x6x8xf32>
  %y = linalg.transpose ins(%x : tensor<2x6x8x32xf32>)
                        outs(%empty : tensor<2x32x6x8xf32>) permutation = [0, 3, 1, 2]
  return %y : tensor<2x32x6x8xf32>
}
