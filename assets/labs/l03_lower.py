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
import sys

from common import irtext, labkit, programs, record

LAB = "L03"
GATE = None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], samples=10)
    programs.add_size_args(p)
    p.add_argument("--dump-dir", default=None,
                   help="also write each program's StableHLO and HLO text files here")
    args = p.parse_args(argv)
    labkit.check_common(args)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    sizes = programs.sizes_from(args)
    labkit.start_jax()
    backend = labkit.preflight(args)

    entries, checks, first_timing = [], [], None
    for i, program in enumerate(programs.PROGRAMS):
        prep = programs.prepare(program, sizes, args.dtype, args.seed + i)
        lowered = prep.fn.lower(*prep.args)
        stablehlo = lowered.as_text()
        hlo = lowered.compile().as_text()
        shlo_dots = irtext.stablehlo_dots(stablehlo)
        hlo_dots = irtext.hlo_dots(hlo)
        print(f"--- {program.name}: {program.what}")
        for d in shlo_dots:
            if d["decoded"]:
                print(f"    stablehlo dot_general {d['lhsShape']} x {d['rhsShape']} "
                      f"batch {d['lhsBatch']}x{d['rhsBatch']} contract {d['lhsContracting']}x{d['rhsContracting']}"
                      f" -> {d['outputShape']} ({'agrees' if d['agrees'] else 'DIFFERS from'} the printed type), "
                      f"{d['flops']} FLOPs")
        if args.dump_dir:
            import os  # noqa: PLC0415

            os.makedirs(args.dump_dir, exist_ok=True)
            for suffix, text in (("stablehlo.mlir", stablehlo), ("hlo.txt", hlo)):
                with open(os.path.join(args.dump_dir, f"{program.name}.{suffix}"), "w", encoding="utf-8") as f:
                    f.write(text)
        timing, check = programs.run(prep, args.dtype, args.warmup, args.samples)
        first_timing = first_timing or timing
        checks.append(check)
        entries.append({
            "name": program.name,
            "what": program.what,
            "inputShapes": [list(s) for s in program.shapes(sizes)],
            "stablehlo": stablehlo,
            "hlo": hlo,
            "stablehloDots": [{k: v for k, v in d.items() if k != "text"} for d in shlo_dots],
            "hloDots": hlo_dots,
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
