#loc1 = loc("a")
#loc2 = loc("b")
module @jit_batched attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x64x128xf32> {mhlo.layout_mode = "default"} loc("a"), %arg1: tensor<8x128x32xf32> {mhlo.layout_mode = "default"} loc("b")) -> (tensor<8x64x32xf32> {jax.result_info = "result", mhlo.layout_mode = "default"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<8x128x32xf32>) -> tensor<8x64x32xf32> loc(#loc6)
    return %0 : tensor<8x64x32xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("/home/learner/lab/batched.py":5:11 to :27)
#loc4 = loc("/home/learner/lab/batched.py":9:6 to :23)
#loc5 = loc(callsite(#loc3 at #loc4))
#loc6 = loc("jit(batched)/jit(main)/dot_general"(#loc5))
