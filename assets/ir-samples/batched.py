import jax
import jax.numpy as jnp

def batched(a, b):  # a f32[8,64,128], b f32[8,128,32]
    return jnp.matmul(a, b)  # batch dims (0, 0), contracting (2, 1)

a = jnp.ones((8, 64, 128), jnp.float32)
b = jnp.ones((8, 128, 32), jnp.float32)
c = jax.jit(batched)(a, b)
