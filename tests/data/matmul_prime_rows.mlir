// C = A * B, 53 rows (a prime) x 128 columns by a reduction of 288.
func.func @matmul_prime_rows(%a: tensor<53x288xf32>, %b: tensor<288x128xf32>) -> tensor<53x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<53x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<53x128xf32>) -> tensor<53x128xf32>
  %c = linalg.matmul ins(%a, %b : tensor<53x288xf32>, tensor<288x128xf32>) outs(%acc : tensor<53x128xf32>) -> tensor<53x128xf32>
  return %c : tensor<53x128xf32>
}
