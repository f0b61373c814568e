"""The parts of the example run records that make_examples.py assembles:
timing samples and checks, the programs L02 to L04 trace and lower, L12's
HLO, and the strategies and schedules of L17 and L18, with values
plausible for a TPU v5e. Not measurements: every example says it is one."""

from __future__ import annotations

from typing import Any

from common import record


def samples(median_s: float, n: int = 10) -> list[float]:
    """Deterministic spread of +-1.5% around a median, like a quiet chip."""
    pattern = [0.0, 0.004, -0.003, 0.011, -0.006, 0.002, 0.015, -0.001, 0.007, -0.009]
    return [round(median_s * (1.0 + pattern[i % len(pattern)]), 9) for i in range(n)]


def timing(median_s: float, n: int = 10, calls: int = 1) -> record.Timing:
    method = ("time.perf_counter around one call then jax.block_until_ready" if calls == 1 else
              f"time.perf_counter around {calls} back-to-back calls then jax.block_until_ready on the last, "
              f"divided by {calls}")
    return record.Timing(method=method, warmup=3, samples=samples(median_s, n))


def check(reference: str, max_abs: float, max_rel: float, tol: float, passed: bool = True) -> record.Correctness:
    return record.Correctness(reference, max_abs, max_rel, tol, tol, passed)


MATMUL_REF = "float32 matmul at HIGHEST precision on the same inputs"
PROGRAM_REF = "each program in float64 numpy on the same inputs"
SIZES = {"t": 1024, "d": 1024, "f": 4096, "h": 8}

SOFTMAX_JAXPR = """{ lambda ; a:bf16[1024,1024]. let
    b:bf16[1024,1024] = jit[
      name=_softmax
      jaxpr={ lambda ; c:bf16[1024,1024]. let
          d:bf16[1024] = reduce_max[axes=(1,)] c
          e:bf16[1024,1] = broadcast_in_dim[broadcast_dimensions=(0,) shape=(1024, 1)] d
          f:bf16[1024,1024] = sub c e
          g:bf16[1024,1024] = exp f
          h:f32[1024,1024] = convert_element_type[new_dtype=float32 weak_type=False] g
          i:f32[1024] = reduce_sum[axes=(1,)] h
          j:bf16[1024] = convert_element_type[new_dtype=bfloat16 weak_type=False] i
          k:bf16[1024,1] = broadcast_in_dim[broadcast_dimensions=(0,) shape=(1024, 1)] j
          l:bf16[1024,1024] = div g k
        in (l,) }
    ] a
  in (b,) }"""

EXAMPLE_HLO = """HloModule jit_f, entry_computation_layout={(bf16[256,512]{1,0}, bf16[512,1024]{1,0})->bf16[256,1024]{1,0}}

%fused_computation (param_0.1: bf16[256,512], param_1.1: bf16[512,1024]) -> bf16[256,1024] {
  %param_0.1 = bf16[256,512]{1,0} parameter(0)
  %param_1.1 = bf16[512,1024]{1,0} parameter(1)
  %dot.1 = bf16[256,1024]{1,0} dot(bf16[256,512]{1,0} %param_0.1, bf16[512,1024]{1,0} %param_1.1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT %tanh.1 = bf16[256,1024]{1,0} tanh(bf16[256,1024]{1,0} %dot.1)
}

ENTRY %main.4 (Arg_0.1: bf16[256,512], Arg_1.2: bf16[512,1024]) -> bf16[256,1024] {
  %Arg_0.1 = bf16[256,512]{1,0} parameter(0)
  %Arg_1.2 = bf16[512,1024]{1,0} parameter(1)
  ROOT %fusion = bf16[256,1024]{1,0} fusion(bf16[256,512]{1,0} %Arg_0.1, bf16[512,1024]{1,0} %Arg_1.2), kind=kOutput, calls=%fused_computation
}
"""


