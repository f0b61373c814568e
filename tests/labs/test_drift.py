"""Tests of the drift check (jaxdrift.py) and its recorded JAX surface
(jax_surface.json), without JAX: every rule is shown to fire on a snippet
made to break it and to stay quiet on the fixed form, and the pre-fix copies
of the labs in fixtures/pre_fix must show the failures they had.

Run: python3 -m unittest -v test_drift
"""

from __future__ import annotations

import json
import os
import re
import textwrap
import unittest

import jaxdrift
import jaxdrift_lints

HERE = os.path.dirname(os.path.abspath(__file__))
PRE_FIX = os.path.join(HERE, "fixtures", "pre_fix")
HEX40 = re.compile(r"^[0-9a-f]{40}$")


def check(source: str, name: str = "l99_snippet.py", helpers: set[str] | None = None) -> list[jaxdrift.Finding]:
    return jaxdrift.check_file(os.path.join(HERE, name), source=textwrap.dedent(source),
                               helpers=set() if helpers is None else helpers)


def rules(findings: list[jaxdrift.Finding]) -> list[str]:
    return [f.rule for f in findings]


class SurfaceData(unittest.TestCase):
    """The recorded surface says where every entry was read."""

    def setUp(self):
        self.s = jaxdrift.Surface.load()

    def test_every_source_is_pinned(self):
        for src in self.s.data["sources"]:
            with self.subTest(source=src["id"]):
                self.assertTrue(src["note"])
                if "commit" in src:
                    self.assertRegex(src["commit"], HEX40)
                    self.assertRegex(src["repo"], r"^[\w.-]+/[\w.-]+$")
                    self.assertTrue(src["path"])
                else:
                    self.assertTrue(src.get("url") or src.get("indexIds"))

    def test_references_resolve(self):
        for snap in self.s.data["snapshots"]:
            for src in snap["sources"]:
                self.assertIn(src, self.s.sources, snap["id"])
            if snap["version"] is not None:
                self.assertTrue(jaxdrift.parse_version(snap["version"]))
        for rel in self.s.data["releases"]:
            for snap in rel["snapshots"]:
                self.assertIn(snap, self.s.snapshots, rel["release"])
            self.assertTrue(rel["snapshots"] or rel["notStored"], rel["release"])
        for mod, m in self.s.modules.items():
            for name, entry in m["names"].items():
                with self.subTest(name=f"{mod}.{name}"):
                    self.assertTrue(entry["status"])
                    for snap, status in entry["status"].items():
                        self.assertIn(snap, self.s.snapshots)
                        self.assertIn(status, ("present", "deprecated", "removed", "absent"))
                    for sig in entry.get("signatures", []):
                        self.assertIn(sig["source"], self.s.sources)
        for d in self.s.deny:
            for src in d["sources"]:
                self.assertIn(src, self.s.sources)

    def test_deny_list_matches_the_recorded_statuses(self):
        """A deny-listed pltpu name is deprecated or gone at its deprecation release."""
        names = self.s.modules["jax.experimental.pallas.tpu"]["names"]
        for d in self.s.deny:
            if "chain" not in d or not d["chain"].startswith(jaxdrift.PLTPU + "."):
                continue
            entry = names[d["chain"].rsplit(".", 1)[1]]
            after = [st for snap, st in entry["status"].items()
                     if not self.s.snapshots[snap].get("development")
                     and jaxdrift.parse_version(self.s.snapshots[snap]["version"])
                     >= jaxdrift.parse_version(d["deprecated"])]
            with self.subTest(chain=d["chain"]):
                self.assertTrue(after)
                self.assertNotIn("present", after)

    def test_versions(self):
        self.assertEqual(jaxdrift.parse_version("0.9.2"), (0, 9, 2))
        self.assertEqual(jaxdrift.parse_version("0.10.0.dev20260401"), (0, 10, 0))
        self.assertEqual(jaxdrift.parse_version("0.8.1rc1"), (0, 8, 1))
        self.assertLess(jaxdrift.parse_version("0.9.2"), jaxdrift.parse_version("0.10.0"))


