#!/usr/bin/env python3
"""Lab L12 - narrate an unseen dump (gate G2).

Step 1 (on your TPU VM): the script picks one of several small programs and
its sizes from a random seed you do not choose, compiles it for your chip,
writes the optimized HLO (compiled.as_text()) to l12-dump.hlo.txt, runs and
checks the program, and keeps everything in l12-pending.json. It prints
nothing about the program: read the dump.

Step 2: write your narration as answers.json,

    {"fusionCount": 3,
     "dots": [{"outputShape": [256, 512], "flops": 67108864}, ...]}

fusionCount: the fusion instructions XLA launches (outside fused computations);
dots: every dot in the dump (fused or not) with its output shape and FLOPs
(2 x output elements x contracted size). Then record it:

    python3 l12_narrate_dump.py                       # step 1
    python3 l12_narrate_dump.py --answers answers.json --out run-L12.json   # step 2

The record carries the dump (extra.hloText) and your answers; the app checks
them against the dump. Gate G2 passes when they all match.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import secrets
import sys
from typing import Any, Callable

from common import labkit, record

LAB = "L12"
GATE = "G2"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], samples=10)
    p.add_argument("--dump", default="l12-dump.hlo.txt", help="where step 1 writes the optimized HLO")
    p.add_argument("--pending", default="l12-pending.json", help="step 1's state, read by step 2")
    p.add_argument("--answers", default=None, help="step 2: your answers (JSON) for the pending dump")
    args = p.parse_args(argv)
    labkit.check_common(args)
    return args


# ------------------------------------------------------------------ programs
# Each: (name, sizes from an rng, input shapes, jnp function, float64 reference).


def _np_softmax(x: Any) -> Any:
    import numpy as np  # noqa: PLC0415

    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _np_gelu(x: Any) -> Any:
    import numpy as np  # noqa: PLC0415

    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))


def _np_silu(x: Any) -> Any:
    import numpy as np  # noqa: PLC0415

    return x / (1.0 + np.exp(-x))


def _np_tanh(x: Any) -> Any:
    import numpy as np  # noqa: PLC0415

    return np.tanh(x)


def program_table() -> dict[str, dict[str, Any]]:
    """Programs as dicts; jax is imported only when one is built."""

    def mlp_residual(s: dict[str, int]) -> Callable[..., Any]:
        import jax  # noqa: PLC0415

        return lambda x, w1, w2: jax.nn.gelu(x @ w1) @ w2 + x

    def gated_mlp(s: dict[str, int]) -> Callable[..., Any]:
        import jax  # noqa: PLC0415

        return lambda x, wg, wu, wd: (jax.nn.silu(x @ wg) * (x @ wu)) @ wd

    def attention_head(s: dict[str, int]) -> Callable[..., Any]:
        import jax  # noqa: PLC0415

        scale = 1.0 / math.sqrt(s["d"])
        return lambda q, k, v: jax.nn.softmax((q @ k.T) * scale, axis=-1) @ v

    def batched_norm_proj(s: dict[str, int]) -> Callable[..., Any]:
        import jax.numpy as jnp  # noqa: PLC0415

        def f(x: Any, w: Any) -> Any:
            y = jnp.einsum("bsd,df->bsf", x, w)
            return y / jnp.sqrt(jnp.mean(y * y, axis=-1, keepdims=True) + 1e-6)
        return f

    def scores_then_pool(s: dict[str, int]) -> Callable[..., Any]:
        import jax.numpy as jnp  # noqa: PLC0415

        return lambda q, k, v: jnp.einsum("hqk,hkd->hqd", jnp.tanh(jnp.einsum("hqd,hkd->hqk", q, k)), v)

    return {
        "mlp_residual": {
            "shapes": lambda s: [(s["t"], s["d"]), (s["d"], s["f"]), (s["f"], s["d"])],
            "scales": lambda s: [1.0, s["d"] ** -0.5, s["f"] ** -0.5],
            "make": mlp_residual,
            "ref": lambda x, w1, w2: _np_gelu(x @ w1) @ w2 + x,
        },
        "gated_mlp": {
            "shapes": lambda s: [(s["t"], s["d"]), (s["d"], s["f"]), (s["d"], s["f"]), (s["f"], s["d"])],
            "scales": lambda s: [1.0, s["d"] ** -0.5, s["d"] ** -0.5, s["f"] ** -0.5],
            "make": gated_mlp,
            "ref": lambda x, wg, wu, wd: (_np_silu(x @ wg) * (x @ wu)) @ wd,
        },
        "attention_head": {
            "shapes": lambda s: [(s["t"], s["d"]), (s["t"], s["d"]), (s["t"], s["d"])],
            "scales": lambda s: [1.0, 1.0, 1.0],
            "make": attention_head,
            "ref": lambda q, k, v: _np_softmax((q @ k.T) / math.sqrt(q.shape[1])) @ v,
        },
        "batched_norm_proj": {
            "shapes": lambda s: [(s["b"], s["t"], s["d"]), (s["d"], s["f"])],
            "scales": lambda s: [1.0, s["d"] ** -0.5],
            "make": batched_norm_proj,
            "ref": lambda x, w: (lambda y: y / ((y * y).mean(-1, keepdims=True) + 1e-6) ** 0.5)(x @ w),
        },
        "scores_then_pool": {
            "shapes": lambda s: [(s["b"], s["t"], s["d"])] * 3,
            "scales": lambda s: [1.0, s["d"] ** -0.5, 1.0],
            "make": scores_then_pool,
            "ref": lambda q, k, v: _np_tanh(q @ k.transpose(0, 2, 1)) @ v,
        },
    }


def choose(seed: int) -> tuple[str, dict[str, int]]:
    """The program and its sizes, from a seed (drawn by step 1, not by you)."""
    import random  # noqa: PLC0415

    rng = random.Random(seed)
    name = rng.choice(sorted(program_table()))
    sizes = {"b": rng.choice([2, 4, 8]), "t": rng.choice([128, 256, 512]),
             "d": rng.choice([128, 256, 512]), "f": rng.choice([256, 512, 1024])}
    return name, sizes


def used_sizes(prog: dict[str, Any], sizes: dict[str, int]) -> dict[str, int]:
    """Only the sizes the chosen program's inputs use (the record names the run's shapes)."""
    seen: dict[str, int] = {}

    class Tracking(dict):  # type: ignore[type-arg]
        def __getitem__(self, key: str) -> int:
            seen[key] = sizes[key]
            return sizes[key]

    prog["shapes"](Tracking(sizes))
    return seen


def validate_answers(answers: Any) -> dict[str, Any]:
    """The answers' form (the app checks their content against the dump)."""
    if not isinstance(answers, dict) or set(answers) != {"fusionCount", "dots"}:
        raise SystemExit('answers must be {"fusionCount": int, "dots": [{"outputShape": [ints], "flops": int}]}')
    count = answers["fusionCount"]
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise SystemExit("fusionCount must be a non-negative integer")
    dots = answers["dots"]
    if not isinstance(dots, list):
        raise SystemExit("dots must be a list")
    for i, d in enumerate(dots):
        if not isinstance(d, dict) or set(d) != {"outputShape", "flops"}:
            raise SystemExit(f"dots[{i}] must be {{\"outputShape\": [ints], \"flops\": int}}")
        shape, flops = d["outputShape"], d["flops"]
        if not isinstance(shape, list) or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1
                                                  for x in shape):
            raise SystemExit(f"dots[{i}].outputShape must be a list of positive integers")
        if not isinstance(flops, int) or isinstance(flops, bool) or flops < 0:
            raise SystemExit(f"dots[{i}].flops must be a non-negative integer")
    return {"fusionCount": count, "dots": [{"outputShape": d["outputShape"], "flops": d["flops"]} for d in dots]}


