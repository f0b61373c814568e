#!/usr/bin/env python3
"""Lab L17 - shard a layer: one training step under DP, FSDP, TP and FSDP with TP.

One transformer MLP block, x [B, D] @ W_in [D, F], GELU (or ReLU), @ W_out
[F, D], with a squared-error loss against a target y, jax.value_and_grad and a
plain SGD update, is trained for one step on every device of the VM under four
shardings, each on a two-axis mesh ("data", "model") built with jax.make_mesh
and Auto axes:

  dp       mesh (N, 1)  x, y P("data", None)   W_in P()                W_out P()
  fsdp     mesh (N, 1)  x, y P("data", None)   W_in P("data", None)    W_out P(None, "data")
  tp       mesh (1, N)  x, y P(None, "model")  W_in P(None, "model")   W_out P("model", None)
  fsdp_tp  mesh (N/M, M) x, y P("data", "model") W_in P("data", "model") W_out P("model", "data")

The first three rows are chapter 9's table; the last is the scaling book's
mixed FSDP and tensor parallelism (M is --model-axis). The shardings go to
jax.jit as in_shardings and out_shardings and nothing else is constrained, so
the collectives are the ones XLA chose. For each strategy the script reads
them from the optimized HLO (compiled.as_text()): every all-gather,
reduce-scatter, all-reduce, all-to-all and collective-permute, synchronous or
split into -start and -done, with its result type, replica groups and bytes.
It counts the weight bytes each device holds (the arrays' addressable shards),
checks the step's loss and gradients against the same step on one device in
float32 at HIGHEST precision, and on a TPU times the whole step.

The step returns the loss, the updated weights and the gradients it applied:
in bf16 an SGD update is smaller than the rounding of the weights it changes,
so the check reads the gradients themselves.

With --interpret the same program runs on --devices simulated CPU devices (8
by default, set before JAX creates its CPU backend): the collectives and the
check, a verified-off-chip record with no timing. The CPU's HLO is partitioned
the same way, but its layouts and its async forms are not the TPU's.

    python3 l17_shard_layer.py --out run-L17.json
    python3 l17_shard_layer.py --interpret --out run-L17-interpret.json
    python3 l17_shard_layer.py --strategies fsdp,tp --profile profile-L17 --out run-L17-fsdp-tp.json
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
from typing import Any

from common import irtext, labkit, record

try:  # JAX at module level; the course's tests import this file without it
    import jax
    import jax.numpy as jnp
except ImportError:
    jax = jnp = None  # type: ignore[assignment]

LAB = "L17"
GATE = None

STRATEGIES = ("dp", "fsdp", "tp", "fsdp_tp")
# Each strategy's PartitionSpec entries for x (and y), W_in and W_out.
SPECS: dict[str, tuple[tuple[str | None, ...], ...]] = {
    "dp": (("data", None), (), ()),
    "fsdp": (("data", None), ("data", None), (None, "data")),
    "tp": ((None, "model"), (None, "model"), ("model", None)),
    "fsdp_tp": (("data", "model"), ("data", "model"), ("model", "data")),
}
TPU_DEFAULTS = {"batch": 16384, "d_model": 4096, "d_ff": 16384}
INTERPRET_DEFAULTS = {"batch": 256, "d_model": 256, "d_ff": 1024}

# The five collectives and the async forms they take in an optimized dump.
COLLECTIVES = ("all-gather", "reduce-scatter", "all-reduce", "all-to-all", "collective-permute")
# Bytes per element of HLO's element types (s4/u4 pack two to a byte).
_ARRAY_RE = re.compile(r"\b([a-z]+[0-9]*[a-z0-9]*)\[([0-9,]*)\]")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], samples=10)
    p.add_argument("--interpret", action="store_true",
                   help="run on --devices simulated CPU devices: a verified-off-chip record of the collectives "
                        "and the check, with no timing")
    p.add_argument("--devices", type=int, default=8,
                   help="simulated CPU devices with --interpret (default 8); on a TPU every device is used")
    p.add_argument("--batch", type=int, default=None,
                   help=f"rows of x (default {TPU_DEFAULTS['batch']}; {INTERPRET_DEFAULTS['batch']} with --interpret)")
    p.add_argument("--d-model", type=int, default=None,
                   help=f"D (default {TPU_DEFAULTS['d_model']}; {INTERPRET_DEFAULTS['d_model']} with --interpret)")
    p.add_argument("--d-ff", type=int, default=None,
                   help=f"F (default {TPU_DEFAULTS['d_ff']}; {INTERPRET_DEFAULTS['d_ff']} with --interpret)")
    p.add_argument("--dtype", choices=["bf16", "f32"], default="bf16", help="x, y and the weights (default bf16)")
    p.add_argument("--strategies", default=",".join(STRATEGIES),
                   help=f"comma-separated, in the order run (default {','.join(STRATEGIES)}); the first one's "
                        "timing is the record's")
    p.add_argument("--model-axis", type=int, default=2,
                   help="size of the model axis for fsdp_tp; the data axis takes the other devices (default 2)")
    p.add_argument("--activation", choices=["gelu", "relu"], default="gelu")
    p.add_argument("--lr", type=float, default=0.1, help="SGD learning rate (default 0.1)")
    args = p.parse_args(argv)
    labkit.check_common(args)
    defaults = INTERPRET_DEFAULTS if args.interpret else TPU_DEFAULTS
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if min(args.batch, args.d_model, args.d_ff) < 1:
        p.error("--batch, --d-model and --d-ff must be positive")
    names = [s.strip() for s in args.strategies.split(",") if s.strip()]
    unknown = [s for s in names if s not in SPECS]
    if unknown or not names:
        p.error(f"--strategies takes a comma-separated list of {', '.join(STRATEGIES)}, not {args.strategies!r}")
    args.strategies = list(dict.fromkeys(names))
    if args.model_axis < 1:
        p.error("--model-axis must be at least 1")
    if args.interpret and args.devices < 2:
        p.error("--devices must be at least 2")
    return args


# ------------------------------------------------------------------ meshes


def mesh_shape(strategy: str, devices: int, model_axis: int) -> tuple[int, int]:
    """(data, model) axis sizes of a strategy's mesh."""
    if strategy in ("dp", "fsdp"):
        return devices, 1
    if strategy == "tp":
        return 1, devices
    return devices // model_axis, model_axis


