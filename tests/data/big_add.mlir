// Elementwise add of two 4096x4096 f32 tensors: 64 MiB each, so the inputs,
// their per-side copies and the outputs need about 400 MiB.
func.func @big_add(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %empty = tensor.empty() : tensor<4096x4096xf32>
  %c = linalg.add ins(%a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32>) outs(%empty : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %c : tensor<4096x4096xf32>
}
