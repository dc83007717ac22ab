func.func @gum(%a: tensor<64x128xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty(): tensor<64xf32> %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = [32,"parallel", "reduction"]}
    ins(%a : tensor<64x128xf32>) outs(%acc : tensor<64xf32>) {
  ^bb0(%x: f32, %s: f32):
 %r = arith.addf %x, %s : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %sum : tensor<64xf32>
}
