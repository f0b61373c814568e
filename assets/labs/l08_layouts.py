#!/usr/bin/env python3
"""Lab L08 - layouts: what a bad block shape costs.

One Pallas kernel (y = 2x + 1, one input, one output) run over the same
rows x cols elements with five block shapes, all legal, most of them bad:

  aligned        (256, 2048)    whole packed tiles, big DMAs: the yardstick
  thin_rows      (8, 2048)      8 rows: half of a bf16 (16,128) packed tile
  narrow_lanes   (2048, 128)    one lane-tile wide: 2048 short strided rows per DMA
  tiny           (8, 128)       one vreg per grid step: per-step overhead dominates
  padded_minor   array reshaped to (rows*cols/8, 8), block (4096, 8):
                 the minor dim 8 is padded to 128 lanes, 16x the bytes moved

Every variant is checked, timed and set beside the padding the layout lens
(EX-12) predicts. XLA's 2x + 1 on the (rows, cols) array is the baseline.

    python3 l08_layouts.py --out run-L08.json
    python3 l08_layouts.py --interpret --rows 512 --cols 512 --out run-L08-interpret.json
"""

from __future__ import annotations

import argparse
import math
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

LAB = "L08"
GATE = None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], interpret=True, samples=10, calls_per_sample=5)
    p.add_argument("--rows", type=int, default=4096)
    p.add_argument("--cols", type=int, default=4096)
    p.add_argument("--dtype", choices=["bf16", "f32"], default="bf16")
    args = p.parse_args(argv)
    labkit.check_common(args)
    if args.rows % 8 or args.cols % 128:
        p.error("--rows must be a multiple of 8 and --cols a multiple of 128")
    for v in variants(args.rows, args.cols):
        if v["array"][0] % v["block"][0] or v["array"][1] % v["block"][1]:
            p.error(f"variant {v['name']}: block {v['block']} does not divide array {v['array']}; "
                    "use powers of two for --rows and --cols")
    return args


def variants(rows: int, cols: int) -> list[dict[str, Any]]:
    """Array shape and block shape per variant; blocks are clipped to the array."""
    flat = rows * cols // 8
    return [
        {"name": "aligned", "array": [rows, cols], "block": [min(256, rows), min(2048, cols)]},
        {"name": "thin_rows", "array": [rows, cols], "block": [8, min(2048, cols)]},
        {"name": "narrow_lanes", "array": [rows, cols], "block": [min(2048, rows), 128]},
        {"name": "tiny", "array": [rows, cols], "block": [8, 128]},
        {"name": "padded_minor", "array": [flat, 8], "block": [math.gcd(flat, 4096), 8]},
    ]


def padded_bytes(shape: list[int], itemsize: int) -> int:
    """Bytes of a 2-D block once its last two dims are padded to the native
    tile: (8 * 4/itemsize, 128), i.e. (16, 128) for bf16 and (8, 128) for f32."""
    sub = 8 * (4 // itemsize)
    r = -(-shape[0] // sub) * sub
    c = -(-shape[1] // 128) * 128
    return r * c * itemsize


def scale_kernel(x_ref: Any, o_ref: Any) -> None:
    o_ref[...] = x_ref[...] * 2 + 1


def pallas_scale(x: Any, block: tuple[int, int], interpret: Any = False) -> Any:
    rows, cols = x.shape
    spec = pl.BlockSpec(block, lambda i, j: (i, j))
    return pl.pallas_call(
        scale_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(rows // block[0], cols // block[1]),
        in_specs=[spec],
        out_specs=spec,
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel")),
        name="l08_scale",  # how the kernel is named in a profile
        interpret=interpret,
    )(x)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    labkit.start_jax(interpret=args.interpret)
    backend = labkit.preflight(args)
    import numpy as np  # noqa: PLC0415

    interpret = labkit.interpret_mode(pltpu) if args.interpret else False
    itemsize = 2 if args.dtype == "bf16" else 4
    hx, x = labkit.random_normal(args.seed, (args.rows, args.cols), args.dtype)
    ref = hx.astype(np.float64) * 2 + 1
    rel = 2.0 ** -8 if args.dtype == "bf16" else 2.0 ** -23

    results, checks, timings = [], [], {}
    for v in variants(args.rows, args.cols):
        block = (v["block"][0], v["block"][1])
        xv = x.reshape(v["array"])  # reshaped (and relaid out) before timing, not during
        fn = jax.jit(lambda a, b=block: pallas_scale(a, b, interpret))
        try:
            out = np.asarray(fn(xv).astype(jnp.float32)).reshape(args.rows, args.cols)
        except Exception as e:  # noqa: BLE001
            # A shape the compiler refuses is a result too: keep it, with its message.
            if v["name"] == "aligned":
                raise
            message = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            print(f"{v['name']:13s} block {block}: did not compile or run: {message}")
            results.append({"name": v["name"], "arrayShape": v["array"], "blockShape": v["block"],
                            "error": message[:2000]})
            continue
        check = record.compare(out, ref, reference_name="2x + 1 in float64 numpy on the same input",
                               abs_tol=1e-6, rel_tol=rel)
        checks.append(check)
        steps = (v["array"][0] // block[0]) * (v["array"][1] // block[1])
        entry = {
            "name": v["name"], "arrayShape": v["array"], "blockShape": v["block"], "gridSteps": steps,
            "blockBytes": block[0] * block[1] * itemsize,
            "paddedBlockBytes": padded_bytes(v["block"], itemsize),
            "correctness": check.to_json(),
        }
        if not args.interpret:
            t = labkit.timed(fn, xv, args=args)
            timings[v["name"]] = t
            entry["samples"] = t.samples
            print(f"{v['name']:13s} block {block}: {steps:6d} steps, median {t.median() * 1e6:9.1f} us")
        results.append(entry)

    timing = baseline = None
    if not args.interpret:
        timing = timings["aligned"]
        xla = jax.jit(lambda a: a * 2 + 1)
        baseline = ("XLA 2x + 1 (jax.jit)", labkit.timed(xla, x, args=args).samples)
    labkit.finish(lab=LAB, script=__file__, args=args, dtype=args.dtype,
                  shapes={"rows": args.rows, "cols": args.cols}, timing=timing, baseline=baseline,
                  correctness=record.combine(checks, "2x + 1 in float64 numpy, every variant"),
                  extra={"variants": results}, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
