// 3x3 sum pooling, NHWC input 1x10x10x8, stride 1.
func.func @pool_nhwc_sum(%in: tensor<1x10x10x8xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %empty = tensor.empty() : tensor<1x8x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %out = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %window : tensor<1x10x10x8xf32>, tensor<3x3xf32>)
    outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %out : tensor<1x8x8x8xf32>
}
