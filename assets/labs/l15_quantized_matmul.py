#!/usr/bin/env python3
"""Lab L15 - quantized matmul: int8 operands, per-channel scales.

y = x W with both operands quantized to int8 (w8a8): W per output column
(w_scale, shape (1, n)), x per row (x_scale, shape (m, 1)), each scale the
largest magnitude over 127. The kernel is chapter 11's tiled matmul with an
int32 accumulator in VMEM scratch: every K step adds the int8 x int8 product
(dot_general with preferred_element_type=int32), and the last K step turns
the sum into f32 and multiplies it by both scales, outside the K loop, once
per output element, before writing bf16.

--scheme w8a16 keeps x in bf16 and only W in int8: each W block is converted
to bf16 in the kernel and the accumulator is f32; the column scale is again
applied once at the end.

The check is against the float32 product of the dequantized operands
(x_q * x_scale) (w_q * w_scale) at HIGHEST precision: quantization error is
the model's business, the kernel must reproduce the arithmetic it was given.
The baseline is XLA doing the same scheme with jnp (an int8 dot into int32
for w8a8), and the record also keeps XLA's bf16 matmul of the unquantized
operands, the speed the quantization is meant to beat.

    python3 l15_quantized_matmul.py --out run-L15.json
    python3 l15_quantized_matmul.py --interpret --m 256 --k 512 --n 256 --bm 128 --bk 256 --bn 128 \
        --out run-L15-interpret.json
"""

from __future__ import annotations

import argparse
import functools
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

LAB = "L15"
GATE = None  # practice beyond the gates: no gate rests on this lab
INT8_ROWS = 32  # int8 packs four rows into a 32-bit sublane: its native tile is (32, 128)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], interpret=True, samples=10)
    p.add_argument("--scheme", choices=["w8a8", "w8a16"], default="w8a8")
    p.add_argument("--m", type=int, default=4096)
    p.add_argument("--k", type=int, default=4096)
    p.add_argument("--n", type=int, default=4096)
    p.add_argument("--bm", type=int, default=512, help="a multiple of 32 (int8 tiles)")
    p.add_argument("--bk", type=int, default=512, help="a multiple of 128")
    p.add_argument("--bn", type=int, default=512, help="a multiple of 128")
    args = p.parse_args(argv)
    labkit.check_common(args)
    if args.m % args.bm or args.k % args.bk or args.n % args.bn:
        p.error("--bm, --bk and --bn must divide --m, --k and --n")
    if args.bm % INT8_ROWS or args.bk % 128 or args.bn % 128:
        p.error("--bm must be a multiple of 32 and --bk, --bn multiples of 128")
    return args


def quantize(a: Any, axis: int) -> tuple[Any, Any]:
    """Symmetric int8: the scale is the largest magnitude along `axis` over 127."""
    amax = jnp.max(jnp.abs(a.astype(jnp.float32)), axis=axis, keepdims=True)
    scale = jnp.where(amax > 0, amax / 127.0, 1.0)
    q = jnp.clip(jnp.round(a.astype(jnp.float32) / scale), -127, 127).astype(jnp.int8)
    return q, scale


def w8a8_kernel(x_ref: Any, w_ref: Any, xs_ref: Any, ws_ref: Any, o_ref: Any, acc_ref: Any, *, k_steps: int) -> None:
    kk = pl.program_id(2)

    @pl.when(kk == 0)
    def _init() -> None:
        acc_ref[...] = jnp.zeros(acc_ref.shape, jnp.int32)

    # int8 x int8 on the MXU's integer path, summed exactly in int32.
    acc_ref[...] = acc_ref[...] + jax.lax.dot_general(
        x_ref[...], w_ref[...], (((1,), (0,)), ((), ())), preferred_element_type=jnp.int32)

    @pl.when(kk == k_steps - 1)
    def _store() -> None:
        o_ref[...] = (acc_ref[...].astype(jnp.float32) * xs_ref[...] * ws_ref[...]).astype(o_ref.dtype)


