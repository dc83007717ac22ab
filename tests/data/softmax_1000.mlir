// Softmax over the rows of an 8x1000 tensor (1000 is no multiple of 16):
// row maxima (fill op0, op1), exponentials (op2), row sums (fill op3, op4),
// division (op5).
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows2 = affine_map<(d0, d1) -> (d0)>
func.func @softmax_1000(%x: tensor<8x1000xf32>) -> tensor<8x1000xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %rows_empty = tensor.empty() : tensor<8xf32>
  %max_init = linalg.fill ins(%ninf : f32) outs(%rows_empty : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [#id2, #rows2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x1000xf32>) outs(%max_init : tensor<8xf32>) {
  ^bb0(%v: f32, %m: f32):
    %r = arith.maximumf %v, %m : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %empty = tensor.empty() : tensor<8x1000xf32>
  %exp = linalg.generic {indexing_maps = [#id2, #rows2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<8x1000xf32>, tensor<8xf32>) outs(%empty : tensor<8x1000xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<8x1000xf32>
  %sum_init = linalg.fill ins(%zero : f32) outs(%rows_empty : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #rows2], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<8x1000xf32>) outs(%sum_init : tensor<8xf32>) {
  ^bb0(%e: f32, %s: f32):
    %r = arith.addf %e, %s : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #rows2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<8x1000xf32>, tensor<8xf32>) outs(%empty : tensor<8x1000xf32>) {
  ^bb0(%e: f32, %s: f32, %o: f32):
    %r = arith.divf %e, %s : f32
    linalg.yield %r : f32
  } -> tensor<8x1000xf32>
  return %y : tensor<8x1000xf32>
}
