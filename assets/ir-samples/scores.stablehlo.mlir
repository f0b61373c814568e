#loc1 = loc("q")
#loc2 = loc("k")
module @jit_scores attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x64xf32> loc("q"), %arg1: tensor<256x64xf32> loc("k")) -> (tensor<128x256xf32> {jax.result_info = "result"}) {
    %0 = call @_einsum(%arg0, %arg1) : (tensor<128x64xf32>, tensor<256x64xf32>) -> tensor<128x256xf32> loc(#loc6)
    return %0 : tensor<128x256xf32> loc(#loc)
  } loc(#loc)
  func.func private @_einsum(%arg0: tensor<128x64xf32> loc("jit(scores)/jit(main)/jit(_einsum)"(#loc5)), %arg1: tensor<256x64xf32> loc("jit(scores)/jit(main)/jit(_einsum)"(#loc5))) -> tensor<128x256xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<128x64xf32>, tensor<256x64xf32>) -> tensor<128x256xf32> loc(#loc7)
    return %0 : tensor<128x256xf32> loc(#loc6)
  } loc(#loc6)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("/home/learner/lab/scores.py":5:11 to :41)
#loc4 = loc("/home/learner/lab/scores.py":9:6 to :22)
#loc5 = loc(callsite(#loc3 at #loc4))
#loc6 = loc("jit(scores)/jit(main)/jit(_einsum)"(#loc5))
#loc7 = loc("jit(scores)/jit(main)/jit(_einsum)/dot_general"(#loc5))