def program_entries(kind: str) -> list[dict[str, Any]]:
    """Per-program extras for L02-L04 (abridged texts, plausible numbers)."""
    names = ["mlp", "softmax", "layernorm", "attention", "projection_t"]
    medians = [2.05e-4, 2.9e-5, 3.1e-5, 1.6e-4, 4.6e-5]
    if kind == "L04":
        names += ["elementwise_chain", "matmul_epilogue"]
        medians += [1.9e-5, 5.2e-5]
    out = []
    for name, med in zip(names, medians):
        e: dict[str, Any] = {"name": name, "samples": samples(med),
                             "correctness": check(f"{name} in float64 numpy on the same inputs",
                                                  1.2e-2, 9.0e-3, 3e-2).to_json()}
        if kind == "L02":
            e.update({"jaxpr": SOFTMAX_JAXPR if name == "softmax" else "(abridged in this example)",
                      "eqnCount": 1 if name == "softmax" else 3,
                      "primitives": {"jit": 1} if name == "softmax" else {"dot_general": 2},
                      "primitivesNested": ({"broadcast_in_dim": 2, "convert_element_type": 2, "div": 1, "exp": 1,
                                            "jit": 1, "reduce_max": 1, "reduce_sum": 1, "sub": 1}
                                           if name == "softmax" else {"dot_general": 2})})
        elif kind == "L03":
            e.update({"stablehlo": "(abridged in this example)", "hlo": "(abridged in this example)",
                      "stablehloDots": [], "hloDots": []})
        else:
            e.update({"hlo": "(abridged in this example)", "fusionCount": 1,
                      "fusions": [{"name": "fusion", "kind": "kLoop", "type": "bf16[1024,1024]",
                                   "computation": "main", "ops": {"add": 1}}],
                      "costAnalysis": {"flops": 1.0e6, "bytesAccessed": 4.2e6}})
        out.append(e)
    return out


def _bytes(shape: list[int], etype: str = "bf16") -> int:
    n = 1
    for d in shape:
        n *= d
    return n * {"bf16": 2, "f32": 4}[etype]


def _type(shape: list[int], etype: str = "bf16") -> str:
    return f"{etype}[{','.join(str(d) for d in shape)}]"


