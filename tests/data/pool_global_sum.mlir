// Global 7x7 sum pooling, NHWC input 2x7x7x1024: one output column per row.
func.func @pool_global_sum(%in: tensor<2x7x7x1024xf32>) -> tensor<2x1x1x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %window = tensor.empty() : tensor<7x7xf32>
  %empty = tensor.empty() : tensor<2x1x1x1024xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x1x1x1024xf32>) -> tensor<2x1x1x1024xf32>
  %out = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %window : tensor<2x7x7x1024xf32>, tensor<7x7xf32>)
    outs(%acc : tensor<2x1x1x1024xf32>) -> tensor<2x1x1x1024xf32>
  return %out : tensor<2x1x1x1024xf32>
}
