import jax
import jax.numpy as jnp

def attention(q, k, v):  # q, k, v f32[4,256,64]: 4 heads, 256 tokens
    s = jnp.einsum('hqd,hkd->hqk', q, k) / 8.0
    p = jax.nn.softmax(s, axis=-1)
    return jnp.einsum('hqk,hkd->hqd', p, v)
