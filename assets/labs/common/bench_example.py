"""A bench file for lab L13, to copy and edit: it measures lab L07's tiled
matmul. Replace setup() with your merged kernel, its reference and, where
there is one, the XLA version it replaces."""

from __future__ import annotations

import functools
import os
import sys
from typing import Any, Callable

NAME = "Pallas tiled matmul (lab L07), bf16 4096^3"
DTYPE = "bf16"
SHAPES = {"m": 4096, "k": 4096, "n": 4096}
TOLERANCE = (2e-2, 2e-2)


def setup(seed: int) -> tuple[Callable[..., Any], tuple[Any, ...], Callable[..., Any], Callable[..., Any] | None]:
    import jax  # noqa: PLC0415
    import jax.numpy as jnp  # noqa: PLC0415

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from l07_tiled_matmul import pallas_matmul  # noqa: PLC0415

    kx, ky = jax.random.split(jax.random.key(seed))
    x = jax.random.normal(kx, (SHAPES["m"], SHAPES["k"]), jnp.bfloat16)
    y = (jax.random.normal(ky, (SHAPES["k"], SHAPES["n"]), jnp.float32) * SHAPES["k"] ** -0.5).astype(jnp.bfloat16)
    kernel = jax.jit(functools.partial(pallas_matmul, bm=512, bk=1024, bn=1024))

    def reference(a: Any, b: Any) -> Any:
        return jnp.dot(a.astype(jnp.float32), b.astype(jnp.float32), precision=jax.lax.Precision.HIGHEST)

    return kernel, (x, y), reference, jax.jit(jnp.dot)