def step_one(args: argparse.Namespace) -> int:
    labkit.start_jax()
    backend = labkit.preflight(args)
    import jax  # noqa: PLC0415
    import numpy as np  # noqa: PLC0415

    seed = secrets.randbelow(2**31)
    name, sizes = choose(seed)
    prog = program_table()[name]
    host, args_dev = [], []
    for i, (shape, scale) in enumerate(zip(prog["shapes"](sizes), prog["scales"](sizes))):
        h, d = labkit.random_normal(seed + i, shape, "bf16", scale)
        host.append(h)
        args_dev.append(d)
    fn = jax.jit(prog["make"](sizes))
    hlo = fn.lower(*args_dev).compile().as_text()
    ref = prog["ref"](*[np.asarray(h, dtype=np.float64) for h in host])
    tol = 3e-2 * max(float(np.max(np.abs(ref))), 1e-30)
    correctness = record.compare(np.asarray(fn(*args_dev).astype("float32")), ref,
                                 reference_name="the program in float64 numpy on the same inputs",
                                 abs_tol=tol, rel_tol=3e-2)
    timing = labkit.timed(fn, *args_dev, args=args)
    used = used_sizes(prog, sizes)
    try:
        rec = record.build_record(
            lab=LAB, script_path=__file__, backend=backend, interpret=False, dtype="bf16",
            shapes=used, timing=timing, baseline=None, correctness=correctness,
            extra={"seed": seed, "program": name, "hloText": hlo})
    except record.RecordError as e:
        raise SystemExit(f"no record: {e}") from e
    with open(args.dump, "w", encoding="utf-8") as f:
        f.write(hlo)
    record.write_json_atomic({"pending": rec}, args.pending)
    print(f"wrote the optimized HLO of an unseen program to {args.dump}.\n"
          f"Narrate it in answers.json, then: python3 {os.path.basename(__file__)} --answers answers.json "
          f"--out {args.out}")
    return 0


def step_two(args: argparse.Namespace) -> int:
    try:
        with open(args.pending, encoding="utf-8") as f:
            rec = json.load(f)["pending"]
        with open(args.answers, encoding="utf-8") as f:
            answers = validate_answers(json.load(f))
    except (OSError, KeyError, json.JSONDecodeError) as e:
        raise SystemExit(f"cannot read the pending dump or your answers: {e}") from e
    if rec["script"]["sha256"] != record.sha256_of(__file__):
        raise SystemExit("this script changed since step 1: run step 1 again for a new dump")
    rec["extra"]["answers"] = answers
    rec["extra"]["answeredAt"] = record.utc_now()
    record.write_record(rec, args.out)
    print(f"wrote {args.out} with your {len(answers['dots'])} dot(s) and fusion count {answers['fusionCount']}: "
          "import it in the app to have it checked against the dump")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return step_two(args) if args.answers else step_one(args)


if __name__ == "__main__":
    sys.exit(main())
