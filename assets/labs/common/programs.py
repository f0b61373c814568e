"""The five small array programs that labs L02 (trace), L03 (lower) and L04
(fusion forensics) take apart, with a float64 numpy reference for each, and
the runner that times and checks them on the device.

Sizes: t (tokens), d (model width), f (hidden width), h (heads; d/h must be a
whole head size).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from typing import Any, Callable

from . import record


@dataclasses.dataclass(frozen=True)
class Program:
    name: str
    what: str
    # input shapes from the sizes
    shapes: Callable[[dict[str, int]], list[tuple[int, ...]]]
    # the JAX function (jnp inside), built lazily so this module needs no JAX
    make: Callable[[dict[str, int]], Callable[..., Any]]
    # float64 numpy reference on the (rounded) inputs
    reference: Callable[..., Any]
    # input scale: weights are scaled by 1/sqrt(fan-in) so values stay O(1)
    scales: Callable[[dict[str, int]], list[float]]


def _gelu_np(x: Any) -> Any:
    import numpy as np  # noqa: PLC0415

    # jax.nn.gelu's default (approximate=True): the tanh form.
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))


def _softmax_np(x: Any, axis: int = -1) -> Any:
    import numpy as np  # noqa: PLC0415

    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _chain_np(x: Any, y: Any) -> Any:
    import numpy as np  # noqa: PLC0415

    return (np.tanh(x * 2.0 + 1.0) * y).sum(-1)


def _epilogue_np(x: Any, w: Any, b: Any) -> Any:
    import numpy as np  # noqa: PLC0415

    return np.maximum(x @ w + b, 0.0)


def _mlp(s: dict[str, int]) -> Callable[..., Any]:
    import jax  # noqa: PLC0415

    def mlp(x: Any, w1: Any, w2: Any) -> Any:
        return jax.nn.gelu(x @ w1) @ w2

    return mlp


def _softmax(s: dict[str, int]) -> Callable[..., Any]:
    import jax  # noqa: PLC0415

    def softmax(x: Any) -> Any:
        return jax.nn.softmax(x, axis=-1)

    return softmax


def _layernorm(s: dict[str, int]) -> Callable[..., Any]:
    import jax.numpy as jnp  # noqa: PLC0415

    def layernorm(x: Any, g: Any, b: Any) -> Any:
        mean = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
        return (x - mean) * jnp.reciprocal(jnp.sqrt(var + 1e-5)) * g + b

    return layernorm


def _attention(s: dict[str, int]) -> Callable[..., Any]:
    import jax  # noqa: PLC0415
    import jax.numpy as jnp  # noqa: PLC0415

    scale = 1.0 / math.sqrt(s["d"] // s["h"])

    def attention(q: Any, k: Any, v: Any) -> Any:
        scores = jnp.einsum("hqd,hkd->hqk", q, k) * scale
        return jnp.einsum("hqk,hkd->hqd", jax.nn.softmax(scores, axis=-1), v)

    return attention


def _projection_t(s: dict[str, int]) -> Callable[..., Any]:
    import jax.numpy as jnp  # noqa: PLC0415

    def projection_t(x: Any, w: Any) -> Any:
        # Output order f, t: XLA gets there by swapping operands, not transposing.
        return jnp.einsum("td,fd->ft", x, w)

    return projection_t


def _elementwise_chain(s: dict[str, int]) -> Callable[..., Any]:
    import jax.numpy as jnp  # noqa: PLC0415

    def elementwise_chain(x: Any, y: Any) -> Any:
        return jnp.sum(jnp.tanh(x * 2.0 + 1.0) * y, axis=-1)

    return elementwise_chain


def _matmul_epilogue(s: dict[str, int]) -> Callable[..., Any]:
    import jax  # noqa: PLC0415

    def matmul_epilogue(x: Any, w: Any, b: Any) -> Any:
        return jax.nn.relu(x @ w + b)

    return matmul_epilogue


def _head(s: dict[str, int]) -> int:
    return s["d"] // s["h"]


PROGRAMS: list[Program] = [
    Program(
        "mlp", "gelu(x @ w1) @ w2",
        lambda s: [(s["t"], s["d"]), (s["d"], s["f"]), (s["f"], s["d"])],
        _mlp,
        lambda x, w1, w2: _gelu_np(x @ w1) @ w2,
        lambda s: [1.0, 1.0 / math.sqrt(s["d"]), 1.0 / math.sqrt(s["f"])],
    ),
    Program(
        "softmax", "softmax over the last axis",
        lambda s: [(s["t"], s["d"])],
        _softmax,
        lambda x: _softmax_np(x),
        lambda s: [1.0],
    ),
    Program(
        "layernorm", "(x - mean) / sqrt(var + 1e-5) * g + b over the last axis",
        lambda s: [(s["t"], s["d"]), (s["d"],), (s["d"],)],
        _layernorm,
        lambda x, g, b: (x - x.mean(-1, keepdims=True)) / ((x.var(-1, keepdims=True) + 1e-5) ** 0.5) * g + b,
        lambda s: [1.0, 1.0, 1.0],
    ),
    Program(
        "attention", "softmax(q k^T / sqrt(head)) v per head (einsum hqd,hkd->hqk)",
        lambda s: [(s["h"], s["t"], _head(s))] * 3,
        _attention,
        lambda q, k, v: _softmax_np((q @ k.transpose(0, 2, 1)) / math.sqrt(q.shape[-1])) @ v,
        lambda s: [1.0, 1.0, 1.0],
    ),
    Program(
        "projection_t", "einsum('td,fd->ft', x, w): contract both operands' last dim",
        lambda s: [(s["t"], s["d"]), (s["f"], s["d"])],
        _projection_t,
        lambda x, w: w @ x.T,
        lambda s: [1.0, 1.0 / math.sqrt(s["d"])],
    ),
]

# Two more for L04, built to show XLA's two most common fusions.
FUSION_PROGRAMS: list[Program] = [
    Program(
        "elementwise_chain", "sum(tanh(2x + 1) * y, axis=-1): a loop of elementwise ops into a reduction",
        lambda s: [(s["t"], s["d"]), (s["t"], s["d"])],
        _elementwise_chain,
        _chain_np,
        lambda s: [1.0, 1.0],
    ),
    Program(
        "matmul_epilogue", "relu(x @ w + b): bias and activation after a matmul",
        lambda s: [(s["t"], s["d"]), (s["d"], s["f"]), (s["f"],)],
        _matmul_epilogue,
        _epilogue_np,
        lambda s: [1.0, 1.0 / math.sqrt(s["d"]), 1.0],
    ),
]


def add_size_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--t", type=int, default=1024, help="tokens (default 1024)")
    p.add_argument("--d", type=int, default=1024, help="model width (default 1024)")
    p.add_argument("--f", type=int, default=4096, help="hidden width (default 4096)")
    p.add_argument("--heads", type=int, default=8, help="attention heads; d/heads is the head size (default 8)")
    p.add_argument("--dtype", choices=["bf16", "f32"], default="bf16", help="input dtype (default bf16)")


def sizes_from(args: argparse.Namespace) -> dict[str, int]:
    s = {"t": args.t, "d": args.d, "f": args.f, "h": args.heads}
    if min(s.values()) < 1:
        raise SystemExit("sizes must be positive")
    if s["d"] % s["h"]:
        raise SystemExit(f"--d {s['d']} is not a multiple of --heads {s['h']}")
    return s


def tolerance(dtype: str, ref: Any) -> tuple[float, float]:
    """(abs, rel) for a program's output. The abs term is scaled to the
    output's size so tiny outputs (softmax probabilities) are not waved
    through. f32 is loose too: TPU matmuls at default precision round f32
    operands to bf16."""
    import numpy as np  # noqa: PLC0415

    rel = 3e-2 if dtype == "bf16" else 1e-2
    scale = float(np.max(np.abs(ref))) if np.size(ref) else 1.0
    return rel * max(scale, 1e-30), rel


@dataclasses.dataclass
class Prepared:
    program: Program
    fn: Any            # the jitted function
    args: list[Any]    # device arrays
    host_args: list[Any]
    sizes: dict[str, int]


def prepare(program: Program, sizes: dict[str, int], dtype: str, seed: int) -> Prepared:
    import jax  # noqa: PLC0415

    from . import labkit  # noqa: PLC0415

    host_args, args = [], []
    for i, (shape, scale) in enumerate(zip(program.shapes(sizes), program.scales(sizes))):
        h, d = labkit.random_normal(seed * 101 + i, shape, dtype, scale)
        host_args.append(h)
        args.append(d)
    return Prepared(program, jax.jit(program.make(sizes)), args, host_args, sizes)


def run(prep: Prepared, dtype: str, warmup: int, samples: int) -> tuple[record.Timing, record.Correctness]:
    """Times the jitted program and checks it against the float64 reference."""
    import numpy as np  # noqa: PLC0415

    out = np.asarray(prep.fn(*prep.args).astype("float32"))
    ref = prep.program.reference(*[np.asarray(a, dtype=np.float64) for a in prep.host_args])
    abs_tol, rel_tol = tolerance(dtype, ref)
    check = record.compare(out, ref, reference_name=f"{prep.program.name} in float64 numpy on the same inputs",
                           abs_tol=abs_tol, rel_tol=rel_tol)
    timing = record.time_calls(prep.fn, *prep.args, warmup=warmup, samples=samples)
    return timing, check


def lab_args(lab: str, doc: str, argv: list[str] | None,
             extra: Callable[[argparse.ArgumentParser], None] | None = None) -> argparse.Namespace:
    """The command line of a lab that takes the programs apart: labkit's
    common flags, the program sizes, and `extra` adds the lab's own."""
    from . import labkit  # noqa: PLC0415

    p = labkit.parser(lab, doc.splitlines()[0], samples=10)
    add_size_args(p)
    if extra:
        extra(p)
    args = p.parse_args(argv)
    labkit.check_common(args)
    return args


