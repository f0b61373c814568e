#!/usr/bin/env python3
"""Lab L05 - the three floors: predict, then measure the bench rows (gate G0).

Measures the landing page's three bench rows on your chip, with XLA
(jax.jit), in bf16:

  matmul_nnn       n x n x n matmul                      (n = 4096)
  matmul_skinny    8 x n x n matmul                      (n = 4096)
  elementwise_add  n x n + n x n -> n x n, two in, one out (n = 4096)

Enter your three predictions in the app BEFORE you run this: gate G0 counts
only predictions entered before the measurement, and passes when each is
within 25% of the measured median. Short ops are timed as the mean of
--calls-per-sample back-to-back calls (10 by default) so the host's dispatch
cost does not pose as device time.

    python3 l05_three_floors.py --out run-L05.json
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from common import labkit, record

LAB = "L05"
GATE = "G0"
ROWS = ("matmul_nnn", "matmul_skinny", "elementwise_add")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], calls_per_sample=10)
    p.add_argument("--n", type=int, default=4096, help="N of the three rows (default 4096, the gate's)")
    p.add_argument("--skinny-m", type=int, default=8, help="rows of the skinny matmul (default 8)")
    p.add_argument("--dtype", choices=["bf16"], default="bf16", help="the bench rows are bf16")
    args = p.parse_args(argv)
    labkit.check_common(args)
    return args


def row_shapes(row: str, n: int, skinny_m: int) -> dict[str, int]:
    if row == "matmul_nnn":
        return {"m": n, "k": n, "n": n}
    if row == "matmul_skinny":
        return {"m": skinny_m, "k": n, "n": n}
    return {"rows": n, "cols": n}


def _named(fn: Any, name: str) -> Any:
    """fn under the row's name: jax.jit names the XLA program after it
    (jit_<name>), so a profile tells the three rows' runs apart."""
    fn.__name__ = fn.__qualname__ = name
    return fn


def measure_row(jax: Any, row: str, shapes: dict[str, int], args: argparse.Namespace
                ) -> tuple[record.Timing, record.Correctness]:
    import numpy as np  # noqa: PLC0415

    if row == "elementwise_add":
        ha, a = labkit.random_normal(args.seed, (shapes["rows"], shapes["cols"]), args.dtype)
        hb, b = labkit.random_normal(args.seed + 1, (shapes["rows"], shapes["cols"]), args.dtype)
        add = jax.jit(_named(lambda x, y: x + y, row))
        out = np.asarray(add(a, b).astype("float32"))
        # One bf16 rounding of an exact sum: half an ulp, 2^-8 relative at most.
        check = record.compare(out, ha.astype(np.float64) + hb.astype(np.float64),
                               reference_name="a + b in float64 numpy on the same inputs",
                               abs_tol=1e-6, rel_tol=2.0 ** -8)
        return labkit.timed(add, a, b, args=args, name=row), check
    _, a = labkit.random_normal(args.seed, (shapes["m"], shapes["k"]), args.dtype)
    _, b = labkit.random_normal(args.seed + 1, (shapes["k"], shapes["n"]), args.dtype, scale=shapes["k"] ** -0.5)
    matmul = jax.jit(_named(lambda x, y: x @ y, row))
    check = labkit.check_matmul(matmul(a, b), a, b, args.dtype, row)
    return labkit.timed(matmul, a, b, args=args, name=row), check


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    labkit.start_jax()
    backend = labkit.preflight(args)
    import jax  # noqa: PLC0415

    rows, checks, timings = [], [], {}
    for row in ROWS:
        shapes = row_shapes(row, args.n, args.skinny_m)
        timing, check = measure_row(jax, row, shapes, args)
        timings[row] = timing
        checks.append(check)
        print(f"{row:16s} {shapes}: median {timing.median() * 1e6:9.1f} us  "
              f"({'correct' if check.passed else 'WRONG'})")
        rows.append({"row": row, "shapes": shapes, "dtype": args.dtype, "samples": timing.samples,
                     "correctness": check.to_json()})

    labkit.finish(lab=LAB, script=__file__, args=args, dtype=args.dtype, shapes={"n": args.n},
                  timing=timings["matmul_nnn"], baseline=None,
                  correctness=record.combine(checks, "float32/float64 references of the three rows"),
                  extra={"rows": rows, "method": timings["matmul_nnn"].method}, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
