#!/usr/bin/env python3
"""Lab L19 - two TensorCores: the same matmul, "parallel" and "arbitrary".

Chapter 11's tiled matmul, grid (m/bm, n/bn, k/bk) with a float32 VMEM
scratch accumulator, compiled twice on the same inputs and blocks:

  parallel   dimension_semantics ("parallel", "parallel", "arbitrary"): the
             two output axes may be split between the TensorCores of a
             megacore device (v4, v5p), the reduction axis stays in order
  arbitrary  ("arbitrary", "arbitrary", "arbitrary"): every step in order on
             one TensorCore

On a megacore device an MXU-bound grid that splits evenly should run the
parallel version in close to half the time. On v5e and v6e (one TensorCore a
chip) the annotation changes nothing and the two should time the same. A
TPU7x chip has two TensorCores, but JAX shows each as a device of its own, so
a kernel runs on one core there too. The record keeps the TensorCores the
device reports (pltpu.get_tpu_info().num_cores, JAX 0.8.1 and newer; null
before, and null off a TPU).

Both are checked against the float32 reference at HIGHEST precision. The
parallel version is the record's timing; the arbitrary one's samples are in
extra, and XLA's jnp.dot on the same inputs is the baseline.

    python3 l19_two_cores.py --out run-L19.json
    python3 l19_two_cores.py --interpret --m 256 --k 256 --n 256 --bm 128 --bk 128 --bn 128 \
        --out run-L19-interpret.json
"""

from __future__ import annotations

import argparse
import functools
import sys
from typing import Any

from common import labkit

try:  # JAX at module level, as in the Pallas docs; the course's tests import this file without it
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu
except ImportError:
    jax = jnp = pl = pltpu = None  # type: ignore[assignment]

LAB = "L19"
GATE = None  # practice beyond the gates: no gate rests on this lab

# The two annotations compared, for the grid (m/bm, n/bn, k/bk). The reduction axis is "arbitrary" in
# both: marking it "parallel" would let two cores keep an accumulator each (chapter 11).
SEMANTICS = {
    "parallel": ("parallel", "parallel", "arbitrary"),
    "arbitrary": ("arbitrary", "arbitrary", "arbitrary"),
}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    # 10 calls per sample, as L07: the parallel kernel may take well under a millisecond.
    p = labkit.parser(LAB, __doc__.splitlines()[0], interpret=True, calls_per_sample=10)
    p.add_argument("--m", type=int, default=4096)
    p.add_argument("--k", type=int, default=4096)
    p.add_argument("--n", type=int, default=4096)
    # L07's blocks: a (8, 4, 4) grid whose two parallel axes both split evenly over two cores.
    p.add_argument("--bm", type=int, default=512)
    p.add_argument("--bk", type=int, default=1024)
    p.add_argument("--bn", type=int, default=1024)
    p.add_argument("--dtype", choices=["bf16", "f32"], default="bf16")
    args = p.parse_args(argv)
    labkit.check_common(args)
    if args.m % args.bm or args.k % args.bk or args.n % args.bn:
        p.error("--bm, --bk and --bn must divide --m, --k and --n")
    return args


def matmul_kernel(x_ref: Any, y_ref: Any, z_ref: Any, acc_ref: Any, *, k_steps: int) -> None:
    k = pl.program_id(2)

    @pl.when(k == 0)
    def _zero() -> None:
        acc_ref[...] = jnp.zeros_like(acc_ref)

    acc_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32)

    @pl.when(k == k_steps - 1)
    def _store() -> None:
        z_ref[...] = acc_ref[...].astype(z_ref.dtype)


def tiled_matmul(x: Any, y: Any, *, semantics: str, bm: int, bk: int, bn: int, interpret: Any = False) -> Any:
    """The tiled matmul with the grid annotated as SEMANTICS[semantics]; nothing else differs."""
    m, k = x.shape
    _, n = y.shape
    return pl.pallas_call(
        functools.partial(matmul_kernel, k_steps=k // bk),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(m // bm, n // bn, k // bk),
            in_specs=[
                pl.BlockSpec((bm, bk), lambda i, j, kk: (i, kk)),
                pl.BlockSpec((bk, bn), lambda i, j, kk: (kk, j)),
            ],
            out_specs=pl.BlockSpec((bm, bn), lambda i, j, kk: (i, j)),
            scratch_shapes=[pltpu.VMEM((bm, bn), jnp.float32)],
        ),
        out_shape=jax.ShapeDtypeStruct((m, n), x.dtype),
        compiler_params=pltpu.CompilerParams(dimension_semantics=SEMANTICS[semantics]),
        name=f"l19_matmul_{semantics}",  # each version named in a profile
        interpret=interpret,
    )(x, y)