def run_lab(lab: str, script: str, args: argparse.Namespace,
            describe: Callable[[Program, Prepared], dict[str, Any]],
            chosen: list[Program] | None = None) -> int:
    """Runs a program lab: each program is prepared, described by the lab
    (`describe` prints what it found and returns its fields for the record),
    then timed and checked against its float64 reference; the record goes
    where --out says."""
    from . import labkit  # noqa: PLC0415

    sizes = sizes_from(args)
    labkit.start_jax()
    backend = labkit.preflight(args)
    entries, checks, first_timing = [], [], None
    for i, program in enumerate(chosen or PROGRAMS):
        prep = prepare(program, sizes, args.dtype, args.seed + i)
        print(f"--- {program.name}: {program.what}")
        fields = describe(program, prep)
        timing, check = run(prep, args.dtype, args.warmup, args.samples)
        print(f"    median {timing.median() * 1e6:.1f} us, {'correct' if check.passed else 'INCORRECT'}")
        first_timing = first_timing or timing
        checks.append(check)
        entries.append({
            "name": program.name,
            "what": program.what,
            "inputShapes": [list(s) for s in program.shapes(sizes)],
            **fields,
            "samples": timing.samples,
            "correctness": check.to_json(),
        })
    labkit.finish(lab=lab, script=script, args=args, dtype=args.dtype, shapes=sizes,
                  timing=first_timing, baseline=None,
                  correctness=record.combine(checks, "each program in float64 numpy on the same inputs"),
                  extra={"programs": entries}, backend=backend)
    return 0