def l17_strategies(b: int, d: int, f: int, n: int, model: int, tpu: bool) -> list[dict[str, Any]]:
    """L17's per-strategy extras for an example: the collectives the chapter's table
    expects, in the form the script records them (async on a TPU, synchronous on the CPU)."""
    data = n // model
    every = f"[1,{n}]<=[{n}]"
    along_data = f"[{model},{data}]<=[{data},{model}]T(1,0)"
    along_model = f"[{data},{model}]<=[{n}]"
    loss = ("all-reduce", [], [], every, "f32")
    plans = {
        "dp": ((n, 1), ("P(\"data\", None)", "P()", "P()"), 2 * d * f,
               [("all-reduce", [d, f], [d, f], every, "bf16"), ("all-reduce", [f, d], [f, d], every, "bf16"), loss]),
        "fsdp": ((n, 1), ("P(\"data\", None)", "P(\"data\", None)", "P(None, \"data\")"), 2 * d * f // n,
                 [("all-gather", [d, f], [d // n, f], every, "bf16"), ("all-gather", [f, d], [f, d // n], every, "bf16"),
                  ("reduce-scatter", [f, d // n], [f, d], every, "bf16"),
                  ("reduce-scatter", [d // n, f], [d, f], every, "bf16"), loss]),
        "tp": ((1, n), ("P(None, \"model\")", "P(None, \"model\")", "P(\"model\", None)"), 2 * d * f // n,
               [("all-gather", [b, d], [b, d // n], every, "bf16"), ("reduce-scatter", [b, d // n], [b, d], every, "bf16"),
                ("all-gather", [b, d], [b, d // n], every, "bf16"), loss]),
        "fsdp_tp": ((data, model), ("P(\"data\", \"model\")", "P(\"data\", \"model\")", "P(\"model\", \"data\")"),
                    2 * d * f // n,
                    [("all-gather", [b // data, d], [b // data, d // model], along_model, "bf16"),
                     ("all-gather", [d, f // model], [d // data, f // model], along_data, "bf16"),
                     ("all-gather", [f // model, d], [f // model, d // data], along_data, "bf16"),
                     ("reduce-scatter", [b // data, d // model], [b // data, d], along_model, "bf16"),
                     ("all-gather", [b // data, d], [b // data, d // model], along_model, "bf16"),
                     ("reduce-scatter", [f // model, d // data], [f // model, d], along_data, "bf16"),
                     ("reduce-scatter", [d // data, f // model], [d, f // model], along_data, "bf16"), loss]),
    }
    medians = {"dp": 1.31e-2, "fsdp": 1.38e-2, "tp": 1.62e-2, "fsdp_tp": 1.46e-2}
    g_in_rms, g_out_rms = 0.6 * (d / f) ** 0.5 / b ** 0.5, 0.6 / b ** 0.5
    out = []
    for name, ((md, mm), (sx, si, so), weights, colls) in plans.items():
        entries = []
        for i, (kind, shape, operand, groups, etype) in enumerate(colls):
            start = kind + "-start" if kind != "reduce-scatter" else "async-start(reduce-scatter)"
            sync = not tpu or not shape  # the scalar loss is summed in one synchronous all-reduce here
            entries.append({
                "name": f"{kind}.{i + 1}" if sync else f"{kind}-start.{i + 1}",
                "op": kind if sync else start, "kind": kind, "async": not sync,
                "done": None if sync else f"{kind}-done.{i + 1}",
                "computation": "main.61_spmd", "inFusion": False,
                "resultType": _type(shape, etype), "shape": shape, "elementType": etype,
                "bytes": _bytes(shape, etype), "operandBytes": _bytes(operand, etype), "replicaGroups": groups})
        checks = {"loss": record.Correctness("the loss in float32 at HIGHEST precision on one device",
                                             2.0e-5, 1.1e-5, 0.0, 2.0 ** -6, True).to_json(),
                  "gradWIn": record.Correctness("gradWIn in float32 at HIGHEST precision on one device",
                                                0.021 * g_in_rms, 0.61, 2.0 ** -4 * g_in_rms, 2.0 ** -6, True).to_json(),
                  "gradWOut": record.Correctness("gradWOut in float32 at HIGHEST precision on one device",
                                                 0.019 * g_out_rms, 0.57, 2.0 ** -4 * g_out_rms, 2.0 ** -6,
                                                 True).to_json()}
        entry: dict[str, Any] = {
            "name": name, "mesh": {"data": md, "model": mm}, "specs": {"x": sx, "w_in": si, "w_out": so},
            "module": f"jit_train_step_{name}", "collectives": entries, "weightBytesPerDevice": 2 * weights,
            "correctness": record.Correctness("the loss and both gradients in float32 at HIGHEST precision on one "
                                              "device", 0.019 * g_out_rms, 0.61, 2.0 ** -4 * g_out_rms, 2.0 ** -6,
                                              True).to_json(),
            "checks": checks}
        if tpu:
            entry["samples"] = samples(medians[name])
        entry["hlo"] = "(abridged in this example)"
        out.append(entry)
    return out


def l18_pairs(d: int, layers: int, hidden: bool) -> list[dict[str, Any]]:
    """L18's async pairs for an example: one weight gather per layer, the first with nothing
    before it to hide under, the others behind the previous layer's matmul when hidden."""
    pairs = []
    position = 2
    for layer in range(layers):
        between = hidden and layer > 0
        compute = ([{"name": f"fusion.{layer}", "op": "fusion", "kind": "kOutput", "matmul": True}]
                   if between else [])
        pairs.append({
            "start": f"all-gather-start.{layer}", "done": f"all-gather-done.{layer}", "op": "all-gather-start",
            "kind": "all-gather", "computation": "main.23_spmd", "startPosition": position,
            "donePosition": position + 1 + len(compute), "resultType": _type([d, d]), "bytes": _bytes([d, d]),
            "memorySpace": 0, "between": len(compute), "betweenOps": {"fusion": 1} if between else {},
            "compute": compute, "exposed": not between})
        position += 3 + len(compute)
    return pairs
