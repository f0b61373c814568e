#!/usr/bin/env python3
"""Lab L21 - grouped matmul and its backward: gmm and tgmm.

A mixture-of-experts layer's grouped (ragged) matmul, as JAX's megablox
kernels do it. The tokens x[M, K] are sorted by expert; --groups gives how
many rows each expert holds, in order (zeros allowed), and W[G, K, N] holds
one weight matrix per expert.

  gmm   the forward, out[M, N]: each row times its own expert's W.
        grid (N/tn, visits, K/tk), K last and "arbitrary". A visit is one
        (row tile, group) pair: a tm-row tile that straddles a group
        boundary is visited once for each group it holds, on consecutive
        steps, and each visit stores only its own group's rows.
  tgmm  the weight gradient, dW[g] = x_g^T @ dy_g, out[G, K, N]. The ragged
        rows are now the sum: grid (N/tn, K/tk, visits), visits last and
        "arbitrary". Each (K, N) tile of dW[g] is accumulated in a float32
        scratch over g's row tiles, the rows of other groups masked to zero,
        and written when g's last tile is done. An empty group gets one
        visit of its own, which computes nothing and writes its zeros.

The schedule is computed on the host before the kernels are compiled:
the group offsets, and for every visit its group and its row tile, three
int32 tables passed first through PrefetchScalarGridSpec(num_scalar_prefetch=3).
They land in SMEM and every index map reads them, so a step fetches the
right rows and the right expert. A new routing means a new schedule.

Checks, in float32 at HIGHEST precision on the same rounded inputs: gmm
against each group's x_g @ W[g] and against jax.lax.ragged_dot; tgmm
against jax.vjp of that per-group reference with respect to W; and the
other half of the backward, dx = dy @ W[g]^T, as gmm again on the
transposed weights, against jax.vjp with respect to x. On a TPU, gmm is
timed against jax.lax.ragged_dot (the baseline) and tgmm against XLA's
gradient of jax.lax.ragged_dot with respect to W.

    python3 l21_grouped_matmul.py --out run-L21.json
    python3 l21_grouped_matmul.py --interpret --out run-L21-interpret.json
    python3 l21_grouped_matmul.py --tm 512 --out run-L21-tm512.json

With --interpret the sizes default to K = N = 256 with (tm, tk, tn) = (128,
128, 256), the chapter's routing unchanged: the same schedule, small
matrices.
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

LAB = "L21"
GATE = None  # practice beyond the gates: no gate rests on this lab

# Chapter 5's routing: 4,096 tokens to 8 experts, expert 2 empty.
CHAPTER_GROUPS = (1200, 300, 0, 900, 700, 500, 296, 200)
# (k, n, tm, tk, tn) on a TPU and with --interpret.
DEFAULTS = {"tpu": (4096, 4096, 128, 512, 512), "interpret": (256, 256, 128, 128, 256)}


def parse_groups(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"--groups {text!r}: rows of each group, whole numbers separated by commas") from None
    if any(s < 0 for s in sizes) or sum(sizes) < 1:
        raise ValueError(f"--groups {text!r}: no group may be negative, and at least one must hold rows")
    return sizes


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], interpret=True, samples=10)
    p.add_argument("--groups", default=",".join(map(str, CHAPTER_GROUPS)),
                   help="rows (tokens) of each group, in order, comma-separated; zeros allowed "
                        "(default: chapter 5's 1200,300,0,900,700,500,296,200)")
    p.add_argument("--k", type=int, default=None,
                   help="the forward's contracted size (default 4096; 256 with --interpret)")
    p.add_argument("--n", type=int, default=None,
                   help="the forward's output columns (default 4096; 256 with --interpret)")
    p.add_argument("--tm", type=int, default=None, help="rows of a tile, a multiple of 128 (default 128)")
    p.add_argument("--tk", type=int, default=None, help="a multiple of 128 (default 512; 128 with --interpret)")
    p.add_argument("--tn", type=int, default=None, help="a multiple of 128 (default 512; 256 with --interpret)")
    args = p.parse_args(argv)
    labkit.check_common(args)
    defaults = DEFAULTS["interpret" if args.interpret else "tpu"]
    for name, value in zip(("k", "n", "tm", "tk", "tn"), defaults):
        if getattr(args, name) is None:
            setattr(args, name, value)
    try:
        args.group_sizes = parse_groups(args.groups)
    except ValueError as e:
        p.error(str(e))
    args.m = sum(args.group_sizes)
    if min(args.tm, args.tk, args.tn) < 128 or args.tm % 128 or args.tk % 128 or args.tn % 128:
        p.error("--tm, --tk and --tn must be multiples of 128: each is the lane axis of some block "
                "(tm that of tgmm's transposed x tile)")
    if min(args.k, args.n) < 1:
        p.error("--k and --n must be positive")
    if args.m % args.tm:
        p.error(f"--tm {args.tm} must divide the {args.m} rows the groups hold")
    if args.k % args.tk or args.n % args.tn:
        p.error("--tk must divide --k and --tn must divide --n")
    return args


# ------------------------------------------------------------------ the schedule, on the host


def schedule(sizes: tuple[int, ...], tm: int, *, visit_empty: bool) -> tuple[list[int], list[int], list[int]]:
    """(group_offsets, group_ids, m_tile_ids) for a grouped matmul over row tiles of tm.

    group_offsets[g] is the first row of group g (G + 1 entries, the last is M). Each visit is one
    (row tile, group) pair with rows of that group in that tile, in row order, so a tile shared by
    two groups comes twice in a row. With visit_empty (tgmm), an empty group gets one visit of its
    own, on the tile where it would start, so that its zeros are written."""
    offsets = [0]
    for s in sizes:
        offsets.append(offsets[-1] + s)
    last_tile = offsets[-1] // tm - 1
    group_ids: list[int] = []
    m_tile_ids: list[int] = []
    for g, size in enumerate(sizes):
        start, end = offsets[g], offsets[g + 1]
        if size == 0:
            if visit_empty:
                group_ids.append(g)
                m_tile_ids.append(min(start // tm, last_tile))
            continue
        for tile in range(start // tm, (end - 1) // tm + 1):
            group_ids.append(g)
            m_tile_ids.append(tile)
    return offsets, group_ids, m_tile_ids


def boundaries_inside(sizes: tuple[int, ...], tm: int) -> int:
    """Group ends, other than the last row, that fall inside a row tile."""
    m, at, count = sum(sizes), 0, 0
    for s in sizes:
        at += s
        if s and at < m and at % tm:
            count += 1
    return count


def plan(sizes: tuple[int, ...], k: int, n: int, tm: int, tk: int, tn: int) -> dict[str, Any]:
    """What the record says of the schedule: the tiles, both passes' visits and grids, the rows
    computed and the tables themselves (the record's extra, before the checks)."""
    m = sum(sizes)
    offsets, fwd_groups, fwd_tiles = schedule(sizes, tm, visit_empty=False)
    _, bwd_groups, bwd_tiles = schedule(sizes, tm, visit_empty=True)
    rows = len(fwd_groups) * tm
    grid = {"gmm": [n // tn, len(fwd_groups), k // tk], "tgmm": [n // tn, k // tk, len(bwd_groups)]}
    return {
        "groupSizes": list(sizes),
        "tiles": {"tm": tm, "tk": tk, "tn": tn},
        "rowTiles": m // tm,
        "boundariesInside": boundaries_inside(sizes, tm),
        "emptyGroups": [g for g, s in enumerate(sizes) if s == 0],
        "visits": {"gmm": len(fwd_groups), "tgmm": len(bwd_groups)},
        "grid": grid,
        "gridSteps": {name: g[0] * g[1] * g[2] for name, g in grid.items()},
        "rowsComputed": rows,
        "rowOverhead": rows / m - 1,
        "schedule": {"groupOffsets": offsets,
                     "gmm": {"groupIds": fwd_groups, "mTileIds": fwd_tiles},
                     "tgmm": {"groupIds": bwd_groups, "mTileIds": bwd_tiles}},
        "flops": {"useful": 2 * m * k * n, "computed": 2 * rows * k * n},
    }


# ------------------------------------------------------------------ the kernels


def rows_of_group(offsets_ref: Any, group_ids_ref: Any, m_tile_ids_ref: Any, step: Any, shape: tuple[int, int]) -> Any:
    """True for the rows of this step's tile that belong to this step's group."""
    group = group_ids_ref[step]
    row = m_tile_ids_ref[step] * shape[0] + jax.lax.broadcasted_iota(jnp.int32, shape, 0)
    return jnp.logical_and(row >= offsets_ref[group], row < offsets_ref[group + 1])


def gmm_kernel(offsets_ref: Any, group_ids_ref: Any, m_tile_ids_ref: Any, x_ref: Any, w_ref: Any, o_ref: Any,
               acc_ref: Any, *, k_steps: int) -> None:
    step = pl.program_id(1)
    k = pl.program_id(2)

    @pl.when(k == 0)
    def _zero() -> None:
        acc_ref[...] = jnp.zeros_like(acc_ref)

    acc_ref[...] += jnp.dot(x_ref[...], w_ref[...], preferred_element_type=jnp.float32)

    @pl.when(k == k_steps - 1)
    def _store() -> None:
        # The output tile stays in VMEM while consecutive visits share it: keep the rows the
        # other group's visit stored (or will store), write this group's.
        mine = rows_of_group(offsets_ref, group_ids_ref, m_tile_ids_ref, step, o_ref.shape)
        kept = o_ref[...].astype(jnp.float32)
        o_ref[...] = jnp.where(mine, acc_ref[...], kept).astype(o_ref.dtype)


def gmm(tables: tuple[Any, Any, Any], x: Any, w: Any, *, tm: int, tk: int, tn: int, name: str,
        interpret: Any = False) -> Any:
    """out[M, N] = x[M, K] @ w[g][K, N], row by row, each row by its group's w."""
    m, k = x.shape
    n = w.shape[2]
    visits = tables[1].shape[0]

    # Index maps get the grid indices, then the three prefetched tables (in SMEM).
    def x_map(j: Any, step: Any, kk: Any, offsets: Any, group_ids: Any, m_tile_ids: Any) -> tuple[Any, ...]:
        return (m_tile_ids[step], kk)

    def w_map(j: Any, step: Any, kk: Any, offsets: Any, group_ids: Any, m_tile_ids: Any) -> tuple[Any, ...]:
        return (group_ids[step], kk, j)

    def out_map(j: Any, step: Any, kk: Any, offsets: Any, group_ids: Any, m_tile_ids: Any) -> tuple[Any, ...]:
        return (m_tile_ids[step], j)

    return pl.pallas_call(
        functools.partial(gmm_kernel, k_steps=k // tk),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=3,
            grid=(n // tn, visits, k // tk),
            in_specs=[pl.BlockSpec((tm, tk), x_map), pl.BlockSpec((None, tk, tn), w_map)],
            out_specs=pl.BlockSpec((tm, tn), out_map),
            scratch_shapes=[pltpu.VMEM((tm, tn), jnp.float32)],
        ),
        out_shape=jax.ShapeDtypeStruct((m, n), x.dtype),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "arbitrary", "arbitrary")),
        name=name,  # how the kernel is named in a profile
        interpret=interpret,
    )(*tables, x, w)


def tgmm_kernel(offsets_ref: Any, group_ids_ref: Any, m_tile_ids_ref: Any, x_ref: Any, dy_ref: Any, dw_ref: Any,
                acc_ref: Any, *, visits: int) -> None:
    step = pl.program_id(2)
    group = group_ids_ref[step]
    prev_group = group_ids_ref[jnp.maximum(step - 1, 0)]
    next_group = group_ids_ref[jnp.minimum(step + 1, visits - 1)]

    # Each group's sum starts from zero: the first group at step 0, every later one where the id changes
    # (one condition, step == 0 or a new id, in two blocks: the first is the form the course's drift
    # check reads as the accumulator's initialization).
    @pl.when(step == 0)
    def _zero_first() -> None:
        acc_ref[...] = jnp.zeros_like(acc_ref)

    @pl.when(group != prev_group)
    def _zero_next() -> None:
        acc_ref[...] = jnp.zeros_like(acc_ref)

    @pl.when(offsets_ref[group + 1] > offsets_ref[group])  # an empty group's visit adds nothing
    def _accumulate() -> None:
        # Rows of the tile that belong to another group must not enter this group's sum.
        x = jnp.where(rows_of_group(offsets_ref, group_ids_ref, m_tile_ids_ref, step, x_ref.shape),
                      x_ref[...].astype(jnp.float32), 0.0)
        dy = jnp.where(rows_of_group(offsets_ref, group_ids_ref, m_tile_ids_ref, step, dy_ref.shape),
                       dy_ref[...].astype(jnp.float32), 0.0)
        acc_ref[...] += jnp.dot(x.T.astype(x_ref.dtype), dy.astype(dy_ref.dtype), preferred_element_type=jnp.float32)

    # The group's last row tile: its (tk, tn) tile of dW is complete.
    @pl.when(jnp.logical_or(step == visits - 1, next_group != group))
    def _store() -> None:
        dw_ref[...] = acc_ref[...].astype(dw_ref.dtype)


def tgmm(tables: tuple[Any, Any, Any], x: Any, dy: Any, *, groups: int, tm: int, tk: int, tn: int, name: str,
         interpret: Any = False) -> Any:
    """dw[g] = x_g^T @ dy_g for every group g: x[M, K], dy[M, N] -> dw[G, K, N]."""
    k = x.shape[1]
    n = dy.shape[1]
    visits = tables[1].shape[0]

    def x_map(j: Any, kk: Any, step: Any, offsets: Any, group_ids: Any, m_tile_ids: Any) -> tuple[Any, ...]:
        return (m_tile_ids[step], kk)

    def dy_map(j: Any, kk: Any, step: Any, offsets: Any, group_ids: Any, m_tile_ids: Any) -> tuple[Any, ...]:
        return (m_tile_ids[step], j)

    def dw_map(j: Any, kk: Any, step: Any, offsets: Any, group_ids: Any, m_tile_ids: Any) -> tuple[Any, ...]:
        return (group_ids[step], kk, j)    # the group's dW: it changes when the group does

    return pl.pallas_call(
        functools.partial(tgmm_kernel, visits=visits),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=3,
            grid=(n // tn, k // tk, visits),
            in_specs=[pl.BlockSpec((tm, tk), x_map), pl.BlockSpec((tm, tn), dy_map)],
            out_specs=pl.BlockSpec((None, tk, tn), dw_map),
            scratch_shapes=[pltpu.VMEM((tk, tn), jnp.float32)],
        ),
        out_shape=jax.ShapeDtypeStruct((groups, k, n), x.dtype),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "arbitrary", "arbitrary")),
        name=name,
        interpret=interpret,
    )(*tables, x, dy)