class ShippedLabs(unittest.TestCase):
    """The labs as shipped pass the check, and their blocks tile."""

    def test_no_findings(self):
        findings = [f for p in jaxdrift.lab_files() for f in jaxdrift.check_file(p)]
        self.assertEqual([str(f) for f in findings], [])

    def test_the_rules_see_the_kernels(self):
        """The rules are not vacuous on the labs: they find the kernels,
        accumulators and zeroing blocks that are there."""
        l07 = jaxdrift.Module(os.path.join(jaxdrift.LABS, "l07_tiled_matmul.py"))
        self.assertEqual(set(jaxdrift.kernel_functions(l07)), {"matmul_kernel"})
        fn = l07.functions["matmul_kernel"]
        self.assertEqual(set(jaxdrift_lints._accumulated_refs(fn)), {"acc_ref"})
        self.assertEqual(jaxdrift_lints._zeroed_refs(l07, fn, jaxdrift_lints._program_id_vars(l07, fn)), {"acc_ref": 2})
        l09 = jaxdrift.Module(os.path.join(jaxdrift.LABS, "l09_streaming_attention.py"))
        self.assertEqual(set(jaxdrift.kernel_functions(l09)), {"flash_kernel", "_lanes_to"})
        self.assertEqual(set(jaxdrift_lints._accumulated_refs(l09.functions["flash_kernel"])), {"l_ref", "acc_ref"})
        l11 = jaxdrift.Module(os.path.join(jaxdrift.LABS, "l11_collective_matmul.py"))
        self.assertEqual(set(jaxdrift.kernel_functions(l11)),
                         {"collective_kernel", "compute_only_kernel", "local_matmul"})
        self.assertIn("tpu_interpret_mesh", jaxdrift.abstract_mesh_helpers())
        gated = [u for u in l09.uses if u.chain == "jax.experimental.pallas.tpu.repeat"]
        self.assertEqual([(u.lo, u.hi) for u in gated], [(None, (0, 9, 0))])

    def test_default_and_interpret_blocks_tile(self):
        import importlib.util
        import shlex
        import sys
        sys.path.insert(0, jaxdrift.LABS)
        with open(os.path.join(jaxdrift.LABS, "labs.json"), encoding="utf-8") as f:
            pages = {p["id"]: p for p in json.load(f)["labs"]}
        for lab in jaxdrift.BLOCKS:
            path = os.path.join(jaxdrift.LABS, pages[lab]["script"])
            spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            runs = [("defaults", [])] + [(c, shlex.split(c)[2:]) for c in pages[lab]["commands"]]
            for where, argv in runs:
                with self.subTest(lab=lab, run=where):
                    self.assertEqual(jaxdrift.check_block_tiling(lab, module.parse_args(argv), where), [])

    def test_supported_range_was_checked(self):
        """labs.json's range starts and ends at releases the surface has snapshots for."""
        with open(os.path.join(jaxdrift.LABS, "labs.json"), encoding="utf-8") as f:
            sup = json.load(f)["supported"]
        surface = jaxdrift.Surface.load()
        read = {r["release"] for r in surface.data["releases"] if r["snapshots"]}
        self.assertIn(sup["jax"]["min"], read)
        self.assertTrue(any(r.startswith(sup["jax"]["max"] + ".") for r in read))


class PreFixLabs(unittest.TestCase):
    """The scripts as they were: the check finds what would have broken."""

    def findings(self, name: str) -> set[tuple[str, int]]:
        path = os.path.join(PRE_FIX, name)
        # The helpers of the labkit of that time: none built an abstract mesh.
        helpers = jaxdrift.abstract_mesh_helpers(os.path.join(PRE_FIX, "labkit.py"))
        return {(f.rule, f.line) for f in jaxdrift.check_file(path, helpers=helpers)}

    def test_l11_interpret_and_mesh(self):
        got = self.findings("l11_collective_matmul.py")
        self.assertIn(("interpret-abstract-mesh", 93), got)   # pltpu.emit_pipeline(
        self.assertIn(("make-mesh-axis-types", 200), got)     # jax.make_mesh((n_dev,), ("x",))

    def test_l09_tile_in_kernel(self):
        self.assertIn(("kernel-shape-gate", 71), self.findings("l09_streaming_attention.py"))

    def test_l10_mesh(self):
        self.assertIn(("make-mesh-axis-types", 169), self.findings("l10_ring_all_gather.py"))

    def test_labkit_check_rep(self):
        got = self.findings("labkit.py")
        self.assertIn(("deny", 251), got)
        self.assertIn(("surface", 249), got)  # jax.experimental.shard_map was never recorded


