import jax
import jax.numpy as jnp
def matmul(x, w):  # x f32[128,256], w f32[256,512]
    return x @ w

x = jnp.ones((128, 256), jnp.float32)
w = jnp.ones((256, 512), jnp.float32)
y = jax.jit(matmul)(x, w)
