import jax
import jax.numpy as jnp

def scores(q, k):  # q f32[128,64], k f32[256,64]
    return jnp.einsum('qd,kd->qk', q, k)  # k is contracted on its last dim

q = jnp.ones((128, 64), jnp.float32)
k = jnp.ones((256, 64), jnp.float32)
s = jax.jit(scores)(q, k)
