"""Tests of what the labs compute on the host, without JAX: the IR text
readers (common/irtext, L17's and L18's HLO readers), L19's semantics, L20's
mask tiles and schedule, L21's grouped-matmul schedule, and the command lines
of these labs.
"""

from __future__ import annotations

import os
import unittest
from unittest import mock

from labsupport import LABS, irtext, load, load_make_examples


class IrText(unittest.TestCase):
    SHLO = ("    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], "
            "precision = [DEFAULT, DEFAULT] : (tensor<8x4x16xf32>, tensor<8x16x32xf32>) -> tensor<8x4x32xf32>\n"
            "    %1 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : "
            "(tensor<64x128xbf16>, tensor<16x64xbf16>) -> tensor<128x16xbf16>\n")

    def test_stablehlo_dots(self):
        d0, d1 = irtext.stablehlo_dots(self.SHLO)
        self.assertEqual((d0["outputShape"], d0["flops"], d0["agrees"]), ([8, 4, 32], 2 * 8 * 4 * 32 * 16, True))
        self.assertEqual((d1["outputShape"], d1["flops"], d1["agrees"]), ([128, 16], 2 * 128 * 16 * 64, True))

    def test_hlo_fusions_and_dots_on_the_l12_example(self):
        mk = load_make_examples()
        fusions = irtext.hlo_fusions(mk.EXAMPLE_HLO)
        self.assertEqual([(f["name"], f["kind"]) for f in fusions], [("fusion", "kOutput")])
        self.assertEqual(fusions[0]["ops"], {"dot": 1, "tanh": 1})
        (dot,) = irtext.hlo_dots(mk.EXAMPLE_HLO)
        self.assertEqual((dot["outputShape"], dot["flops"], dot["agrees"]), ([256, 1024], 2 * 256 * 1024 * 512, True))


