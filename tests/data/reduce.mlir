// Row sums of a 64x128 tensor with linalg.reduce.
func.func @reduce(%a: tensor<64x128xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.reduce ins(%a : tensor<64x128xf32>) outs(%acc : tensor<64xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  return %sum : tensor<64xf32>
}
