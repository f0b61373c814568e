#!/usr/bin/env python3
"""Lab L11 - collective matmul: hide the communication (gate G4).

Y = X @ W on N >= 4 chips, X sharded by rows (each device holds an
(m x k) chunk) and W by columns (each holds k x n_local). Every device needs
all of X, so the plain way is all-gather, then matmul: the chips idle while
X moves. This kernel decomposes the all-gather into the matmul: at step s a
device multiplies the X chunk it holds (slot (my_id - s) mod N) by its W
columns while the same chunk travels to its right neighbour by remote DMA, so
by step s + 1 the next chunk has arrived from the left. Each slot of the
gathered-X buffer is written exactly once, so no capacity handshake is needed.
The local matmul is a nested pltpu.emit_pipeline over VMEM blocks
(bm, bk) x (bk, bn) with a float32 accumulator, the L07 kernel inside an
outer kernel that moves HBM chunks between chips.

Measured against:
  compute-only  the same kernel with the DMAs removed, on an already gathered X
                (extra.computeOnlySamples): the time with nothing to hide;
  baseline      XLA's all_gather then jnp.dot in shard_map.
Gate G4 passes on a measured run on >= 4 chips, correct against the float32
reference, with median <= 1.15 x the compute-only median.

Interpret mode uses Pallas's TPU interpret mode (pltpu.InterpretParams), which
simulates remote DMAs and semaphores across --devices CPU devices. Off a TPU,
emit_pipeline still needs to know which TPU it tiles for, so the kernel runs in
shard_map over an abstract twin of the CPU mesh whose device is a TPU v5e
(labkit.tpu_interpret_mesh); this needs JAX 0.8.1 or newer.

    python3 l11_collective_matmul.py --out run-L11.json
    python3 l11_collective_matmul.py --interpret --devices 4 --m-per-device 128 --k 256 \
        --n-per-device 256 --bm 128 --bk 128 --bn 128 --out run-L11-interpret.json
"""

from __future__ import annotations

import argparse
import functools
import sys
from typing import Any

from common import labkit

try:  # JAX at module level, as in the Pallas docs; the course's tests import this file without it
    import jax
    import jax.numpy as jnp
    from jax import lax
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu
except ImportError:
    jax = jnp = lax = pl = pltpu = None  # type: ignore[assignment]

LAB = "L11"
GATE = "G4"
MIN_DEVICES = 4


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], interpret=True, samples=10)
    # Per step: compute 2*m*k*n_local FLOPs while sending m*k*2 bytes over one link, so
    # compute hides the send when n_local > peak / link bandwidth (about 4400 on v5e).
    p.add_argument("--m-per-device", type=int, default=1024, help="rows of X per device (default 1024)")
    p.add_argument("--k", type=int, default=4096, help="contracted size (default 4096)")
    p.add_argument("--n-per-device", type=int, default=8192, help="columns of W per device (default 8192)")
    p.add_argument("--bm", type=int, default=512)
    p.add_argument("--bk", type=int, default=1024)
    p.add_argument("--bn", type=int, default=1024)
    p.add_argument("--dtype", choices=["bf16", "f32"], default="bf16")
    p.add_argument("--devices", type=int, default=4,
                   help="simulated CPU devices with --interpret (default 4); on a TPU every device is used")
    args = p.parse_args(argv)
    labkit.check_common(args)
    if args.m_per_device % args.bm or args.k % args.bk or args.n_per_device % args.bn:
        p.error("--bm, --bk, --bn must divide --m-per-device, --k, --n-per-device")
    return args