class ShardAndSchedule(unittest.TestCase):
    """L17 and L18 read XLA's optimized HLO: their readers on text in the form XLA
    prints, and their command lines (TPU and --interpret defaults)."""

    L17_HLO = """HloModule jit_train_step_fsdp, is_scheduled=true, entry_computation_layout={(bf16[512,16384]{1,0})->bf16[]}

%add.clone (x.1: f32[], y.1: f32[]) -> f32[] {
  %x.1 = f32[] parameter(0)
  %y.1 = f32[] parameter(1)
  ROOT %add.2 = f32[] add(f32[] %x.1, f32[] %y.1)
}

%async_computation (param_0: bf16[4096,16384]) -> bf16[512,16384] {
  %param_0 = bf16[4096,16384]{1,0} parameter(0)
  ROOT %reduce-scatter.1 = bf16[512,16384]{1,0} reduce-scatter(bf16[4096,16384]{1,0} %param_0), channel_id=3, replica_groups=[1,8]<=[8], use_global_device_ids=true, dimensions={0}, to_apply=%add.clone
}

%fused_computation (param_0.1: f32[2048,4096]) -> f32[] {
  %param_0.1 = f32[2048,4096]{1,0} parameter(0)
  %constant.1 = f32[] constant(0)
  %reduce.1 = f32[] reduce(f32[2048,4096]{1,0} %param_0.1, f32[] %constant.1), dimensions={0,1}, to_apply=%add.clone
  ROOT %all-reduce.1 = f32[] all-reduce(f32[] %reduce.1), channel_id=4, replica_groups={{0,1,2,3,4,5,6,7}}, to_apply=%add.clone
}

ENTRY %main.61_spmd (param.1: bf16[512,16384], param.2: bf16[4096,16384], param.3: f32[2048,4096]) -> (bf16[4096,16384], bf16[512,16384], f32[]) {
  %param.1 = bf16[512,16384]{1,0:T(8,128)(2,1)} parameter(0)
  %all-gather-start = (bf16[512,16384]{1,0:T(8,128)(2,1)}, bf16[4096,16384]{1,0:T(8,128)(2,1)}) all-gather-start(bf16[512,16384]{1,0:T(8,128)(2,1)} %param.1), channel_id=1, replica_groups=[1,8]<=[8], dimensions={0}, use_global_device_ids=true
  %param.2 = bf16[4096,16384]{1,0} parameter(1)
  %reduce-scatter-start = ((bf16[4096,16384]{1,0}), bf16[512,16384]{1,0}) async-start(bf16[4096,16384]{1,0} %param.2), calls=%async_computation
  %all-gather-done = bf16[4096,16384]{1,0:T(8,128)(2,1)} all-gather-done((bf16[512,16384]{1,0:T(8,128)(2,1)}, bf16[4096,16384]{1,0:T(8,128)(2,1)}) %all-gather-start)
  %reduce-scatter-done = bf16[512,16384]{1,0} async-done(((bf16[4096,16384]{1,0}), bf16[512,16384]{1,0}) %reduce-scatter-start), calls=%async_computation
  %param.3 = f32[2048,4096]{1,0} parameter(2)
  %fusion.1 = f32[] fusion(f32[2048,4096]{1,0} %param.3), kind=kInput, calls=%fused_computation
  %collective-permute = bf16[128,8192]{1,0} collective-permute(bf16[128,8192]{1,0} %slice.2), channel_id=5, source_target_pairs={{0,1},{1,2},{2,0}}
  ROOT %tuple = (bf16[4096,16384]{1,0}, bf16[512,16384]{1,0}, f32[]) tuple(%all-gather-done, %reduce-scatter-done, %fusion.1)
}
"""

    # Chapter 4's exercise, with two fused bodies and a synchronous gather added.
    L18_HLO = """HloModule jit_train_step, is_scheduled=true

%fused_computation.31 (p0: bf16[2048,8192], p1: bf16[8192,8192]) -> bf16[2048,8192] {
  %p0 = bf16[2048,8192]{1,0} parameter(0)
  %p1 = bf16[8192,8192]{1,0} parameter(1)
  ROOT %convolution.1 = bf16[2048,8192]{1,0} convolution(bf16[2048,8192]{1,0} %p0, bf16[8192,8192]{1,0} %p1), dim_labels=bf_io->bf
}

%fused_computation.34 (p0.2: f32[8192]) -> f32[8192] {
  %p0.2 = f32[8192]{0:S(1)} parameter(0)
  ROOT %negate.1 = f32[8192]{0} negate(f32[8192]{0} %p0.2)
}

ENTRY %main.1 () -> bf16[128,8192] {
  %all-gather-start.4 = (bf16[512,8192], bf16[8192,8192]) all-gather-start(%w2.shard), dimensions={0}, replica_groups=[1,16]<=[16]
  %copy-start.2 = (bf16[2048,8192]{1,0:S(1)}, bf16[2048,8192]{1,0}, u32[]) copy-start(%h1)
  %fusion.31 = bf16[2048,8192] fusion(%h0, %w1), kind=kOutput, calls=%fused_computation.31
  %copy-done.2 = bf16[2048,8192]{1,0:S(1)} copy-done(%copy-start.2)
  %all-gather-done.4 = bf16[8192,8192] all-gather-done(%all-gather-start.4)
  %fusion.32 = bf16[2048,8192] fusion(%copy-done.2, %all-gather-done.4), kind=kOutput, calls=%fused_computation.32
  %all-reduce-start.5 = f32[8192] all-reduce-start(%fusion.30), replica_groups=[1,16]<=[16], to_apply=%add
  %all-reduce-done.5 = f32[8192] all-reduce-done(%all-reduce-start.5)
  %collective-permute-start.6 = (bf16[128,8192], bf16[128,8192], u32[], u32[]) collective-permute-start(%slice.9), source_target_pairs={{0,1},{1,2},{15,0}}
  %fusion.34 = f32[8192] fusion(%all-reduce-done.5, %fusion.32), kind=kLoop, calls=%fused_computation.34
  %fusion.35 = bf16[2048,8192] fusion(%fusion.32, %fusion.34), kind=kLoop, calls=%fused_computation.35
  %collective-permute-done.6 = bf16[128,8192] collective-permute-done(%collective-permute-start.6)
  ROOT %all-gather.7 = bf16[8192,8192] all-gather(%w3.shard), dimensions={0}, replica_groups=[1,16]<=[16]
}
"""

    def test_l17_reads_every_collective_once(self):
        m = load(os.path.join(LABS, "l17_shard_layer.py"))
        got = {c["name"]: c for c in m.hlo_collectives(self.L17_HLO)}
        self.assertEqual(set(got), {"all-reduce.1", "all-gather-start", "reduce-scatter-start", "collective-permute"})
        ag = got["all-gather-start"]
        self.assertEqual((ag["kind"], ag["async"], ag["done"], ag["resultType"], ag["shape"], ag["elementType"]),
                         ("all-gather", True, "all-gather-done", "bf16[4096,16384]", [4096, 16384], "bf16"))
        self.assertEqual((ag["bytes"], ag["operandBytes"], ag["replicaGroups"]), (4096 * 16384 * 2, 512 * 16384 * 2,
                                                                                  "[1,8]<=[8]"))
        rs = got["reduce-scatter-start"]
        self.assertEqual((rs["op"], rs["kind"], rs["done"], rs["bytes"], rs["operandBytes"], rs["replicaGroups"]),
                         ("async-start(reduce-scatter)", "reduce-scatter", "reduce-scatter-done", 512 * 16384 * 2,
                          4096 * 16384 * 2, "[1,8]<=[8]"))
        ar = got["all-reduce.1"]
        self.assertEqual((ar["async"], ar["inFusion"], ar["bytes"], ar["shape"], ar["replicaGroups"]),
                         (False, True, 4, [], "{{0,1,2,3,4,5,6,7}}"))
        cp = got["collective-permute"]
        self.assertEqual((cp["sourceTargetPairs"], cp["replicaGroups"]), ("{{0,1},{1,2},{2,0}}", None))
        self.assertEqual(m.module_name(self.L17_HLO), "jit_train_step_fsdp")

    def test_l17_meshes_specs_and_arguments(self):
        m = load(os.path.join(LABS, "l17_shard_layer.py"))
        self.assertEqual([m.mesh_shape(s, 8, 2) for s in m.STRATEGIES], [(8, 1), (8, 1), (1, 8), (4, 2)])
        self.assertEqual([m.spec_text(s) for s in m.SPECS["fsdp"]], ['P("data", None)', 'P("data", None)',
                                                                    'P(None, "data")'])
        self.assertEqual(m.spec_text(()), "P()")
        self.assertEqual(m.split_problems("fsdp_tp", 8, 2, 16384, 4096, 16384), [])
        self.assertTrue(m.split_problems("fsdp_tp", 8, 3, 16384, 4096, 16384))
        self.assertTrue(m.split_problems("tp", 8, 2, 16, 12, 64))  # D = 12 does not split 8 ways
        a = m.parse_args([])
        self.assertEqual((a.batch, a.d_model, a.d_ff, a.dtype, a.strategies), (16384, 4096, 16384, "bf16",
                                                                                list(m.STRATEGIES)))
        a = m.parse_args(["--interpret", "--strategies", "tp,dp,tp"])
        self.assertEqual((a.batch, a.d_model, a.d_ff, a.devices, a.strategies), (256, 256, 1024, 8, ["tp", "dp"]))
        for s in (m.STRATEGIES):
            self.assertEqual(m.split_problems(s, 8, 2, a.batch, a.d_model, a.d_ff), [])
        with self.assertRaises(SystemExit), mock.patch("sys.stderr"):
            m.parse_args(["--strategies", "dp,pp"])

    def test_l18_pairs_starts_with_dones(self):
        m = load(os.path.join(LABS, "l18_schedule.py"))
        r = m.read_schedule(self.L18_HLO)
        self.assertEqual((r["module"], r["isScheduled"]), ("jit_train_step", True))
        pairs = {p["start"]: p for p in r["asyncPairs"]}
        self.assertEqual(list(pairs), ["all-gather-start.4", "copy-start.2", "all-reduce-start.5",
                                       "collective-permute-start.6"])
        ag = pairs["all-gather-start.4"]
        self.assertEqual((ag["done"], ag["kind"], ag["between"], ag["exposed"], ag["resultType"], ag["bytes"]),
                         ("all-gather-done.4", "all-gather", 3, False, "bf16[8192,8192]", 8192 * 8192 * 2))
        self.assertEqual(ag["compute"], [{"name": "fusion.31", "op": "fusion", "kind": "kOutput", "matmul": True}])
        self.assertEqual(ag["betweenOps"], {"copy-start": 1, "fusion": 1, "copy-done": 1})
        cp = pairs["copy-start.2"]
        self.assertEqual((cp["kind"], cp["between"], cp["memorySpace"], cp["exposed"]), ("copy", 1, 1, False))
        self.assertTrue(pairs["all-reduce-start.5"]["exposed"])
        self.assertEqual(pairs["all-reduce-start.5"]["between"], 0)
        perm = pairs["collective-permute-start.6"]
        self.assertEqual([(c["name"], c["matmul"]) for c in perm["compute"]], [("fusion.34", False),
                                                                                ("fusion.35", False)])
        self.assertEqual(r["exposedPairs"], 1)
        self.assertEqual([(s["name"], s["position"]) for s in r["syncCollectives"]], [("all-gather.7", 12)])
        # S(1) on the copy's two instructions; the fused body's parameter is not counted.
        self.assertEqual((r["s1Count"], r["memorySpaceCounts"]), (2, {"1": 2}))

    def test_l18_arguments_and_the_child_run(self):
        m = load(os.path.join(LABS, "l18_schedule.py"))
        a = m.parse_args([])
        self.assertEqual((a.batch, a.d_model, a.layers, a.child), (16384, 8192, 4, None))
        i = m.parse_args(["--interpret"])
        self.assertEqual((i.batch, i.d_model, i.layers, i.devices), (256, 256, 3, 8))
        # The child repeats the run's sizes and sampling, and writes only where it is told.
        a = m.parse_args(["--layers", "6", "--samples", "5", "--seed", "3", "--profile", "p", "--out", "r.json"])
        c = m.parse_args(m.child_argv(a, "/tmp/x.json"))
        self.assertEqual((c.batch, c.d_model, c.layers, c.samples, c.seed, c.child, c.profile, c.interpret),
                         (16384, 8192, 6, 5, 3, "/tmp/x.json", None, False))
        self.assertEqual(m.LHS_OFF, "--xla_tpu_enable_latency_hiding_scheduler=false")
        with self.assertRaises(SystemExit), mock.patch("sys.stderr"):
            m.parse_args(["--interpret", "--child", "x.json"])


