"builtin.module"() <{sym_name = "jit_batched"}> ({
  "func.func"() <{function_type = (tensor<8x64x128xf32>, tensor<8x128x32xf32>) -> tensor<8x64x32xf32>, sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x64x128xf32>, %arg1: tensor<8x128x32xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x64x128xf32>, tensor<8x128x32xf32>) -> tensor<8x64x32xf32> loc(#loc3)
    "func.return"(%0) : (tensor<8x64x32xf32>) -> () loc(#loc)
  }) {res_attrs = [{jax.result_info = "result"}]} : () -> () loc(#loc)
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> () loc(#loc)
#loc = loc(unknown)
#loc1 = loc("/home/learner/lab/batched.py":5:11 to :27)
#loc2 = loc("/home/learner/lab/batched.py":9:6 to :23)
#loc3 = loc("jit(batched)/jit(main)/dot_general"(callsite(#loc1 at #loc2)))
