// Elementwise a * b - a / 2 as one linalg.generic, 64x48.
#id = affine_map<(i, j) -> (i, j)>
func.func @generic_elementwise(%a: tensor<64x48xf32>, %b: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %half = arith.constant 0.5 : f32
  %empty = tensor.empty() : tensor<64x48xf32>
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%a, %b : tensor<64x48xf32>, tensor<64x48xf32>) outs(%empty : tensor<64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %p = arith.mulf %x, %y : f32
    %h = arith.mulf %x, %half : f32
    %r = arith.subf %p, %h : f32
    linalg.yield %r : f32
  } -> tensor<64x48xf32>
  return %c : tensor<64x48xf32>
}
