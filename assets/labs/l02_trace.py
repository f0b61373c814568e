#!/usr/bin/env python3
"""Lab L02 - trace it: jaxprs of five programs, primitives counted.

Traces the five programs in common/programs.py (mlp, softmax, layernorm,
attention, projection_t) with jax.make_jaxpr, prints each jaxpr, and counts its
primitives: at the top level, and including the sub-jaxprs (jit,
custom_jvp_call, ...) they call. (A nested jit prints as jit from JAX 0.7.0
on, whose release notes rename pjit_p to jit_p; older JAX printed pjit.) Each program is also run, timed and checked
against a float64 numpy reference, so the record shows the traced program
computes what its math says.

    python3 l02_trace.py --out run-L02.json
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from common import programs

LAB = "L02"
GATE = None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    return programs.lab_args(LAB, __doc__, argv)


def _sub_jaxprs(value: Any) -> list[Any]:
    """Jaxprs held in an equation parameter (a Jaxpr, a ClosedJaxpr, or a
    list of them, as cond's branches are). Duck-typed: the classes moved
    between JAX versions."""
    if isinstance(value, (list, tuple)):
        return [j for v in value for j in _sub_jaxprs(v)]
    if hasattr(value, "eqns"):
        return [value]
    inner = getattr(value, "jaxpr", None)
    if inner is not None and hasattr(inner, "eqns"):
        return [inner]
    return []


def count_primitives(jaxpr: Any, nested: bool) -> dict[str, int]:
    counts: dict[str, int] = {}
    for eqn in jaxpr.eqns:
        name = eqn.primitive.name
        counts[name] = counts.get(name, 0) + 1
        if nested:
            for value in eqn.params.values():
                for sub in _sub_jaxprs(value):
                    for k, v in count_primitives(sub, True).items():
                        counts[k] = counts.get(k, 0) + v
    return dict(sorted(counts.items()))


def describe(program: programs.Program, prep: programs.Prepared) -> dict[str, Any]:
    import jax  # noqa: PLC0415

    closed = jax.make_jaxpr(program.make(prep.sizes))(*prep.args)
    text = str(closed)
    top = count_primitives(closed.jaxpr, nested=False)
    print(f"{text}\n    primitives: {top}")
    return {
        "jaxpr": text,
        "eqnCount": len(closed.jaxpr.eqns),
        "primitives": top,
        "primitivesNested": count_primitives(closed.jaxpr, nested=True),
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return programs.run_lab(LAB, __file__, args, describe)


if __name__ == "__main__":
    sys.exit(main())
