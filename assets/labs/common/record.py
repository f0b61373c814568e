"""The run-record writer every lab script uses.

A run record (assets/run-record.schema.json, version 1) says what ran, where,
on which shapes, every timing sample, the check against a reference, and which
script produced it. The app imports it; gates pass only on measured records.

The honesty rule is enforced here, not left to each script:

* ``kind`` is "measured" only when the platform is "tpu"; a run with
  ``--interpret`` on a CPU is "verified-off-chip" and carries no timing and no
  baseline (interpret mode proves correctness, never speed).
* A TPU whose device kind the simulator does not know is refused rather than
  guessed at.
* The script's sha256 is computed from the lab file's bytes, so the app can
  tell which version of a lab produced a record.

JAX is imported lazily inside the functions that need it, so this module
imports (and is tested) without JAX. Tests inject a fake ``Backend``.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import hashlib
import json
import math
import os
import re
import socket
import statistics
import tempfile
import time
from typing import Any, Callable, Iterable, Mapping, Sequence

SCHEMA_ID = "tpu-course/run-record"
SCHEMA_VERSION = 1

KIND_MEASURED = "measured"
KIND_OFF_CHIP = "verified-off-chip"

DTYPES = ("bf16", "f32", "f16", "int8", "fp8")
LAB_RE = re.compile(r"^L(0[1-9]|1[0-9]|2[01])$")
SCRIPT_RE = re.compile(r"^l(0[1-9]|1[0-9]|2[01])_[a-z0-9_]+\.py$")

# jax.devices()[0].device_kind -> the simulator's chip id. Keys are compared
# case-insensitively with runs of spaces collapsed. Only kinds the simulator
# models are listed: anything else is refused (see chip_for).
DEVICE_KIND_TO_CHIP: dict[str, str] = {
    "tpu v4": "v4",
    "tpu v5 lite": "v5e",
    "tpu v5e": "v5e",
    "tpu v5": "v5p",
    "tpu v5p": "v5p",
    "tpu v6 lite": "v6e",
    "tpu v6e": "v6e",
    "tpu7x": "v7",
    "tpu v7": "v7",
    "tpu v7x": "v7",
}


class RecordError(Exception):
    """A record that must not be written: the message says why and what to do."""


@dataclasses.dataclass(frozen=True)
class Backend:
    """What the record says about the machine. Real runs get it from JAX
    (``jax_backend()``); tests build one by hand."""

    platform: str        # jax.devices()[0].platform: "tpu", "cpu", ...
    device_kind: str     # jax.devices()[0].device_kind: "TPU v5 lite", "cpu", ...
    device_count: int    # jax.device_count()
    jax_version: str
    jaxlib_version: str


def jax_backend() -> Backend:
    """Reads the backend from JAX (imported here, not at module import)."""
    import jax  # noqa: PLC0415 - lazy on purpose
    import jaxlib  # noqa: PLC0415

    devices = jax.devices()
    jaxlib_version = getattr(jaxlib, "__version__", None)
    if jaxlib_version is None:
        from jaxlib import version as _jaxlib_version  # noqa: PLC0415

        jaxlib_version = _jaxlib_version.__version__
    return Backend(
        platform=devices[0].platform,
        device_kind=devices[0].device_kind,
        device_count=jax.device_count(),
        jax_version=jax.__version__,
        jaxlib_version=str(jaxlib_version),
    )


def chip_for(device_kind: str) -> str:
    """The simulator's chip id for a TPU device kind; refuses unknown kinds."""
    key = " ".join(device_kind.split()).lower()
    chip = DEVICE_KIND_TO_CHIP.get(key)
    if chip is None:
        known = ", ".join(sorted({k for k in DEVICE_KIND_TO_CHIP}))
        raise RecordError(
            f"unknown TPU device kind {device_kind!r}: the course's simulator models "
            f"v4, v5e, v5p, v6e and v7 (device kinds: {known}). No record was written; "
            "a measurement on a chip the app cannot compare against would be mislabelled."
        )
    return chip


