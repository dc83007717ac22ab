// C += A * B written into the argument C (destination-passing style).
func.func @matmul_into_argument(%a: tensor<48x32xf32>, %b: tensor<32x40xf32>, %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<48x32xf32>, tensor<32x40xf32>) outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %0 : tensor<48x40xf32>
}
