import jax.numpy as jnp
from jax import lax
def layernorm(x, gamma, beta):  # x f32[64,512], gamma and beta f32[512]
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    y = (x - mean) * lax.rsqrt(var + 1e-5)
    return y * gamma + beta
