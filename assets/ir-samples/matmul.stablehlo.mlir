module @jit_matmul attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x256xf32> loc("x"), %arg1: tensor<256x512xf32> loc("w")) -> (tensor<128x512xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x512xf32>) -> tensor<128x512xf32> loc(#loc5)
    return %0 : tensor<128x512xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("/home/learner/lab/matmul.py":4:11 to :16)
#loc2 = loc("/home/learner/lab/matmul.py":8:6 to :22)
#loc3 = loc(callsite(#loc1 at #loc2))
#loc4 = loc("matmul"(#loc3))
#loc5 = loc("jit(matmul)/jit(main)/dot_general"(#loc4))
