"""Helpers the lab scripts share: common flags, JAX start-up for interpret
mode, the supported JAX and Python range, dtypes, inputs, meshes, and the last
step (build, write and print the record).

Like record.py, this module imports JAX only inside functions.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from typing import Any, Callable, Mapping, Sequence

from . import record

LABS_JSON = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "labs.json")

# The course's dtype names -> numpy/JAX dtype names.
DTYPE_NAMES = {"bf16": "bfloat16", "f32": "float32", "f16": "float16"}


def parser(lab: str, description: str, *, interpret: bool = False,
           samples: int = 20, warmup: int = 3, calls_per_sample: int = 1) -> argparse.ArgumentParser:
    """An argparse parser with the flags every lab has."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--out", default=f"run-{lab}.json",
                   help=f"where to write the run record (default run-{lab}.json)")
    p.add_argument("--samples", type=int, default=samples,
                   help=f"timed samples to record, every one kept (default {samples})")
    p.add_argument("--warmup", type=int, default=warmup,
                   help=f"untimed calls before sampling, compilation included (default {warmup})")
    p.add_argument("--calls-per-sample", type=int, default=calls_per_sample,
                   help="back-to-back calls per timed sample, the sample being their mean; more than 1 "
                        f"hides the host's dispatch cost behind short ops (default {calls_per_sample})")
    p.add_argument("--seed", type=int, default=0, help="seed for the random inputs (default 0)")
    p.add_argument("--profile", metavar="DIR", default=None,
                   help="also record the timed calls with jax.profiler.trace into DIR, for the app's "
                        "profile page (tpu-course --import-profile DIR): device time op by op, the "
                        "kernel and its baseline in one trace, warm-up kept out where it can be")
    if interpret:
        p.add_argument(
            "--interpret", action="store_true",
            help="run the kernel in Pallas TPU interpret mode on the CPU: a verified-off-chip "
                 "record that checks correctness and records no timing")
    return p


def check_common(args: argparse.Namespace) -> None:
    if args.samples < 1:
        raise SystemExit("--samples must be at least 1")
    if args.warmup < 0:
        raise SystemExit("--warmup must be >= 0")
    if args.calls_per_sample < 1:
        raise SystemExit("--calls-per-sample must be at least 1")


# The profiler trace under way with --profile: one for the whole run, so one
# import shows a kernel and its baseline side by side. Started after the
# first timed function's warm-up, stopped by finish().
_trace_dir: str | None = None
# (what was timed, its XLA program's name) for each function timed into it.
_profiled: list[tuple[str, str | None]] = []


def _module_name(fn: Callable[..., Any], fn_args: Sequence[Any]) -> str | None:
    """The name of the XLA program a jitted function runs ("jit_kernel"), as
    the profile's XLA Modules line names its runs; None when it has none."""
    try:
        text = fn.lower(*fn_args).compile().as_text()
    except Exception:  # noqa: BLE001 - not jitted, or not lowerable: nothing to name
        return None
    first = text.split("\n", 1)[0].split()
    return first[1].rstrip(",") if len(first) > 1 and first[0] == "HloModule" else None


def profiling(args: argparse.Namespace) -> bool:
    """True when this run records a profile: --profile given, and on a TPU
    (interpret mode times nothing, so it has nothing to profile)."""
    return bool(getattr(args, "profile", None)) and not getattr(args, "interpret", False)


