// C = A * B, 64x96 by a reduction of 929 steps, a prime: no tile of 8 or more divides it.
func.func @matmul_prime_depth(%a: tensor<64x929xf32>, %b: tensor<929x96xf32>) -> tensor<64x96xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x96xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x96xf32>) -> tensor<64x96xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x929xf32>, tensor<929x96xf32>) outs(%acc : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %c : tensor<64x96xf32>
}
