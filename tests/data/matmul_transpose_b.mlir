// C = A B^T with B stored as 48x256: both operands read the reduction loop
// as their last dimension.
func.func @matmul_transpose_b(%a: tensor<32x256xf32>, %b: tensor<48x256xf32>, %c: tensor<32x48xf32>) -> tensor<32x48xf32> {
  %r = linalg.matmul_transpose_b ins(%a, %b : tensor<32x256xf32>, tensor<48x256xf32>) outs(%c : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %r : tensor<32x48xf32>
}