# ------------------------------------------------------------------ references and XLA


def reference_forward(x: Any, w: Any, *, sizes: tuple[int, ...]) -> Any:
    """Each group's x_g @ W[g] in float32 at HIGHEST precision, stacked in row order."""
    hi = jax.lax.Precision.HIGHEST
    parts, at = [], 0
    for g, size in enumerate(sizes):
        parts.append(jnp.dot(x[at:at + size].astype(jnp.float32), w[g].astype(jnp.float32), precision=hi))
        at += size
    return jnp.concatenate(parts, axis=0)


def reference_gradients(x: Any, w: Any, dy: Any, *, sizes: tuple[int, ...]) -> tuple[Any, Any]:
    """(dx, dW) of the per-group reference for the output cotangent dy: jax.vjp, in float32."""
    _, pullback = jax.vjp(functools.partial(reference_forward, sizes=sizes), x.astype(jnp.float32),
                          w.astype(jnp.float32))
    return pullback(dy.astype(jnp.float32))


def tolerance(ref: Any) -> tuple[float, float]:
    """(abs, rel): the output is rounded once to bf16 (at most 2^-8 relative); a factor 4 to spare, and
    2^-6 of the output's RMS for the elements near zero."""
    import numpy as np  # noqa: PLC0415

    rms = float(np.sqrt(np.mean(np.square(np.asarray(ref, dtype=np.float64))))) if np.size(ref) else 0.0
    return 2.0 ** -6 * rms, 2.0 ** -6