def timed(fn: Callable[..., Any], *fn_args: Any, args: argparse.Namespace, name: str | None = None) -> record.Timing:
    """record.time_calls with the lab's --warmup, --samples and --calls-per-sample.

    With --profile the timed calls also go into a jax.profiler trace: the
    warm-up runs first (outside the trace for the first function timed; for
    later ones it is inside, marked "warm-up, not timed"), then each timed
    call runs under a step annotation named after the function, so the
    profile tells the kernel's calls from the baseline's."""
    if not profiling(args):
        return record.time_calls(fn, *fn_args, warmup=args.warmup, samples=args.samples,
                                 calls_per_sample=args.calls_per_sample)
    import jax  # noqa: PLC0415

    global _trace_dir
    label = name or getattr(fn, "__name__", "timed")
    with jax.profiler.TraceAnnotation("warm-up, not timed: " + label):
        for _ in range(args.warmup):
            jax.block_until_ready(fn(*fn_args))
    module = _module_name(fn, fn_args)
    if _trace_dir is None:
        os.makedirs(args.profile, exist_ok=True)
        _profiled.clear()
        jax.profiler.start_trace(args.profile)
        _trace_dir = args.profile
    _profiled.append((label, module))
    step = 0

    def annotated(*call_args: Any) -> Any:
        nonlocal step
        with jax.profiler.StepTraceAnnotation(label, step_num=step):
            step += 1
            return fn(*call_args)

    return record.time_calls(annotated, *fn_args, warmup=0, samples=args.samples,
                             calls_per_sample=args.calls_per_sample)


def profile_entry(profile_dir: str) -> dict[str, Any]:
    """What a record says of the profile its run wrote: the folder and the
    programs of the timed function (the first timed) and of the XLA
    baseline, so the app can judge the gate on the device's own time."""
    timed = next((m for _, m in _profiled if m), None)
    baseline = next((m for label, m in _profiled if label == "XLA baseline" and m), None)
    modules = {label: m for label, m in _profiled if m}
    return {"dir": os.path.abspath(profile_dir), "timedModule": timed, "baselineModule": baseline, "modules": modules}


def stop_profile() -> str | None:
    """Ends the trace --profile started, if any; returns its folder."""
    global _trace_dir
    if _trace_dir is None:
        return None
    import jax  # noqa: PLC0415

    jax.profiler.stop_trace()
    done, _trace_dir = _trace_dir, None
    return done


def matmul_reference(a: Any, b: Any) -> Any:
    """a @ b in float32 at HIGHEST precision (no bf16 passes), on the device."""
    import jax  # noqa: PLC0415
    import jax.numpy as jnp  # noqa: PLC0415

    return jnp.dot(a.astype(jnp.float32), b.astype(jnp.float32), precision=jax.lax.Precision.HIGHEST)


def check_matmul(out: Any, a: Any, b: Any, dtype: str, what: str = "") -> record.Correctness:
    """Checks a matmul whose inputs were scaled so outputs are O(1) (b by
    1/sqrt(k)) against the float32 HIGHEST reference. bf16 outputs are
    rounded to 8 bits of mantissa, hence the tolerance."""
    import numpy as np  # noqa: PLC0415

    ref = np.asarray(matmul_reference(a, b))
    tol = 2e-2 if dtype == "bf16" else 1e-2
    name = "float32 matmul at HIGHEST precision on the same inputs" + (f" ({what})" if what else "")
    return record.compare(np.asarray(out.astype("float32")), ref, reference_name=name, abs_tol=tol, rel_tol=tol)


# ----------------------------------------------------------- supported range


def version_tuple(text: str) -> tuple[int, ...]:
    """"0.9.2" -> (0, 9, 2); a suffix such as ".dev20260401" or "rc1" ends it."""
    out: list[int] = []
    for part in text.split("."):
        digits = ""
        for ch in part:
            if not ch.isdigit():
                break
            digits += ch
        if not digits:
            break
        out.append(int(digits))
        if len(digits) != len(part):
            break
    return tuple(out)


