// y = A x, 128x128.
func.func @matvec(%a: tensor<128x128xf32>, %x: tensor<128xf32>) -> tensor<128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<128xf32>) -> tensor<128xf32>
  %y = linalg.matvec ins(%a, %x : tensor<128x128xf32>, tensor<128xf32>) outs(%acc : tensor<128xf32>) -> tensor<128xf32>
  return %y : tensor<128xf32>
}
