#!/usr/bin/env python3
"""Lab L18 - read the schedule: what runs between each start and its done.

Compiles a chain of --layers matmuls sharded the FSDP way over every device:
the activations x [B, D] split by rows, P("fsdp", None), and each layer's
weight [D, D] split by rows over all devices too. Inside the program each
weight is constrained to be whole just before its matmul (so XLA gathers it
there) and each layer's output back to rows: h = relu(h @ gather(W_l)).

The script reads the optimized, scheduled HLO (compiled.as_text()). For every
asynchronous pair, all-gather-start / all-gather-done, all-reduce-start /
-done, collective-permute-start / -done, copy-start / copy-done and
async-start / async-done, it lists the instructions scheduled between the
start and its done: how many, and which are fusions, dots, convolutions or
custom calls, the compute the transfer can hide under. A pair with none is
exposed. It also lists the collectives left synchronous (nothing can overlap
those), reads the module's is_scheduled flag and counts the instructions whose
layout puts them in memory space 1, S(1): VMEM on a TPU.

On a TPU the step is timed twice: as compiled with this process's flags, and
with the latency-hiding scheduler turned off,
LIBTPU_INIT_ARGS=--xla_tpu_enable_latency_hiding_scheduler=false (chapter 4's
flag table). libtpu reads LIBTPU_INIT_ARGS when the TPU backend starts, and
only one process may hold the TPU, so the second configuration runs first, in
a child process of this same script (--child, which writes its samples and
its own reading of the schedule to a temporary file); then this process opens
the TPU with the flags it was started with.

With --interpret the chain is compiled for --devices simulated CPU devices (8
by default) and only the schedule is read, with no timing: the CPU backend's
schedule, not the TPU's, which the record says (extra.scheduleFrom "cpu").
Both runs check the chain's output against the same chain on one device in
float32 at HIGHEST precision.

    python3 l18_schedule.py --out run-L18.json
    python3 l18_schedule.py --interpret --out run-L18-interpret.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from typing import Any

from common import irtext, labkit, record

try:  # JAX at module level; the course's tests import this file without it
    import jax
    import jax.numpy as jnp
except ImportError:
    jax = jnp = None  # type: ignore[assignment]

LAB = "L18"
GATE = None

# Chapter 4's flag table: the latency-hiding scheduler, off.
LHS_OFF = "--xla_tpu_enable_latency_hiding_scheduler=false"
TPU_DEFAULTS = {"batch": 16384, "d_model": 8192, "layers": 4}
INTERPRET_DEFAULTS = {"batch": 256, "d_model": 256, "layers": 3}
COLLECTIVES = ("all-gather", "reduce-scatter", "all-reduce", "all-to-all", "collective-permute")
COMPUTE_OPS = ("fusion", "dot", "convolution", "custom-call")
CPU_NOTE = ("read from the CPU backend's compiled module for simulated devices: XLA:CPU schedules with its own "
            "passes and cost model, so the pairs, their order and the memory spaces are not what a TPU compiles")
_SPACE_RE = re.compile(r"S\((\d+)\)")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], samples=10)
    p.add_argument("--interpret", action="store_true",
                   help="compile for --devices simulated CPU devices and read the CPU's schedule: a "
                        "verified-off-chip record with no timing")
    p.add_argument("--devices", type=int, default=8,
                   help="simulated CPU devices with --interpret (default 8); on a TPU every device is used")
    p.add_argument("--batch", type=int, default=None,
                   help=f"rows of x (default {TPU_DEFAULTS['batch']}; {INTERPRET_DEFAULTS['batch']} with --interpret)")
    p.add_argument("--d-model", type=int, default=None,
                   help=f"D, each weight D x D (default {TPU_DEFAULTS['d_model']}; "
                        f"{INTERPRET_DEFAULTS['d_model']} with --interpret)")
    p.add_argument("--layers", type=int, default=None,
                   help=f"matmuls in the chain (default {TPU_DEFAULTS['layers']}; "
                        f"{INTERPRET_DEFAULTS['layers']} with --interpret)")
    p.add_argument("--dtype", choices=["bf16", "f32"], default="bf16")
    # The second configuration's run (set by the script itself, not by you): write to this file and stop.
    p.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    labkit.check_common(args)
    defaults = INTERPRET_DEFAULTS if args.interpret else TPU_DEFAULTS
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if min(args.batch, args.d_model, args.layers) < 1:
        p.error("--batch, --d-model and --layers must be positive")
    if args.interpret and args.devices < 2:
        p.error("--devices must be at least 2")
    if args.child and args.interpret:
        p.error("--child is for the TPU run's second configuration")
    return args


# ------------------------------------------------------------ reading the HLO


called = irtext.hlo_called


operand_names = irtext.hlo_operand_names


type_bytes = irtext.hlo_type_bytes




plain_type = irtext.hlo_plain_type


def memory_space(type_text: str) -> int:
    """The memory space of an array type's layout: S(n), or 0 (HBM) when there is none."""
    m = _SPACE_RE.search(type_text)
    return int(m.group(1)) if m else 0