# The range in labs.json and where it comes from: JAX 0.7.0's release notes make Python 3.11 the
# minimum and keep it "until July 2026"; 0.11.0 was released July 16, 2026 (docs/pallas/CHANGELOG.md
# at Lazarus-931/jax@1e66a39e), hence 3.12 for it (its own notes were not read). The JAX releases
# each have a snapshot of their source in tests/labs/jax_surface.json (0.8.1 and the commit
# SOURCES.md cites are marked there as not stored).
@functools.lru_cache(maxsize=1)
def supported() -> dict[str, Any]:
    """The JAX and Python versions the labs are written for (labs.json,
    "supported"); empty when labs.json is not beside the scripts."""
    try:
        with open(LABS_JSON, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return data.get("supported", {}) if isinstance(data, dict) else {}


def python_problem(version: Sequence[int] | None = None) -> str | None:
    """One sentence saying what to install when this Python is too old for the
    supported JAX releases, else None."""
    sup = supported().get("python", {})
    need = version_tuple(sup.get("min", "0"))
    have = tuple(version if version is not None else sys.version_info[:3])
    if have >= need:
        return None
    newest = ", ".join(f"JAX {r['jax']} needs Python {r['python']}" for r in sup.get("byJax", []))
    return (f"These labs need Python {sup['min']} or newer and this is Python "
            f"{'.'.join(map(str, have))}: install Python {sup['min']} or newer"
            f"{' (' + newest + ')' if newest else ''} and then {install_hint(False)} in it.")


def install_hint(interpret: bool) -> str:
    inst = supported().get("install", {})
    return inst.get("cpu" if interpret else "tpu", "pip install -U 'jax[tpu]'")


def jax_problem(version: str, interpret: bool = False) -> tuple[str, bool] | None:
    """(one sentence, fatal) when this JAX is outside the supported range:
    fatal below it, a warning above it (a newer JAX may still run the labs;
    jax_surface.json in the course's tests records what was checked)."""
    sup = supported().get("jax", {})
    if not sup:
        return None
    have = version_tuple(version)
    lowest, highest = version_tuple(sup["min"]), version_tuple(sup["max"])
    span = f"JAX {sup['min']} to {sup['max']}.x"
    if have < lowest:
        return (f"These labs are written for {span} and this is JAX {version}: {install_hint(interpret)}.", True)
    if have[:len(highest)] > highest:
        return (f"note: these labs were checked against {span} and this is JAX {version}; if a lab fails, "
                f"{install_hint(interpret)} gives a checked release.", False)
    return None


@functools.lru_cache(maxsize=1)
def jax_version() -> tuple[int, ...]:
    import jax  # noqa: PLC0415

    return version_tuple(jax.__version__)


def jax_at_least(version: Sequence[int]) -> bool:
    """True when the installed JAX is this release or newer: the labs' version
    gate (tests/labs/jaxdrift.py checks each branch against the releases it
    runs on)."""
    return jax_version() >= tuple(version)


def start_jax(*, interpret: bool = False, cpu_devices: int = 1) -> None:
    """Checks Python and JAX against the supported range, imports JAX and, for
    interpret mode, pins it to the CPU platform (with ``cpu_devices``
    simulated devices for the distributed labs). Must run before anything
    touches a device: both settings are read when JAX creates its backends."""
    problem = python_problem()
    if problem:
        raise SystemExit(problem)
    if interpret:
        os.environ["JAX_PLATFORMS"] = "cpu"
    try:
        import jax  # noqa: PLC0415
    except ImportError as e:
        raise SystemExit(
            f"JAX is not installed here ({e}). On a TPU VM: {install_hint(False)}. "
            f"For --interpret on a laptop: {install_hint(True)}"
        ) from e
    outside = jax_problem(jax.__version__, interpret)
    if outside and outside[1]:
        raise SystemExit(outside[0])
    if outside:
        print(outside[0], file=sys.stderr)
    if interpret:
        jax.config.update("jax_platforms", "cpu")
        if cpu_devices > 1:
            try:
                jax.config.update("jax_num_cpu_devices", cpu_devices)
            except (AttributeError, KeyError, ValueError):
                # Older JAX has no such option; XLA reads this flag when it
                # creates the CPU client, which has not happened yet.
                flags = os.environ.get("XLA_FLAGS", "")
                if "xla_force_host_platform_device_count" not in flags:
                    os.environ["XLA_FLAGS"] = (
                        flags + f" --xla_force_host_platform_device_count={cpu_devices}").strip()


def preflight(args: argparse.Namespace, *, min_devices: int = 1) -> record.Backend:
    """Reads the backend before any long run and stops at once if no record
    could be written at the end: a measured run off a TPU, a TPU the
    simulator does not know, or too few devices."""
    backend = record.jax_backend()
    interpret = bool(getattr(args, "interpret", False))
    try:
        if interpret:
            if backend.platform != "cpu":
                raise record.RecordError(f"interpret mode should run on the CPU, JAX chose {backend.platform!r}")
        elif backend.platform != "tpu":
            hint = " or add --interpret for a verified-off-chip run" if hasattr(args, "interpret") else ""
            raise record.RecordError(
                f"no TPU here (JAX platform {backend.platform!r}): run this lab on a TPU VM{hint}")
        else:
            record.chip_for(backend.device_kind)
        if backend.device_count < min_devices:
            raise record.RecordError(
                f"this lab needs at least {min_devices} devices; JAX sees {backend.device_count}")
    except record.RecordError as e:
        raise SystemExit(f"stopping before the run: {e}") from e
    where = "CPU (interpret mode)" if interpret else backend.device_kind
    print(f"JAX {backend.jax_version} / jaxlib {backend.jaxlib_version} on {backend.device_count} x {where}")
    return backend


def interpret_mode(pltpu: Any) -> Any:
    """The ``interpret=`` argument for pallas_call: TPU interpret mode
    (``pltpu.InterpretParams``), which simulates VMEM, DMAs and semaphores on
    the CPU, where this JAX has it; else the generic interpreter (True)."""
    params = getattr(pltpu, "InterpretParams", None)
    return params() if params is not None else True


def jnp_dtype(name: str) -> Any:
    import jax.numpy as jnp  # noqa: PLC0415

    if name not in DTYPE_NAMES:
        raise SystemExit(f"dtype {name!r} is not supported by this lab (use one of {', '.join(DTYPE_NAMES)})")
    return getattr(jnp, DTYPE_NAMES[name])


def random_normal(seed: int, shape: Sequence[int], dtype_name: str, scale: float = 1.0) -> Any:
    """Normal values rounded to the dtype: returns (host float32 copy of the
    rounded values, device array). References are computed from the rounded
    values, so rounding the inputs is not counted as error."""
    import jax.numpy as jnp  # noqa: PLC0415
    import numpy as np  # noqa: PLC0415

    rng = np.random.default_rng(seed)
    host = (rng.standard_normal(tuple(shape), dtype=np.float32) * scale)
    dev = jnp.asarray(host, dtype=jnp_dtype(dtype_name))
    return np.asarray(dev.astype(jnp.float32)), dev


def shard_map(f: Callable[..., Any], *, mesh: Any, in_specs: Any, out_specs: Any) -> Callable[..., Any]:
    """jax.shard_map without the replication check (Pallas kernels cannot be
    checked). ``mesh`` may be an AbstractMesh (see tpu_interpret_mesh)."""
    import jax  # noqa: PLC0415

    if not hasattr(jax, "shard_map"):
        raise SystemExit(f"this JAX has no jax.shard_map, which the distributed labs use: {install_hint(False)}")
    # shard_map(f, /, *, out_specs, in_specs, mesh, axis_names, check_vma), mesh a Mesh or an
    # AbstractMesh: RoyK0108/jax@074210ca jax/_src/shard_map.py. jax.shard_map is exported on the
    # 0.9 and 0.10 lines (ROCm/jax@abf741b2, dhruvatr/jax@3077291d jax/__init__.py).
    return jax.shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=False)


