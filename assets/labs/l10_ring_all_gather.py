#!/usr/bin/env python3
"""Lab L10 - ring all-gather with remote DMA.

Each of N devices holds one (rows x cols) shard; afterwards each holds all N.
The kernel runs inside jax.shard_map over a 1-D mesh 'x' and follows the ring
all-gather of the Pallas distributed guide: on step 0 a device copies its own
shard into slot my_id of its output (a local DMA); on step s (grid (N-1,)) it
pushes slot (my_id - s) mod N to the same slot of its right neighbour with
pltpu.make_async_remote_copy, and waits both for its send and for the slot
arriving from its left neighbour. One receive semaphore per step, so two DMAs
in flight never share one. Inputs and outputs stay in HBM (pl.ANY): these are
HBM-to-HBM copies. lax.all_gather is the baseline.

With --bidirectional it runs chapter 14's second kernel instead: every shard
is split in two halves, top halves travel right and bottom halves left, so
both directions of each link carry data, and each direction has just two
receive semaphores, used by step parity. Two suffice because every step waits
for both directions: a neighbour cannot start the step s + 2 copy that reuses
a semaphore before this device has finished step s. The model of the same
schedule is assets/semaphores/ring_all_gather_bidirectional.sem.

Interpret mode uses Pallas's TPU interpret mode (pltpu.InterpretParams), which
simulates remote DMAs and semaphores across --devices CPU devices.

    python3 l10_ring_all_gather.py --out run-L10.json
    python3 l10_ring_all_gather.py --interpret --devices 4 --rows 64 --cols 256 --out run-L10-interpret.json
    python3 l10_ring_all_gather.py --interpret --bidirectional --devices 4 --rows 64 --cols 256 \
        --out run-L10-bidirectional-interpret.json
"""

from __future__ import annotations

import argparse
import functools
import sys
from typing import Any

from common import labkit, record

try:  # JAX at module level, as in the Pallas docs; the course's tests import this file without it
    import jax
    import jax.numpy as jnp
    from jax import lax
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu
except ImportError:
    jax = jnp = lax = pl = pltpu = None  # type: ignore[assignment]

LAB = "L10"
GATE = None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = labkit.parser(LAB, __doc__.splitlines()[0], interpret=True, samples=20)
    p.add_argument("--rows", type=int, default=1024, help="rows of each device's shard (default 1024)")
    p.add_argument("--cols", type=int, default=4096, help="columns of each device's shard (default 4096)")
    p.add_argument("--dtype", choices=["bf16", "f32"], default="bf16")
    p.add_argument("--devices", type=int, default=4,
                   help="simulated CPU devices with --interpret (default 4); on a TPU every device is used")
    p.add_argument("--bidirectional", action="store_true",
                   help="half of each shard each way round the ring, two receive semaphores per direction")
    args = p.parse_args(argv)
    labkit.check_common(args)
    # Each half must fill whole (16, 128) bf16 tiles for the HBM copies of half a shard.
    if args.bidirectional and args.rows % 32:
        p.error("--bidirectional needs --rows divisible by 32, so each half fills whole tiles")
    return args


def all_gather_kernel(x_ref: Any, out_ref: Any, local_sem: Any, send_sem: Any, recv_sems: Any,
                      *, num_devices: int) -> None:
    step = pl.program_id(0)
    my_id = lax.axis_index("x")
    right = lax.rem(my_id + 1, num_devices)
    slot = lax.rem(my_id - step + num_devices, num_devices)

    @pl.when(step == 0)
    def _own_shard() -> None:
        copy = pltpu.make_async_copy(x_ref, out_ref.at[my_id], local_sem)
        copy.start()
        copy.wait()

    # Push the slot we got last step (our own on step 0) to the right; the left
    # neighbour meanwhile pushes slot - 1 into us, counted on recv_sems[step].
    remote = pltpu.make_async_remote_copy(
        src_ref=out_ref.at[slot], dst_ref=out_ref.at[slot],
        send_sem=send_sem, recv_sem=recv_sems.at[step],
        device_id=(right,),  # a mesh index (the default device_id_type)
    )
    remote.start()
    remote.wait()  # our send done, and the left neighbour's slot arrived


def ring_all_gather(x: Any, *, num_devices: int, interpret: Any = False) -> Any:
    """Per device: (rows, cols) -> (num_devices, rows, cols)."""
    return pl.pallas_call(
        functools.partial(all_gather_kernel, num_devices=num_devices),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(num_devices - 1,),
            in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
            out_specs=pl.BlockSpec(memory_space=pl.ANY),
            scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA,
                            pltpu.SemaphoreType.DMA((num_devices - 1,))],
        ),
        out_shape=jax.ShapeDtypeStruct((num_devices, *x.shape), x.dtype),
        name="l10_ring_all_gather",  # how the kernel is named in a profile
        interpret=interpret,
    )(x)


