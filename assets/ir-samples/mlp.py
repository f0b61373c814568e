import jax
import jax.numpy as jnp
@jax.jit
def relu(h): return jnp.maximum(h, 0.0)

@jax.jit
def mlp(x, w1, b1, w2, b2):  # x [32,128], w1 [128,512], b1 [512], w2 [512,128], b2 [128]
    h = relu(x @ w1 + b1)
    return h @ w2 + b2
