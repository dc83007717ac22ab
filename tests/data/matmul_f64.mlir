// C = A * B in f64, 64x64x64.
func.func @matmul_f64(%a: tensor<64x64xf64>, %b: tensor<64x64xf64>) -> tensor<64x64xf64> {
  %zero = arith.constant 0.0 : f64
  %empty = tensor.empty() : tensor<64x64xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%empty : tensor<64x64xf64>) -> tensor<64x64xf64>
  %c = linalg.matmul ins(%a, %b : tensor<64x64xf64>, tensor<64x64xf64>) outs(%acc : tensor<64x64xf64>) -> tensor<64x64xf64>
  return %c : tensor<64x64xf64>
}
