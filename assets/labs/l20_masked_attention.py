#!/usr/bin/env python3
"""Lab L20 - masked attention: skip the tiles a mask empties.

L09's flash-attention forward under a mask, in one of two forms (both causal):

  window     a causal local window of --window tokens: query q sees the keys
             q - window + 1 .. q
  documents  packed documents: one segment id per token, and a query sees
             only the keys of its own document at or before it

The host cuts the mask into (block_q, block_k) tiles and sorts each into one
of chapter 13's three kinds: empty (no pair attends), full (every pair does)
or partial. Two small int32 tables go to the kernel through scalar prefetch
(PrefetchScalarGridSpec(num_scalar_prefetch=2)), one row per query block:
which KV block each step fetches and that tile's kind. The grid is (batch,
heads, query blocks, steps) with steps the busiest row's count of non-empty
tiles, the last axis "arbitrary": empty tiles are not in the grid at all. A
row with fewer tiles ends on steps of kind empty whose index maps repeat its
last KV block, so they copy nothing, and the kernel skips them (pl.when). A
full tile runs the online softmax unmasked; a partial tile masks its scores
element by element, from iotas (causal, window) and from the segment ids
(query ids replicated across 128 lanes, key ids across 8 sublanes).

The same kernel also runs with every tile in the grid, each one masked
element by element (no skipping), and XLA runs the masked attention with
jnp (the whole score matrix, masked, softmax, P V). Each is checked against
masked attention in float32 at HIGHEST precision, with L09's tolerance (with
--interpret, the two kernels). The record's timing is the skipping kernel's;
XLA's is the baseline; the every-tile kernel's samples are in extra.

    python3 l20_masked_attention.py --out run-L20.json
    python3 l20_masked_attention.py --mask documents --out run-L20-documents.json
    python3 l20_masked_attention.py --interpret --heads 2 --seq 1024 --block-q 128 --block-k 256 --window 512 \
        --out run-L20-interpret.json
    python3 l20_masked_attention.py --interpret --mask documents --heads 2 --seq 1024 --block-q 128 --block-k 256 \
        --doc-lengths 200,440,384 --out run-L20-documents-interpret.json

The interpret examples' block_k of 256 takes the lane-tiling path (lanes_to widening the statistics
and the query segment ids to block_k), as the TPU default of 512 does.
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

LAB = "L20"
GATE = None  # practice beyond the gates: no gate rests on this lab

EMPTY, PARTIAL, FULL = 0, 1, 2
KIND_CHARS = {EMPTY: ".", PARTIAL: "P", FULL: "F"}
# A large finite negative for masked scores, as chapter 13's kernel uses (-0.7 x float32's largest):
# with -inf, a row with no key yet in a tile would compute exp(-inf - -inf).
MASK_VALUE = -0.7 * 3.4028234663852886e38


class Mask:
    """Causal attention, within `window` tokens (None: no limit) and within each document
    (`lengths`, consecutive; None: one document)."""

    def __init__(self, kind: str, window: int | None, lengths: tuple[int, ...] | None) -> None:
        self.kind, self.window, self.lengths = kind, window, lengths

    def bounds(self, seq: int) -> list[tuple[int, int]]:
        """Each document's [start, end) positions."""
        out, at = [], 0
        for n in self.lengths or (seq,):
            out.append((at, at + n))
            at += n
        return out

    def segment_ids(self, seq: int) -> list[int]:
        return [s for s, (a, b) in enumerate(self.bounds(seq)) for _ in range(a, b)]

    def allows(self, seq: int, q: int, k: int) -> bool:
        """Whether query position q attends to key position k."""
        ids = self.segment_ids(seq)
        return 0 <= q - k < (self.window or seq) and ids[q] == ids[k]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "causal": True, "window": self.window,
                "documentLengths": list(self.lengths) if self.lengths else None}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], interpret=True, samples=10)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--heads", type=int, default=8)
    p.add_argument("--seq", type=int, default=4096)
    p.add_argument("--head-dim", type=int, default=128, help="128 or a multiple of it, or below 128")
    p.add_argument("--block-q", type=int, default=512)
    p.add_argument("--block-k", type=int, default=512, help="a multiple of 128")
    p.add_argument("--dtype", choices=["bf16", "f32"], default="bf16")
    p.add_argument("--mask", choices=["window", "documents"], default="window")
    p.add_argument("--window", type=int, default=1024,
                   help="--mask window: each query sees itself and the window - 1 keys before it (default 1024)")
    p.add_argument("--documents", type=int, default=4,
                   help="--mask documents: this many documents of equal length (default 4)")
    p.add_argument("--doc-lengths", default=None,
                   help="--mask documents: the documents' lengths, comma-separated, summing to --seq "
                        "(instead of --documents)")
    args = p.parse_args(argv)
    labkit.check_common(args)
    if args.seq % args.block_q or args.seq % args.block_k:
        p.error("--block-q and --block-k must divide --seq")
    if args.block_k % LANES or args.block_q % 8:
        p.error("--block-k must be a multiple of 128 and --block-q a multiple of 8")
    if args.head_dim > LANES and args.head_dim % LANES:
        p.error("--head-dim above 128 must be a multiple of 128")
    if args.mask == "window":
        if args.window < 1:
            p.error("--window must be at least 1 (a query always sees itself)")
        args.mask_spec = Mask("window", args.window, None)
    else:
        if args.doc_lengths:
            try:
                lengths = tuple(int(x) for x in args.doc_lengths.split(","))
            except ValueError:
                p.error("--doc-lengths must be whole numbers separated by commas")
        else:
            if not 1 <= args.documents <= args.seq:
                p.error("--documents must be from 1 to --seq")
            base = args.seq // args.documents
            lengths = (base,) * (args.documents - 1) + (args.seq - base * (args.documents - 1),)
        if min(lengths) < 1 or sum(lengths) != args.seq:
            p.error(f"the document lengths {list(lengths)} must be positive and sum to --seq {args.seq}")
        args.mask_spec = Mask("documents", None, lengths)
    return args