def sha256_of(path: str | os.PathLike[str]) -> str:
    """sha256 of a file's bytes, lower-case hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def utc_now() -> str:
    """Now, in UTC, ISO 8601 with a Z and whole seconds: 2026-11-29T14:03:07Z."""
    now = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0)
    return now.strftime("%Y-%m-%dT%H:%M:%SZ")


# --------------------------------------------------------------------------
# Timing


@dataclasses.dataclass
class Timing:
    method: str
    warmup: int
    samples: list[float]

    def to_json(self) -> dict[str, Any]:
        return {"method": self.method, "warmup": self.warmup, "samples": list(self.samples)}

    def median(self) -> float:
        return statistics.median(self.samples)


def _block_until_ready(value: Any) -> Any:
    import jax  # noqa: PLC0415

    return jax.block_until_ready(value)


def time_calls(
    fn: Callable[..., Any],
    *args: Any,
    warmup: int = 3,
    samples: int = 20,
    calls_per_sample: int = 1,
    block: Callable[[Any], Any] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Timing:
    """Times ``fn(*args)`` on the device.

    ``warmup`` calls first (compilation and first-touch costs stay out of the
    samples), then ``samples`` samples. One sample is ``clock()`` around
    ``calls_per_sample`` back-to-back calls followed by ``block_until_ready``
    on the last result, divided by ``calls_per_sample``. With more than one
    call per sample JAX's asynchronous dispatch queues the calls, so the
    host's dispatch cost overlaps device work: use it for ops of tens of
    microseconds. Every sample is kept; nothing is dropped or averaged away.

    ``block`` defaults to ``jax.block_until_ready``; tests pass their own.
    """
    if warmup < 0 or samples < 1 or calls_per_sample < 1:
        raise ValueError("warmup >= 0, samples >= 1 and calls_per_sample >= 1 are required")
    wait = block if block is not None else _block_until_ready
    for _ in range(warmup):
        wait(fn(*args))
    out: list[float] = []
    for _ in range(samples):
        start = clock()
        result = None
        for _ in range(calls_per_sample):
            result = fn(*args)
        wait(result)
        elapsed = (clock() - start) / calls_per_sample
        # A zero or negative interval would be a broken clock, not a fast kernel.
        if not elapsed > 0:
            raise RecordError(f"timer returned a non-positive interval ({elapsed!r} s)")
        out.append(elapsed)
    if calls_per_sample == 1:
        method = "time.perf_counter around one call then jax.block_until_ready"
    else:
        method = (
            f"time.perf_counter around {calls_per_sample} back-to-back calls then "
            f"jax.block_until_ready on the last, divided by {calls_per_sample}"
        )
    return Timing(method=method, warmup=warmup, samples=out)


# --------------------------------------------------------------------------
# Correctness


@dataclasses.dataclass
class Correctness:
    reference: str
    max_abs_error: float
    max_rel_error: float
    abs_tol: float
    rel_tol: float
    passed: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "reference": self.reference,
            "maxAbsError": self.max_abs_error,
            "maxRelError": self.max_rel_error,
            "tolerance": {"abs": self.abs_tol, "rel": self.rel_tol},
            "passed": self.passed,
        }


def compare(
    actual: Any,
    reference: Any,
    *,
    reference_name: str,
    abs_tol: float,
    rel_tol: float,
) -> Correctness:
    """Compares a result with a reference computed in float32 or float64.

    Both are converted to float64 on the host. ``passed`` is numpy.allclose's
    rule, element by element: ``|actual - ref| <= abs_tol + rel_tol * |ref|``,
    and every value finite (a NaN or Inf anywhere fails). ``maxRelError`` is
    ``max |actual - ref| / |ref|`` over the elements whose reference is not
    zero (near-zero references make relative error meaningless; the abs term
    covers them).
    """
    import numpy as np  # noqa: PLC0415 - lazy: the record writer itself needs no numpy

    a = np.asarray(actual, dtype=np.float64)
    r = np.asarray(reference, dtype=np.float64)
    if a.shape != r.shape:
        raise RecordError(f"result shape {a.shape} differs from the reference's {r.shape}")
    finite = bool(np.all(np.isfinite(a)))
    diff = np.abs(a - r)
    if a.size == 0:
        max_abs = max_rel = 0.0
        passed = True
    else:
        with np.errstate(invalid="ignore"):
            max_abs = float(np.nanmax(diff)) if finite else math.inf
        nonzero = np.abs(r) > 0
        if np.any(nonzero) and finite:
            max_rel = float(np.max(diff[nonzero] / np.abs(r[nonzero])))
        else:
            max_rel = 0.0 if finite else math.inf
        passed = finite and bool(np.all(diff <= abs_tol + rel_tol * np.abs(r)))
    # JSON has no Infinity: a non-finite result is reported with a huge error.
    return Correctness(
        reference=reference_name,
        max_abs_error=_finite_or_max(max_abs),
        max_rel_error=_finite_or_max(max_rel),
        abs_tol=abs_tol,
        rel_tol=rel_tol,
        passed=passed,
    )


def _finite_or_max(x: float) -> float:
    return x if math.isfinite(x) else 1.0e308


def combine(checks: Sequence[Correctness], reference_name: str) -> Correctness:
    """One top-level check from several (a lab that checks several outputs):
    the worst errors, passed only if every check passed. Tolerances must agree."""
    if not checks:
        raise ValueError("combine() needs at least one check")
    abs_tols = {c.abs_tol for c in checks}
    rel_tols = {c.rel_tol for c in checks}
    return Correctness(
        reference=reference_name,
        max_abs_error=max(c.max_abs_error for c in checks),
        max_rel_error=max(c.max_rel_error for c in checks),
        # Differing tolerances: report the loosest, so the record never
        # claims a tighter check than was made.
        abs_tol=max(abs_tols),
        rel_tol=max(rel_tols),
        passed=all(c.passed for c in checks),
    )


# --------------------------------------------------------------------------
# The record


def build_record(
    *,
    lab: str,
    script_path: str | os.PathLike[str],
    backend: Backend,
    interpret: bool,
    dtype: str,
    shapes: Mapping[str, int],
    timing: Timing | None,
    baseline: tuple[str, Sequence[float]] | None,
    correctness: Correctness,
    extra: Mapping[str, Any],
    host: str | None = None,
    date: str | None = None,
) -> dict[str, Any]:
    """Builds a version-1 run record, refusing anything the honesty rule forbids."""
    if not LAB_RE.match(lab):
        raise RecordError(f"lab id {lab!r} is not L01..L21")
    script_name = os.path.basename(os.fspath(script_path))
    if not SCRIPT_RE.match(script_name):
        raise RecordError(f"script name {script_name!r} is not a lab script name (lNN_name.py)")
    if script_name[1:3] != lab[1:3]:
        raise RecordError(f"script {script_name} does not belong to lab {lab}")
    if dtype not in DTYPES:
        raise RecordError(f"dtype {dtype!r} is not one of {', '.join(DTYPES)}")
    if not shapes:
        raise RecordError("a record needs at least one named size in shapes")
    for name, size in shapes.items():
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise RecordError(f"shape {name!r} must be a positive integer, got {size!r}")
    if backend.device_count < 1:
        raise RecordError("device count must be at least 1")

    if interpret:
        # Interpret mode proves correctness on a CPU; it never says anything about speed.
        if backend.platform != "cpu":
            raise RecordError(
                f"an interpret-mode record must come from the CPU platform, not {backend.platform!r}"
            )
        if timing is not None or baseline is not None:
            raise RecordError(
                "interpret mode makes no timing claims: timing and baseline must be null"
            )
        kind, chip = KIND_OFF_CHIP, "cpu"
    else:
        if backend.platform != "tpu":
            raise RecordError(
                f"this run is on platform {backend.platform!r}: a measured record needs a TPU. "
                "Run it on a TPU VM, or use --interpret (the labs that have it) for a "
                "verified-off-chip record that claims correctness, not speed."
            )
        if timing is None:
            raise RecordError("a measured record must carry its timing samples")
        kind, chip = KIND_MEASURED, chip_for(backend.device_kind)

    timing_json = None
    if timing is not None:
        _check_samples("timing", timing.samples)
        if timing.warmup < 0:
            raise RecordError("warmup must be >= 0")
        timing_json = timing.to_json()
    baseline_json = None
    if baseline is not None:
        name, samples = baseline
        _check_samples("baseline", samples)
        baseline_json = {"name": name, "samples": [float(s) for s in samples]}

    return {
        "schema": SCHEMA_ID,
        "schemaVersion": SCHEMA_VERSION,
        "lab": lab,
        "kind": kind,
        "platform": backend.platform,
        "deviceKind": backend.device_kind,
        "chip": chip,
        "deviceCount": backend.device_count,
        "jaxVersion": backend.jax_version,
        "jaxlibVersion": backend.jaxlib_version,
        "dtype": dtype,
        "shapes": {k: int(v) for k, v in shapes.items()},
        "timing": timing_json,
        "baseline": baseline_json,
        "correctness": correctness.to_json(),
        "date": date if date is not None else utc_now(),
        "host": host if host is not None else socket.gethostname(),
        "script": {"name": script_name, "sha256": sha256_of(script_path)},
        "extra": dict(extra),
    }


def _check_samples(what: str, samples: Iterable[float]) -> None:
    samples = list(samples)
    if not samples:
        raise RecordError(f"{what} needs at least one sample")
    for s in samples:
        if not isinstance(s, (int, float)) or isinstance(s, bool) or not math.isfinite(s) or s <= 0:
            raise RecordError(f"{what} samples must be positive seconds, got {s!r}")


def write_json_atomic(data: Any, out_path: str | os.PathLike[str]) -> None:
    """Writes JSON so that ``out_path`` is either the old file or the complete
    new one, never a partial file: serialize first, write a temporary file in
    the same directory, fsync, then os.replace (atomic on POSIX and Windows)."""
    # Serializing first means a bad value fails before any file is touched.
    text = json.dumps(data, indent=2, sort_keys=False, allow_nan=False) + "\n"
    out_path = os.fspath(out_path)
    directory = os.path.dirname(os.path.abspath(out_path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, out_path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_record(record: Mapping[str, Any], out_path: str | os.PathLike[str]) -> None:
    """Writes a record built by ``build_record`` atomically."""
    write_json_atomic(record, out_path)


def summary(record: Mapping[str, Any]) -> str:
    """A few human lines about a record, printed by the scripts at the end."""
    lines = [f"{record['lab']}: {record['kind']} on {record['deviceKind']} "
             f"(chip {record['chip']}, {record['deviceCount']} device(s))"]
    c = record["correctness"]
    lines.append(
        f"  correctness vs {c['reference']}: {'PASSED' if c['passed'] else 'FAILED'} "
        f"(max abs {c['maxAbsError']:.3g}, max rel {c['maxRelError']:.3g})"
    )
    t = record["timing"]
    if t is not None:
        lines.append(f"  median {statistics.median(t['samples']) * 1e6:.1f} us over {len(t['samples'])} samples")
    else:
        lines.append("  no timing: a verified-off-chip run proves correctness only")
    b = record["baseline"]
    if b is not None:
        lines.append(f"  baseline ({b['name']}): median {statistics.median(b['samples']) * 1e6:.1f} us")
    return "\n".join(lines)