def local_matmul(x_hbm: Any, w_hbm: Any, y_hbm: Any, acc_ref: Any, *, bm: int, bk: int, bn: int) -> None:
    """y = x @ w for one chunk, pipelined HBM -> VMEM inside the outer kernel."""
    m, k = x_hbm.shape
    n = w_hbm.shape[1]
    k_steps = k // bk

    def body(x_ref: Any, w_ref: Any, y_ref: Any) -> None:
        kk = pl.program_id(2)  # inside emit_pipeline: the inner grid's index

        @pl.when(kk == 0)
        def _zero() -> None:
            acc_ref[...] = jnp.zeros_like(acc_ref)

        acc_ref[...] += jnp.dot(x_ref[...], w_ref[...], preferred_element_type=jnp.float32)

        @pl.when(kk == k_steps - 1)
        def _store() -> None:
            y_ref[...] = acc_ref[...].astype(y_ref.dtype)

    pltpu.emit_pipeline(
        body,
        grid=(m // bm, n // bn, k_steps),
        in_specs=[pl.BlockSpec((bm, bk), lambda i, j, kk: (i, kk)),
                  pl.BlockSpec((bk, bn), lambda i, j, kk: (kk, j))],
        out_specs=pl.BlockSpec((bm, bn), lambda i, j, kk: (i, j)),
    )(x_hbm, w_hbm, y_hbm)


def collective_kernel(x_ref: Any, w_ref: Any, y_ref: Any, xg_ref: Any,
                      local_sem: Any, send_sem: Any, recv_sems: Any, acc_ref: Any,
                      *, num_devices: int, bm: int, bk: int, bn: int) -> None:
    step = pl.program_id(0)
    my_id = lax.axis_index("x")
    right = lax.rem(my_id + 1, num_devices)
    slot = lax.rem(my_id - step + num_devices, num_devices)  # whose X chunk we hold now

    @pl.when(step == 0)
    def _own_chunk() -> None:
        copy = pltpu.make_async_copy(x_ref, xg_ref.at[my_id], local_sem)
        copy.start()
        copy.wait()

    send = pltpu.make_async_remote_copy(
        src_ref=xg_ref.at[slot], dst_ref=xg_ref.at[slot],
        send_sem=send_sem, recv_sem=recv_sems.at[step], device_id=(right,))
    not_last = step < num_devices - 1

    @pl.when(not_last)
    def _send() -> None:
        send.start()  # the chunk travels while we multiply it

    local_matmul(xg_ref.at[slot], w_ref, y_ref.at[slot], acc_ref, bm=bm, bk=bk, bn=bn)

    @pl.when(not_last)
    def _wait() -> None:
        send.wait()  # our send is done, and the next chunk has come in from the left


def compute_only_kernel(xg_ref: Any, w_ref: Any, y_ref: Any, acc_ref: Any,
                        *, num_devices: int, bm: int, bk: int, bn: int) -> None:
    step = pl.program_id(0)
    slot = lax.rem(lax.axis_index("x") - step + num_devices, num_devices)
    local_matmul(xg_ref.at[slot], w_ref, y_ref.at[slot], acc_ref, bm=bm, bk=bk, bn=bn)


def collective_matmul(x: Any, w: Any, *, num_devices: int, bm: int, bk: int, bn: int,
                      interpret: Any = False) -> Any:
    """Per device: x (m, k), w (k, n_local) -> y (num_devices * m, n_local)."""
    m, k = x.shape
    n = w.shape[1]
    any_spec = pl.BlockSpec(memory_space=pl.ANY)
    y, _ = pl.pallas_call(
        functools.partial(collective_kernel, num_devices=num_devices, bm=bm, bk=bk, bn=bn),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(num_devices,),
            in_specs=[any_spec, any_spec],
            out_specs=[any_spec, any_spec],
            scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA,
                            pltpu.SemaphoreType.DMA((num_devices,)),
                            pltpu.VMEM((bm, bn), jnp.float32)],
        ),
        out_shape=[jax.ShapeDtypeStruct((num_devices, m, n), x.dtype),   # y, by source chunk
                   jax.ShapeDtypeStruct((num_devices, m, k), x.dtype)],  # gathered X (the DMA targets)
        name="l11_collective_matmul",  # how the kernel is named in a profile
        interpret=interpret,
    )(x, w)
    return y.reshape(num_devices * m, n)