# ------------------------------------------------------------------ tiles, on the host


def tile_kind(mask: Mask, seq: int, rows: tuple[int, int], cols: tuple[int, int]) -> int:
    """EMPTY, FULL or PARTIAL for the tile of query positions [rows) and key positions [cols).

    Within one document the pairs of a rectangle of positions take every difference q - k from
    (first row - last column) to (last row - first column), so each document's part of the tile is
    judged from two numbers."""
    window = mask.window or seq
    bounds = mask.bounds(seq)
    attends = False
    for a, b in bounds:
        q0, q1 = max(rows[0], a), min(rows[1], b)
        k0, k1 = max(cols[0], a), min(cols[1], b)
        if q0 < q1 and k0 < k1 and (q1 - 1) - k0 >= 0 and q0 - (k1 - 1) < window:
            attends = True
    if not attends:
        return EMPTY
    for a, b in bounds:
        if a <= min(rows[0], cols[0]) and max(rows[1], cols[1]) <= b:  # one document holds the whole tile
            low, high = rows[0] - (cols[1] - 1), (rows[1] - 1) - cols[0]
            return FULL if low >= 0 and high < window else PARTIAL
    return PARTIAL


def classify(mask: Mask, seq: int, block_q: int, block_k: int) -> list[list[int]]:
    """The kind of every (query block, key block) tile."""
    return [[tile_kind(mask, seq, (i * block_q, (i + 1) * block_q), (j * block_k, (j + 1) * block_k))
             for j in range(seq // block_k)] for i in range(seq // block_q)]


def schedule(kinds: list[list[int]]) -> tuple[list[list[int]], list[list[int]]]:
    """(KV block per step, kind per step) for each query block: its non-empty tiles in key order,
    then EMPTY steps that stay on its last KV block (the same block index issues no copy)."""
    rows = [[j for j, kind in enumerate(row) if kind != EMPTY] for row in kinds]
    if not all(rows):
        raise SystemExit("a query block has no key to attend to: every query must see at least itself")
    steps = max(len(r) for r in rows)
    blocks = [r + [r[-1]] * (steps - len(r)) for r in rows]
    kinds_out = [[kinds[i][j] for j in r] + [EMPTY] * (steps - len(r)) for i, r in enumerate(rows)]
    return blocks, kinds_out


def every_tile(kinds: list[list[int]]) -> tuple[list[list[int]], list[list[int]]]:
    """The no-skipping schedule: every KV block in order, each tile masked element by element."""
    return [list(range(len(row))) for row in kinds], [[PARTIAL] * len(row) for row in kinds]


def allowed_pairs(mask: Mask, seq: int) -> int:
    """How many (query, key) pairs attend: per document of n tokens, sum over its queries of
    min(position in the document + 1, window)."""
    total = 0
    for a, b in mask.bounds(seq):
        n, w = b - a, mask.window or seq
        total += n * (n + 1) // 2 if w >= n else w * (w + 1) // 2 + (n - w) * w
    return total


# ------------------------------------------------------------------ the kernel


def masked_kernel(blocks_ref: Any, kinds_ref: Any, q_ref: Any, k_ref: Any, v_ref: Any, qseg_ref: Any,
                  kseg_ref: Any, o_ref: Any, m_ref: Any, l_ref: Any, acc_ref: Any, *, scale: float,
                  window: int | None, segments: bool, steps: int) -> None:
    i = pl.program_id(2)
    kv = pl.program_id(3)
    block_q, block_k = q_ref.shape[0], k_ref.shape[0]
    head_dim = acc_ref.shape[1]
    kind = kinds_ref[i, kv]

    @pl.when(kv == 0)
    def _init() -> None:
        m_ref[...] = jnp.full(m_ref.shape, MASK_VALUE, jnp.float32)
        l_ref[...] = jnp.zeros(l_ref.shape, jnp.float32)
        acc_ref[...] = jnp.zeros(acc_ref.shape, jnp.float32)

    def _step(masked: bool) -> None:
        s = jax.lax.dot_general(q_ref[...], k_ref[...], (((1,), (1,)), ((), ())),
                                preferred_element_type=jnp.float32) * scale      # (block_q, block_k)
        allowed = None
        if masked:
            rows = i * block_q + jax.lax.broadcasted_iota(jnp.int32, s.shape, 0)
            cols = blocks_ref[i, kv] * block_k + jax.lax.broadcasted_iota(jnp.int32, s.shape, 1)
            allowed = cols <= rows
            if window is not None:
                allowed = jnp.logical_and(allowed, rows - cols < window)
            if segments:
                # Query ids lane-replicated, key ids sublane-replicated: the comparison broadcasts.
                same = lanes_to(qseg_ref[...], block_k) == kseg_ref[0:1, :]
                allowed = jnp.logical_and(allowed, same)
            s = jnp.where(allowed, s, MASK_VALUE)
        m_prev = m_ref[...]
        m_next = jnp.maximum(m_prev, jnp.max(s, axis=1)[:, None])
        p = jnp.exp(s - lanes_to(m_next, block_k))
        if masked:
            # A row with no key in this tile and none before it has m_next == MASK_VALUE and p == 1:
            # zero those, so that l and acc hold only pairs that attend.
            p = jnp.where(allowed, p, 0.0)
        alpha = jnp.exp(m_prev - m_next)
        l_ref[...] = alpha * l_ref[...] + jnp.sum(p, axis=1)[:, None]
        m_ref[...] = m_next
        pv = jnp.dot(p.astype(v_ref.dtype), v_ref[...], preferred_element_type=jnp.float32)
        acc_ref[...] = acc_ref[...] * lanes_to(alpha, head_dim) + pv

    @pl.when(kind == FULL)
    def _full() -> None:
        _step(False)

    @pl.when(kind == PARTIAL)
    def _partial() -> None:
        _step(True)

    # Steps of kind EMPTY do nothing. Every row holds its diagonal, so l > 0 at the end.
    @pl.when(kv == steps - 1)
    def _store() -> None:
        o_ref[...] = (acc_ref[...] / lanes_to(l_ref[...], head_dim)).astype(o_ref.dtype)


def masked_attention(blocks: Any, kinds: Any, q: Any, k: Any, v: Any, q_seg: Any, kv_seg: Any, *, block_q: int,
                     block_k: int, window: int | None, segments: bool, name: str, interpret: Any = False) -> Any:
    """blocks, kinds: (seq // block_q, steps) int32, the schedule; q, k, v: (batch, heads, seq, head_dim);
    q_seg: (seq, 128) int32, each row one token's segment id; kv_seg: (8, seq) int32, each column one's."""
    batch, heads, seq, head_dim = q.shape
    q_blocks, steps = blocks.shape

    def q_map(b: Any, h: Any, i: Any, s: Any, blocks_ref: Any, kinds_ref: Any) -> tuple[Any, ...]:
        return (b, h, i, 0)

    def kv_map(b: Any, h: Any, i: Any, s: Any, blocks_ref: Any, kinds_ref: Any) -> tuple[Any, ...]:
        return (b, h, blocks_ref[i, s], 0)

    def qseg_map(b: Any, h: Any, i: Any, s: Any, blocks_ref: Any, kinds_ref: Any) -> tuple[Any, ...]:
        return (i, 0)

    def kseg_map(b: Any, h: Any, i: Any, s: Any, blocks_ref: Any, kinds_ref: Any) -> tuple[Any, ...]:
        return (0, blocks_ref[i, s])

    q_spec = pl.BlockSpec((None, None, block_q, head_dim), q_map)
    kv_spec = pl.BlockSpec((None, None, block_k, head_dim), kv_map)
    return pl.pallas_call(
        functools.partial(masked_kernel, scale=1.0 / math.sqrt(head_dim), window=window, segments=segments,
                          steps=steps),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=2,
            grid=(batch, heads, q_blocks, steps),
            in_specs=[q_spec, kv_spec, kv_spec, pl.BlockSpec((block_q, LANES), qseg_map),
                      pl.BlockSpec((8, block_k), kseg_map)],
            out_specs=q_spec,
            scratch_shapes=[
                pltpu.VMEM((block_q, LANES), jnp.float32),    # m
                pltpu.VMEM((block_q, LANES), jnp.float32),    # l
                pltpu.VMEM((block_q, head_dim), jnp.float32),  # acc
            ],
        ),
        out_shape=jax.ShapeDtypeStruct(q.shape, q.dtype),
        compiler_params=pltpu.CompilerParams(
            dimension_semantics=("parallel", "parallel", "parallel", "arbitrary")),
        name=name,  # how the kernel is named in a profile
        interpret=interpret,
    )(blocks, kinds, q, k, v, q_seg, kv_seg)


# ------------------------------------------------------------------ XLA and the reference


def mask_matrix(seg: Any, window: int | None, segments: bool) -> Any:
    """(seq, seq) bool: which keys each query attends to."""
    pos = jnp.arange(seg.shape[0], dtype=jnp.int32)
    diff = pos[:, None] - pos[None, :]
    allowed = diff >= 0
    if window is not None:
        allowed = jnp.logical_and(allowed, diff < window)
    if segments:
        allowed = jnp.logical_and(allowed, seg[:, None] == seg[None, :])
    return allowed


def xla_masked_attention(q: Any, k: Any, v: Any, seg: Any, *, window: int | None, segments: bool) -> Any:
    """XLA's baseline: the whole score matrix, masked, softmax, then P V, with jnp."""
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k, preferred_element_type=jnp.float32) / math.sqrt(q.shape[-1])
    s = jnp.where(mask_matrix(seg, window, segments)[None, None], s, -jnp.inf)
    p = jax.nn.softmax(s, axis=-1)
    return jnp.einsum("bhqk,bhkd->bhqd", p.astype(v.dtype), v, preferred_element_type=jnp.float32).astype(q.dtype)


def reference_attention(q: Any, k: Any, v: Any, seg: Any, *, window: int | None, segments: bool) -> Any:
    """The same masked attention in float32 at HIGHEST precision."""
    hi = jax.lax.Precision.HIGHEST
    q, k, v = (a.astype(jnp.float32) for a in (q, k, v))
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k, precision=hi) / math.sqrt(q.shape[-1])
    s = jnp.where(mask_matrix(seg, window, segments)[None, None], s, -jnp.inf)
    return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, axis=-1), v, precision=hi)