def module_header(text: str) -> tuple[str | None, bool | None]:
    """(module name, is_scheduled) from the HloModule line."""
    first = text.split("\n", 1)[0]
    words = first.split()
    name = words[1].rstrip(",") if len(words) > 1 and words[0] == "HloModule" else None
    m = re.search(r"\bis_scheduled=(true|false)\b", first)
    return name, (m.group(1) == "true") if m else None


def _has_matmul(comp: str | None, by_name: dict[str, Any], seen: set[str] | None = None) -> bool:
    """Whether a fused computation holds a dot or a convolution (a nested fusion's included)."""
    seen = set() if seen is None else seen
    body = by_name.get(comp or "")
    if body is None or comp in seen:
        return False
    seen.add(comp)
    for b in body["instructions"]:
        if b["op"] in ("dot", "convolution"):
            return True
        if b["op"] == "fusion" and _has_matmul(called(b), by_name, seen):
            return True
    return False


def read_schedule(text: str) -> dict[str, Any]:
    """The schedule of an optimized HLO module: every start paired with its done and what
    runs between them, the collectives left synchronous, and the S(n) counts."""
    name, scheduled = module_header(text)
    comps = irtext.parse_hlo(text)
    by_name = {c["name"]: c for c in comps}
    fusion_bodies = {called(i) for c in comps for i in c["instructions"] if i["op"] == "fusion"}
    async_bodies = {called(i) for c in comps for i in c["instructions"] if i["op"].startswith("async-")}
    pairs: list[dict[str, Any]] = []
    sync: list[dict[str, Any]] = []
    spaces: dict[str, int] = {}
    for c in comps:
        if c["name"] in fusion_bodies or c["name"] in async_bodies:
            continue  # bodies run inside one instruction: the schedule is the calling computation's
        instructions = c["instructions"]
        for i, ins in enumerate(instructions):
            for space in sorted(set(_SPACE_RE.findall(ins["type"]))):
                spaces[space] = spaces.get(space, 0) + 1
            op = ins["op"]
            if op in COLLECTIVES:
                sync.append({"name": ins["name"], "op": op, "computation": c["name"], "position": i,
                             "resultType": plain_type(ins["type"]), "bytes": type_bytes(ins["type"])})
                continue
            if not op.endswith("-start"):
                continue
            done_op = op[: -len("-start")] + "-done"
            j = next((k for k in range(i + 1, len(instructions))
                      if instructions[k]["op"] == done_op and ins["name"] in operand_names(instructions[k])), None)
            kind = op[: -len("-start")]
            if op == "async-start":
                body = by_name.get(called(ins) or "")
                roots = [b for b in body["instructions"] if b["root"]] if body else []
                kind = roots[0]["op"] if roots else "async"
            between = instructions[i + 1:j] if j is not None else []
            ops: dict[str, int] = {}
            for b in between:
                ops[b["op"]] = ops.get(b["op"], 0) + 1
            compute = []
            for b in between:
                if b["op"] not in COMPUTE_OPS:
                    continue
                fusion_kind = re.search(r"kind=(k\w+)", b["attrs"]) if b["op"] == "fusion" else None
                compute.append({
                    "name": b["name"], "op": b["op"], "kind": fusion_kind.group(1) if fusion_kind else "",
                    "matmul": b["op"] in ("dot", "convolution")
                              or (b["op"] == "fusion" and _has_matmul(called(b), by_name)),
                })
            done = instructions[j] if j is not None else None
            result_type = done["type"] if done is not None else ins["type"]
            pairs.append({
                "start": ins["name"], "done": done["name"] if done is not None else None, "op": op, "kind": kind,
                "computation": c["name"], "startPosition": i, "donePosition": j,
                "resultType": plain_type(result_type), "bytes": type_bytes(result_type),
                "memorySpace": memory_space(result_type),
                "between": len(between), "betweenOps": ops, "compute": compute,
                "exposed": j is not None and not compute,
            })
    return {
        "module": name,
        "isScheduled": scheduled,
        "asyncPairs": pairs,
        "exposedPairs": sum(1 for p in pairs if p["exposed"]),
        "syncCollectives": sync,
        "s1Count": spaces.get("1", 0),
        "memorySpaceCounts": spaces,
    }


