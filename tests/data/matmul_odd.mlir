// C = A * B, 200x300x1000: no power of two above 8 divides N.
func.func @matmul_odd(%a: tensor<200x300xf32>, %b: tensor<300x1000xf32>) -> tensor<200x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<200x1000xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<200x1000xf32>) -> tensor<200x1000xf32>
  %c = linalg.matmul ins(%a, %b : tensor<200x300xf32>, tensor<300x1000xf32>) outs(%acc : tensor<200x1000xf32>) -> tensor<200x1000xf32>
  return %c : tensor<200x1000xf32>
}