def spec_text(spec: tuple[str | None, ...]) -> str:
    """('data', None) -> 'P("data", None)', as chapter 9 writes it."""
    return "P(" + ", ".join("None" if a is None else f'"{a}"' for a in spec) + ")"


def split_problems(strategy: str, devices: int, model_axis: int, batch: int, d: int, f: int) -> list[str]:
    """Why a strategy's arrays cannot be split evenly on this many devices (empty if they can)."""
    if strategy == "fsdp_tp" and devices % model_axis:
        return [f"fsdp_tp: --model-axis {model_axis} does not divide the {devices} devices"]
    data, model = mesh_shape(strategy, devices, model_axis)
    size = {"data": data, "model": model, None: 1}
    x, w_in, w_out = SPECS[strategy]
    out = []
    for name, shape, spec in (("x and y", (batch, d), x), ("W_in", (d, f), w_in), ("W_out", (f, d), w_out)):
        axes = tuple(spec) + (None,) * (len(shape) - len(spec))
        for dim, (length, axis) in enumerate(zip(shape, axes)):
            if length % size[axis]:
                out.append(f"{strategy}: dimension {dim} of {name} ({length}) does not split over "
                           f"the {axis} axis ({size[axis]} devices)")
    return out


# ------------------------------------------------------------ reading the HLO


def _arrays(type_text: str) -> list[tuple[str, list[int]]]:
    """Every array type in an HLO type ('(bf16[2,4]{1,0}, f32[])' -> [('bf16', [2, 4]), ('f32', [])])."""
    out = []
    for etype, dims in _ARRAY_RE.findall(type_text):
        out.append((etype, [int(t) for t in dims.split(",") if t]))
    return out


