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

from common import irtext, programs

LAB = "L04"
GATE = None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    return programs.lab_args(LAB, __doc__, argv)


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


def describe(program: programs.Program, prep: programs.Prepared) -> dict[str, Any]:
    compiled = prep.fn.lower(*prep.args).compile()
    hlo = compiled.as_text()
    fusions = irtext.hlo_fusions(hlo)
    print(f"    {len(fusions)} fusion(s)")
    for f in fusions:
        print(f"    {f['name']} {f['kind']} {f['type']}: {f['ops']}")
    return {"hlo": hlo, "fusionCount": len(fusions), "fusions": fusions, "costAnalysis": cost_of(compiled)}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return programs.run_lab(LAB, __file__, args, describe, programs.PROGRAMS + programs.FUSION_PROGRAMS)


if __name__ == "__main__":
    sys.exit(main())
