// A linear layer over 64 tokens with 1024 features in and out: B's rows
// are 4 KiB apart. The heuristic's choices are tested on it, not measured.
func.func @linear_wide(%a: tensor<64x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<64x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x1024xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x1024xf32>) outs(%acc : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %c : tensor<64x1024xf32>
}