type_bytes = irtext.hlo_type_bytes


plain_type = irtext.hlo_plain_type


def attr_value(attrs: str, key: str) -> str | None:
    """The text of one attribute (``replica_groups=[2,4]<=[8]``, ``{{0,1},{2,3}}``), up to the
    next comma outside brackets; None when the attribute is absent."""
    m = re.search(r"(?:^|[\s,])" + re.escape(key) + r"=", attrs)
    if not m:
        return None
    start = k = m.end()
    depth = 0
    while k < len(attrs):
        ch = attrs[k]
        if ch in "{[(":
            depth += 1
        elif ch in "}])":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            break
        k += 1
    return attrs[start:k].strip()


operand_names = irtext.hlo_operand_names


def collective_kind(op: str) -> str | None:
    """'all-gather-start' -> 'all-gather'; None for an op that is not one of the five."""
    for suffix in ("-start", "-done"):
        if op.endswith(suffix):
            op = op[: -len(suffix)]
            break
    return op if op in COLLECTIVES else None


called = irtext.hlo_called


def hlo_collectives(text: str) -> list[dict[str, Any]]:
    """Every collective in an optimized HLO module, counted once: a synchronous op, or a
    -start (or an async-start wrapping one) whose result is read from its -done. Collectives
    inside fusion bodies are listed with inFusion true."""
    comps = irtext.parse_hlo(text)
    by_name = {c["name"]: c for c in comps}
    async_bodies = {called(i) for c in comps for i in c["instructions"] if i["op"].startswith("async-")}
    fusion_bodies = {called(i) for c in comps for i in c["instructions"] if i["op"] == "fusion"}
    out: list[dict[str, Any]] = []
    for c in comps:
        if c["name"] in async_bodies:
            continue  # read through the async-start that calls it
        instructions = c["instructions"]
        for i, ins in enumerate(instructions):
            op = ins["op"]
            wrapped = ins
            if op == "async-start":
                body = by_name.get(called(ins) or "")
                roots = [b for b in body["instructions"] if b["root"]] if body else []
                wrapped = roots[0] if roots else (body["instructions"][-1] if body and body["instructions"] else None)
                if wrapped is None or collective_kind(wrapped["op"]) is None:
                    continue
                kind, is_async, done_op = collective_kind(wrapped["op"]), True, "async-done"
            else:
                kind = collective_kind(op)
                if kind is None or op.endswith("-done"):
                    continue
                is_async = op.endswith("-start")
                done_op = kind + "-done" if is_async else None
            result_type = ins["type"]
            done = None
            if done_op is not None:
                done = next((d for d in instructions[i + 1:]
                             if d["op"] == done_op and ins["name"] in operand_names(d)), None)
                if done is not None:
                    result_type = done["type"]
            arrays = _arrays(result_type)
            operand_types = [o.rsplit(" ", 1)[0] for o in ins["operands"] if " " in o.strip()]
            entry: dict[str, Any] = {
                "name": ins["name"],
                "op": op if op != "async-start" else f"async-start({wrapped['op']})",
                "kind": kind,
                "async": is_async,
                "done": done["name"] if done is not None else None,
                "computation": c["name"],
                "inFusion": c["name"] in fusion_bodies,
                "resultType": plain_type(result_type),
                "shape": arrays[0][1] if arrays else None,
                "elementType": arrays[0][0] if arrays else None,
                "bytes": type_bytes(result_type),
                "operandBytes": sum(type_bytes(t) for t in operand_types) if operand_types else None,
                "replicaGroups": attr_value(wrapped["attrs"], "replica_groups"),
            }
            if kind == "collective-permute":
                entry["sourceTargetPairs"] = attr_value(wrapped["attrs"], "source_target_pairs")
            out.append(entry)
    return out


def module_name(text: str) -> str | None:
    first = text.split("\n", 1)[0].split()
    return first[1].rstrip(",") if len(first) > 1 and first[0] == "HloModule" else None