def w8a16_kernel(x_ref: Any, w_ref: Any, ws_ref: Any, o_ref: Any, acc_ref: Any, *, k_steps: int) -> None:
    kk = pl.program_id(2)

    @pl.when(kk == 0)
    def _init() -> None:
        acc_ref[...] = jnp.zeros(acc_ref.shape, jnp.float32)

    x = x_ref[...]
    # The int8 block becomes bf16 in VMEM; the MXU runs at the bf16 rate.
    acc_ref[...] = acc_ref[...] + jnp.dot(x, w_ref[...].astype(x.dtype), preferred_element_type=jnp.float32)

    @pl.when(kk == k_steps - 1)
    def _store() -> None:
        o_ref[...] = (acc_ref[...] * ws_ref[...]).astype(o_ref.dtype)


def quantized_matmul(x: Any, w_q: Any, w_scale: Any, x_scale: Any | None, *, bm: int, bk: int, bn: int,
                     interpret: Any = False) -> Any:
    """x is int8 (w8a8, with x_scale) or bf16 (w8a16, x_scale None); w_q int8 with w_scale (1, n)."""
    m, k = x.shape
    n = w_q.shape[1]
    k_steps = k // bk
    x_spec = pl.BlockSpec((bm, bk), lambda i, j, kk: (i, kk))
    w_spec = pl.BlockSpec((bk, bn), lambda i, j, kk: (kk, j))
    ws_spec = pl.BlockSpec((1, bn), lambda i, j, kk: (0, j))  # the column scales beside their weights
    if x_scale is None:
        kernel = functools.partial(w8a16_kernel, k_steps=k_steps)
        in_specs, operands, acc = [x_spec, w_spec, ws_spec], (x, w_q, w_scale), jnp.float32
    else:
        xs_spec = pl.BlockSpec((bm, 1), lambda i, j, kk: (i, 0))  # one scale per row of x
        kernel = functools.partial(w8a8_kernel, k_steps=k_steps)
        in_specs, operands, acc = [x_spec, w_spec, xs_spec, ws_spec], (x, w_q, x_scale, w_scale), jnp.int32
    return pl.pallas_call(
        kernel,
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(m // bm, n // bn, k_steps),
            in_specs=in_specs,
            out_specs=pl.BlockSpec((bm, bn), lambda i, j, kk: (i, j)),
            scratch_shapes=[pltpu.VMEM((bm, bn), acc)],
        ),
        out_shape=jax.ShapeDtypeStruct((m, n), jnp.bfloat16),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")),
        name="l15_quantized_matmul",
        interpret=interpret,
    )(*operands)


def xla_w8a8(x_q: Any, w_q: Any, x_scale: Any, w_scale: Any) -> Any:
    acc = jax.lax.dot_general(x_q, w_q, (((1,), (0,)), ((), ())), preferred_element_type=jnp.int32)
    return (acc.astype(jnp.float32) * x_scale * w_scale).astype(jnp.bfloat16)


def xla_w8a16(x: Any, w_q: Any, w_scale: Any) -> Any:
    acc = jnp.dot(x, w_q.astype(x.dtype), preferred_element_type=jnp.float32)
    return (acc * w_scale).astype(jnp.bfloat16)


def dequantized_reference(x: Any, w_q: Any, w_scale: Any, x_scale: Any | None) -> Any:
    """The product of exactly the operands the kernel was given, in float32 at HIGHEST precision."""
    xf = x.astype(jnp.float32) if x_scale is None else x.astype(jnp.float32) * x_scale
    return jnp.dot(xf, w_q.astype(jnp.float32) * w_scale, precision=jax.lax.Precision.HIGHEST)