def describe(reading: dict[str, Any]) -> list[str]:
    lines = [f"module {reading['module']}, is_scheduled={reading['isScheduled']}, "
             f"{len(reading['asyncPairs'])} async pair(s), {reading['exposedPairs']} exposed, "
             f"{len(reading['syncCollectives'])} synchronous collective(s), {reading['s1Count']} value(s) in S(1)"]
    for p in reading["asyncPairs"]:
        hidden = ", ".join(f"{c['name']}{' (matmul)' if c['matmul'] else ''}" for c in p["compute"]) or "nothing"
        lines.append(f"  {p['start']} -> {p['done']}: {p['kind']} {p['resultType']}, "
                     f"{p['between']} op(s) between, compute: {hidden}")
    for s in reading["syncCollectives"]:
        lines.append(f"  {s['name']}: synchronous {s['op']} {s['resultType']} at position {s['position']}")
    return lines


# ------------------------------------------------------------------ the chain


def make_chain(mesh: Any) -> Any:
    """x, ws -> the chain, each weight gathered whole just before its matmul (the FSDP way)
    and each output put back to rows."""
    P = jax.sharding.PartitionSpec
    whole = jax.sharding.NamedSharding(mesh, P())
    rows = jax.sharding.NamedSharding(mesh, P("fsdp", None))

    def fsdp_chain(x: Any, ws: Any) -> Any:
        h = x
        for w in ws:
            w = jax.lax.with_sharding_constraint(w, whole)
            h = jax.lax.with_sharding_constraint(jax.nn.relu(jnp.dot(h, w)), rows)
        return h

    return fsdp_chain


def reference_chain(x: Any, ws: Any) -> Any:
    h = x
    for w in ws:
        h = jax.nn.relu(jnp.dot(h, w, precision=jax.lax.Precision.HIGHEST))
    return h


def run_config(args: argparse.Namespace, *, label: str, timed: bool) -> dict[str, Any]:
    """Builds, compiles and reads the chain, checks it and (on a TPU) times it."""
    import numpy as np  # noqa: PLC0415

    n = jax.device_count()
    B, D, L = args.batch, args.d_model, args.layers
    if B % n or D % n:
        raise SystemExit(f"stopping before the run: --batch ({B}) and --d-model ({D}) must be multiples of the "
                         f"{n} devices, so rows and weights split evenly")
    P = jax.sharding.PartitionSpec
    mesh = labkit.make_mesh_1d(n, "fsdp")  # Auto axis type, whatever make_mesh's default
    rows = jax.sharding.NamedSharding(mesh, P("fsdp", None))
    host_x, x = labkit.random_normal(args.seed, (B, D), args.dtype)
    host_ws, ws = [], []
    for layer in range(L):  # He scaling keeps relu's outputs O(1) layer after layer
        h, w = labkit.random_normal(args.seed + 1 + layer, (D, D), args.dtype, scale=(2.0 / D) ** 0.5)
        host_ws.append(h)
        ws.append(w)
    device = jax.devices()[0]
    want = np.asarray(jax.jit(reference_chain)(
        jax.device_put(host_x, device), [jax.device_put(h, device) for h in host_ws]))
    del host_x, host_ws

    chain = jax.jit(make_chain(mesh), in_shardings=(rows, tuple(rows for _ in range(L))), out_shardings=rows)
    inputs = (jax.device_put(x, rows), tuple(jax.device_put(w, rows) for w in ws))
    hlo = chain.lower(*inputs).compile().as_text()
    reading = read_schedule(hlo)
    got = np.asarray(chain(*inputs).astype(jnp.float32))
    rms = float(np.sqrt(np.mean(np.square(want.astype(np.float64)))))
    # L14's allowance for bf16 roundings, 2^-4 of the reference's RMS absolute and 2^-6 relative;
    # f32 the same, since XLA's default precision on a TPU may round f32 operands to bf16.
    check = record.compare(got, want, reference_name="the chain in float32 at HIGHEST precision on one device",
                           abs_tol=2.0 ** -4 * rms, rel_tol=2.0 ** -6)
    timing = labkit.timed(chain, *inputs, args=args, name=label) if timed else None
    return {"hlo": hlo, "reading": reading, "check": check, "timing": timing}


