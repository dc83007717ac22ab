// A batch norm and ReLU6 over NHWC activations: scale (op0), shift (op1),
// clamp to [0, 6] (op2); 4x8x8x120.
#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#channel = affine_map<(n, h, w, c) -> (c)>
func.func @bn_relu6_chain(%x: tensor<4x8x8x120xf32>, %scale: tensor<120xf32>, %shift: tensor<120xf32>) -> tensor<4x8x8x120xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %empty = tensor.empty() : tensor<4x8x8x120xf32>
  %scaled = linalg.generic {indexing_maps = [#id4, #channel, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %scale : tensor<4x8x8x120xf32>, tensor<120xf32>) outs(%empty : tensor<4x8x8x120xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.mulf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8x120xf32>
  %shifted = linalg.generic {indexing_maps = [#id4, #channel, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scaled, %shift : tensor<4x8x8x120xf32>, tensor<120xf32>) outs(%empty : tensor<4x8x8x120xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8x120xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%shifted : tensor<4x8x8x120xf32>) outs(%empty : tensor<4x8x8x120xf32>) {
  ^bb0(%a: f32, %o: f32):
    %low = arith.maximumf %a, %zero : f32
    %r = arith.minimumf %low, %six : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8x120xf32>
  return %y : tensor<4x8x8x120xf32>
}