class CoresAndMasks(unittest.TestCase):
    """L19's two annotations, and L20's tiles: the kind of each tile of a mask and the schedule
    the kernel walks, on chapter 13's table and against every pair."""

    def test_l19_semantics_and_arguments(self):
        m = load(os.path.join(LABS, "l19_two_cores.py"))
        self.assertEqual(m.SEMANTICS["parallel"], ("parallel", "parallel", "arbitrary"))
        self.assertEqual(set(m.SEMANTICS["arbitrary"]), {"arbitrary"})
        a = m.parse_args([])
        self.assertEqual((a.m, a.k, a.n, a.bm, a.bk, a.bn, a.dtype), (4096, 4096, 4096, 512, 1024, 1024, "bf16"))
        self.assertIsNone(m.tensorcores(True)[0])
        with self.assertRaises(SystemExit), mock.patch("sys.stderr"):
            m.parse_args(["--bm", "300"])

    @staticmethod
    def counts(m, mask, seq, bq, bk):
        kinds = m.classify(mask, seq, bq, bk)
        return tuple(sum(row.count(k) for row in kinds) for k in (m.EMPTY, m.FULL, m.PARTIAL))

    def test_l20_chapter_13_table(self):
        m = load(os.path.join(LABS, "l20_masked_attention.py"))
        # N = 4096, 512 x 512 tiles: empty / full / partial, as chapter 13's table counts them.
        self.assertEqual(self.counts(m, m.Mask("window", None, None), 4096, 512, 512), (28, 28, 8))
        self.assertEqual(self.counts(m, m.Mask("window", 1024, None), 4096, 512, 512), (43, 7, 14))
        self.assertEqual(self.counts(m, m.Mask("documents", None, (1024,) * 4), 4096, 512, 512), (52, 4, 8))
        kinds = m.classify(m.Mask("window", 1024, None), 4096, 512, 512)
        self.assertEqual(["".join(m.KIND_CHARS[k] for k in row) for row in kinds][:3],
                         ["P.......", "FP......", "PFP....."])
        self.assertEqual(m.allowed_pairs(m.Mask("window", 1024, None), 4096), 3670528)
        self.assertEqual(m.allowed_pairs(m.Mask("documents", None, (1024,) * 4), 4096), 4 * 1024 * 1025 // 2)

    def test_l20_tiles_against_every_pair(self):
        m = load(os.path.join(LABS, "l20_masked_attention.py"))
        seq, bq, bk = 24, 4, 8
        for mask in (m.Mask("window", 5, None), m.Mask("window", 1, None), m.Mask("documents", None, (7, 12, 5)),
                     m.Mask("documents", None, (24,))):
            kinds = m.classify(mask, seq, bq, bk)
            for i in range(seq // bq):
                for j in range(seq // bk):
                    pairs = [mask.allows(seq, q, k) for q in range(i * bq, (i + 1) * bq)
                             for k in range(j * bk, (j + 1) * bk)]
                    want = m.FULL if all(pairs) else m.PARTIAL if any(pairs) else m.EMPTY
                    self.assertEqual(kinds[i][j], want, (mask.kind, mask.window, mask.lengths, i, j))
            self.assertEqual(m.allowed_pairs(mask, seq),
                             sum(mask.allows(seq, q, k) for q in range(seq) for k in range(seq)))

    def test_l20_schedule(self):
        m = load(os.path.join(LABS, "l20_masked_attention.py"))
        blocks, kinds = m.schedule(m.classify(m.Mask("window", 1024, None), 4096, 512, 512))
        # The busiest row has three tiles; rows 0 and 1 end on empty steps that stay on their last block.
        self.assertEqual([len(r) for r in blocks], [3] * 8)
        self.assertEqual((blocks[0], kinds[0]), ([0, 0, 0], [m.PARTIAL, m.EMPTY, m.EMPTY]))
        self.assertEqual((blocks[1], kinds[1]), ([0, 1, 1], [m.FULL, m.PARTIAL, m.EMPTY]))
        self.assertEqual((blocks[7], kinds[7]), ([5, 6, 7], [m.PARTIAL, m.FULL, m.PARTIAL]))
        every, every_kinds = m.every_tile(m.classify(m.Mask("window", 1024, None), 4096, 512, 512))
        self.assertEqual(every[3], list(range(8)))
        self.assertEqual(set(every_kinds[3]), {m.PARTIAL})

    def test_l20_arguments(self):
        m = load(os.path.join(LABS, "l20_masked_attention.py"))
        a = m.parse_args([])
        self.assertEqual((a.seq, a.block_q, a.block_k, a.mask_spec.kind, a.mask_spec.window),
                         (4096, 512, 512, "window", 1024))
        self.assertEqual(m.parse_args(["--mask", "documents"]).mask_spec.lengths, (1024,) * 4)
        a = m.parse_args(["--mask", "documents", "--seq", "1024", "--block-q", "128", "--block-k", "256",
                          "--doc-lengths", "200,440,384"])
        self.assertEqual(a.mask_spec.to_json(), {"kind": "documents", "causal": True, "window": None,
                                                 "documentLengths": [200, 440, 384]})
        for bad in (["--mask", "documents", "--doc-lengths", "100,200"], ["--window", "0"], ["--block-k", "192"]):
            with self.subTest(argv=bad), self.assertRaises(SystemExit), mock.patch("sys.stderr"):
                m.parse_args(bad)


class GroupedMatmul(unittest.TestCase):
    """L21's schedule, computed on the host: chapter 5's routing takes 38 visits of 128-row tiles and
    computes 4864 rows, as the chapter and exhibit M4 count them; and on any routing every (row tile,
    group) pair that shares rows is visited once, in an order whose output tiles repeat only in a row."""

    ROUTING = (1200, 300, 0, 900, 700, 500, 296, 200)

    def setUp(self):
        self.m = load(os.path.join(LABS, "l21_grouped_matmul.py"))

    def test_chapter_5_routing(self):
        offsets, groups, tiles = self.m.schedule(self.ROUTING, 128, visit_empty=False)
        self.assertEqual(offsets, [0, 1200, 1500, 1500, 2400, 3100, 3600, 3896, 4096])
        self.assertEqual(len(groups), 38)
        self.assertEqual(len(groups) * 128, 4864)
        # Exhibit M4's tables, as printed there.
        self.assertEqual(groups, [0] * 10 + [1] * 3 + [3] * 8 + [4] * 7 + [5] * 5 + [6] * 3 + [7] * 2)
        self.assertEqual(tiles, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 10, 11, 11, 12, 13, 14, 15, 16, 17, 18, 18, 19,
                                 20, 21, 22, 23, 24, 24, 25, 26, 27, 28, 28, 29, 30, 30, 31])
        self.assertEqual(self.m.boundaries_inside(self.ROUTING, 128), 6)
        # tgmm visits the empty expert once, on the tile where its rows would start, to write its zeros.
        _, groups, tiles = self.m.schedule(self.ROUTING, 128, visit_empty=True)
        self.assertEqual(len(groups), 39)
        self.assertEqual((groups[13], tiles[13]), (2, 11))
        self.assertEqual(tiles[12:15], [11, 11, 11])

    def test_plan_matches_the_simulator_counts(self):
        # libtpusim's grouped_matmul counts 38 x 8 x 8 grid steps for the forward and one (k, n) tile
        # pair more per empty group for tgmm, with K = N = 4096 and 512-wide tiles.
        p = self.m.plan(self.ROUTING, 4096, 4096, 128, 512, 512)
        self.assertEqual(p["visits"], {"gmm": 38, "tgmm": 39})
        self.assertEqual(p["grid"], {"gmm": [8, 38, 8], "tgmm": [8, 8, 39]})
        self.assertEqual(p["gridSteps"], {"gmm": 38 * 8 * 8, "tgmm": 38 * 8 * 8 + 8 * 8})
        self.assertEqual((p["rowTiles"], p["rowsComputed"], p["emptyGroups"]), (32, 4864, [2]))
        self.assertAlmostEqual(p["rowOverhead"], 4864 / 4096 - 1)
        self.assertEqual(p["flops"], {"useful": 2 * 4096 ** 3, "computed": 2 * 4864 * 4096 * 4096})
        # 512-row tiles: fewer visits, more rows computed.
        wide = self.m.plan(self.ROUTING, 4096, 4096, 512, 512, 512)
        self.assertEqual((wide["visits"]["gmm"], wide["rowsComputed"]), (14, 14 * 512))

    def test_every_routing_visits_each_shared_tile_once(self):
        import random

        rng = random.Random(7)
        for _ in range(200):
            tm = rng.choice([16, 32, 128])
            m = tm * rng.randint(1, 6)
            cuts = sorted(rng.randint(0, m) for _ in range(rng.randint(0, 5)))
            sizes = tuple(b - a for a, b in zip([0] + cuts, cuts + [m]))
            if rng.random() < 0.3:
                sizes = (0,) + sizes
            for visit_empty in (False, True):
                offsets, groups, tiles = self.m.schedule(sizes, tm, visit_empty=visit_empty)
                with self.subTest(sizes=sizes, tm=tm, visit_empty=visit_empty):
                    want = {(t, g) for g, s in enumerate(sizes) if s
                            for t in range(offsets[g] // tm, (offsets[g + 1] - 1) // tm + 1)}
                    busy = [(t, g) for t, g in zip(tiles, groups) if sizes[g]]
                    self.assertEqual(sorted(busy), sorted(want))
                    self.assertEqual(len(busy), len(want))
                    self.assertEqual(tiles, sorted(tiles))    # an output tile is revisited only in a row
                    self.assertEqual(groups, sorted(groups))  # and each group's visits are consecutive
                    empty = [g for g in groups if not sizes[g]]
                    self.assertEqual(empty, [g for g, s in enumerate(sizes) if not s] if visit_empty else [])
                    self.assertTrue(all(0 <= t < m // tm for t in tiles))
                    self.assertEqual(len(want) * tm, self.m.plan(sizes, tm, tm, tm, tm, tm)["rowsComputed"])

    def test_arguments(self):
        a = self.m.parse_args([])
        self.assertEqual((a.group_sizes, a.m, a.k, a.n, a.tm, a.tk, a.tn),
                         (self.ROUTING, 4096, 4096, 4096, 128, 512, 512))
        a = self.m.parse_args(["--interpret"])
        self.assertEqual((a.group_sizes, a.k, a.n, a.tm, a.tk, a.tn), (self.ROUTING, 256, 256, 128, 128, 256))
        self.assertEqual(self.m.parse_args(["--tm", "512"]).tm, 512)
        self.assertEqual(self.m.parse_args(["--groups", "0,64,0,192"]).m, 256)
        for bad in (["--groups", "100,29"], ["--groups", "64,-1,65"], ["--groups", "0,0"], ["--groups", "a,b"],
                    ["--tm", "100"], ["--tm", "64"], ["--tk", "192"], ["--tk", "0"], ["--k", "4000"],
                    ["--tn", "384"]):
            with self.subTest(argv=bad), self.assertRaises(SystemExit), mock.patch("sys.stderr"):
                self.m.parse_args(bad)


if __name__ == "__main__":
    unittest.main()
