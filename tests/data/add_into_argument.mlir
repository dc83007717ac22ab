// out = a + b written into the argument out, whose values are not read.
func.func @add_into_argument(%a: tensor<64x96xf32>, %b: tensor<64x96xf32>, %out: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %0 = linalg.add ins(%a, %b : tensor<64x96xf32>, tensor<64x96xf32>) outs(%out : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %0 : tensor<64x96xf32>
}
