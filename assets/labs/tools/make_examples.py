#!/usr/bin/env python3
"""Writes assets/labs/examples/*.json: one example run record per lab, plus
verified-off-chip variants for the kernel labs, by running the real record
writer (common/record.py) with a fake backend. script.sha256 is therefore the
hash of the shipped script: run this again whenever a lab script changes
(tests/labs checks that the examples match).

Every example says it is one: host "example-host" and extra.example = true.
The values are plausible for a TPU v5e, not measurements; the app refuses to
count example records toward a gate.

    python3 assets/labs/tools/make_examples.py            # rewrite the examples
    python3 assets/labs/tools/make_examples.py --out DIR  # write them elsewhere
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

LABS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, LABS_DIR)

from common import record  # noqa: E402

# The parts the examples are built from, in a file of their own.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from example_parts import (  # noqa: E402
    samples,
    timing,
    check,
    MATMUL_REF,
    PROGRAM_REF,
    SIZES,
    SOFTMAX_JAXPR,
    EXAMPLE_HLO,
    program_entries,
    _bytes,
    _type,
    l17_strategies,
    l18_pairs,
)

JAX_VERSION = "0.8.1"
DATE = "2026-11-29T12:00:00Z"
HOST = "example-host"

TPU = record.Backend("tpu", "TPU v5 lite", 1, JAX_VERSION, JAX_VERSION)
TPU4 = record.Backend("tpu", "TPU v5 lite", 4, JAX_VERSION, JAX_VERSION)
CPU = record.Backend("cpu", "cpu", 1, JAX_VERSION, JAX_VERSION)
CPU4 = record.Backend("cpu", "cpu", 4, JAX_VERSION, JAX_VERSION)
TPU8 = record.Backend("tpu", "TPU v5 lite", 8, JAX_VERSION, JAX_VERSION)
CPU8 = record.Backend("cpu", "cpu", 8, JAX_VERSION, JAX_VERSION)

SCRIPTS = {
    "L01": "l01_repo.py", "L02": "l02_trace.py", "L03": "l03_lower.py", "L04": "l04_fusion_forensics.py",
    "L05": "l05_three_floors.py", "L06": "l06_first_kernel.py", "L07": "l07_tiled_matmul.py",
    "L08": "l08_layouts.py", "L09": "l09_streaming_attention.py", "L10": "l10_ring_all_gather.py",
    "L11": "l11_collective_matmul.py", "L12": "l12_narrate_dump.py", "L13": "l13_capstone.py",
    "L14": "l14_flash_backward.py", "L15": "l15_quantized_matmul.py", "L16": "l16_paged_decode.py",
    "L17": "l17_shard_layer.py", "L18": "l18_schedule.py", "L19": "l19_two_cores.py",
    "L20": "l20_masked_attention.py", "L21": "l21_grouped_matmul.py",
}


def examples() -> list[tuple[str, dict[str, Any]]]:
    """(file name, build_record arguments) for every example."""
    ex: list[tuple[str, dict[str, Any]]] = []

    def add(name: str, lab: str, backend: record.Backend, interpret: bool, **kw: Any) -> None:
        kw["extra"] = {**kw.get("extra", {}), "example": True}
        ex.append((name, {"lab": lab, "script_path": os.path.join(LABS_DIR, SCRIPTS[lab]), "backend": backend,
                          "interpret": interpret, "host": HOST, "date": DATE, **kw}))

    mm = {"m": 4096, "k": 4096, "n": 4096}
    add("L01.json", "L01", TPU, False, dtype="bf16", shapes=mm, timing=timing(7.62e-4), baseline=None,
        correctness=check(MATMUL_REF, 1.5e-2, 7.8e-3, 2e-2),
        extra={"python": "3.11.2", "devices": [{"id": 0, "kind": "TPU v5 lite", "platform": "tpu",
                                                "coords": [0, 0, 0], "coreOnChip": 0}],
               "hbmBytesLimit": 16_909_336_576,
               "checks": [{"name": "python >= 3.11", "ok": True, "detail": "3.11.2"},
                          {"name": "jax in the supported range", "ok": True, "detail": JAX_VERSION},
                          {"name": "platform is tpu", "ok": True, "detail": "tpu"}],
               "flops": 2 * 4096**3, "achievedFlopsPerSecond": 2 * 4096**3 / 7.62e-4})
    for lab in ("L02", "L03", "L04"):
        add(f"{lab}.json", lab, TPU, False, dtype="bf16", shapes=SIZES, timing=timing(2.05e-4), baseline=None,
            correctness=check(PROGRAM_REF, 1.2e-2, 9.0e-3, 3e-2), extra={"programs": program_entries(lab)})
    rows = [
        {"row": "matmul_nnn", "shapes": mm, "dtype": "bf16", "samples": samples(7.58e-4)},
        {"row": "matmul_skinny", "shapes": {"m": 8, "k": 4096, "n": 4096}, "dtype": "bf16",
         "samples": samples(4.62e-5)},
        {"row": "elementwise_add", "shapes": {"rows": 4096, "cols": 4096}, "dtype": "bf16",
         "samples": samples(1.41e-4)},
    ]
    add("L05.json", "L05", TPU, False, dtype="bf16", shapes={"n": 4096}, timing=timing(7.58e-4, calls=10),
        baseline=None, correctness=check("float32/float64 references of the three rows", 1.5e-2, 7.8e-3, 2e-2),
        extra={"rows": rows, "method": timing(1.0, calls=10).method})
    add_ref = "x + y in float64 numpy on the same inputs"
    add("L06.json", "L06", TPU, False, dtype="bf16", shapes={"rows": 4096, "cols": 4096},
        timing=timing(1.33e-4, calls=10), baseline=("XLA x + y (jax.jit)", samples(1.39e-4)),
        correctness=record.Correctness(add_ref, 7.6e-3, 3.9e-3, 1e-6, 2.0**-8, True),
        extra={"blocks": {"blockRows": 256, "blockCols": 2048}, "grid": [16, 2], "bytesMoved": 3 * 4096 * 4096 * 2,
               "achievedBytesPerSecond": 3 * 4096 * 4096 * 2 / 1.33e-4})
    add("L06-interpret.json", "L06", CPU, True, dtype="bf16", shapes={"rows": 512, "cols": 512}, timing=None,
        baseline=None, correctness=record.Correctness(add_ref, 7.8e-3, 3.9e-3, 1e-6, 2.0**-8, True),
        extra={"blocks": {"blockRows": 128, "blockCols": 256}, "grid": [4, 2], "bytesMoved": 3 * 512 * 512 * 2})
    add("L07.json", "L07", TPU, False, dtype="bf16", shapes=mm, timing=timing(7.49e-4, calls=10),
        baseline=("XLA jnp.dot (jax.jit)", samples(7.41e-4)), correctness=check(MATMUL_REF, 1.6e-2, 7.8e-3, 2e-2),
        extra={"blocks": {"bm": 512, "bk": 1024, "bn": 1024}, "grid": [8, 4, 4], "flops": 2 * 4096**3,
               "hbmBytes": 436207616, "vmemLimitBytes": None, "achievedFlopsPerSecond": 2 * 4096**3 / 7.49e-4,
               "ratioToBaseline": 7.49e-4 / 7.41e-4})
    add("L07-interpret.json", "L07", CPU, True, dtype="bf16", shapes={"m": 256, "k": 256, "n": 256},
        timing=None, baseline=None, correctness=check(MATMUL_REF, 1.1e-2, 6.2e-3, 2e-2),
        extra={"blocks": {"bm": 128, "bk": 128, "bn": 128}, "grid": [2, 2, 2], "flops": 2 * 256**3,
               "hbmBytes": 786432, "vmemLimitBytes": None})
    variants = [("aligned", [4096, 4096], [256, 2048], 9.4e-5), ("thin_rows", [4096, 4096], [8, 2048], 3.1e-4),
                ("narrow_lanes", [4096, 4096], [2048, 128], 2.2e-4), ("tiny", [4096, 4096], [8, 128], 5.6e-3),
                ("padded_minor", [2097152, 8], [4096, 8], 1.45e-3)]
    scale_ref = "2x + 1 in float64 numpy on the same input"
    add("L08.json", "L08", TPU, False, dtype="bf16", shapes={"rows": 4096, "cols": 4096},
        timing=timing(9.4e-5, calls=5), baseline=("XLA 2x + 1 (jax.jit)", samples(9.2e-5)),
        correctness=record.Correctness("2x + 1 in float64 numpy, every variant", 3.1e-2, 3.9e-3, 1e-6, 2.0**-8,
                                       True),
        extra={"variants": [{"name": n, "arrayShape": a, "blockShape": b,
                             "gridSteps": (a[0] // b[0]) * (a[1] // b[1]), "blockBytes": b[0] * b[1] * 2,
                             "paddedBlockBytes": (-(-b[0] // 16) * 16) * (-(-b[1] // 128) * 128) * 2,
                             "samples": samples(t),
                             "correctness": record.Correctness(scale_ref, 3.1e-2, 3.9e-3, 1e-6, 2.0**-8,
                                                               True).to_json()}
                            for n, a, b, t in variants]})
    att = {"batch": 1, "heads": 8, "seq": 4096, "head_dim": 128}
    att_ref = "attention in float32 at HIGHEST precision on the same inputs"
    # L09's tolerance: 2^-5 of the reference's RMS absolute (RMS about sqrt(e / seq) for unit normal
    # inputs: 0.0258 at seq 4096, 0.0729 at 512) and 2^-7 relative.
    att_tol = (2.0 ** -5 * 0.0258, 2.0 ** -7)
    add("L09.json", "L09", TPU, False, dtype="bf16", shapes=att, timing=timing(1.12e-3),
        baseline=("XLA naive attention: softmax(Q K^T / sqrt(d)) V with jnp", samples(2.31e-3)),
        correctness=record.Correctness(att_ref, 2.1e-4, 3.4e-2, *att_tol, True),
        extra={"blocks": {"block_q": 512, "block_k": 512}, "causal": False, "flops": 4 * 8 * 4096 * 4096 * 128,
               "baselineCorrectness": record.Correctness(att_ref, 2.0e-4, 3.1e-2, *att_tol, True).to_json(),
               "ratioToBaseline": 1.12e-3 / 2.31e-3})
    add("L09-interpret.json", "L09", CPU, True, dtype="bf16",
        shapes={"batch": 1, "heads": 2, "seq": 512, "head_dim": 128}, timing=None, baseline=None,
        correctness=record.Correctness(att_ref, 5.2e-4, 2.6e-2, 2.0 ** -5 * 0.0729, 2.0 ** -7, True),
        extra={"blocks": {"block_q": 128, "block_k": 256}, "causal": False, "flops": 4 * 2 * 512 * 512 * 128})
    ag_ref = "the input shards, on every device"
    add("L10.json", "L10", TPU4, False, dtype="bf16", shapes={"rows": 1024, "cols": 4096, "devices": 4},
        timing=timing(6.9e-4), baseline=("XLA lax.all_gather in shard_map", samples(6.4e-4)),
        correctness=record.Correctness(ag_ref, 0.0, 0.0, 0.0, 0.0, True),
        extra={"ringOrder": [0, 1, 3, 2], "bytesPerDeviceReceived": 3 * 1024 * 4096 * 2, "steps": 3,
               "bidirectional": False, "achievedBytesPerSecondPerDevice": 3 * 1024 * 4096 * 2 / 6.9e-4})
    add("L10-interpret.json", "L10", CPU4, True, dtype="bf16", shapes={"rows": 64, "cols": 256, "devices": 4},
        timing=None, baseline=None, correctness=record.Correctness(ag_ref, 0.0, 0.0, 0.0, 0.0, True),
        extra={"ringOrder": [0, 1, 2, 3], "bytesPerDeviceReceived": 3 * 64 * 256 * 2, "steps": 3,
               "bidirectional": False})
    cm = {"m": 4096, "k": 4096, "n": 32768, "m_per_device": 1024, "n_per_device": 8192}
    add("L11.json", "L11", TPU4, False, dtype="bf16", shapes=cm, timing=timing(1.58e-3),
        baseline=("XLA all_gather then jnp.dot in shard_map", samples(1.97e-3)),
        correctness=check(MATMUL_REF, 1.7e-2, 8.1e-3, 2e-2),
        extra={"blocks": {"bm": 512, "bk": 1024, "bn": 1024}, "ringOrder": [0, 1, 3, 2],
               "flopsPerDevice": 2 * 4096 * 4096 * 8192, "bytesSentPerDevice": 3 * 1024 * 4096 * 2,
               "computeOnlySamples": samples(1.46e-3),
               "computeOnlyCorrectness": check(MATMUL_REF, 1.7e-2, 8.1e-3, 2e-2).to_json(),
               "ratioToComputeOnly": 1.58e-3 / 1.46e-3})
    add("L11-interpret.json", "L11", CPU4, True, dtype="bf16",
        shapes={"m": 512, "k": 256, "n": 1024, "m_per_device": 128, "n_per_device": 256}, timing=None,
        baseline=None, correctness=check(MATMUL_REF, 1.2e-2, 6.6e-3, 2e-2),
        extra={"blocks": {"bm": 128, "bk": 128, "bn": 128}, "ringOrder": [0, 1, 2, 3],
               "flopsPerDevice": 2 * 512 * 256 * 256, "bytesSentPerDevice": 3 * 128 * 256 * 2})
    add("L12.json", "L12", TPU, False, dtype="bf16", shapes={"t": 256, "d": 512, "f": 1024},
        timing=timing(1.9e-5), baseline=None,
        correctness=check("the program in float64 numpy on the same inputs", 9.0e-3, 6.0e-3, 3e-2),
        extra={"seed": 12345, "program": "example", "hloText": EXAMPLE_HLO,
               "answers": {"fusionCount": 1, "dots": [{"outputShape": [256, 1024], "flops": 2 * 256 * 1024 * 512}]},
               "answeredAt": DATE})
    add("L13.json", "L13", TPU, False, dtype="bf16", shapes=mm, timing=timing(7.49e-4),
        baseline=("the bench's baseline", samples(7.41e-4)),
        correctness=check("the bench's reference for Pallas tiled matmul (lab L07), bf16 4096^3",
                          1.6e-2, 7.8e-3, 2e-2),
        extra={"upstream": {"url": "https://github.com/example-owner/example-repo/pull/1",
                            "commit": "0123456789abcdef0123456789abcdef01234567"},
               "bench": {"name": "Pallas tiled matmul (lab L07), bf16 4096^3", "file": "bench_example.py",
                         "sha256": record.sha256_of(os.path.join(LABS_DIR, "common", "bench_example.py"))}})
    grad_ref = "jax.vjp of float32 attention at HIGHEST precision, dQ, dK and dV"
    grads = {g: record.Correctness(f"{g} of float32 attention at HIGHEST precision", e, r, 2.0 ** -4 * rms, 2.0 ** -6,
                                   True).to_json()
             for g, e, r, rms in (("dq", 1.1e-4, 4.0e-2, 4.1e-3), ("dk", 1.0e-4, 3.8e-2, 4.1e-3),
                                  ("dv", 2.3e-4, 2.9e-2, 1.56e-2))}
    add("L14.json", "L14", TPU, False, dtype="bf16", shapes=att, timing=timing(5.1e-3),
        baseline=("XLA: jax.vjp of naive attention (softmax(Q K^T / sqrt(d)) V with jnp)", samples(6.2e-3)),
        correctness=record.Correctness(grad_ref, 2.3e-4, 4.0e-2, 2.0 ** -4 * 1.56e-2, 2.0 ** -6, True),
        extra={"blocks": {"block_q": 512, "block_k": 512}, "causal": False, "gradients": grads,
               "flops": {"forward": 4 * 8 * 4096 * 4096 * 128, "backward": 14 * 8 * 4096 * 4096 * 128},
               "ratioToBaseline": 5.1e-3 / 6.2e-3})
    add("L14-interpret.json", "L14", CPU, True, dtype="bf16",
        shapes={"batch": 1, "heads": 2, "seq": 512, "head_dim": 128}, timing=None, baseline=None,
        correctness=record.Correctness(grad_ref, 4.4e-4, 3.1e-2, 2.0 ** -4 * 4.4e-2, 2.0 ** -6, True),
        extra={"blocks": {"block_q": 128, "block_k": 256}, "causal": False, "gradients": grads,
               "flops": {"forward": 4 * 2 * 512 * 512 * 128, "backward": 14 * 2 * 512 * 512 * 128}})
    q_ref = "float32 product of the dequantized operands at HIGHEST precision"
    q_bytes = {"x": 4096 * 4096, "w": 4096 * 4096, "scales": 4 * 8192, "out": 2 * 4096 * 4096}
    add("L15.json", "L15", TPU, False, dtype="int8", shapes=mm, timing=timing(4.4e-4),
        baseline=("XLA w8a8 with jnp (int8 dot into int32)", samples(4.2e-4)),
        correctness=record.Correctness(q_ref, 1.9e-2, 7.6e-3, 2.0 ** -7 * 0.99, 2.0 ** -7, True),
        extra={"scheme": "w8a8", "scales": "channel", "blocks": {"bm": 512, "bk": 512, "bn": 512},
               "flops": 2 * 4096 ** 3, "operandBytes": q_bytes, "bf16Samples": samples(7.3e-4),
               "ratioToBaseline": 4.4e-4 / 4.2e-4, "ratioToBf16": 4.4e-4 / 7.3e-4})
    add("L15-interpret.json", "L15", CPU, True, dtype="int8", shapes={"m": 256, "k": 512, "n": 256},
        timing=None, baseline=None, correctness=record.Correctness(q_ref, 5.9e-3, 3.8e-3, 2.0 ** -7 * 0.98, 2.0 ** -7, True),
        extra={"scheme": "w8a8", "scales": "channel", "blocks": {"bm": 128, "bk": 256, "bn": 128},
               "flops": 2 * 256 * 512 * 256,
               "operandBytes": {"x": 256 * 512, "w": 512 * 256, "scales": 4 * 512, "out": 2 * 256 * 256}})
    lens = [4096, 3547, 3035, 2523, 2011, 1499, 987, 475]
    pd_ref = "dense attention in float32 at HIGHEST precision over each sequence's own tokens"
    pd_read = sum(-(-n // 256) * 256 for n in lens)
    add("L16.json", "L16", TPU, False, dtype="bf16",
        shapes={"batch": 8, "heads": 32, "kv_heads": 8, "seq": 4096},
        timing=timing(3.4e-4),
        baseline=("XLA: gather the pages into a padded cache, then masked softmax(q K^T) V with jnp", samples(6.3e-4)),
        correctness=record.Correctness(pd_ref, 6.1e-4, 2.2e-2, 2.0 ** -5 * 0.071, 2.0 ** -7, True),
        extra={"lengths": lens, "pageSize": 256, "headDim": 128, "pagesRead": sum(-(-n // 256) for n in lens) * 8,
               "kvBytes": 2 * pd_read * 8 * 128 * 2, "ratioToBaseline": 3.4e-4 / 6.3e-4,
               "hbmBandwidth": 2 * pd_read * 8 * 128 * 2 / 3.4e-4})
    add("L16-interpret.json", "L16", CPU, True, dtype="bf16",
        shapes={"batch": 3, "heads": 8, "kv_heads": 2, "seq": 512},
        timing=None, baseline=None, correctness=record.Correctness(pd_ref, 1.3e-3, 2.5e-2, 2.0 ** -5 * 0.086, 2.0 ** -7, True),
        extra={"lengths": [512, 305, 134], "pageSize": 128, "headDim": 128, "pagesRead": (4 + 3 + 2) * 2,
               "kvBytes": 2 * (512 + 384 + 256) * 2 * 128 * 2})
    sl = {"batch": 16384, "d_model": 4096, "d_ff": 16384, "devices": 8}
    sl_ref = "each strategy's loss and gradients against the same step on one device in float32 at HIGHEST precision"
    sl_tol = 2.0 ** -4 * 0.6 / 16384 ** 0.5
    add("L17.json", "L17", TPU8, False, dtype="bf16", shapes=sl, timing=timing(1.31e-2), baseline=None,
        correctness=record.Correctness(sl_ref, 0.019 * 0.6 / 16384 ** 0.5, 0.61, sl_tol, 2.0 ** -6, True),
        extra={"strategies": l17_strategies(16384, 4096, 16384, 8, 2, tpu=True), "activation": "gelu",
               "learningRate": 0.1, "weightBytes": 2 * 4096 * 16384 * 2})
    sl_tol = 2.0 ** -4 * 0.6 / 256 ** 0.5
    add("L17-interpret.json", "L17", CPU8, True, dtype="bf16",
        shapes={"batch": 256, "d_model": 256, "d_ff": 1024, "devices": 8}, timing=None, baseline=None,
        correctness=record.Correctness(sl_ref, 0.019 * 0.6 / 256 ** 0.5, 0.48, sl_tol, 2.0 ** -6, True),
        extra={"strategies": l17_strategies(256, 256, 1024, 8, 2, tpu=False), "activation": "gelu",
               "learningRate": 0.1, "weightBytes": 2 * 256 * 1024 * 2})
    sched_ref = "the chain in float32 at HIGHEST precision on one device"
    on = l18_pairs(8192, 4, hidden=True)
    off = l18_pairs(8192, 4, hidden=False)
    add("L18.json", "L18", TPU8, False, dtype="bf16", shapes={"batch": 16384, "d_model": 8192, "layers": 4,
                                                              "devices": 8},
        timing=timing(7.3e-3), baseline=None,
        correctness=record.Correctness(sched_ref + ", under both configurations", 1.9e-2, 3.1e-2, 2.0 ** -4 * 0.98,
                                       2.0 ** -6, True),
        extra={"scheduleFrom": "tpu", "module": "jit_fsdp_chain", "isScheduled": True, "asyncPairs": on,
               "exposedPairs": sum(p["exposed"] for p in on), "syncCollectives": [], "s1Count": 2,
               "memorySpaceCounts": {"1": 2}, "weightSpec": 'P("fsdp", None)', "activationSpec": 'P("fsdp", None)',
               "hlo": "(abridged in this example)", "libtpuInitArgs": "",
               "latencyHidingOff": {"module": "jit_fsdp_chain", "isScheduled": True, "asyncPairs": off,
                                    "exposedPairs": sum(p["exposed"] for p in off), "syncCollectives": [],
                                    "s1Count": 2, "memorySpaceCounts": {"1": 2}, "hlo": "(abridged in this example)",
                                    "method": timing(1.0).method, "warmup": 3, "samples": samples(1.02e-2),
                                    "correctness": record.Correctness(sched_ref, 1.9e-2, 3.1e-2, 2.0 ** -4 * 0.98,
                                                                      2.0 ** -6, True).to_json(),
                                    "libtpuInitArgs": "--xla_tpu_enable_latency_hiding_scheduler=false"},
               "ratioOffToDefault": 1.02e-2 / 7.3e-3})
    cpu_note = _load(os.path.join(LABS_DIR, SCRIPTS["L18"])).CPU_NOTE
    add("L18-interpret.json", "L18", CPU8, True, dtype="bf16",
        shapes={"batch": 256, "d_model": 256, "layers": 3, "devices": 8}, timing=None, baseline=None,
        correctness=record.Correctness(sched_ref, 1.5e-2, 2.7e-2, 2.0 ** -4 * 0.97, 2.0 ** -6, True),
        extra={"scheduleFrom": "cpu", "module": "jit_fsdp_chain", "isScheduled": True, "asyncPairs": [],
               "exposedPairs": 0,
               "syncCollectives": [{"name": f"all-gather.{i}", "op": "all-gather", "computation": "main.23_spmd",
                                    "position": 2 + 3 * i, "resultType": "bf16[256,256]", "bytes": 256 * 256 * 2}
                                   for i in range(3)],
               "s1Count": 0, "memorySpaceCounts": {}, "weightSpec": 'P("fsdp", None)',
               "activationSpec": 'P("fsdp", None)', "hlo": "(abridged in this example)", "scheduleNote": cpu_note})
    tc_ref = MATMUL_REF + " (parallel)"
    tc_arb = MATMUL_REF + " (arbitrary)"
    semantics = {"parallel": ["parallel", "parallel", "arbitrary"], "arbitrary": ["arbitrary", "arbitrary", "arbitrary"]}
    # A v5e has one TensorCore: the two annotations time alike.
    add("L19.json", "L19", TPU, False, dtype="bf16", shapes=mm, timing=timing(7.49e-4, calls=10),
        baseline=("XLA jnp.dot (jax.jit)", samples(7.41e-4)), correctness=check(tc_ref, 1.6e-2, 7.8e-3, 2e-2),
        extra={"blocks": {"bm": 512, "bk": 1024, "bn": 1024}, "grid": [8, 4, 4], "semantics": semantics,
               "tensorCores": 1, "tensorCoresFrom": "pltpu.get_tpu_info().num_cores", "flops": 2 * 4096**3,
               "arbitraryCorrectness": check(tc_arb, 1.6e-2, 7.8e-3, 2e-2).to_json(),
               "arbitrarySamples": samples(7.52e-4), "achievedFlopsPerSecond": 2 * 4096**3 / 7.49e-4,
               "ratioParallelToArbitrary": 7.49e-4 / 7.52e-4, "ratioToBaseline": 7.49e-4 / 7.41e-4})
    add("L19-interpret.json", "L19", CPU, True, dtype="bf16", shapes={"m": 256, "k": 256, "n": 256},
        timing=None, baseline=None, correctness=check(tc_ref, 1.2e-2, 6.4e-3, 2e-2),
        extra={"blocks": {"bm": 128, "bk": 128, "bn": 128}, "grid": [2, 2, 2], "semantics": semantics,
               "tensorCores": None, "tensorCoresFrom": "not read: an interpret run has no TensorCore",
               "flops": 2 * 256**3, "arbitraryCorrectness": check(tc_arb, 1.2e-2, 6.4e-3, 2e-2).to_json()})
    l20 = _load(os.path.join(LABS_DIR, SCRIPTS["L20"]))
    masked_ref = "masked attention in float32 at HIGHEST precision on the same inputs"

    def masked_extra(mask: Any, shapes: dict[str, int], bq: int, bk: int) -> dict[str, Any]:
        seq = shapes["seq"]
        kinds = l20.classify(mask, seq, bq, bk)
        steps = len(l20.schedule(kinds)[0][0])
        counts = {n: sum(row.count(k) for row in kinds) for k, n in
                  ((l20.EMPTY, "empty"), (l20.FULL, "full"), (l20.PARTIAL, "partial"))}
        tiles = (seq // bq) * (seq // bk)
        per_tile = 4 * bq * bk * shapes["head_dim"] * shapes["batch"] * shapes["heads"]
        return {"mask": mask.to_json(), "blocks": {"block_q": bq, "block_k": bk}, "tileCounts": counts,
                "kvBlocksComputed": counts["full"] + counts["partial"], "kvBlocksTotal": tiles,
                "gridSteps": {"skipping": (seq // bq) * steps, "everyBlock": tiles},
                "tileMap": ["".join(l20.KIND_CHARS[k] for k in row) for row in kinds],
                "allowedFraction": l20.allowed_pairs(mask, seq) / (seq * seq),
                "flops": {"skipping": per_tile * (counts["full"] + counts["partial"]), "everyBlock": per_tile * tiles}}

    # L09's tolerance; the output's RMS grows as the keys a query sees shrink (about sqrt(e / keys) for
    # unit normal inputs): 0.052 for a window of 1,024, 0.13 for the short documents below.
    win_tol = (2.0 ** -5 * 0.052, 2.0 ** -7)
    win = masked_extra(l20.Mask("window", 1024, None), att, 512, 512)
    win.update({"everyBlockCorrectness": record.Correctness(masked_ref, 4.0e-4, 2.9e-2, *win_tol, True).to_json(),
                "baselineCorrectness": record.Correctness(masked_ref, 3.9e-4, 2.7e-2, *win_tol, True).to_json(),
                "everyBlockSamples": samples(1.24e-3), "ratioToEveryBlock": 4.1e-4 / 1.24e-3,
                "ratioToBaseline": 4.1e-4 / 2.38e-3})
    add("L20.json", "L20", TPU, False, dtype="bf16", shapes=att, timing=timing(4.1e-4),
        baseline=("XLA masked attention: softmax of the masked Q K^T / sqrt(d), then P V, with jnp", samples(2.38e-3)),
        correctness=record.Correctness(masked_ref, 4.1e-4, 3.0e-2, *win_tol, True), extra=win)
    doc_shapes = {"batch": 1, "heads": 2, "seq": 1024, "head_dim": 128}
    doc_tol = (2.0 ** -5 * 0.13, 2.0 ** -7)
    docs = masked_extra(l20.Mask("documents", None, (200, 440, 384)), doc_shapes, 128, 256)
    docs["everyBlockCorrectness"] = record.Correctness(masked_ref, 1.1e-3, 2.4e-2, *doc_tol, True).to_json()
    add("L20-interpret.json", "L20", CPU, True, dtype="bf16", shapes=doc_shapes, timing=None, baseline=None,
        correctness=record.Correctness(masked_ref, 1.2e-3, 2.5e-2, *doc_tol, True), extra=docs)
    l21 = _load(os.path.join(LABS_DIR, SCRIPTS["L21"]))
    routing = (1200, 300, 0, 900, 700, 500, 296, 200)
    gmm_ref = "each group's x_g @ W[g] in float32 at HIGHEST precision"
    dw_ref = "jax.vjp of the per-group float32 reference with respect to W"

    def grouped_checks(dw_rms: float) -> dict[str, record.Correctness]:
        # The tolerance is 2^-6 of each output's RMS plus 2^-6 relative: about 1 for the forward and dx
        # (W scaled by 1/sqrt(K)), sqrt(M / G) for dW, whose sums run over a group's tokens.
        def c(ref: str, rms: float, err: float, rel: float) -> record.Correctness:
            return record.Correctness(ref, err * rms, rel, 2.0 ** -6 * rms, 2.0 ** -6, True)
        return {"gmm": c(gmm_ref, 1.0, 7.8e-3, 2.9e-2),
                "gmmVsRaggedDot": c("jax.lax.ragged_dot in float32 at HIGHEST precision", 1.0, 7.8e-3, 2.9e-2),
                "tgmm": c(dw_ref, dw_rms, 6.9e-3, 3.3e-2),
                "dx": c("jax.vjp of the per-group float32 reference with respect to x", 1.0, 7.6e-3, 3.1e-2)}

    grouped_ref = ("per-group x_g @ W[g], jax.lax.ragged_dot and jax.vjp of the per-group reference, "
                   "float32 at HIGHEST precision")
    dw_rms = (4096 / 8) ** 0.5
    checks = grouped_checks(dw_rms)
    grouped = l21.plan(routing, 4096, 4096, 128, 512, 512)
    grouped.update({
        "checks": {name: c.to_json() for name, c in checks.items()},
        "baselineCorrectness": {"gmm": record.Correctness(gmm_ref, 7.8e-3, 2.9e-2, 2.0 ** -6, 2.0 ** -6,
                                                          True).to_json(),
                                "tgmm": record.Correctness(dw_ref, 6.9e-3 * dw_rms, 3.3e-2, 2.0 ** -6 * dw_rms,
                                                           2.0 ** -6, True).to_json()},
        "tgmmSamples": samples(1.38e-3), "tgmmBaselineSamples": samples(2.31e-3),
        "ratioToBaseline": {"gmm": 2.05e-3 / 2.62e-3, "tgmm": 1.38e-3 / 2.31e-3}})
    add("L21.json", "L21", TPU, False, dtype="bf16", shapes={"m": 4096, "k": 4096, "n": 4096, "groups": 8},
        timing=timing(2.05e-3), baseline=("XLA jax.lax.ragged_dot (jax.jit)", samples(2.62e-3)),
        correctness=record.combine(list(checks.values()), grouped_ref), extra=grouped)
    grouped = l21.plan(routing, 256, 256, 128, 128, 256)
    grouped["checks"] = {name: c.to_json() for name, c in checks.items()}
    add("L21-interpret.json", "L21", CPU, True, dtype="bf16", shapes={"m": 4096, "k": 256, "n": 256, "groups": 8},
        timing=None, baseline=None, correctness=record.combine(list(checks.values()), grouped_ref), extra=grouped)
    return ex


def _load(path: str) -> Any:
    """A lab script as a module (they import without JAX)."""
    import importlib.util  # noqa: PLC0415

    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_all(out_dir: str) -> list[str]:
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for name, kwargs in examples():
        path = os.path.join(out_dir, name)
        record.write_record(record.build_record(**kwargs), path)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=os.path.join(LABS_DIR, "examples"), help="directory (default: examples/)")
    args = p.parse_args(argv)
    for path in write_all(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
