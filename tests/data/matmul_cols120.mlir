// C = A * B, 64 rows x 120 columns by a reduction of 256: 120 = 3 x 32 + 24,
// and 24 = 16 + 8.
func.func @matmul_cols120(%a: tensor<64x256xf32>, %b: tensor<256x120xf32>) -> tensor<64x120xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x120xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x120xf32>) -> tensor<64x120xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x120xf32>) outs(%acc : tensor<64x120xf32>) -> tensor<64x120xf32>
  return %c : tensor<64x120xf32>
}