# ------------------------------------------------------------------ the step


def loss_fn(x: Any, y: Any, w_in: Any, w_out: Any, *, activation: str, precision: Any = None) -> Any:
    """0.5 * sum((mlp(x) - y)^2) / batch, the difference squared and summed in float32."""
    act = jax.nn.gelu if activation == "gelu" else jax.nn.relu
    h = act(jnp.dot(x, w_in, precision=precision))
    err = (jnp.dot(h, w_out, precision=precision) - y).astype(jnp.float32)
    return 0.5 * jnp.sum(err * err) / x.shape[0]


def make_step(name: str, activation: str, lr: float) -> Any:
    """One SGD step, named train_step_<strategy> so that jax.jit names its program (and a
    profile its runs) after the strategy."""
    grads = jax.value_and_grad(functools.partial(loss_fn, activation=activation), argnums=(2, 3))

    def step(x: Any, y: Any, w_in: Any, w_out: Any) -> Any:
        loss, (g_in, g_out) = grads(x, y, w_in, w_out)
        return loss, (w_in - lr * g_in, w_out - lr * g_out), (g_in, g_out)

    step.__name__ = step.__qualname__ = f"train_step_{name}"
    return step


def reference(host: list[Any], activation: str) -> tuple[float, Any, Any]:
    """The same loss and gradients on one device, float32 at HIGHEST precision, from the
    rounded inputs: (loss, dW_in, dW_out) on the host."""
    import numpy as np  # noqa: PLC0415

    device = jax.devices()[0]
    inputs = [jax.device_put(np.asarray(a, dtype=np.float32), device) for a in host]
    fn = jax.jit(jax.value_and_grad(
        functools.partial(loss_fn, activation=activation, precision=jax.lax.Precision.HIGHEST), argnums=(2, 3)))
    loss, (g_in, g_out) = fn(*inputs)
    return float(loss), np.asarray(g_in), np.asarray(g_out)


def tolerance(rms: float) -> tuple[float, float]:
    """(abs, rel) for a gradient against the float32 reference: L14's allowance for bf16
    (2^-4 of the reference's RMS absolute, 2^-6 relative). f32 gets the same: on a TPU,
    XLA's default matmul precision may round f32 operands to bf16."""
    return 2.0 ** -4 * rms, 2.0 ** -6


def weight_bytes_per_device(*arrays: Any) -> int:
    """The most bytes of these arrays any one device holds, from their addressable shards."""
    per: dict[int, int] = {}
    for a in arrays:
        for shard in a.addressable_shards:
            per[shard.device.id] = per.get(shard.device.id, 0) + shard.data.size * shard.data.dtype.itemsize
    return max(per.values())