def tensorcores(interpret: bool) -> tuple[int | None, str]:
    """(TensorCores of the device the kernels run on, where that number came from or why it is null)."""
    if interpret:
        return None, "not read: an interpret run has no TensorCore"
    if not hasattr(pltpu, "get_tpu_info"):
        # Exported from 0.8.1 on (jax-ml/jax@02939fef jax/experimental/pallas/tpu.py; absent at
        # jax-ml/jax@79e04757).
        return None, "not read: this JAX has no pltpu.get_tpu_info (added in JAX 0.8.1)"
    try:
        # TpuInfo.num_cores is core.get_num_device_cores(), the default device's num_cores: 2 on a
        # megacore device, 1 on v5e, v6e and on each TPU7x core (terryysun/jax@d4a3be11
        # jax/_src/pallas/mosaic/tpu_info.py, terryysun/jax@1d0504b1 jax/_src/pallas/mosaic/core.py).
        return int(pltpu.get_tpu_info().num_cores), "pltpu.get_tpu_info().num_cores"
    except (ValueError, AttributeError) as e:  # a device kind this JAX's table does not list
        return None, f"not read: pltpu.get_tpu_info() failed ({e})"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    labkit.start_jax(interpret=args.interpret)
    backend = labkit.preflight(args)

    interpret = labkit.interpret_mode(pltpu) if args.interpret else False
    _, x = labkit.random_normal(args.seed, (args.m, args.k), args.dtype)
    _, y = labkit.random_normal(args.seed + 1, (args.k, args.n), args.dtype, scale=args.k ** -0.5)
    blocks = {"bm": args.bm, "bk": args.bk, "bn": args.bn}

    # Named functions, so that each version's XLA program has its own name in a profile.
    def parallel_matmul(a: Any, b: Any) -> Any:
        return tiled_matmul(a, b, semantics="parallel", interpret=interpret, **blocks)

    def arbitrary_matmul(a: Any, b: Any) -> Any:
        return tiled_matmul(a, b, semantics="arbitrary", interpret=interpret, **blocks)

    parallel, arbitrary = jax.jit(parallel_matmul), jax.jit(arbitrary_matmul)
    correctness = labkit.check_matmul(parallel(x, y), x, y, args.dtype, "parallel")
    cores, cores_from = tensorcores(args.interpret)
    if cores is not None:
        print(f"{backend.device_kind}: {cores} TensorCore(s) in the device the kernels run on")

    timing = baseline = None
    flops = 2 * args.m * args.k * args.n
    extra: dict[str, Any] = {
        "blocks": blocks,
        "grid": [args.m // args.bm, args.n // args.bn, args.k // args.bk],
        "semantics": {name: list(sem) for name, sem in SEMANTICS.items()},
        "tensorCores": cores,
        "tensorCoresFrom": cores_from,
        "flops": flops,
        "arbitraryCorrectness": labkit.check_matmul(arbitrary(x, y), x, y, args.dtype, "arbitrary").to_json(),
    }
    if not args.interpret:
        timing = labkit.timed(parallel, x, y, args=args, name="Pallas kernel, parallel")
        extra["arbitrarySamples"] = labkit.timed(arbitrary, x, y, args=args, name="Pallas kernel, arbitrary").samples
        xla = jax.jit(lambda a, b: jnp.dot(a, b))
        baseline = ("XLA jnp.dot (jax.jit)", labkit.timed(xla, x, y, args=args, name="XLA baseline").samples)
        extra["achievedFlopsPerSecond"] = flops / timing.median()
        extra["ratioParallelToArbitrary"] = timing.median() / labkit.median(extra["arbitrarySamples"])
        extra["ratioToBaseline"] = timing.median() / labkit.median(baseline[1])
        print(f"parallel / arbitrary median time: {extra['ratioParallelToArbitrary']:.3f} "
              f"(near 0.5 when a megacore device splits the grid, near 1 on one core)")
    labkit.finish(lab=LAB, script=__file__, args=args, dtype=args.dtype,
                  shapes={"m": args.m, "k": args.k, "n": args.n}, timing=timing, baseline=baseline,
                  correctness=correctness, extra=extra, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
