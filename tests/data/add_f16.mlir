// out = a + b in f16.
func.func @add_f16(%a: tensor<64x96xf16>, %b: tensor<64x96xf16>) -> tensor<64x96xf16> {
  %empty = tensor.empty() : tensor<64x96xf16>
  %0 = linalg.add ins(%a, %b : tensor<64x96xf16>, tensor<64x96xf16>) outs(%empty : tensor<64x96xf16>) -> tensor<64x96xf16>
  return %0 : tensor<64x96xf16>
}
