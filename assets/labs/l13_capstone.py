#!/usr/bin/env python3
"""Lab L13 - capstone: ship it upstream (gate G5).

Measures the kernel you got merged into a public project, and records the
merged change's address and commit beside the measurement. Your kernel is
described by a small bench file (copy common/bench_example.py) that defines:

    NAME: str                          what the kernel is
    DTYPE: str                         "bf16", "f32", ...
    SHAPES: dict[str, int]             the run's named sizes
    TOLERANCE: tuple[float, float]     (abs, rel) for the check
    def setup(seed) -> (kernel, args, reference, baseline_or_None)
        kernel(*args) and baseline(*args) are jitted JAX functions;
        reference(*args) computes the same result in float32 or float64.

Gate G5 passes on a measured run, correct against the reference, carrying the
pull request's address and the merged commit. The script checks their form;
whether the change was merged is for you to show (and the app to check).

    python3 l13_capstone.py --bench my_bench.py \
        --upstream-url https://github.com/OWNER/REPO/pull/123 --upstream-commit <40 hex> --out run-L13.json
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import sys
from typing import Any

from common import labkit, record

LAB = "L13"
GATE = "G5"
URL_RE = re.compile(r"^https://github\.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/pull/[1-9][0-9]*$")
COMMIT_RE = re.compile(r"^[0-9a-f]{40}$")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0])
    p.add_argument("--bench", required=True, help="your bench file (see common/bench_example.py)")
    p.add_argument("--upstream-url", required=True, help="https://github.com/<owner>/<repo>/pull/<n>")
    p.add_argument("--upstream-commit", required=True, help="the merged commit, 40 lower-case hex digits")
    args = p.parse_args(argv)
    labkit.check_common(args)
    if not URL_RE.match(args.upstream_url):
        p.error("--upstream-url must look like https://github.com/<owner>/<repo>/pull/<n>")
    if not COMMIT_RE.match(args.upstream_commit):
        p.error("--upstream-commit must be the full 40-digit lower-case hex commit")
    return args


def load_bench(path: str) -> Any:
    spec = importlib.util.spec_from_file_location("lab_bench", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load bench file {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name in ("NAME", "DTYPE", "SHAPES", "TOLERANCE", "setup"):
        if not hasattr(module, name):
            raise SystemExit(f"bench file {path} does not define {name}")
    return module


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    labkit.start_jax()
    backend = labkit.preflight(args)
    import numpy as np  # noqa: PLC0415

    bench = load_bench(args.bench)
    kernel, fn_args, reference, baseline_fn = bench.setup(args.seed)
    abs_tol, rel_tol = bench.TOLERANCE
    out = np.asarray(kernel(*fn_args), dtype=np.float64)
    correctness = record.compare(out, np.asarray(reference(*fn_args), dtype=np.float64),
                                 reference_name=f"the bench's reference for {bench.NAME}",
                                 abs_tol=float(abs_tol), rel_tol=float(rel_tol))
    timing = labkit.timed(kernel, *fn_args, args=args)
    baseline = None
    if baseline_fn is not None:
        baseline = ("the bench's baseline", labkit.timed(baseline_fn, *fn_args, args=args).samples)
    extra = {
        "upstream": {"url": args.upstream_url, "commit": args.upstream_commit},
        "bench": {"name": str(bench.NAME), "file": os.path.basename(args.bench),
                  "sha256": record.sha256_of(args.bench)},
    }
    labkit.finish(lab=LAB, script=__file__, args=args, dtype=str(bench.DTYPE),
                  shapes={k: int(v) for k, v in bench.SHAPES.items()}, timing=timing, baseline=baseline,
                  correctness=correctness, extra=extra, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
