#!/usr/bin/env python3
"""Lab L16 - paged decode attention: a page table through scalar prefetch.

One decode step: each sequence has one new query token per head and a KV
cache of its own length, stored in pages of --page-size tokens scattered
through one pool, (kv_heads, pages, page_size, head_dim) for K and for V. A
page table (batch, max_pages) lists each sequence's pages in order and
`lengths` its token count. Both are int32 arrays passed first, through
PrefetchScalarGridSpec(num_scalar_prefetch=2): they land in SMEM, and every
index map reads them to fetch the right page.

The grid is (sequence, KV head, page), the page axis last and "arbitrary".
Each step copies one page of K and of V for one KV head and multiplies it by
the query rows of every query head sharing that KV head (grouped-query
attention: --heads / --kv-heads rows at once), carrying the online softmax
of L09 in scratch. Steps past a sequence's last page point their index maps
at that last page, so no copy is issued, and skip the arithmetic; inside the
last page the positions past the length are masked.

The check is against dense attention in float32 at HIGHEST precision over
each sequence's own tokens. The baseline is XLA: gather each sequence's
pages into a contiguous cache padded to the longest sequence, then masked
softmax(q K^T) V with jnp.

    python3 l16_paged_decode.py --out run-L16.json
    python3 l16_paged_decode.py --interpret --batch 3 --heads 8 --kv-heads 2 --max-len 512 --page-size 128 \
        --out run-L16-interpret.json
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

LAB = "L16"
GATE = None  # practice beyond the gates: no gate rests on this lab


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], interpret=True, samples=10)
    p.add_argument("--batch", type=int, default=8, help="sequences decoded together")
    p.add_argument("--heads", type=int, default=32, help="query heads")
    p.add_argument("--kv-heads", type=int, default=8, help="K/V heads; must divide --heads")
    p.add_argument("--head-dim", type=int, default=128)
    p.add_argument("--max-len", type=int, default=4096, help="the longest sequence; the others are shorter")
    p.add_argument("--page-size", type=int, default=256, help="tokens per page; a multiple of 128")
    args = p.parse_args(argv)
    labkit.check_common(args)
    if args.heads % args.kv_heads:
        p.error("--kv-heads must divide --heads")
    if args.page_size % LANES:
        p.error("--page-size must be a multiple of 128 (a page's tokens are the scores' lane axis)")
    if args.max_len % args.page_size:
        p.error("--page-size must divide --max-len")
    if args.head_dim % LANES and args.head_dim > LANES:
        p.error("--head-dim above 128 must be a multiple of 128")
    return args


def ragged_lengths(batch: int, max_len: int) -> list[int]:
    """Lengths from max_len down to about an eighth of it, none a whole number of pages but the first."""
    return [max(1, max_len - (i * max_len) // max(1, batch) - (0 if i == 0 else 37)) for i in range(batch)]


def page_table(lengths: list[int], page_size: int, seed: int) -> tuple[list[list[int]], int]:
    """Each sequence's pages, drawn from one shuffled pool; unused slots hold page 0. Returns (table, pool size)."""
    import random  # noqa: PLC0415

    needed = [-(-n // page_size) for n in lengths]
    pool = list(range(sum(needed)))
    random.Random(seed).shuffle(pool)
    width = max(needed)
    table, at = [], 0
    for n in needed:
        table.append(pool[at:at + n] + [0] * (width - n))
        at += n
    return table, len(pool)


def paged_kernel(table_ref: Any, lengths_ref: Any, q_ref: Any, k_ref: Any, v_ref: Any, o_ref: Any,
                 m_ref: Any, l_ref: Any, acc_ref: Any, *, scale: float, page_size: int, pages: int) -> None:
    page = pl.program_id(2)
    length = lengths_ref[pl.program_id(0)]
    head_dim = acc_ref.shape[1]

    @pl.when(page == 0)
    def _init() -> None:
        m_ref[...] = jnp.full(m_ref.shape, -jnp.inf, jnp.float32)
        l_ref[...] = jnp.zeros(l_ref.shape, jnp.float32)
        acc_ref[...] = jnp.zeros(acc_ref.shape, jnp.float32)

    @pl.when(page * page_size < length)
    def _step() -> None:
        s = jax.lax.dot_general(q_ref[...], k_ref[...], (((1,), (1,)), ((), ())),
                                preferred_element_type=jnp.float32) * scale      # (group, page_size)
        position = page * page_size + jax.lax.broadcasted_iota(jnp.int32, s.shape, 1)
        s = jnp.where(position < length, s, -jnp.inf)    # the last page's slots past the length
        m_prev = m_ref[...]
        m_next = jnp.maximum(m_prev, jnp.max(s, axis=1)[:, None])
        p = jnp.exp(s - lanes_to(m_next, page_size))
        alpha = jnp.exp(m_prev - m_next)
        l_ref[...] = alpha * l_ref[...] + jnp.sum(p, axis=1)[:, None]
        m_ref[...] = m_next
        pv = jnp.dot(p.astype(v_ref.dtype), v_ref[...], preferred_element_type=jnp.float32)
        acc_ref[...] = acc_ref[...] * lanes_to(alpha, head_dim) + pv

    @pl.when(page == pages - 1)
    def _store() -> None:
        o_ref[...] = (acc_ref[...] / lanes_to(l_ref[...], head_dim)).astype(o_ref.dtype)


def paged_attention(table: Any, lengths: Any, q: Any, k_pages: Any, v_pages: Any, *, interpret: Any = False) -> Any:
    """q: (batch, kv_heads, group, head_dim); k_pages, v_pages: (kv_heads, pool, page_size, head_dim)."""
    batch, kv_heads, group, head_dim = q.shape
    page_size = k_pages.shape[2]
    pages = table.shape[1]

    def page_map(b: Any, h: Any, i: Any, table_ref: Any, lengths_ref: Any) -> tuple[Any, ...]:
        # Past the sequence's last page, stay on it: the same block index issues no copy.
        last = (lengths_ref[b] - 1) // page_size
        return (h, table_ref[b, jnp.minimum(i, last)], 0, 0)

    def row_map(b: Any, h: Any, i: Any, table_ref: Any, lengths_ref: Any) -> tuple[Any, ...]:
        return (b, h, 0, 0)

    row_spec = pl.BlockSpec((None, None, group, head_dim), row_map)
    page_spec = pl.BlockSpec((None, None, page_size, head_dim), page_map)
    return pl.pallas_call(
        functools.partial(paged_kernel, scale=1.0 / math.sqrt(head_dim), page_size=page_size, pages=pages),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=2,
            grid=(batch, kv_heads, pages),
            in_specs=[row_spec, page_spec, page_spec],
            out_specs=row_spec,
            scratch_shapes=[pltpu.VMEM((group, LANES), jnp.float32),
                            pltpu.VMEM((group, LANES), jnp.float32),
                            pltpu.VMEM((group, head_dim), jnp.float32)],
        ),
        out_shape=jax.ShapeDtypeStruct(q.shape, q.dtype),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")),
        name="l16_paged_decode",
        interpret=interpret,
    )(table, lengths, q, k_pages, v_pages)


def gathered(pages: Any, table: Any) -> Any:
    """(kv_heads, pool, page, d) pages and a (batch, max_pages) table -> (batch, kv_heads, max_pages * page, d)."""
    g = pages[:, table]  # (kv_heads, batch, max_pages, page, d)
    kv_heads, batch, max_pages, page, d = g.shape
    return jnp.transpose(g, (1, 0, 2, 3, 4)).reshape(batch, kv_heads, max_pages * page, d)


def dense_attention(q: Any, k: Any, v: Any, lengths: Any, *, precision: Any = None) -> Any:
    """q (batch, kv_heads, group, d) against contiguous k, v (batch, kv_heads, tokens, d), masked by length."""
    s = jnp.einsum("bhgd,bhtd->bhgt", q, k, precision=precision, preferred_element_type=jnp.float32)
    s = s / math.sqrt(q.shape[-1])
    valid = jnp.arange(k.shape[2])[None, None, None, :] < lengths[:, None, None, None]
    p = jax.nn.softmax(jnp.where(valid, s, -jnp.inf), axis=-1)
    return jnp.einsum("bhgt,bhtd->bhgd", p.astype(v.dtype), v, precision=precision,
                      preferred_element_type=jnp.float32)


def xla_paged(table: Any, lengths: Any, q: Any, k_pages: Any, v_pages: Any) -> Any:
    """XLA's way: gather the pages into a padded contiguous cache, then attend."""
    return dense_attention(q, gathered(k_pages, table), gathered(v_pages, table), lengths).astype(q.dtype)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    labkit.start_jax(interpret=args.interpret)
    backend = labkit.preflight(args)
    import numpy as np  # noqa: PLC0415

    interpret = labkit.interpret_mode(pltpu) if args.interpret else False
    lens = ragged_lengths(args.batch, args.max_len)
    rows, pool = page_table(lens, args.page_size, args.seed)
    table = jnp.asarray(rows, dtype=jnp.int32)
    lengths = jnp.asarray(lens, dtype=jnp.int32)
    group = args.heads // args.kv_heads
    q = labkit.random_normal(args.seed, (args.batch, args.kv_heads, group, args.head_dim), "bf16")[1]
    pages_shape = (args.kv_heads, pool, args.page_size, args.head_dim)
    k_pages = labkit.random_normal(args.seed + 1, pages_shape, "bf16")[1]
    v_pages = labkit.random_normal(args.seed + 2, pages_shape, "bf16")[1]

    kernel = jax.jit(functools.partial(paged_attention, interpret=interpret))
    ref = np.asarray(jax.jit(lambda t, n, a, kp, vp: dense_attention(
        a.astype(jnp.float32), gathered(kp, t).astype(jnp.float32), gathered(vp, t).astype(jnp.float32), n,
        precision=jax.lax.Precision.HIGHEST))(table, lengths, q, k_pages, v_pages))
    rms = float(np.sqrt(np.mean(np.square(ref.astype(np.float64)))))
    # L09's allowance for bf16: P rounded before P V, the output rounded once.
    correctness = record.compare(np.asarray(kernel(table, lengths, q, k_pages, v_pages).astype(jnp.float32)), ref,
                                 reference_name="dense attention in float32 at HIGHEST precision over each "
                                                "sequence's own tokens",
                                 abs_tol=2.0 ** -5 * rms, rel_tol=2.0 ** -7)

    timing = baseline = None
    read_tokens = sum(-(-n // args.page_size) * args.page_size for n in lens)
    extra: dict[str, Any] = {
        "lengths": lens,
        "pageSize": args.page_size,
        "headDim": args.head_dim,
        "pagesRead": sum(-(-n // args.page_size) for n in lens) * args.kv_heads,
        # K and V pages each kernel step copies, summed: the bytes the kernel must move at least.
        "kvBytes": 2 * read_tokens * args.kv_heads * args.head_dim * 2,
    }
    if not args.interpret:
        xla = jax.jit(xla_paged)
        timing = labkit.timed(kernel, table, lengths, q, k_pages, v_pages, args=args, name="Pallas paged decode")
        baseline = ("XLA: gather the pages into a padded cache, then masked softmax(q K^T) V with jnp",
                    labkit.timed(xla, table, lengths, q, k_pages, v_pages, args=args, name="XLA baseline").samples)
        extra["ratioToBaseline"] = timing.median() / labkit.median(baseline[1])
        extra["hbmBandwidth"] = extra["kvBytes"] / timing.median()
        print(f"paged / XLA median time: {extra['ratioToBaseline']:.3f}; "
              f"K and V read at {extra['hbmBandwidth'] / 1e9:.0f} GB/s")
    labkit.finish(lab=LAB, script=__file__, args=args, dtype="bf16",
                  shapes={"batch": args.batch, "heads": args.heads, "kv_heads": args.kv_heads, "seq": args.max_len},
                  timing=timing, baseline=baseline, correctness=correctness, extra=extra, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
