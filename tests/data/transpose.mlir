// 32x64 -> 64x32 transpose.
func.func @transpose(%a: tensor<32x64xf32>) -> tensor<64x32xf32> {
  %empty = tensor.empty() : tensor<64x32xf32>
  %t = linalg.transpose ins(%a : tensor<32x64xf32>) outs(%empty : tensor<64x32xf32>) permutation = [1, 0]
  return %t : tensor<64x32xf32>
}