def check(out: Any, ref: Any, name: str) -> record.Correctness:
    import numpy as np  # noqa: PLC0415

    ref = np.asarray(ref)
    abs_tol, rel_tol = tolerance(ref)
    return record.compare(np.asarray(out.astype(jnp.float32)), ref, reference_name=name, abs_tol=abs_tol,
                          rel_tol=rel_tol)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    labkit.start_jax(interpret=args.interpret)
    backend = labkit.preflight(args)

    sizes, m, k, n, tm, tk, tn = args.group_sizes, args.m, args.k, args.n, args.tm, args.tk, args.tn
    groups = len(sizes)
    extra: dict[str, Any] = plan(sizes, k, n, tm, tk, tn)
    print(f"{m} rows in {groups} groups, {m // tm} row tiles of {tm}: gmm visits {extra['visits']['gmm']} "
          f"({extra['rowsComputed']} rows computed, {100 * extra['rowOverhead']:.1f} % above the tokens), "
          f"tgmm visits {extra['visits']['tgmm']}; grid steps {extra['gridSteps']['gmm']} and "
          f"{extra['gridSteps']['tgmm']}")

    interpret = labkit.interpret_mode(pltpu) if args.interpret else False
    _, x = labkit.random_normal(args.seed, (m, k), "bf16")
    _, w = labkit.random_normal(args.seed + 1, (groups, k, n), "bf16", scale=k ** -0.5)
    _, dy = labkit.random_normal(args.seed + 2, (m, n), "bf16")
    def device_tables(which: str) -> tuple[Any, ...]:
        s = extra["schedule"]
        return tuple(jnp.asarray(v, dtype=jnp.int32)
                     for v in (s["groupOffsets"], s[which]["groupIds"], s[which]["mTileIds"]))

    fwd_tables, bwd_tables = device_tables("gmm"), device_tables("tgmm")
    group_sizes = jnp.asarray(sizes, dtype=jnp.int32)

    # Named functions, so that each one's XLA program has its own name in a profile.
    def pallas_gmm(t: Any, a: Any, b: Any) -> Any:
        return gmm(t, a, b, tm=tm, tk=tk, tn=tn, name="l21_gmm", interpret=interpret)

    def pallas_tgmm(t: Any, a: Any, g: Any) -> Any:
        return tgmm(t, a, g, groups=groups, tm=tm, tk=tk, tn=tn, name="l21_tgmm", interpret=interpret)

    def pallas_dx(t: Any, g: Any, b: Any) -> Any:
        # dx = dy @ W[g]^T, row by row: gmm again, on the transposed weights (N is now contracted).
        return gmm(t, g, jnp.swapaxes(b, 1, 2), tm=tm, tk=tn, tn=tk, name="l21_gmm_dx", interpret=interpret)

    def xla_ragged_dot(a: Any, b: Any, s: Any) -> Any:
        return jax.lax.ragged_dot(a, b, s)

    def xla_ragged_dot_dw(a: Any, b: Any, g: Any, s: Any) -> Any:
        _, pullback = jax.vjp(lambda b_: jax.lax.ragged_dot(a, b_, s), b)
        return pullback(g)[0]

    forward, weight_grad, input_grad = jax.jit(pallas_gmm), jax.jit(pallas_tgmm), jax.jit(pallas_dx)
    ref_out = jax.jit(functools.partial(reference_forward, sizes=sizes))(x, w)
    ref_dx, ref_dw = jax.jit(functools.partial(reference_gradients, sizes=sizes))(x, w, dy)
    ragged_ref = jax.jit(lambda a, b, s: jax.lax.ragged_dot(a.astype(jnp.float32), b.astype(jnp.float32), s,
                                                            precision=jax.lax.Precision.HIGHEST))(x, w, group_sizes)
    out = forward(fwd_tables, x, w)
    checks = {
        "gmm": check(out, ref_out, "each group's x_g @ W[g] in float32 at HIGHEST precision"),
        "gmmVsRaggedDot": check(out, ragged_ref, "jax.lax.ragged_dot in float32 at HIGHEST precision"),
        "tgmm": check(weight_grad(bwd_tables, x, dy), ref_dw,
                      "jax.vjp of the per-group float32 reference with respect to W"),
        "dx": check(input_grad(fwd_tables, dy, w), ref_dx,
                    "jax.vjp of the per-group float32 reference with respect to x"),
    }
    correctness = record.combine(list(checks.values()),
                                 "per-group x_g @ W[g], jax.lax.ragged_dot and jax.vjp of the per-group reference, "
                                 "float32 at HIGHEST precision")

    extra["checks"] = {name: c.to_json() for name, c in checks.items()}
    timing = baseline = None
    if not args.interpret:
        xla_fwd, xla_dw = jax.jit(xla_ragged_dot), jax.jit(xla_ragged_dot_dw)
        extra["baselineCorrectness"] = {
            "gmm": check(xla_fwd(x, w, group_sizes), ref_out, "each group's x_g @ W[g] in float32 at HIGHEST "
                                                             "precision").to_json(),
            "tgmm": check(xla_dw(x, w, dy, group_sizes), ref_dw, "jax.vjp of the per-group float32 reference "
                                                                "with respect to W").to_json(),
        }
        timing = labkit.timed(forward, fwd_tables, x, w, args=args, name="Pallas gmm")
        baseline = ("XLA jax.lax.ragged_dot (jax.jit)",
                    labkit.timed(xla_fwd, x, w, group_sizes, args=args, name="XLA baseline").samples)
        extra["tgmmSamples"] = labkit.timed(weight_grad, bwd_tables, x, dy, args=args, name="Pallas tgmm").samples
        extra["tgmmBaselineSamples"] = labkit.timed(xla_dw, x, w, dy, group_sizes, args=args,
                                                    name="XLA tgmm baseline").samples
        extra["ratioToBaseline"] = {
            "gmm": timing.median() / labkit.median(baseline[1]),
            "tgmm": labkit.median(extra["tgmmSamples"]) / labkit.median(extra["tgmmBaselineSamples"]),
        }
        print(f"gmm / XLA ragged_dot median time: {extra['ratioToBaseline']['gmm']:.3f}; "
              f"tgmm / XLA's dW: {extra['ratioToBaseline']['tgmm']:.3f}")
    labkit.finish(lab=LAB, script=__file__, args=args, dtype="bf16",
                  shapes={"m": m, "k": k, "n": n, "groups": groups},
                  timing=timing, baseline=baseline, correctness=correctness, extra=extra, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
