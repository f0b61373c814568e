#!/usr/bin/env python3
"""Lab L03 - lower it: StableHLO and HLO of the same programs, every dot_general decoded.

Lowers the five programs of L02 with jax.jit(f).lower(...): the StableHLO text
(lowered.as_text()) and, after compiling for your chip, the optimized HLO
(compiled.as_text()). Every stablehlo.dot_general is decoded from its
dimension numbers (batch dims, then lhs free dims, then rhs free dims) and the
decoded output shape is checked against the type printed in the dump; every
HLO dot is decoded the same way. Decode them by hand first, then compare.

    python3 l03_lower.py --out run-L03.json
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from common import irtext, programs

LAB = "L03"
GATE = None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    return programs.lab_args(LAB, __doc__, argv, add_dump_dir)


def add_dump_dir(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dump-dir", default=None,
                   help="also write each program's StableHLO and HLO text files here")


def describe(program: programs.Program, prep: programs.Prepared, dump_dir: str | None) -> dict[str, Any]:
    lowered = prep.fn.lower(*prep.args)
    stablehlo = lowered.as_text()
    hlo = lowered.compile().as_text()
    shlo_dots = irtext.stablehlo_dots(stablehlo)
    for d in shlo_dots:
        if d["decoded"]:
            print(f"    stablehlo dot_general {d['lhsShape']} x {d['rhsShape']} "
                  f"batch {d['lhsBatch']}x{d['rhsBatch']} contract {d['lhsContracting']}x{d['rhsContracting']}"
                  f" -> {d['outputShape']} ({'agrees' if d['agrees'] else 'DIFFERS from'} the printed type), "
                  f"{d['flops']} FLOPs")
    if dump_dir:
        os.makedirs(dump_dir, exist_ok=True)
        for suffix, text in (("stablehlo.mlir", stablehlo), ("hlo.txt", hlo)):
            with open(os.path.join(dump_dir, f"{program.name}.{suffix}"), "w", encoding="utf-8") as f:
                f.write(text)
    return {
        "stablehlo": stablehlo,
        "hlo": hlo,
        "stablehloDots": [{k: v for k, v in d.items() if k != "text"} for d in shlo_dots],
        "hloDots": irtext.hlo_dots(hlo),
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return programs.run_lab(LAB, __file__, args, lambda program, prep: describe(program, prep, args.dump_dir))


if __name__ == "__main__":
    sys.exit(main())
