// C = A * B, 64 rows x 48 columns by a reduction of 1024: 48 columns take
// register tiles one vector wide on AVX-512; A's rows lie 4096 bytes apart.
func.func @matmul_cols48_depth1024(%a: tensor<64x1024xf32>, %b: tensor<1024x48xf32>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x48xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x48xf32>) -> tensor<64x48xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x48xf32>) outs(%acc : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %c : tensor<64x48xf32>
}
