#!/usr/bin/env python3
"""Lab L14 - flash attention backward: two kernels and a custom VJP.

The forward kernel of L09, now also writing each query row's log-sum-exp
(lse = m + log l, lane-replicated like m and l), and the backward as two
Pallas kernels that recompute the probabilities instead of storing them:

  dK/dV  grid (batch, heads, key blocks, query blocks), query blocks last and
         "arbitrary": for a fixed key block, walk every query block and
         accumulate dV += P^T dO and dK += dS^T Q in f32 scratch.
  dQ     grid (batch, heads, query blocks, key blocks), key blocks last:
         accumulate dQ += dS K.

with P = exp(s - lse), dP = dO V^T, dS = P * (dP - D) * scale and
D = rowsum(dO * O), computed once in jnp before the kernels. jax.custom_vjp
wires them together: the forward rule returns O and keeps (Q, K, V, O, lse);
the backward rule runs the two kernels. Non-causal, scale 1/sqrt(head_dim).

The check compares dQ, dK and dV with jax.vjp of the float32 reference at
HIGHEST precision, given the same output cotangent dO; the tolerance is the
one L09 uses, per gradient, scaled by that gradient's RMS. The baseline is
jax.vjp of XLA's naive attention, which keeps the probabilities in HBM.

    python3 l14_flash_backward.py --out run-L14.json
    python3 l14_flash_backward.py --interpret --heads 2 --seq 512 --block-q 128 --block-k 256 \
        --out run-L14-interpret.json
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
from typing import Any

from common import labkit, record
from common.lanes import LANES, lanes_to

try:  # JAX at module level, as in the Pallas docs; the course's tests import this file without it
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu
except ImportError:
    jax = jnp = pl = pltpu = None  # type: ignore[assignment]

LAB = "L14"
GATE = None  # practice beyond the gates: no gate rests on this lab


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], interpret=True, samples=10)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--heads", type=int, default=8)
    p.add_argument("--seq", type=int, default=4096)
    p.add_argument("--head-dim", type=int, default=128, help="128 or a multiple of it, or below 128")
    p.add_argument("--block-q", type=int, default=512)
    p.add_argument("--block-k", type=int, default=512, help="a multiple of 128")
    p.add_argument("--dtype", choices=["bf16", "f32"], default="bf16")
    args = p.parse_args(argv)
    labkit.check_common(args)
    if args.seq % args.block_q or args.seq % args.block_k:
        p.error("--block-q and --block-k must divide --seq")
    if args.block_k % LANES or args.block_q % LANES:
        p.error("--block-q and --block-k must be multiples of 128 (each is the other's lane axis somewhere)")
    if args.head_dim > LANES and args.head_dim % LANES:
        p.error("--head-dim above 128 must be a multiple of 128")
    return args


def _scores(q: Any, k: Any, scale: float) -> Any:
    """(bq, d) x (bk, d) -> (bq, bk) f32: contract the head dims, no transpose of K."""
    return jax.lax.dot_general(q, k, (((1,), (1,)), ((), ())), preferred_element_type=jnp.float32) * scale


# ------------------------------------------------------------------ forward


def forward_kernel(q_ref: Any, k_ref: Any, v_ref: Any, o_ref: Any, lse_ref: Any,
                   m_ref: Any, l_ref: Any, acc_ref: Any, *, scale: float, kv_steps: int) -> None:
    kv = pl.program_id(3)
    block_k = k_ref.shape[0]
    head_dim = acc_ref.shape[1]

    @pl.when(kv == 0)
    def _init() -> None:
        m_ref[...] = jnp.full(m_ref.shape, -jnp.inf, jnp.float32)
        l_ref[...] = jnp.zeros(l_ref.shape, jnp.float32)
        acc_ref[...] = jnp.zeros(acc_ref.shape, jnp.float32)

    s = _scores(q_ref[...], k_ref[...], scale)
    m_prev = m_ref[...]
    m_next = jnp.maximum(m_prev, jnp.max(s, axis=1)[:, None])
    p = jnp.exp(s - lanes_to(m_next, block_k))
    alpha = jnp.exp(m_prev - m_next)
    l_ref[...] = alpha * l_ref[...] + jnp.sum(p, axis=1)[:, None]
    m_ref[...] = m_next
    pv = jnp.dot(p.astype(v_ref.dtype), v_ref[...], preferred_element_type=jnp.float32)
    acc_ref[...] = acc_ref[...] * lanes_to(alpha, head_dim) + pv

    @pl.when(kv == kv_steps - 1)
    def _store() -> None:
        o_ref[...] = (acc_ref[...] / lanes_to(l_ref[...], head_dim)).astype(o_ref.dtype)
        lse_ref[...] = m_ref[...] + jnp.log(l_ref[...])  # the residual the backward needs


def _row_spec(block: int, width: int, axis: int) -> Any:
    """A (block, width) tile of a (batch, heads, seq, width) array, its row block read from grid axis `axis`."""
    def index_map(b: Any, h: Any, i: Any, j: Any) -> tuple[Any, ...]:
        return (b, h, (i, j)[axis - 2], 0)
    return pl.BlockSpec((None, None, block, width), index_map)


def _params() -> Any:
    return pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "parallel", "arbitrary"))


def flash_forward(q: Any, k: Any, v: Any, *, block_q: int, block_k: int, interpret: Any) -> tuple[Any, Any]:
    batch, heads, seq, head_dim = q.shape
    kv_steps = seq // block_k
    return pl.pallas_call(
        functools.partial(forward_kernel, scale=1.0 / math.sqrt(head_dim), kv_steps=kv_steps),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(batch, heads, seq // block_q, kv_steps),
            in_specs=[_row_spec(block_q, head_dim, 2), _row_spec(block_k, head_dim, 3),
                      _row_spec(block_k, head_dim, 3)],
            out_specs=[_row_spec(block_q, head_dim, 2), _row_spec(block_q, LANES, 2)],
            scratch_shapes=[pltpu.VMEM((block_q, LANES), jnp.float32),
                            pltpu.VMEM((block_q, LANES), jnp.float32),
                            pltpu.VMEM((block_q, head_dim), jnp.float32)],
        ),
        out_shape=[jax.ShapeDtypeStruct(q.shape, q.dtype),
                   jax.ShapeDtypeStruct((batch, heads, seq, LANES), jnp.float32)],
        compiler_params=_params(),
        name="l14_flash_forward",
        interpret=interpret,
    )(q, k, v)


# ------------------------------------------------------------------ backward


def _probabilities_and_ds(q: Any, k: Any, v: Any, do: Any, lse: Any, di: Any, scale: float) -> tuple[Any, Any]:
    """P = exp(s - lse) and dS = P * (dO V^T - D) * scale for one (query block, key block) tile."""
    block_k = k.shape[0]
    p = jnp.exp(_scores(q, k, scale) - lanes_to(lse, block_k))
    dp = jax.lax.dot_general(do, v, (((1,), (1,)), ((), ())), preferred_element_type=jnp.float32)
    ds = p * (dp - lanes_to(di, block_k)) * scale
    return p, ds


def dkdv_kernel(q_ref: Any, k_ref: Any, v_ref: Any, do_ref: Any, lse_ref: Any, di_ref: Any,
                dk_ref: Any, dv_ref: Any, dk_acc: Any, dv_acc: Any, *, scale: float, q_steps: int) -> None:
    qi = pl.program_id(3)

    @pl.when(qi == 0)
    def _init() -> None:
        dk_acc[...] = jnp.zeros(dk_acc.shape, jnp.float32)
        dv_acc[...] = jnp.zeros(dv_acc.shape, jnp.float32)

    q, do = q_ref[...], do_ref[...]
    p, ds = _probabilities_and_ds(q, k_ref[...], v_ref[...], do, lse_ref[...], di_ref[...], scale)
    # P^T dO and dS^T Q: contract the query rows (axis 0 of both operands).
    dv_acc[...] = dv_acc[...] + jax.lax.dot_general(
        p.astype(do.dtype), do, (((0,), (0,)), ((), ())), preferred_element_type=jnp.float32)
    dk_acc[...] = dk_acc[...] + jax.lax.dot_general(
        ds.astype(q.dtype), q, (((0,), (0,)), ((), ())), preferred_element_type=jnp.float32)

    @pl.when(qi == q_steps - 1)
    def _store() -> None:
        dk_ref[...] = dk_acc[...].astype(dk_ref.dtype)
        dv_ref[...] = dv_acc[...].astype(dv_ref.dtype)


def dq_kernel(q_ref: Any, k_ref: Any, v_ref: Any, do_ref: Any, lse_ref: Any, di_ref: Any,
              dq_ref: Any, dq_acc: Any, *, scale: float, kv_steps: int) -> None:
    kv = pl.program_id(3)

    @pl.when(kv == 0)
    def _init() -> None:
        dq_acc[...] = jnp.zeros(dq_acc.shape, jnp.float32)

    k = k_ref[...]
    _, ds = _probabilities_and_ds(q_ref[...], k, v_ref[...], do_ref[...], lse_ref[...], di_ref[...], scale)
    dq_acc[...] = dq_acc[...] + jnp.dot(ds.astype(k.dtype), k, preferred_element_type=jnp.float32)

    @pl.when(kv == kv_steps - 1)
    def _store() -> None:
        dq_ref[...] = dq_acc[...].astype(dq_ref.dtype)


def flash_backward(q: Any, k: Any, v: Any, o: Any, lse: Any, do: Any, *, block_q: int, block_k: int,
                   interpret: Any) -> tuple[Any, Any, Any]:
    batch, heads, seq, head_dim = q.shape
    scale = 1.0 / math.sqrt(head_dim)
    # D = rowsum(dO * O), once per row, lane-replicated like lse.
    di = jnp.sum(do.astype(jnp.float32) * o.astype(jnp.float32), axis=-1, keepdims=True)
    di = jnp.broadcast_to(di, (batch, heads, seq, LANES))
    q_steps, kv_steps = seq // block_q, seq // block_k

    # dK/dV: key blocks on grid axis 2, query blocks (the accumulation) on axis 3.
    dk, dv = pl.pallas_call(
        functools.partial(dkdv_kernel, scale=scale, q_steps=q_steps),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(batch, heads, kv_steps, q_steps),
            in_specs=[_row_spec(block_q, head_dim, 3), _row_spec(block_k, head_dim, 2),
                      _row_spec(block_k, head_dim, 2), _row_spec(block_q, head_dim, 3),
                      _row_spec(block_q, LANES, 3), _row_spec(block_q, LANES, 3)],
            out_specs=[_row_spec(block_k, head_dim, 2), _row_spec(block_k, head_dim, 2)],
            scratch_shapes=[pltpu.VMEM((block_k, head_dim), jnp.float32),
                            pltpu.VMEM((block_k, head_dim), jnp.float32)],
        ),
        out_shape=[jax.ShapeDtypeStruct(k.shape, k.dtype), jax.ShapeDtypeStruct(v.shape, v.dtype)],
        compiler_params=_params(),
        name="l14_flash_dkdv",
        interpret=interpret,
    )(q, k, v, do, lse, di)

    # dQ: query blocks on grid axis 2, key blocks (the accumulation) on axis 3.
    dq = pl.pallas_call(
        functools.partial(dq_kernel, scale=scale, kv_steps=kv_steps),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(batch, heads, q_steps, kv_steps),
            in_specs=[_row_spec(block_q, head_dim, 2), _row_spec(block_k, head_dim, 3),
                      _row_spec(block_k, head_dim, 3), _row_spec(block_q, head_dim, 2),
                      _row_spec(block_q, LANES, 2), _row_spec(block_q, LANES, 2)],
            out_specs=_row_spec(block_q, head_dim, 2),
            scratch_shapes=[pltpu.VMEM((block_q, head_dim), jnp.float32)],
        ),
        out_shape=jax.ShapeDtypeStruct(q.shape, q.dtype),
        compiler_params=_params(),
        name="l14_flash_dq",
        interpret=interpret,
    )(q, k, v, do, lse, di)
    return dq, dk, dv


def make_flash_attention(*, block_q: int, block_k: int, interpret: Any) -> Any:
    """Attention whose forward and backward are the kernels above, through jax.custom_vjp."""

    @jax.custom_vjp
    def attention(q: Any, k: Any, v: Any) -> Any:
        return flash_forward(q, k, v, block_q=block_q, block_k=block_k, interpret=interpret)[0]

    def fwd(q: Any, k: Any, v: Any) -> tuple[Any, tuple[Any, ...]]:
        o, lse = flash_forward(q, k, v, block_q=block_q, block_k=block_k, interpret=interpret)
        return o, (q, k, v, o, lse)

    def bwd(residuals: tuple[Any, ...], do: Any) -> tuple[Any, Any, Any]:
        q, k, v, o, lse = residuals
        return flash_backward(q, k, v, o, lse, do, block_q=block_q, block_k=block_k, interpret=interpret)

    attention.defvjp(fwd, bwd)
    return attention


# ------------------------------------------------------------------ references


def naive_attention(q: Any, k: Any, v: Any) -> Any:
    """XLA's baseline, as in L09: the score matrix and P go through HBM; its VJP keeps P."""
    scale = 1.0 / math.sqrt(q.shape[-1])
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k, preferred_element_type=jnp.float32) * scale
    p = jax.nn.softmax(s, axis=-1)
    return jnp.einsum("bhqk,bhkd->bhqd", p.astype(v.dtype), v, preferred_element_type=jnp.float32).astype(q.dtype)


