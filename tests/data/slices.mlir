// The bottom half of a becomes its top half plus b; the top half is kept.
func.func @slices(%a: tensor<64x48xf32>, %b: tensor<32x48xf32>) -> tensor<64x48xf32> {
  %top = tensor.extract_slice %a[0, 0] [32, 48] [1, 1] : tensor<64x48xf32> to tensor<32x48xf32>
  %e = tensor.empty() : tensor<32x48xf32>
  %sum = linalg.add ins(%top, %b : tensor<32x48xf32>, tensor<32x48xf32>) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %r = tensor.insert_slice %sum into %a[32, 0] [32, 48] [1, 1] : tensor<32x48xf32> into tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}
