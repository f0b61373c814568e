#!/usr/bin/env python3
"""Lab L06 - first kernel: elementwise add at the HBM roofline.

A Pallas kernel that adds two (rows x cols) arrays block by block: a 2-D grid,
one BlockSpec shared by both inputs and the output, "parallel" semantics on
both axes. Pallas double-buffers every operand, so while block i is added the
DMA engine brings in block i+1 and writes back block i-1: the kernel should
run at the HBM roofline, 3 x rows x cols x 2 bytes / bandwidth. XLA's x + y is
timed as the baseline.

    python3 l06_first_kernel.py --out run-L06.json
    python3 l06_first_kernel.py --interpret --rows 512 --cols 512 --block-rows 128 --block-cols 256 \
        --out run-L06-interpret.json
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from common import labkit, record

try:  # JAX at module level, as in the Pallas docs; the course's tests import this file without it
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu
except ImportError:
    jax = jnp = pl = pltpu = None  # type: ignore[assignment]

LAB = "L06"
GATE = None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], interpret=True, calls_per_sample=10)
    p.add_argument("--rows", type=int, default=4096)
    p.add_argument("--cols", type=int, default=4096)
    p.add_argument("--block-rows", type=int, default=256,
                   help="multiple of 8 (16 fills bf16's packed sublanes), or all rows (default 256)")
    p.add_argument("--block-cols", type=int, default=2048,
                   help="multiple of 128, or all columns (default 2048)")
    p.add_argument("--dtype", choices=["bf16", "f32"], default="bf16")
    args = p.parse_args(argv)
    labkit.check_common(args)
    if args.rows % args.block_rows or args.cols % args.block_cols:
        p.error("--block-rows and --block-cols must divide --rows and --cols")
    return args


def add_kernel(x_ref: Any, y_ref: Any, o_ref: Any) -> None:
    # The refs are this grid step's blocks, already in VMEM.
    o_ref[...] = x_ref[...] + y_ref[...]


def pallas_add(x: Any, y: Any, *, block_rows: int, block_cols: int, interpret: Any = False) -> Any:
    rows, cols = x.shape
    spec = pl.BlockSpec((block_rows, block_cols), lambda i, j: (i, j))  # block indices, not offsets
    return pl.pallas_call(
        add_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(rows // block_rows, cols // block_cols),
        in_specs=[spec, spec],
        out_specs=spec,
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel")),
        name="l06_add",  # how the kernel is named in a profile
        interpret=interpret,
    )(x, y)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    labkit.start_jax(interpret=args.interpret)
    backend = labkit.preflight(args)
    import numpy as np  # noqa: PLC0415

    interpret = labkit.interpret_mode(pltpu) if args.interpret else False
    hx, x = labkit.random_normal(args.seed, (args.rows, args.cols), args.dtype)
    hy, y = labkit.random_normal(args.seed + 1, (args.rows, args.cols), args.dtype)
    kernel = jax.jit(lambda a, b: pallas_add(a, b, block_rows=args.block_rows, block_cols=args.block_cols,
                                             interpret=interpret))
    out = np.asarray(kernel(x, y).astype(jnp.float32))
    rel = 2.0 ** -8 if args.dtype == "bf16" else 2.0 ** -23
    correctness = record.compare(out, hx.astype(np.float64) + hy.astype(np.float64),
                                 reference_name="x + y in float64 numpy on the same inputs",
                                 abs_tol=1e-6, rel_tol=rel)

    timing = baseline = None
    itemsize = 2 if args.dtype == "bf16" else 4
    moved = 3 * args.rows * args.cols * itemsize
    extra: dict[str, Any] = {
        "blocks": {"blockRows": args.block_rows, "blockCols": args.block_cols},
        "grid": [args.rows // args.block_rows, args.cols // args.block_cols],
        "bytesMoved": moved,
    }
    if not args.interpret:
        timing = labkit.timed(kernel, x, y, args=args, name="Pallas kernel")
        xla = jax.jit(lambda a, b: a + b)
        baseline = ("XLA x + y (jax.jit)", labkit.timed(xla, x, y, args=args, name="XLA baseline").samples)
        extra["achievedBytesPerSecond"] = moved / timing.median()
    labkit.finish(lab=LAB, script=__file__, args=args, dtype=args.dtype,
                  shapes={"rows": args.rows, "cols": args.cols}, timing=timing, baseline=baseline,
                  correctness=correctness, extra=extra, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
