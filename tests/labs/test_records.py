"""Tests of the labs' run records, without JAX or a TPU.

Every lab's record is written through the real writer, from the examples
tool's fake backend, into a temporary directory and validated against
assets/run-record.schema.json; the shipped examples must match their
scripts, and the honesty rules (kind, timing, chip), the script hash and the
atomic write are checked on single records.

Run from tests/labs, with the other record tests (ctest labs.records):
    python3 -m unittest -v test_records test_scripts test_measurement test_lab_logic
"""

from __future__ import annotations

import glob
import json
import os
import tempfile
import unittest
from unittest import mock

import jsonschema

from labsupport import CPU, INTERPRET_LABS, LAB_COUNT, LABS, build, load_make_examples, record, validator


class Records(unittest.TestCase):
    def test_every_lab_record_validates_with_a_fake_backend(self):
        v = validator()
        mk = load_make_examples()
        with tempfile.TemporaryDirectory() as tmp:
            paths = mk.write_all(tmp)
            labs_written = set()
            for path in paths:
                with self.subTest(example=os.path.basename(path)):
                    with open(path, encoding="utf-8") as f:
                        rec = json.load(f)
                    v.validate(rec)
                    labs_written.add(rec["lab"])
                    script = os.path.join(LABS, rec["script"]["name"])
                    self.assertEqual(rec["script"]["sha256"], record.sha256_of(script))
                    self.assertEqual(rec["script"]["name"][1:3], rec["lab"][1:3])
                    self.assertTrue(rec["extra"]["example"])
                    self.assertEqual(rec["host"], "example-host")
                    if rec["kind"] == "verified-off-chip":
                        self.assertIsNone(rec["timing"])
                        self.assertIsNone(rec["baseline"])
                        self.assertEqual((rec["platform"], rec["chip"]), ("cpu", "cpu"))
                        self.assertIn(rec["lab"], INTERPRET_LABS)
                    else:
                        self.assertEqual(rec["platform"], "tpu")
                        self.assertEqual(rec["chip"], "v5e")
                        self.assertIsNotNone(rec["timing"])
            self.assertEqual(labs_written, {f"L{i:02d}" for i in range(1, LAB_COUNT + 1)})
            self.assertTrue(any(os.path.basename(p) == "L07-interpret.json" for p in paths))

    def test_lab_specific_extra_keys(self):
        mk = load_make_examples()
        recs = {name: record.build_record(**kw) for name, kw in mk.examples()}
        l05 = recs["L05.json"]
        self.assertEqual([r["row"] for r in l05["extra"]["rows"]], ["matmul_nnn", "matmul_skinny", "elementwise_add"])
        self.assertEqual(l05["shapes"], {"n": 4096})
        self.assertEqual(l05["timing"]["samples"], l05["extra"]["rows"][0]["samples"])
        self.assertEqual(set(recs["L07.json"]["extra"]["blocks"]), {"bm", "bk", "bn"})
        self.assertEqual(set(recs["L09.json"]["shapes"]), {"batch", "heads", "seq", "head_dim"})
        self.assertEqual(set(recs["L09.json"]["extra"]["blocks"]), {"block_q", "block_k"})
        self.assertGreaterEqual(recs["L11.json"]["deviceCount"], 4)
        self.assertTrue(recs["L11.json"]["extra"]["computeOnlySamples"])
        l12 = recs["L12.json"]["extra"]
        self.assertIn("HloModule", l12["hloText"])
        self.assertEqual(set(l12["answers"]), {"fusionCount", "dots"})
        l17 = recs["L17.json"]
        self.assertEqual(set(l17["shapes"]), {"batch", "d_model", "d_ff", "devices"})
        self.assertEqual([s["name"] for s in l17["extra"]["strategies"]], ["dp", "fsdp", "tp", "fsdp_tp"])
        for s in l17["extra"]["strategies"]:
            self.assertTrue({"name", "mesh", "specs", "collectives", "weightBytesPerDevice", "samples",
                             "correctness"} <= set(s))
            self.assertEqual(s["mesh"]["data"] * s["mesh"]["model"], l17["shapes"]["devices"])
        self.assertNotIn("samples", recs["L17-interpret.json"]["extra"]["strategies"][0])
        self.assertEqual(l17["timing"]["samples"], l17["extra"]["strategies"][0]["samples"])
        l18 = recs["L18.json"]["extra"]
        self.assertEqual(l18["scheduleFrom"], "tpu")
        self.assertIn("latency_hiding_scheduler=false", l18["latencyHidingOff"]["libtpuInitArgs"])
        self.assertTrue(l18["latencyHidingOff"]["samples"])
        self.assertEqual(recs["L18-interpret.json"]["extra"]["scheduleFrom"], "cpu")
        self.assertNotIn("latencyHidingOff", recs["L18-interpret.json"]["extra"])
        l19 = recs["L19.json"]["extra"]
        self.assertEqual(l19["semantics"], {"parallel": ["parallel", "parallel", "arbitrary"],
                                            "arbitrary": ["arbitrary", "arbitrary", "arbitrary"]})
        self.assertTrue(l19["arbitrarySamples"])
        self.assertIsNone(recs["L19-interpret.json"]["extra"]["tensorCores"])
        self.assertNotIn("arbitrarySamples", recs["L19-interpret.json"]["extra"])
        for name in ("L20.json", "L20-interpret.json"):
            e = recs[name]["extra"]
            self.assertEqual(set(recs[name]["shapes"]), {"batch", "heads", "seq", "head_dim"})
            self.assertEqual(sum(e["tileCounts"].values()), e["kvBlocksTotal"])
            self.assertEqual(e["kvBlocksComputed"], e["tileCounts"]["full"] + e["tileCounts"]["partial"])
            self.assertLessEqual(e["gridSteps"]["skipping"], e["gridSteps"]["everyBlock"])
            self.assertEqual(sum(len(row) for row in e["tileMap"]), e["kvBlocksTotal"])
        self.assertEqual(recs["L20.json"]["extra"]["mask"]["kind"], "window")
        self.assertTrue(recs["L20.json"]["extra"]["everyBlockSamples"])
        self.assertNotIn("everyBlockSamples", recs["L20-interpret.json"]["extra"])
        for name in ("L21.json", "L21-interpret.json"):
            e, shapes = recs[name]["extra"], recs[name]["shapes"]
            self.assertEqual(set(shapes), {"m", "k", "n", "groups"})
            self.assertEqual((sum(e["groupSizes"]), len(e["groupSizes"])), (shapes["m"], shapes["groups"]))
            self.assertEqual(set(e["checks"]), {"gmm", "gmmVsRaggedDot", "tgmm", "dx"})
            self.assertEqual(e["visits"], {"gmm": 38, "tgmm": 39})
            self.assertEqual(e["rowsComputed"], 4864)
            for kernel, grid in e["grid"].items():
                self.assertEqual(e["gridSteps"][kernel], grid[0] * grid[1] * grid[2])
                self.assertEqual(len(e["schedule"][kernel]["groupIds"]), e["visits"][kernel])
        self.assertTrue(recs["L21.json"]["extra"]["tgmmSamples"])
        self.assertEqual(set(recs["L21.json"]["extra"]["ratioToBaseline"]), {"gmm", "tgmm"})
        self.assertNotIn("tgmmSamples", recs["L21-interpret.json"]["extra"])
        up = recs["L13.json"]["extra"]["upstream"]
        self.assertRegex(up["url"], r"^https://github\.com/[^/]+/[^/]+/pull/[0-9]+$")
        self.assertRegex(up["commit"], r"^[0-9a-f]{40}$")

    def test_shipped_examples_validate_and_match_their_scripts(self):
        v = validator()
        shipped = sorted(glob.glob(os.path.join(LABS, "examples", "*.json")))
        mk = load_make_examples()
        self.assertEqual(sorted(os.path.basename(p) for p in shipped), sorted(n for n, _ in mk.examples()))
        for path in shipped:
            with self.subTest(example=os.path.basename(path)):
                with open(path, encoding="utf-8") as f:
                    rec = json.load(f)
                v.validate(rec)
                self.assertTrue(rec["extra"]["example"])
                self.assertEqual(
                    rec["script"]["sha256"], record.sha256_of(os.path.join(LABS, rec["script"]["name"])),
                    "stale example: run python3 assets/labs/tools/make_examples.py")

    def test_a_record_the_schema_must_refuse(self):
        rec = build()
        rec["kind"] = "predicted"
        with self.assertRaises(jsonschema.ValidationError):
            validator().validate(rec)