def describe(collectives: list[dict[str, Any]]) -> str:
    if not collectives:
        return "no collectives"
    parts = []
    for c in collectives:
        where = " (in a fusion)" if c["inFusion"] else ""
        parts.append(f"{c['op']} {c['resultType']} {c['bytes'] / 2**20:.1f} MiB groups {c['replicaGroups']}{where}")
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    labkit.start_jax(interpret=args.interpret, cpu_devices=args.devices)
    backend = labkit.preflight(args, min_devices=2)
    import numpy as np  # noqa: PLC0415

    n = jax.device_count()
    B, D, F = args.batch, args.d_model, args.d_ff
    problems = [p for s in args.strategies for p in split_problems(s, n, args.model_axis, B, D, F)]
    if problems:
        raise SystemExit("stopping before the run: " + "; ".join(problems))

    host_x, x = labkit.random_normal(args.seed, (B, D), args.dtype)
    host_y, y = labkit.random_normal(args.seed + 1, (B, D), args.dtype)
    host_wi, w_in = labkit.random_normal(args.seed + 2, (D, F), args.dtype, scale=D ** -0.5)
    host_wo, w_out = labkit.random_normal(args.seed + 3, (F, D), args.dtype, scale=F ** -0.5)
    ref_loss, ref_gi, ref_go = reference([host_x, host_y, host_wi, host_wo], args.activation)
    del host_x, host_y, host_wi, host_wo

    P = jax.sharding.PartitionSpec
    entries: list[dict[str, Any]] = []
    checks: list[record.Correctness] = []
    first_timing: record.Timing | None = None
    for name in args.strategies:
        data, model = mesh_shape(name, n, args.model_axis)
        mesh = jax.make_mesh((data, model), ("data", "model"),
                             axis_types=(jax.sharding.AxisType.Auto, jax.sharding.AxisType.Auto))
        x_spec, wi_spec, wo_spec = SPECS[name]
        s_x, s_wi, s_wo, s_rep = (jax.sharding.NamedSharding(mesh, P(*spec)) for spec in (x_spec, wi_spec, wo_spec, ()))
        step = jax.jit(make_step(name, args.activation, args.lr),
                       in_shardings=(s_x, s_x, s_wi, s_wo),
                       out_shardings=(s_rep, (s_wi, s_wo), (s_wi, s_wo)))
        inputs = (jax.device_put(x, s_x), jax.device_put(y, s_x), jax.device_put(w_in, s_wi),
                  jax.device_put(w_out, s_wo))
        hlo = step.lower(*inputs).compile().as_text()
        collectives = hlo_collectives(hlo)

        loss, _, (g_in, g_out) = step(*inputs)
        got_gi, got_go = (np.asarray(g.astype(jnp.float32)) for g in (g_in, g_out))
        per_check = {"loss": record.compare(np.asarray(float(loss)), np.asarray(ref_loss),
                                            reference_name="the loss in float32 at HIGHEST precision on one device",
                                            abs_tol=0.0, rel_tol=2.0 ** -6)}
        for what, got, want in (("gradWIn", got_gi, ref_gi), ("gradWOut", got_go, ref_go)):
            rms = float(np.sqrt(np.mean(np.square(want.astype(np.float64)))))
            abs_tol, rel_tol = tolerance(rms)
            per_check[what] = record.compare(got, want, abs_tol=abs_tol, rel_tol=rel_tol,
                                             reference_name=f"{what} in float32 at HIGHEST precision on one device")
        check = record.combine(list(per_check.values()),
                               "the loss and both gradients in float32 at HIGHEST precision on one device")
        checks.append(check)
        entry: dict[str, Any] = {
            "name": name,
            "mesh": {"data": data, "model": model},
            "specs": {"x": spec_text(x_spec), "w_in": spec_text(wi_spec), "w_out": spec_text(wo_spec)},
            "module": module_name(hlo),
            "collectives": collectives,
            "weightBytesPerDevice": weight_bytes_per_device(inputs[2], inputs[3]),
            "correctness": check.to_json(),
            "checks": {k: c.to_json() for k, c in per_check.items()},
        }
        if not args.interpret:
            timing = labkit.timed(step, *inputs, args=args, name=f"train step {name}")
            first_timing = first_timing or timing
            entry["samples"] = timing.samples
        entry["hlo"] = hlo
        entries.append(entry)
        timed = f", median {labkit.median(entry['samples']) * 1e3:.2f} ms" if "samples" in entry else ""
        print(f"{name:8s} mesh {data}x{model}: {entry['weightBytesPerDevice'] / 2**20:.1f} MiB of weights per "
              f"device, {'correct' if check.passed else 'NOT correct'}{timed}")
        print(f"         {describe(collectives)}")
        del inputs, step

    extra: dict[str, Any] = {
        "strategies": entries,
        "activation": args.activation,
        "learningRate": args.lr,
        "weightBytes": 2 * D * F * (2 if args.dtype == "bf16" else 4),
    }
    labkit.finish(lab=LAB, script=__file__, args=args, dtype=args.dtype,
                  shapes={"batch": B, "d_model": D, "d_ff": F, "devices": n},
                  timing=first_timing, baseline=None,
                  correctness=record.combine(checks, "each strategy's loss and gradients against the same step on "
                                                     "one device in float32 at HIGHEST precision"),
                  extra=extra, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