def make_mesh_1d(n: int, name: str = "x") -> Any:
    """A 1-D mesh over n devices with an Auto axis, the axis type the labs are
    written for, whatever make_mesh's default."""
    import jax  # noqa: PLC0415

    # jax.make_mesh(axis_shapes, axis_names, axis_types=None, *, devices=None) picks
    # (AxisType.Explicit,) * ndim when axis_types is None (aaditya-panik/jax@5dbe6990
    # jax/_src/sharding_impls.py; Explicit from 0.9.0). On an Explicit mesh, jnp.dot of a
    # P('x', None) array by a P(None, 'x') one infers P('x', 'x') and fails. AxisType is exported
    # by jax.sharding on the 0.7.0 line (roni1-cmd/nexora-machine-learning@dc3be3dc, a copy of
    # jax/sharding.py).
    return jax.make_mesh((n,), (name,), axis_types=(jax.sharding.AxisType.Auto,))


def tpu_interpret_mesh(mesh: Any, device_kind: str = "TPU v5 lite") -> Any:
    """The abstract twin of ``mesh`` whose device is a TPU: the mesh to give
    shard_map for --interpret when a kernel uses pltpu.emit_pipeline.

    emit_pipeline tiles every DMA for the TPU generation it targets
    (tpu_info.infer_tiling -> get_tpu_info().generation, v0i0/jax@b8352b85
    jax/_src/pallas/mosaic/pipeline.py), and get_tpu_info raises "Unsupported
    TPU device kind" for a CPU (jax-ml/jax@4f32df24
    jax/_src/pallas/mosaic/tpu_info.py). The device kind comes from the
    abstract mesh in context, whose abstract_device, inside shard_map, is that
    of the mesh shard_map was given (_as_manual_mesh:
    mesh.abstract_mesh.update_axis_types, RoyK0108/jax@074210ca
    jax/_src/shard_map.py). A concrete CPU mesh names a CPU; this one names
    the TPU. AbstractDevice(device_kind, num_cores, platform) and
    AbstractMesh(axis_sizes, axis_names, axis_types, *, abstract_device):
    0xaskr/jax@3d1d3e89 jax/_src/mesh.py."""
    import jax  # noqa: PLC0415

    if not hasattr(jax.sharding, "AbstractDevice"):
        # Not exported on the 0.7.0 line (jax/sharding.py as copied at roni1-cmd/nexora-machine-learning@dc3be3dc).
        raise SystemExit("this JAX has no jax.sharding.AbstractDevice, which --interpret needs to tell "
                         f"emit_pipeline which TPU to tile for off-chip: {install_hint(True)}")
    device = jax.sharding.AbstractDevice(device_kind=device_kind, num_cores=1, platform="tpu")
    return jax.sharding.AbstractMesh(mesh.axis_sizes, mesh.axis_names, axis_types=mesh.axis_types,
                                     abstract_device=device)