def tolerance(ref: Any, dtype: str) -> tuple[float, float]:
    """L09's (abs, rel): bf16 rounds the probabilities before P V and the output once."""
    import numpy as np  # noqa: PLC0415

    if dtype != "bf16":
        return 2e-3, 2e-3
    rms = float(np.sqrt(np.mean(np.square(np.asarray(ref, dtype=np.float64)))))
    return 2.0 ** -5 * rms, 2.0 ** -7


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    labkit.start_jax(interpret=args.interpret)
    backend = labkit.preflight(args)
    import numpy as np  # noqa: PLC0415

    mask: Mask = args.mask_spec
    seq, bq, bk = args.seq, args.block_q, args.block_k
    kinds = classify(mask, seq, bq, bk)
    skip_blocks, skip_kinds = schedule(kinds)
    all_blocks, all_kinds = every_tile(kinds)
    counts = {name: sum(row.count(kind) for row in kinds) for kind, name in
              ((EMPTY, "empty"), (FULL, "full"), (PARTIAL, "partial"))}
    computed = counts["full"] + counts["partial"]
    q_blocks, k_blocks = seq // bq, seq // bk
    print(f"{mask.kind} mask: {computed} of {q_blocks * k_blocks} KV blocks per (batch, head) computed "
          f"({counts['full']} full, {counts['partial']} partial); {q_blocks} x {len(skip_blocks[0])} grid steps")

    interpret = labkit.interpret_mode(pltpu) if args.interpret else False
    shape = (args.batch, args.heads, seq, args.head_dim)
    q, k, v = (labkit.random_normal(args.seed + i, shape, args.dtype)[1] for i in range(3))
    seg = jnp.asarray(mask.segment_ids(seq), dtype=jnp.int32)
    q_seg = jnp.broadcast_to(seg[:, None], (seq, LANES))
    kv_seg = jnp.broadcast_to(seg[None, :], (8, seq))
    tables = [jnp.asarray(t, dtype=jnp.int32) for t in (skip_blocks, skip_kinds, all_blocks, all_kinds)]
    how = {"block_q": bq, "block_k": bk, "window": mask.window, "segments": mask.lengths is not None,
           "interpret": interpret}

    # Named functions, so that each version's XLA program has its own name in a profile.
    def skipping_attention(blocks: Any, kinds_: Any, *operands: Any) -> Any:
        return masked_attention(blocks, kinds_, *operands, name="l20_masked_attention", **how)

    def every_block_attention(blocks: Any, kinds_: Any, *operands: Any) -> Any:
        return masked_attention(blocks, kinds_, *operands, name="l20_masked_attention_every_block", **how)

    def xla_attention(a: Any, b: Any, c: Any, s: Any) -> Any:
        return xla_masked_attention(a, b, c, s, window=mask.window, segments=mask.lengths is not None)

    skipping, every_block = jax.jit(skipping_attention), jax.jit(every_block_attention)
    skip_args = (tables[0], tables[1], q, k, v, q_seg, kv_seg)
    every_args = (tables[2], tables[3], q, k, v, q_seg, kv_seg)
    ref = np.asarray(jax.jit(functools.partial(reference_attention, window=mask.window,
                                               segments=mask.lengths is not None))(q, k, v, seg))
    abs_tol, rel_tol = tolerance(ref, args.dtype)
    name = "masked attention in float32 at HIGHEST precision on the same inputs"

    def check(out: Any) -> record.Correctness:
        return record.compare(np.asarray(out.astype(jnp.float32)), ref, reference_name=name,
                              abs_tol=abs_tol, rel_tol=rel_tol)

    correctness = check(skipping(*skip_args))
    per_tile = 4 * bq * bk * args.head_dim * args.batch * args.heads
    extra: dict[str, Any] = {
        "mask": mask.to_json(),
        "blocks": {"block_q": bq, "block_k": bk},
        "tileCounts": counts,
        "kvBlocksComputed": computed,
        "kvBlocksTotal": q_blocks * k_blocks,
        "gridSteps": {"skipping": q_blocks * len(skip_blocks[0]), "everyBlock": q_blocks * k_blocks},
        "tileMap": ["".join(KIND_CHARS[kind] for kind in row) for row in kinds],
        "allowedFraction": allowed_pairs(mask, seq) / (seq * seq),
        "flops": {"skipping": per_tile * computed, "everyBlock": per_tile * q_blocks * k_blocks},
        "everyBlockCorrectness": check(every_block(*every_args)).to_json(),
    }
    timing = baseline = None
    if not args.interpret:
        xla = jax.jit(xla_attention)
        extra["baselineCorrectness"] = check(xla(q, k, v, seg)).to_json()
        timing = labkit.timed(skipping, *skip_args, args=args, name="Pallas kernel, skipping")
        extra["everyBlockSamples"] = labkit.timed(every_block, *every_args, args=args,
                                                  name="Pallas kernel, every block").samples
        baseline = ("XLA masked attention: softmax of the masked Q K^T / sqrt(d), then P V, with jnp",
                    labkit.timed(xla, q, k, v, seg, args=args, name="XLA baseline").samples)
        extra["ratioToEveryBlock"] = timing.median() / labkit.median(extra["everyBlockSamples"])
        extra["ratioToBaseline"] = timing.median() / labkit.median(baseline[1])
        print(f"skipping / every block median time: {extra['ratioToEveryBlock']:.3f}; "
              f"skipping / XLA: {extra['ratioToBaseline']:.3f}")
    labkit.finish(lab=LAB, script=__file__, args=args, dtype=args.dtype,
                  shapes={"batch": args.batch, "heads": args.heads, "seq": seq, "head_dim": args.head_dim},
                  timing=timing, baseline=baseline, correctness=correctness, extra=extra, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