def child_argv(args: argparse.Namespace, path: str) -> list[str]:
    return ["--batch", str(args.batch), "--d-model", str(args.d_model), "--layers", str(args.layers),
            "--dtype", args.dtype, "--samples", str(args.samples), "--warmup", str(args.warmup),
            "--calls-per-sample", str(args.calls_per_sample), "--seed", str(args.seed), "--child", path]


def run_without_lhs(args: argparse.Namespace) -> dict[str, Any]:
    """The second configuration, in a child process whose libtpu starts with the
    latency-hiding scheduler off. Runs before this process opens the TPU."""
    env = dict(os.environ)
    flags = (env.get("LIBTPU_INIT_ARGS", "") + " " + LHS_OFF).strip()
    env["LIBTPU_INIT_ARGS"] = flags
    print(f"--- first, in a child process: LIBTPU_INIT_ARGS={flags!r}", flush=True)
    with tempfile.TemporaryDirectory(prefix="l18-") as tmp:
        path = os.path.join(tmp, "scheduler-off.json")
        done = subprocess.run([sys.executable, os.path.abspath(__file__), *child_argv(args, path)],
                              env=env, check=False)
        if done.returncode != 0 or not os.path.isfile(path):
            raise SystemExit(f"the run with the latency-hiding scheduler off stopped (exit {done.returncode}); "
                             "its message is above. No record was written.")
        with open(path, encoding="utf-8") as f:
            result = json.load(f)
    result["libtpuInitArgs"] = flags
    return result


def child_main(args: argparse.Namespace) -> int:
    labkit.start_jax()
    labkit.preflight(args, min_devices=2)
    out = run_config(args, label="scheduler off", timed=True)
    for line in describe(out["reading"]):
        print(line)
    record.write_json_atomic({**out["reading"], "hlo": out["hlo"], "method": out["timing"].method,
                              "warmup": out["timing"].warmup, "samples": out["timing"].samples,
                              "correctness": out["check"].to_json()}, args.child)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        return child_main(args)
    labkit.start_jax(interpret=args.interpret, cpu_devices=args.devices)
    defaults_flags = os.environ.get("LIBTPU_INIT_ARGS", "")
    if not args.interpret and "latency_hiding_scheduler" in defaults_flags:
        print(f"note: LIBTPU_INIT_ARGS already sets the scheduler ({defaults_flags!r}): the first configuration "
              "is not libtpu's default", file=sys.stderr)
    # Only one process may hold the TPU: the child runs and exits before this one opens it.
    off = None if args.interpret else run_without_lhs(args)
    backend = labkit.preflight(args, min_devices=2)

    print(f"--- {'as compiled for the CPU' if args.interpret else 'with the flags this process started with'}")
    out = run_config(args, label="step, scheduler as configured", timed=not args.interpret)
    for line in describe(out["reading"]):
        print(line)
    extra: dict[str, Any] = {
        "scheduleFrom": "cpu" if args.interpret else "tpu",
        **out["reading"],
        "weightSpec": 'P("fsdp", None)',
        "activationSpec": 'P("fsdp", None)',
        "hlo": out["hlo"],
    }
    checks = [out["check"]]
    if args.interpret:
        extra["scheduleNote"] = CPU_NOTE
    else:
        extra["libtpuInitArgs"] = defaults_flags
        extra["latencyHidingOff"] = off
        checks.append(record.Correctness(off["correctness"]["reference"], off["correctness"]["maxAbsError"],
                                         off["correctness"]["maxRelError"], off["correctness"]["tolerance"]["abs"],
                                         off["correctness"]["tolerance"]["rel"], off["correctness"]["passed"]))
        extra["ratioOffToDefault"] = labkit.median(off["samples"]) / out["timing"].median()
        print(f"median with the scheduler off / as configured: {extra['ratioOffToDefault']:.3f}")
    correctness = record.combine(checks, "the chain in float32 at HIGHEST precision on one device"
                                 + ("" if args.interpret else ", under both configurations"))
    labkit.finish(lab=LAB, script=__file__, args=args, dtype=args.dtype,
                  shapes={"batch": args.batch, "d_model": args.d_model, "layers": args.layers,
                          "devices": jax.device_count()},
                  timing=out["timing"], baseline=None, correctness=correctness, extra=extra, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
