// Batched C = A * B: 2 batches of 32x32x32.
func.func @batch_matmul(%a: tensor<2x32x32xf32>, %b: tensor<2x32x32xf32>) -> tensor<2x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x32x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x32x32xf32>) -> tensor<2x32x32xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<2x32x32xf32>, tensor<2x32x32xf32>) outs(%acc : tensor<2x32x32xf32>) -> tensor<2x32x32xf32>
  return %c : tensor<2x32x32xf32>
}
