// Elementwise linalg.sub of two 64x48 tensors.
func.func @sub(%a: tensor<64x48xf32>, %b: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %empty = tensor.empty() : tensor<64x48xf32>
  %c = linalg.sub ins(%a, %b : tensor<64x48xf32>, tensor<64x48xf32>) outs(%empty : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %c : tensor<64x48xf32>
}