def compute_only_matmul(xg: Any, w: Any, *, num_devices: int, bm: int, bk: int, bn: int,
                        interpret: Any = False) -> Any:
    """Per device: gathered x (num_devices * m, k), w -> y, with no communication."""
    m = xg.shape[0] // num_devices
    n = w.shape[1]
    any_spec = pl.BlockSpec(memory_space=pl.ANY)
    y = pl.pallas_call(
        functools.partial(compute_only_kernel, num_devices=num_devices, bm=bm, bk=bk, bn=bn),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(num_devices,),
            in_specs=[any_spec, any_spec],
            out_specs=any_spec,
            scratch_shapes=[pltpu.VMEM((bm, bn), jnp.float32)],
        ),
        out_shape=jax.ShapeDtypeStruct((num_devices, m, n), xg.dtype),
        name="l11_compute_only_matmul",  # how the kernel is named in a profile
        interpret=interpret,
    )(xg.reshape(num_devices, m, xg.shape[1]), w)
    return y.reshape(num_devices * m, n)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.interpret and args.devices < 2:
        raise SystemExit("--devices must be at least 2")
    labkit.start_jax(interpret=args.interpret, cpu_devices=args.devices)
    # G4 needs >= 4 chips; interpret mode checks correctness on whatever it simulates.
    backend = labkit.preflight(args, min_devices=2 if args.interpret else MIN_DEVICES)
    if args.interpret and not hasattr(pltpu, "InterpretParams"):
        raise SystemExit("this JAX has no TPU interpret mode (pltpu.InterpretParams), which remote DMAs "
                         "need off-chip; upgrade JAX to run L11 with --interpret")
    if args.interpret and not labkit.jax_at_least((0, 8, 1)):
        # Up to 0.8.0 emit_pipeline reads the TPU generation from the device itself; from 0.8.1 it goes
        # through pltpu.get_tpu_info (first exported at jax-ml/jax@02939fef, absent at jax-ml/jax@79e04757
        # jax/experimental/pallas/tpu.py), which an abstract TPU device answers.
        raise SystemExit("L11 --interpret needs JAX 0.8.1 or newer (before it, emit_pipeline asks the device "
                         f"itself for its TPU generation): {labkit.install_hint(True)}")
    interpret = labkit.interpret_mode(pltpu) if args.interpret else False

    P = jax.sharding.PartitionSpec
    n_dev = jax.device_count()
    mesh = labkit.make_mesh_1d(n_dev, "x")
    # Off a TPU, shard_map runs over the mesh's abstract twin with a TPU device, so that
    # emit_pipeline inside the kernel can tile (see labkit.tpu_interpret_mesh).
    kernel_mesh = labkit.tpu_interpret_mesh(mesh) if args.interpret else mesh
    M, K, N = n_dev * args.m_per_device, args.k, n_dev * args.n_per_device
    _, x = labkit.random_normal(args.seed, (M, K), args.dtype)
    _, w = labkit.random_normal(args.seed + 1, (K, N), args.dtype, scale=K ** -0.5)
    x = jax.device_put(x, jax.sharding.NamedSharding(mesh, P("x", None)))
    w = jax.device_put(w, jax.sharding.NamedSharding(mesh, P(None, "x")))
    # The float32 reference multiplies replicated copies: no sharding for jnp.dot to infer,
    # whatever the mesh's axis types.
    replicated = jax.sharding.NamedSharding(mesh, P())
    x_rep, w_rep = jax.device_put(x, replicated), jax.device_put(w, replicated)
    blocks = {"bm": args.bm, "bk": args.bk, "bn": args.bn}

    fused = jax.jit(labkit.shard_map(
        functools.partial(collective_matmul, num_devices=n_dev, interpret=interpret, **blocks),
        mesh=kernel_mesh, in_specs=(P("x", None), P(None, "x")), out_specs=P(None, "x")))
    try:
        y = fused(x, w)
    except ValueError as e:
        if args.interpret and "TPU device kind" in str(e):
            raise SystemExit("this JAX does not pass shard_map's abstract TPU device on to emit_pipeline "
                             f"({e}); run L11 --interpret with a newer JAX: {labkit.install_hint(True)}") from e
        raise
    correctness = labkit.check_matmul(y, x_rep, w_rep, args.dtype)

    extra: dict[str, Any] = {
        "blocks": blocks,
        "ringOrder": [int(d.id) for d in mesh.devices.flat],
        "flopsPerDevice": 2 * M * K * args.n_per_device,
        "bytesSentPerDevice": (n_dev - 1) * args.m_per_device * K * (2 if args.dtype == "bf16" else 4),
    }
    timing = baseline = None
    if not args.interpret:
        timing = labkit.timed(fused, x, w, args=args, name="Pallas kernel")
        # Compute-only: the same kernel minus the DMAs, on X already gathered (replicated).
        x_full = jax.device_put(x, jax.sharding.NamedSharding(mesh, P(None, None)))
        compute = jax.jit(labkit.shard_map(
            functools.partial(compute_only_matmul, num_devices=n_dev, **blocks),
            mesh=mesh, in_specs=(P(None, None), P(None, "x")), out_specs=P(None, "x")))
        extra["computeOnlyCorrectness"] = labkit.check_matmul(compute(x_full, w), x_rep, w_rep, args.dtype).to_json()
        extra["computeOnlySamples"] = labkit.timed(compute, x_full, w, args=args, name="compute only").samples
        xla = jax.jit(labkit.shard_map(
            lambda xs, ws: jnp.dot(lax.all_gather(xs, "x", tiled=True), ws),
            mesh=mesh, in_specs=(P("x", None), P(None, "x")), out_specs=P(None, "x")))
        baseline = ("XLA all_gather then jnp.dot in shard_map", labkit.timed(xla, x, w, args=args, name="XLA baseline").samples)
        extra["ratioToComputeOnly"] = timing.median() / labkit.median(extra["computeOnlySamples"])
        print(f"collective / compute-only median time: {extra['ratioToComputeOnly']:.3f} (G4 needs <= 1.15)")
    labkit.finish(lab=LAB, script=__file__, args=args, dtype=args.dtype,
                  shapes={"m": M, "k": K, "n": N, "m_per_device": args.m_per_device,
                          "n_per_device": args.n_per_device},
                  timing=timing, baseline=baseline, correctness=correctness, extra=extra, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
