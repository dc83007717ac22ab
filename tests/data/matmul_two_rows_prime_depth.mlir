// C = A * B, 2 rows x 256 columns by a reduction of 1237 steps, a prime.
func.func @matmul_two_rows_prime_depth(%a: tensor<2x1237xf32>, %b: tensor<1237x256xf32>) -> tensor<2x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x256xf32>) -> tensor<2x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<2x1237xf32>, tensor<1237x256xf32>) outs(%acc : tensor<2x256xf32>) -> tensor<2x256xf32>
  return %c : tensor<2x256xf32>
}