class Rules(unittest.TestCase):
    """Each rule fires on a snippet written to break it, and not on its fix."""

    def test_unrecorded_name(self):
        f = check("import jax\njax.not_a_function(1)\n")
        self.assertEqual(rules(f), ["surface"])
        self.assertIn("not in the recorded API surface", f[0].message)

    def test_absent_at_a_release(self):
        # pltpu.ANY is gone from 0.10.0 on (and deny-listed); get_tpu_info was added in 0.8.1.
        f = check("from jax.experimental.pallas import tpu as pltpu\npltpu.get_tpu_info()\n")
        self.assertEqual(rules(f), ["surface", "surface"])  # absent at the 0.7.0 and 0.8.0 snapshots
        gated = check("""
            from jax.experimental.pallas import tpu as pltpu
            from common import labkit
            if labkit.jax_at_least((0, 8, 1)):
                pltpu.get_tpu_info()
            """)
        self.assertEqual(gated, [])

    def test_hasattr_guard(self):
        guarded = check("""
            import jax
            if hasattr(jax.sharding, "AbstractDevice"):
                jax.sharding.AbstractDevice(device_kind="TPU v5 lite", num_cores=1, platform="tpu")
            """)
        self.assertEqual(guarded, [])
        self.assertEqual(rules(check('import jax\njax.sharding.AbstractDevice("TPU v5 lite", 1, "tpu")\n')),
                         ["surface"])

    def test_keywords_and_positionals(self):
        f = check("""
            from jax.experimental.pallas import tpu as pltpu
            pltpu.make_async_remote_copy(src_ref=a, dst_ref=b, send_sem=c, recv_sem=d, device=(1,))
            pltpu.make_async_copy(a, b, c, d)
            pltpu.emit_pipeline(body, grid=(1,), in_specs=[], out_specs=[], unroll=True)
            """)
        self.assertEqual(rules(f), ["surface"] * 3)
        self.assertIn("'device'", f[0].message)
        self.assertIn("at most 3 positional", f[1].message)
        self.assertIn("'unroll'", f[2].message)

    def test_keywords_through_a_dict(self):
        f = check("""
            import jax
            def f(n):
                kw = {"axis_types": None}
                kw["devise"] = None
                return jax.make_mesh((n,), ("x",), **kw)
            """)
        self.assertEqual(rules(f), ["surface"])
        self.assertIn("'devise'", f[0].message)

    def test_unrecorded_attribute(self):
        f = check("from jax.experimental.pallas import tpu as pltpu\npltpu.SemaphoreType.FAST\n")
        self.assertEqual(rules(f), ["surface"])

    def test_deny_list(self):
        for chain in ("TPUCompilerParams()", "ANY", "semaphore_signal(s)", "semaphore_wait(s, 1)",
                      "semaphore_read(s)", "DeviceIdType.MESH", "repeat(x, 2, 1)"):
            with self.subTest(chain=chain):
                f = check(f"from jax.experimental.pallas import tpu as pltpu\npltpu.{chain}\n")
                self.assertIn("deny", rules(f))
        f = check("import jax\njax.shard_map(f, mesh=m, in_specs=p, out_specs=p, check_rep=False)\n")
        self.assertIn("deny", rules(f))

    def test_repeat_allowed_only_before_its_deprecation(self):
        ok = check("""
            from jax.experimental.pallas import tpu as pltpu
            from common import labkit
            import jax.numpy as jnp
            def tile(x):
                if labkit.jax_at_least((0, 9, 0)):
                    return jnp.tile(x, (1, 2))
                return pltpu.repeat(x, 2, 1)
            """)
        self.assertEqual(ok, [])
        late = check("""
            from jax.experimental.pallas import tpu as pltpu
            from common import labkit
            if not labkit.jax_at_least((0, 10, 0)):
                y = pltpu.repeat(x, 2, 1)
            """)
        self.assertEqual(rules(late), ["deny"])  # 0.9.2 and 0.10.0 fall in the range, past its deprecation

    def test_make_mesh_needs_axis_types(self):
        self.assertEqual(rules(check('import jax\nm = jax.make_mesh((4,), ("x",))\n')), ["make-mesh-axis-types"])
        self.assertEqual(check('import jax\nm = jax.make_mesh((4,), ("x",), axis_types=(jax.sharding.AxisType.Auto,))\n'),
                         [])

    PIPELINE_LAB = """
        from common import labkit
        from jax.experimental import pallas as pl
        from jax.experimental.pallas import tpu as pltpu
        def parse_args():
            return labkit.parser("L99", "d", interpret=True).parse_args()
        def inner(x_hbm, y_hbm):
            pltpu.emit_pipeline(body, grid=(2,), in_specs=[], out_specs=[])(x_hbm, y_hbm)
        def run(mesh):
            {mesh}
            return pl.pallas_call(inner, out_shape=s)(x)
        """

    def test_emit_pipeline_needs_an_abstract_tpu_mesh(self):
        bare = check(self.PIPELINE_LAB.format(mesh="pass"))
        self.assertEqual(rules(bare), ["interpret-abstract-mesh"])
        helper = check(self.PIPELINE_LAB.format(mesh="m = labkit.tpu_interpret_mesh(mesh)"),
                       helpers={"tpu_interpret_mesh"})
        self.assertEqual(helper, [])
        # A labkit function counts as a helper only when it builds the TPU mesh.
        src = textwrap.dedent("""
            import jax
            def tpu_mesh(mesh, kind="TPU v5 lite"):
                return jax.sharding.AbstractMesh(mesh.axis_sizes, mesh.axis_names,
                    abstract_device=jax.sharding.AbstractDevice(device_kind=kind, num_cores=1, platform="tpu"))
            def cpu_mesh(mesh):
                return jax.sharding.AbstractMesh(mesh.axis_sizes, mesh.axis_names,
                    abstract_device=jax.sharding.AbstractDevice(device_kind="cpu", num_cores=1, platform="cpu"))
            """)
        path = os.path.join(self._tmp(), "labkit.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(src)
        self.assertEqual(jaxdrift.abstract_mesh_helpers(path), {"tpu_mesh"})

    def _tmp(self) -> str:
        import tempfile
        d = tempfile.mkdtemp()
        self.addCleanup(lambda: __import__("shutil").rmtree(d, ignore_errors=True))
        return d

    def test_shape_calls_in_a_kernel(self):
        src = """
            import jax.numpy as jnp
            from jax.experimental import pallas as pl
            from common import labkit
            def widen(x):
                return {body}
            def kernel(x_ref, o_ref):
                o_ref[...] = widen(x_ref[...])
            def run(x):
                return pl.pallas_call(kernel, out_shape=s)(x)
            def outside(y):
                return jnp.tile(y, (1, 2)).reshape(4, 4)
            """
        self.assertEqual(rules(check(src.format(body="jnp.tile(x, (1, 2))"))), ["kernel-shape-gate"])
        self.assertEqual(rules(check(src.format(body="jnp.reshape(x, (8, 256))"))), ["kernel-shape-gate"])
        self.assertEqual(rules(check(src.format(body="x.reshape(8, 256)"))), ["kernel-shape-gate"])
        self.assertEqual(check(src.format(body="x * 2")), [])

    KERNEL = """
        import functools
        import jax.numpy as jnp
        from jax.experimental import pallas as pl
        from jax.experimental.pallas import tpu as pltpu
        def kernel(x_ref, y_ref, z_ref, acc_ref, *, k_steps):
            k = pl.program_id({axis})
            {zero}
            acc_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32)
            @pl.when(k == k_steps - 1)
            def _store():
                z_ref[...] = acc_ref[...].astype(z_ref.dtype)
        def matmul(x, y):
            params = {{"dimension_semantics": {sem}}}
            return pl.pallas_call(
                functools.partial(kernel, k_steps=4),
                grid_spec=pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=0, grid=(2, 2, 4), in_specs=[],
                                                       out_specs=o, scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32)]),
                out_shape=s, compiler_params=pltpu.CompilerParams(**params))(x, y)
        """
    ZERO = """@pl.when(k == 0)
            def _zero():
                acc_ref[...] = jnp.zeros_like(acc_ref)"""

    def kernel(self, axis=2, zero=ZERO, sem='("parallel", "parallel", "arbitrary")'):
        return check(self.KERNEL.format(axis=axis, zero=zero, sem=sem))

    def test_tiled_matmul_is_clean(self):
        self.assertEqual(self.kernel(), [])

    def test_reduction_axis_last_and_arbitrary(self):
        self.assertEqual(rules(self.kernel(axis=0)), ["reduction-axis"])
        self.assertIn("not the last", self.kernel(axis=0)[0].message)
        f = self.kernel(sem='("parallel", "parallel", "parallel")')
        self.assertEqual(rules(f), ["reduction-axis"])
        self.assertIn("'arbitrary'", f[0].message)

    def test_accumulator_must_be_zeroed(self):
        self.assertEqual(rules(self.kernel(zero="pass")), ["accumulator-zeroing"])
        # The online-softmax form, x = x * alpha + y, is an accumulation too.
        f = check("""
            from jax.experimental import pallas as pl
            def kernel(x_ref, o_ref, acc_ref):
                acc_ref[...] = acc_ref[...] * 0.5 + x_ref[...]
            def run(x):
                return pl.pallas_call(kernel, out_shape=s, grid=(4,))(x)
            """)
        self.assertEqual(rules(f), ["accumulator-zeroing"])

    def test_block_tiling(self):
        import argparse
        good = argparse.Namespace(bm=512, bk=1024, bn=1024, m=4096, k=4096, n=4096)
        self.assertEqual(jaxdrift.check_block_tiling("L07", good, "defaults"), [])
        bad = argparse.Namespace(bm=500, bk=1000, bn=4096, m=4096, k=4096, n=4096)
        problems = jaxdrift.check_block_tiling("L07", bad, "defaults")
        self.assertEqual(len(problems), 3)  # bm rows of x and out, bk columns of x (bk rows of y is a multiple of 8)
        full = argparse.Namespace(block_q=512, block_k=512, head_dim=64, seq=4096)
        self.assertEqual(jaxdrift.check_block_tiling("L09", full, "defaults"), [])  # head_dim spans the array


if __name__ == "__main__":
    unittest.main()