def bidirectional_all_gather_kernel(x_ref: Any, out_ref: Any, local_sem: Any,
                                    right_send: Any, left_send: Any, right_recv: Any, left_recv: Any,
                                    *, num_devices: int, half: int) -> None:
    my_id = lax.axis_index("x")
    right = lax.rem(my_id + 1, num_devices)
    left = lax.rem(my_id - 1 + num_devices, num_devices)
    top, bottom = pl.ds(0, half), pl.ds(half, half)

    own = pltpu.make_async_copy(x_ref, out_ref.at[my_id], local_sem)
    own.start()
    own.wait()
    for step in range(num_devices - 1):  # unrolled: the ring is small
        parity = step % 2
        # Forward what arrived on the previous step (our own halves on step 0).
        top_slot = lax.rem(my_id - step + num_devices, num_devices)
        bottom_slot = lax.rem(my_id + step, num_devices)
        to_right = pltpu.make_async_remote_copy(
            src_ref=out_ref.at[top_slot, top], dst_ref=out_ref.at[top_slot, top],
            send_sem=right_send, recv_sem=right_recv.at[parity], device_id=(right,))
        to_left = pltpu.make_async_remote_copy(
            src_ref=out_ref.at[bottom_slot, bottom], dst_ref=out_ref.at[bottom_slot, bottom],
            send_sem=left_send, recv_sem=left_recv.at[parity], device_id=(left,))
        to_right.start()
        to_left.start()
        # Ours have left; the halves the neighbours sent us on this step have landed.
        to_right.wait()
        to_left.wait()


def bidirectional_all_gather(x: Any, *, num_devices: int, interpret: Any = False) -> Any:
    """Per device: (rows, cols) -> (num_devices, rows, cols), half of each shard each way."""
    dma = pltpu.SemaphoreType.DMA
    return pl.pallas_call(
        functools.partial(bidirectional_all_gather_kernel, num_devices=num_devices, half=x.shape[0] // 2),
        in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
        out_specs=pl.BlockSpec(memory_space=pl.ANY),
        scratch_shapes=[dma, dma, dma, dma((2,)), dma((2,))],
        out_shape=jax.ShapeDtypeStruct((num_devices, *x.shape), x.dtype),
        name="l10_bidirectional_all_gather",  # how the kernel is named in a profile
        interpret=interpret,
    )(x)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.interpret and not args.devices >= 2:
        raise SystemExit("--devices must be at least 2")
    labkit.start_jax(interpret=args.interpret, cpu_devices=args.devices)
    backend = labkit.preflight(args, min_devices=2)
    import numpy as np  # noqa: PLC0415

    P = jax.sharding.PartitionSpec
    if args.interpret and not hasattr(pltpu, "InterpretParams"):
        raise SystemExit("this JAX has no TPU interpret mode (pltpu.InterpretParams), which remote DMAs "
                         "need off-chip; upgrade JAX to run L10 with --interpret")
    interpret = labkit.interpret_mode(pltpu) if args.interpret else False
    n = jax.device_count()
    mesh = labkit.make_mesh_1d(n, "x")  # Auto axis type, whatever make_mesh's default
    sharding = jax.sharding.NamedSharding(mesh, P("x", None))
    host, x = labkit.random_normal(args.seed, (n * args.rows, args.cols), args.dtype)
    x = jax.device_put(x, sharding)

    kernel = bidirectional_all_gather if args.bidirectional else ring_all_gather
    gather = jax.jit(labkit.shard_map(
        functools.partial(kernel, num_devices=n, interpret=interpret),
        mesh=mesh, in_specs=P("x", None), out_specs=P("x", None)))
    out = np.asarray(gather(x).astype(jnp.float32)).reshape(n, n, args.rows, args.cols)
    # Every device must hold every shard, bit for bit: a copy has no rounding.
    want = np.broadcast_to(host.reshape(1, n, args.rows, args.cols), out.shape)
    correctness = record.compare(out, want, reference_name="the input shards, on every device",
                                 abs_tol=0.0, rel_tol=0.0)

    itemsize = 2 if args.dtype == "bf16" else 4
    extra: dict[str, Any] = {
        "ringOrder": [int(d.id) for d in mesh.devices.flat],
        "bytesPerDeviceReceived": (n - 1) * args.rows * args.cols * itemsize,
        "steps": n - 1,
        "bidirectional": bool(args.bidirectional),
    }
    timing = baseline = None
    if not args.interpret:
        timing = labkit.timed(gather, x, args=args, name="Pallas kernel")
        xla = jax.jit(labkit.shard_map(lambda s: lax.all_gather(s, "x"), mesh=mesh,
                                       in_specs=P("x", None), out_specs=P("x", None)))
        baseline = ("XLA lax.all_gather in shard_map", labkit.timed(xla, x, args=args, name="XLA baseline").samples)
        extra["achievedBytesPerSecondPerDevice"] = extra["bytesPerDeviceReceived"] / timing.median()
    labkit.finish(lab=LAB, script=__file__, args=args, dtype=args.dtype,
                  shapes={"rows": args.rows, "cols": args.cols, "devices": n},
                  timing=timing, baseline=baseline, correctness=correctness, extra=extra, backend=backend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