def tolerance(ref: Any) -> tuple[float, float]:
    """(abs, rel): the output is rounded to bf16 once (2^-9 relative) after
    exact int32 sums (w8a8) or f32 sums of exact bf16 products (w8a16);
    2^-7 relative covers that rounding and the scale multiplies, and 2^-7 of
    the reference's RMS absorbs outputs that sum to near zero."""
    import numpy as np  # noqa: PLC0415

    rms = float(np.sqrt(np.mean(np.square(np.asarray(ref, dtype=np.float64)))))
    return 2.0 ** -7 * rms, 2.0 ** -7


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    labkit.start_jax(interpret=args.interpret)
    backend = labkit.preflight(args)
    import numpy as np  # noqa: PLC0415

    interpret = labkit.interpret_mode(pltpu) if args.interpret else False
    x = labkit.random_normal(args.seed, (args.m, args.k), "bf16")[1]
    w = labkit.random_normal(args.seed + 1, (args.k, args.n), "bf16", scale=args.k ** -0.5)[1]
    w_q, w_scale = quantize(w, axis=0)  # (k, n) int8, (1, n) f32
    blocks = {"bm": args.bm, "bk": args.bk, "bn": args.bn}
    if args.scheme == "w8a8":
        x_q, x_scale = quantize(x, axis=1)  # (m, k) int8, (m, 1) f32
        operands = (x_q, w_q, w_scale, x_scale)
        kernel = jax.jit(lambda a, b, c, d: quantized_matmul(a, b, c, d, **blocks, interpret=interpret))
        reference = jax.jit(dequantized_reference)
        xla = jax.jit(xla_w8a8)
    else:
        operands = (x, w_q, w_scale)
        kernel = jax.jit(lambda a, b, c: quantized_matmul(a, b, c, None, **blocks, interpret=interpret))
        reference = jax.jit(lambda a, b, c: dequantized_reference(a, b, c, None))
        xla = jax.jit(xla_w8a16)
    ref = np.asarray(reference(*operands))
    abs_tol, rel_tol = tolerance(ref)
    correctness = record.compare(np.asarray(kernel(*operands).astype(jnp.float32)), ref,
                                 reference_name="float32 product of the dequantized operands at HIGHEST precision",
                                 abs_tol=abs_tol, rel_tol=rel_tol)

    timing = baseline = None
    x_bytes = 1 if args.scheme == "w8a8" else 2
    extra: dict[str, Any] = {
        "scheme": args.scheme,
        "scales": "channel",
        "blocks": blocks,
        "flops": 2 * args.m * args.k * args.n,
        # One read of each operand, scales and output: what a bf16 matmul's 2 + 2 + 2 bytes become.
        "operandBytes": {"x": args.m * args.k * x_bytes, "w": args.k * args.n,
                         "scales": 4 * (args.n + (args.m if args.scheme == "w8a8" else 0)), "out": 2 * args.m * args.n},
    }
    if not args.interpret:
        timing = labkit.timed(kernel, *operands, args=args, name="Pallas quantized matmul")
        baseline = (f"XLA {args.scheme} with jnp ({'int8 dot into int32' if args.scheme == 'w8a8' else 'int8 weights converted to bf16'})",
                    labkit.timed(xla, *operands, args=args, name="XLA baseline").samples)
        extra["bf16Samples"] = labkit.timed(jax.jit(jnp.dot), x, w, args=args, name="XLA bf16 matmul").samples
        extra["ratioToBaseline"] = timing.median() / labkit.median(baseline[1])
        extra["ratioToBf16"] = timing.median() / labkit.median(extra["bf16Samples"])
        print(f"kernel / XLA {args.scheme}: {extra['ratioToBaseline']:.3f}; kernel / XLA bf16: {extra['ratioToBf16']:.3f}")
    labkit.finish(lab=LAB, script=__file__, args=args, dtype="int8",  # the weights; extra.scheme says the rest
                  shapes={"m": args.m, "k": args.k, "n": args.n},
                  timing=timing, baseline=baseline, correctness=correctness, extra=extra, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
