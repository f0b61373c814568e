#!/usr/bin/env python3
"""Lab L04 - fusion forensics: find the fusions XLA made.

Compiles the five programs of L02 plus two built for this lab
(elementwise_chain, matmul_epilogue) for your chip and reads the optimized
HLO: every fusion instruction XLA launches, its kind (kLoop, kInput, kOutput,
kCustom) and the ops fused into it, and XLA's own cost analysis (FLOPs and
bytes accessed). Each program is timed, so the bytes XLA says it moves can be
set against the time it takes. Predict the fusions in the app's fusion map
(EX-04) first.

    python3 l04_fusion_forensics.py --out run-L04.json
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from common import irtext, labkit, programs, record

LAB = "L04"
GATE = None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], samples=10)
    programs.add_size_args(p)
    args = p.parse_args(argv)
    labkit.check_common(args)
    return args


def cost_of(compiled: Any) -> dict[str, float | None]:
    """XLA's cost analysis: a dict in current JAX, a one-element list in older."""
    try:
        cost = compiled.cost_analysis()
    except Exception:  # noqa: BLE001 - not every backend implements it
        return {"flops": None, "bytesAccessed": None}
    if isinstance(cost, (list, tuple)):
        cost = cost[0] if cost else {}
    cost = cost or {}
    flops = cost.get("flops")
    moved = cost.get("bytes accessed")
    return {"flops": float(flops) if flops is not None else None,
            "bytesAccessed": float(moved) if moved is not None else None}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    sizes = programs.sizes_from(args)
    labkit.start_jax()
    backend = labkit.preflight(args)

    entries, checks, first_timing = [], [], None
    for i, program in enumerate(programs.PROGRAMS + programs.FUSION_PROGRAMS):
        prep = programs.prepare(program, sizes, args.dtype, args.seed + i)
        compiled = prep.fn.lower(*prep.args).compile()
        hlo = compiled.as_text()
        fusions = irtext.hlo_fusions(hlo)
        cost = cost_of(compiled)
        timing, check = programs.run(prep, args.dtype, args.warmup, args.samples)
        first_timing = first_timing or timing
        checks.append(check)
        print(f"--- {program.name}: {len(fusions)} fusion(s), median {timing.median() * 1e6:.1f} us")
        for f in fusions:
            print(f"    {f['name']} {f['kind']} {f['type']}: {f['ops']}")
        entries.append({
            "name": program.name,
            "what": program.what,
            "inputShapes": [list(s) for s in program.shapes(sizes)],
            "hlo": hlo,
            "fusionCount": len(fusions),
            "fusions": fusions,
            "costAnalysis": cost,
            "samples": timing.samples,
            "correctness": check.to_json(),
        })

    labkit.finish(lab=LAB, script=__file__, args=args, dtype=args.dtype, shapes=sizes,
                  timing=first_timing, baseline=None,
                  correctness=record.combine(checks, "each program in float64 numpy on the same inputs"),
                  extra={"programs": entries}, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