class HonestyRules(unittest.TestCase):
    def test_measured_on_tpu(self):
        rec = build()
        self.assertEqual((rec["kind"], rec["chip"]), ("measured", "v5e"))
        validator().validate(rec)

    def test_interpret_is_off_chip_with_no_timing(self):
        rec = build(backend=CPU, interpret=True, timing=None, baseline=None)
        self.assertEqual((rec["kind"], rec["chip"], rec["timing"], rec["baseline"]),
                         ("verified-off-chip", "cpu", None, None))
        validator().validate(rec)

    def test_interpret_refuses_timing_or_baseline(self):
        with self.assertRaises(record.RecordError):
            build(backend=CPU, interpret=True, baseline=None)
        with self.assertRaises(record.RecordError):
            build(backend=CPU, interpret=True, timing=None)

    def test_interpret_must_run_on_cpu(self):
        with self.assertRaises(record.RecordError):
            build(interpret=True, timing=None, baseline=None)

    def test_measured_needs_a_tpu_and_timing(self):
        with self.assertRaises(record.RecordError):
            build(backend=CPU)
        with self.assertRaises(record.RecordError):
            build(timing=None)

    def test_device_kinds(self):
        for kind, chip in [("TPU v4", "v4"), ("TPU v5 lite", "v5e"), ("TPU v5e", "v5e"), ("TPU v5", "v5p"),
                           ("TPU v5p", "v5p"), ("TPU v6 lite", "v6e"), ("TPU v6e", "v6e"), ("TPU7x", "v7"),
                           ("TPU v7", "v7"), ("tpu  V5 Lite", "v5e")]:
            self.assertEqual(record.chip_for(kind), chip, kind)
            self.assertEqual(build(backend=record.Backend("tpu", kind, 1, "x", "y"))["chip"], chip)
        for unknown in ("TPU v3", "TPU v4 lite", "TPU v9", "", "GPU"):
            with self.assertRaises(record.RecordError):
                record.chip_for(unknown)
            with self.assertRaises(record.RecordError):
                build(backend=record.Backend("tpu", unknown, 1, "x", "y"))

    def test_bad_fields(self):
        for overrides in ({"lab": "L14"}, {"lab": "L08"}, {"dtype": "bfloat16"}, {"shapes": {}},
                          {"shapes": {"m": 0}}, {"shapes": {"m": 2.5}}, {"shapes": {"m": True}},
                          {"timing": record.Timing("t", 3, [])}, {"timing": record.Timing("t", 3, [0.0])},
                          {"timing": record.Timing("t", 3, [float("nan")])},
                          {"baseline": ("x", [-1.0])}, {"backend": record.Backend("tpu", "TPU v4", 0, "x", "y")},
                          {"script_path": os.path.join(LABS, "common", "record.py")}):
            with self.subTest(overrides=overrides), self.assertRaises(record.RecordError):
                build(**overrides)

    def test_defaults_for_host_and_date(self):
        rec = build(host=None, date=None)
        self.assertTrue(rec["host"])
        self.assertRegex(rec["date"], r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
        validator().validate(rec)

    def test_sha256_is_of_the_script_bytes(self):
        import hashlib

        path = os.path.join(LABS, "l07_tiled_matmul.py")
        with open(path, "rb") as f:
            self.assertEqual(build()["script"]["sha256"], hashlib.sha256(f.read()).hexdigest())


class AtomicWrite(unittest.TestCase):
    def test_unserializable_record_leaves_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "run.json")
            rec = build(extra={"bad": object()})
            with self.assertRaises(TypeError):
                record.write_record(rec, out)
            self.assertEqual(os.listdir(tmp), [])

    def test_failure_after_writing_keeps_the_old_file_and_no_temp(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "run.json")
            with open(out, "w", encoding="utf-8") as f:
                f.write('{"old": true}')
            with mock.patch.object(record.os, "replace", side_effect=OSError("disk full")):
                with self.assertRaises(OSError):
                    record.write_record(build(), out)
            self.assertEqual(os.listdir(tmp), ["run.json"])
            with open(out, encoding="utf-8") as f:
                self.assertEqual(json.load(f), {"old": True})

    def test_nan_refused_before_any_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(ValueError):
                record.write_json_atomic({"x": float("nan")}, os.path.join(tmp, "r.json"))
            self.assertEqual(os.listdir(tmp), [])

    def test_success_writes_complete_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "run.json")
            rec = build()
            record.write_record(rec, out)
            with open(out, encoding="utf-8") as f:
                self.assertEqual(json.load(f), rec)
            self.assertEqual(os.listdir(tmp), ["run.json"])


if __name__ == "__main__":
    unittest.main()