def reference_attention(q: Any, k: Any, v: Any) -> Any:
    hi = jax.lax.Precision.HIGHEST
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k, precision=hi) / math.sqrt(q.shape[-1])
    return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, axis=-1), v, precision=hi)


def gradients(fn: Any, q: Any, k: Any, v: Any, do: Any) -> tuple[Any, Any, Any]:
    """(dQ, dK, dV) of fn at (q, k, v) for the output cotangent do."""
    _, pullback = jax.vjp(fn, q, k, v)
    return pullback(do)


def tolerance(rms: float, dtype: str) -> tuple[float, float]:
    """(abs, rel) for one gradient against the float32 reference, given the
    reference gradient's RMS: L09's allowance for bf16 rounding (2^-5 of the
    RMS absolute, 2^-7 relative), doubled because each gradient passes through
    two bf16 roundings of its own (P or dS, then the stored result)."""
    if dtype != "bf16":
        return 2e-3 * rms, 2e-3
    return 2.0 ** -4 * rms, 2.0 ** -6


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    labkit.start_jax(interpret=args.interpret)
    backend = labkit.preflight(args)
    import numpy as np  # noqa: PLC0415

    interpret = labkit.interpret_mode(pltpu) if args.interpret else False
    shape = (args.batch, args.heads, args.seq, args.head_dim)
    q, k, v, do = (labkit.random_normal(args.seed + i, shape, args.dtype)[1] for i in range(4))
    flash = make_flash_attention(block_q=args.block_q, block_k=args.block_k, interpret=interpret)
    flash_grads = jax.jit(lambda a, b, c, g: gradients(flash, a, b, c, g))
    f32 = [x.astype(jnp.float32) for x in (q, k, v, do)]
    want = [np.asarray(g) for g in jax.jit(lambda a, b, c, g: gradients(reference_attention, a, b, c, g))(*f32)]
    got = [np.asarray(g.astype(jnp.float32)) for g in flash_grads(q, k, v, do)]
    checks, per_gradient = [], {}
    for name, g, w in zip(("dq", "dk", "dv"), got, want):
        rms = float(np.sqrt(np.mean(np.square(w.astype(np.float64)))))
        abs_tol, rel_tol = tolerance(rms, args.dtype)
        c = record.compare(g, w, reference_name=f"{name} of float32 attention at HIGHEST precision",
                           abs_tol=abs_tol, rel_tol=rel_tol)
        checks.append(c)
        per_gradient[name] = c.to_json()
    correctness = record.combine(checks, "jax.vjp of float32 attention at HIGHEST precision, dQ, dK and dV")

    timing = baseline = None
    d, n, bh = args.head_dim, args.seq, args.batch * args.heads
    extra: dict[str, Any] = {
        "blocks": {"block_q": args.block_q, "block_k": args.block_k},
        "causal": False,
        "gradients": per_gradient,
        # Forward 2 matmuls; the backward kernels 7 (dK/dV: s, dP, dV, dK; dQ: s, dP, dQ), 2 n^2 d each.
        "flops": {"forward": 4 * bh * n * n * d, "backward": 14 * bh * n * n * d},
    }
    if not args.interpret:
        naive_grads = jax.jit(lambda a, b, c, g: gradients(naive_attention, a, b, c, g))
        timing = labkit.timed(flash_grads, q, k, v, do, args=args, name="Pallas forward and backward")
        baseline = ("XLA: jax.vjp of naive attention (softmax(Q K^T / sqrt(d)) V with jnp)",
                    labkit.timed(naive_grads, q, k, v, do, args=args, name="XLA baseline").samples)
        extra["ratioToBaseline"] = timing.median() / labkit.median(baseline[1])
        print(f"flash / naive forward+backward median time: {extra['ratioToBaseline']:.3f}")
    labkit.finish(lab=LAB, script=__file__, args=args, dtype=args.dtype,
                  shapes={"batch": args.batch, "heads": args.heads, "seq": args.seq, "head_dim": args.head_dim},
                  timing=timing, baseline=baseline, correctness=correctness, extra=extra, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
