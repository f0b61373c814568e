"""Per-row state kept replicated across the 128 lanes of a vreg row, as the
flash-attention kernels keep m, l and the log-sum-exp, widened inside a
kernel to the width it scales."""

from __future__ import annotations

from typing import Any

from common import labkit

try:  # JAX at module level, as in the Pallas docs; the course's tests import this file without it
    import jax.numpy as jnp
    from jax.experimental.pallas import tpu as pltpu
except ImportError:
    jnp = pltpu = None  # type: ignore[assignment]

LANES = 128


def lanes_to(x: Any, width: int) -> Any:
    """(rows, 128) lane-replicated -> (rows, width), inside a kernel."""
    if width == LANES:
        return x
    if width % LANES == 0:
        if labkit.jax_at_least((0, 9, 0)):
            # jnp.tile inside a kernel from 0.9.0 on; pltpu.repeat before (see l09_streaming_attention.py).
            return jnp.tile(x, (1, width // LANES))
        return pltpu.repeat(x, width // LANES, 1)
    return x[:, :width]
