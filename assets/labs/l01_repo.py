#!/usr/bin/env python3
"""Lab L01 - the repo: set up, check the environment, first measured matmul.

Checks that JAX sees a TPU the course knows, lists the devices, then times one
bf16 matmul (m x k x n, 4096^3 by default) and checks it against a float32
reference. The record it writes is your first measured point: import it in
the app and the bench shows it beside the simulator's prediction.

    python3 l01_repo.py --out run-L01.json
"""

from __future__ import annotations

import argparse
import platform
import sys
from typing import Any

from common import labkit

LAB = "L01"
GATE = None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0])
    p.add_argument("--m", type=int, default=4096)
    p.add_argument("--k", type=int, default=4096)
    p.add_argument("--n", type=int, default=4096)
    p.add_argument("--dtype", choices=["bf16", "f32"], default="bf16")
    args = p.parse_args(argv)
    labkit.check_common(args)
    return args


def environment_checks(jax: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int | None]:
    """What the lab page lists: each check with ok and detail, the devices,
    and the first device's memory limit where the runtime reports it."""
    devices = jax.devices()
    listed = []
    for d in devices:
        entry: dict[str, Any] = {"id": int(d.id), "kind": d.device_kind, "platform": d.platform}
        coords = getattr(d, "coords", None)
        if coords is not None:
            entry["coords"] = [int(c) for c in coords]
        core = getattr(d, "core_on_chip", None)
        if core is not None:
            entry["coreOnChip"] = int(core)
        listed.append(entry)
    limit = None
    try:
        stats = devices[0].memory_stats() or {}
        limit = int(stats["bytes_limit"]) if "bytes_limit" in stats else None
    except Exception:  # noqa: BLE001 - not every runtime reports memory stats
        limit = None
    kinds = sorted({d.device_kind for d in devices})
    python_min = labkit.supported().get("python", {}).get("min", "3.11")
    checks = [
        # The supported range's Python (labs.json): 3.11 from JAX 0.7.0 on, per its release notes.
        {"name": f"python >= {python_min}", "ok": labkit.python_problem() is None,
         "detail": platform.python_version()},
        {"name": "jax in the supported range", "ok": labkit.jax_problem(jax.__version__) is None,
         "detail": jax.__version__},
        {"name": "platform is tpu", "ok": devices[0].platform == "tpu", "detail": devices[0].platform},
        {"name": "one device kind", "ok": len(kinds) == 1, "detail": ", ".join(kinds)},
        {"name": "process sees every device", "ok": jax.local_device_count() == jax.device_count(),
         "detail": f"{jax.local_device_count()} local of {jax.device_count()}"},
    ]
    return checks, listed, limit


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    labkit.start_jax()
    backend = labkit.preflight(args)
    import jax  # noqa: PLC0415

    checks, devices, hbm_limit = environment_checks(jax)
    for c in checks:
        print(f"  [{'ok' if c['ok'] else '!!'}] {c['name']}: {c['detail']}")

    _, a = labkit.random_normal(args.seed, (args.m, args.k), args.dtype)
    _, b = labkit.random_normal(args.seed + 1, (args.k, args.n), args.dtype, scale=args.k ** -0.5)
    matmul = jax.jit(lambda x, y: x @ y)
    correctness = labkit.check_matmul(matmul(a, b), a, b, args.dtype)
    timing = labkit.timed(matmul, a, b, args=args)

    flops = 2 * args.m * args.k * args.n
    extra = {
        "python": platform.python_version(),
        "devices": devices,
        "hbmBytesLimit": hbm_limit,
        "checks": checks,
        "flops": flops,
        "achievedFlopsPerSecond": flops / timing.median(),
    }
    labkit.finish(lab=LAB, script=__file__, args=args, dtype=args.dtype,
                  shapes={"m": args.m, "k": args.k, "n": args.n},
                  timing=timing, baseline=None, correctness=correctness, extra=extra, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