def median(samples: Sequence[float]) -> float:
    import statistics  # noqa: PLC0415

    return statistics.median(samples)


def finish(
    *,
    lab: str,
    script: str,
    args: argparse.Namespace,
    dtype: str,
    shapes: Mapping[str, int],
    timing: record.Timing | None,
    baseline: tuple[str, Sequence[float]] | None,
    correctness: record.Correctness,
    extra: Mapping[str, Any],
    backend: record.Backend | None = None,
) -> dict[str, Any]:
    """Builds the record from the live backend, writes it atomically, prints a summary."""
    interpret = bool(getattr(args, "interpret", False))
    profile_dir = stop_profile()
    if profile_dir is not None:
        extra = {**extra, "profile": profile_entry(profile_dir)}
    try:
        rec = record.build_record(
            lab=lab,
            script_path=script,
            backend=backend if backend is not None else record.jax_backend(),
            interpret=interpret,
            dtype=dtype,
            shapes=shapes,
            timing=None if interpret else timing,
            baseline=None if interpret else baseline,
            correctness=correctness,
            extra=extra,
        )
        record.write_record(rec, args.out)
    except record.RecordError as e:
        print(f"no record written: {e}", file=sys.stderr)
        raise SystemExit(2) from e
    print(record.summary(rec))
    print(f"wrote {args.out}: import it in the app (Labs > {lab}) or with tpu-course --import-run {args.out}")
    if profile_dir is not None:
        print(f"wrote a profile in {profile_dir}: open it on the app's profile page, or with "
              f"tpu-course --import-profile {profile_dir}")
    elif getattr(args, "profile", None) and interpret:
        print("no profile written: an interpret run times nothing on a TPU", file=sys.stderr)
    return rec
