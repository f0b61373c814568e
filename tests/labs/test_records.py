"""Tests of the lab scripts' run records, without JAX or a TPU.

A fake backend stands in for JAX: every lab's record is written through the
real writer into a temporary directory and validated against
assets/run-record.schema.json; the honesty rules (kind, timing, chip), the
script hash, the shipped examples, the IR text readers and atomic writing are
checked too. Run: python3 -m unittest tests/labs/test_records.py
"""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import re
import sys
import tempfile
import unittest
from unittest import mock

import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LABS = os.path.join(ROOT, "assets", "labs")
SCHEMA_PATH = os.path.join(ROOT, "assets", "run-record.schema.json")
sys.path.insert(0, LABS)

from common import irtext, record  # noqa: E402

SCRIPT_RE = re.compile(r"^l(0[1-9]|1[0-9]|2[01])_[a-z0-9_]+\.py$")
TPU = record.Backend("tpu", "TPU v5 lite", 1, "0.8.1", "0.8.1")
CPU = record.Backend("cpu", "cpu", 1, "0.8.1", "0.8.1")
# The labs with --interpret: the kernel labs (Pallas interpret mode) and L17, L18 (XLA on
# simulated CPU devices).
INTERPRET_LABS = {"L06", "L07", "L08", "L09", "L10", "L11", "L14", "L15", "L16", "L17", "L18", "L19", "L20",
                  "L21"}
LAB_COUNT = 21
GATES = {"L05": "G0", "L07": "G1", "L12": "G2", "L09": "G3", "L11": "G4", "L13": "G5"}


def load(path: str):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_make_examples():
    return load(os.path.join(LABS, "tools", "make_examples.py"))


def lab_scripts() -> list[str]:
    return sorted(p for p in glob.glob(os.path.join(LABS, "l*.py")) if SCRIPT_RE.match(os.path.basename(p)))


def validator() -> jsonschema.Draft202012Validator:
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        schema = json.load(f)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def good_check() -> record.Correctness:
    return record.Correctness("float32 reference", 0.01, 0.005, 0.02, 0.02, True)


def build(**overrides):
    kwargs = dict(lab="L07", script_path=os.path.join(LABS, "l07_tiled_matmul.py"), backend=TPU,
                  interpret=False, dtype="bf16", shapes={"m": 4096, "k": 4096, "n": 4096},
                  timing=record.Timing("perf_counter", 3, [7.5e-4, 7.6e-4]),
                  baseline=("XLA jnp.dot", [7.4e-4]), correctness=good_check(), extra={"blocks": {}},
                  host="test-host", date="2026-11-29T12:00:00Z")
    kwargs.update(overrides)
    return record.build_record(**kwargs)


class ProgramLabs(unittest.TestCase):
    """L02-L04 share one runner: each program prepared, described by the lab,
    timed and checked, then one record (JAX and the device faked here)."""

    def test_run_lab_writes_one_entry_per_program_in_order(self):
        from common import labkit, programs

        finished = {}
        timing = record.Timing("perf_counter", 0, [1e-3, 2e-3, 3e-3])
        with mock.patch.object(programs, "prepare",
                               lambda program, sizes, dtype, seed: programs.Prepared(program, None, [], [], sizes)), \
             mock.patch.object(programs, "run", lambda prep, dtype, warmup, samples: (timing, good_check())), \
             mock.patch.object(labkit, "start_jax"), \
             mock.patch.object(labkit, "preflight", return_value=TPU), \
             mock.patch.object(labkit, "finish", side_effect=lambda **kw: finished.update(kw)), \
             mock.patch("sys.stdout"):
            args = programs.lab_args("L02", "Lab L02 - trace it\nmore", [])
            programs.run_lab("L02", "l02_trace.py", args, lambda program, prep: {"seen": program.name})
        entries = finished["extra"]["programs"]
        self.assertEqual([e["name"] for e in entries], [p.name for p in programs.PROGRAMS])
        self.assertEqual(list(entries[0]), ["name", "what", "inputShapes", "seen", "samples", "correctness"])
        self.assertEqual(entries[0]["seen"], entries[0]["name"])
        self.assertEqual(finished["lab"], "L02")
        self.assertIs(finished["timing"], timing)
        self.assertTrue(finished["correctness"].passed)


class Scripts(unittest.TestCase):
    def test_every_lab_has_one_script(self):
        scripts = lab_scripts()
        self.assertEqual([os.path.basename(p)[:3] for p in scripts], [f"l{i:02d}" for i in range(1, LAB_COUNT + 1)])

    def test_scripts_import_without_jax_and_parse_defaults(self):
        for path in lab_scripts():
            with self.subTest(script=os.path.basename(path)):
                m = load(path)
                lab = m.LAB
                self.assertEqual(os.path.basename(path)[1:3], lab[1:3])
                self.assertEqual(m.GATE, GATES.get(lab))
                argv = []
                if lab == "L13":
                    argv = ["--bench", "b.py", "--upstream-url", "https://github.com/o/r/pull/7",
                            "--upstream-commit", "a" * 40]
                args = m.parse_args(argv)
                self.assertEqual(args.out, f"run-{lab}.json")
                self.assertGreaterEqual(args.samples, 1)
                self.assertGreaterEqual(args.warmup, 0)
                self.assertEqual(hasattr(args, "interpret"), lab in INTERPRET_LABS, "--interpret where the lab has it")

    def test_gate_shapes_are_the_defaults(self):
        by_lab = {load(p).LAB: load(p) for p in lab_scripts()}
        a = by_lab["L05"].parse_args([])
        self.assertEqual((a.n, a.skinny_m, a.dtype), (4096, 8, "bf16"))
        a = by_lab["L07"].parse_args([])
        self.assertEqual((a.m, a.k, a.n, a.dtype), (4096, 4096, 4096, "bf16"))
        a = by_lab["L09"].parse_args([])
        self.assertGreaterEqual(a.seq, 4096)
        self.assertEqual(by_lab["L11"].MIN_DEVICES, 4)

    def test_l13_refuses_malformed_upstream(self):
        m = load(os.path.join(LABS, "l13_capstone.py"))
        base = ["--bench", "b.py", "--upstream-commit", "a" * 40]
        with self.assertRaises(SystemExit), mock.patch("sys.stderr"):
            m.parse_args(base + ["--upstream-url", "https://example.com/pull/1"])
        with self.assertRaises(SystemExit), mock.patch("sys.stderr"):
            m.parse_args(["--bench", "b.py", "--upstream-url", "https://github.com/o/r/pull/1",
                          "--upstream-commit", "ABC"])

    def test_l12_answers_form(self):
        m = load(os.path.join(LABS, "l12_narrate_dump.py"))
        ok = {"fusionCount": 2, "dots": [{"outputShape": [256, 512], "flops": 67108864}]}
        self.assertEqual(m.validate_answers(ok), ok)
        for bad in ({"fusionCount": -1, "dots": []}, {"fusionCount": 1}, {"fusionCount": 1, "dots": [{}]},
                    {"fusionCount": 1, "dots": [{"outputShape": [0], "flops": 1}]}):
            with self.assertRaises(SystemExit):
                m.validate_answers(bad)
        # The seed, not the learner, picks the program; the same seed picks the same one.
        self.assertEqual(m.choose(7), m.choose(7))
        self.assertGreater(len({m.choose(s)[0] for s in range(50)}), 2)


class LabPages(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(LABS, "labs.json"), encoding="utf-8") as f:
            data = json.load(f)
        self.assertEqual(set(data), {"supported", "checksOnEveryRecord", "labs"})
        self.pages = data["labs"]

    def test_one_page_per_lab(self):
        self.assertEqual([p["id"] for p in self.pages], [f"L{i:02d}" for i in range(1, LAB_COUNT + 1)])
        # Each lab's chapter is the one whose chapter.json lists it as a piece.
        chapters = {}
        for path in glob.glob(os.path.join(ROOT, "chapters", "[0-9][0-9]-*", "chapter.json")):
            with open(path, encoding="utf-8") as f:
                meta = json.load(f)
            chapters.update({p["id"]: meta["number"] for p in meta["pieces"] if p["kind"] == "lab"})
        self.assertEqual(chapters["L05"], 10)
        self.assertEqual(chapters["L13"], 15)
        for page in self.pages:
            with self.subTest(lab=page["id"]):
                self.assertEqual(set(page), {"id", "chapter", "name", "script", "goal", "commands", "gate", "checks"})
                self.assertEqual(page["chapter"], chapters[page["id"]])
                self.assertEqual(page["gate"], GATES.get(page["id"]))
                self.assertTrue(os.path.isfile(os.path.join(LABS, page["script"])))
                self.assertEqual(load(os.path.join(LABS, page["script"])).LAB, page["id"])
                self.assertTrue(any(page["script"] in c for c in page["commands"]))
                interpret = any("--interpret" in c for c in page["commands"])
                self.assertEqual(interpret, page["id"] in INTERPRET_LABS)
                self.assertTrue(page["goal"] and page["checks"])

    def test_names_are_the_course_table_names(self):
        course = os.path.join(os.path.dirname(ROOT), "shared", "design", "COURSE.md")
        if not os.path.isfile(course):
            self.skipTest("shared/design/COURSE.md is not beside this checkout")
        with open(course, encoding="utf-8") as f:
            rows = dict(re.findall(r"^\| (L\d\d) \| ([^|]+?) \|", f.read(), re.M))
        # The design's table names the first thirteen; the production kernels' labs came after it.
        for page in self.pages:
            if page["id"] in rows:
                self.assertEqual(page["name"], rows[page["id"]], page["id"])


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


class SupportedRange(unittest.TestCase):
    """labs.json's supported range, as labkit reads it at start."""

    def setUp(self):
        from common import labkit

        self.labkit = labkit
        self.sup = labkit.supported()

    def test_range_is_read(self):
        self.assertEqual(self.sup["jax"], {"min": "0.7.0", "max": "0.11"})
        self.assertEqual(self.sup["python"]["min"], "3.11")
        self.assertIn("jax[tpu]", self.sup["install"]["tpu"])

    def test_python(self):
        self.assertIsNone(self.labkit.python_problem((3, 11, 2)))
        self.assertIsNone(self.labkit.python_problem((3, 13, 0)))
        msg = self.labkit.python_problem((3, 10, 12))
        self.assertIn("Python 3.11 or newer", msg)
        self.assertIn("3.10.12", msg)
        self.assertIn("JAX 0.11.0 needs Python 3.12", msg)
        self.assertEqual(msg.count(". "), 0, "one sentence")

    def test_jax(self):
        jp = self.labkit.jax_problem
        for inside in ("0.7.0", "0.8.1", "0.9.2", "0.10.0.dev20260401", "0.11.0", "0.11.2"):
            self.assertIsNone(jp(inside), inside)
        msg, fatal = jp("0.6.2")
        self.assertTrue(fatal)
        self.assertIn("JAX 0.7.0 to 0.11.x", msg)
        self.assertIn("pip install", msg)
        msg, fatal = jp("0.12.0", interpret=True)
        self.assertFalse(fatal)
        self.assertIn("'jax>=0.7,<0.12'", msg)

    def test_versions(self):
        vt = self.labkit.version_tuple
        self.assertEqual(vt("0.9.2"), (0, 9, 2))
        self.assertEqual(vt("0.10.0.dev20260401+gabc"), (0, 10, 0))
        self.assertEqual(vt("0.8.1rc1"), (0, 8, 1))

    def test_start_refuses_an_old_python_before_importing_jax(self):
        with mock.patch.object(self.labkit, "python_problem", return_value="too old"):
            with self.assertRaises(SystemExit) as e:
                self.labkit.start_jax()
        self.assertEqual(str(e.exception), "too old")


class Timing(unittest.TestCase):
    def test_every_sample_kept_and_warmup_untimed(self):
        calls = []
        ticks = iter(range(100))
        t = record.time_calls(lambda x: calls.append(x) or x, 1, warmup=2, samples=4,
                              block=lambda v: v, clock=lambda: float(next(ticks)))
        self.assertEqual(len(calls), 6)
        self.assertEqual(t.samples, [1.0, 1.0, 1.0, 1.0])
        self.assertEqual(t.warmup, 2)

    def test_calls_per_sample_divides(self):
        ticks = iter([0.0, 10.0, 10.0, 20.0])
        t = record.time_calls(lambda: None, warmup=0, samples=2, calls_per_sample=5,
                              block=lambda v: v, clock=lambda: next(ticks))
        self.assertEqual(t.samples, [2.0, 2.0])
        self.assertIn("5 back-to-back", t.method)

    def test_broken_clock_refused(self):
        with self.assertRaises(record.RecordError):
            record.time_calls(lambda: None, warmup=0, samples=1, block=lambda v: v, clock=lambda: 1.0)


class Profiling(unittest.TestCase):
    """--profile: one jax.profiler trace for the run, warm-up before it, each
    timed call under a step named after what it times. A fake jax records
    what the labs' helper asks of the profiler."""

    def fake_jax(self):
        events = []

        class Annotation:
            def __init__(self, name, **kw):
                self.name, self.kw = name, kw

            def __enter__(self):
                events.append(("enter", self.name, self.kw.get("step_num")))

            def __exit__(self, *exc):
                return False

        profiler = mock.MagicMock()
        profiler.start_trace.side_effect = lambda d: events.append(("start", d, None))
        profiler.stop_trace.side_effect = lambda: events.append(("stop", None, None))
        profiler.TraceAnnotation = Annotation
        profiler.StepTraceAnnotation = Annotation
        jax = mock.MagicMock()
        jax.profiler = profiler
        jax.block_until_ready = lambda v: v
        return jax, events

    def test_kernel_and_baseline_in_one_trace_warmup_first(self):
        from common import labkit  # noqa: PLC0415

        jax, events = self.fake_jax()
        with tempfile.TemporaryDirectory() as d, mock.patch.dict(sys.modules, {"jax": jax}):
            args = labkit.parser("L07", "test").parse_args(["--profile", d, "--samples", "2", "--warmup", "1"])
            calls = []
            kernel = lambda: calls.append("kernel") or 1  # noqa: E731
            xla = lambda: calls.append("xla") or 1  # noqa: E731
            labkit.timed(kernel, args=args, name="Pallas kernel")
            labkit.timed(xla, args=args, name="XLA baseline")
            self.assertEqual(labkit.stop_profile(), d)
            self.assertIsNone(labkit.stop_profile())
        self.assertEqual(labkit.profile_entry(d), {"dir": os.path.abspath(d), "timedModule": None, "baselineModule": None,
                                                   "modules": {}})
        kinds = [e[0] for e in events]
        self.assertEqual(kinds.count("start"), 1)
        self.assertEqual(kinds[-1], "stop")
        start = kinds.index("start")
        # The kernel's warm-up call ran before the trace began.
        self.assertEqual(events[0], ("enter", "warm-up, not timed: Pallas kernel", None))
        self.assertLess(0, start)
        steps = [(name, n) for kind, name, n in events[start:] if kind == "enter" and n is not None]
        self.assertEqual(steps, [("Pallas kernel", 0), ("Pallas kernel", 1), ("XLA baseline", 0), ("XLA baseline", 1)])
        self.assertEqual(calls, ["kernel"] * 3 + ["xla"] * 3)

    def test_the_record_names_the_programs_timed(self):
        from common import labkit  # noqa: PLC0415

        class Jitted:
            def __init__(self, name):
                self.name = name

            def __call__(self):
                return 1

            def lower(self):
                compiled = mock.MagicMock()
                compiled.compile.return_value.as_text.return_value = f"HloModule {self.name}, is_scheduled=true\n..."
                return compiled

        jax, _ = self.fake_jax()
        with tempfile.TemporaryDirectory() as d, mock.patch.dict(sys.modules, {"jax": jax}):
            args = labkit.parser("L07", "test").parse_args(["--profile", d, "--samples", "1", "--warmup", "0"])
            labkit.timed(Jitted("jit_kernel"), args=args, name="Pallas kernel")
            labkit.timed(Jitted("jit_xla"), args=args, name="XLA baseline")
            labkit.stop_profile()
            self.assertEqual(labkit.profile_entry(d),
                             {"dir": os.path.abspath(d), "timedModule": "jit_kernel", "baselineModule": "jit_xla",
                              "modules": {"Pallas kernel": "jit_kernel", "XLA baseline": "jit_xla"}})

    def test_no_trace_without_the_flag_or_in_interpret_mode(self):
        from common import labkit  # noqa: PLC0415

        jax, events = self.fake_jax()
        with mock.patch.dict(sys.modules, {"jax": jax}):
            args = labkit.parser("L07", "test", interpret=True).parse_args(["--interpret", "--profile", "/tmp/x"])
            self.assertFalse(labkit.profiling(args))
            args = labkit.parser("L07", "test").parse_args(["--samples", "1", "--warmup", "0"])
            labkit.timed(lambda: 1, args=args)
        self.assertEqual(events, [])


class Correctness(unittest.TestCase):
    def setUp(self):
        try:
            import numpy  # noqa: F401
        except ImportError:
            self.skipTest("numpy is not installed; record.compare needs it (the labs always have it)")

    def test_compare(self):
        c = record.compare([1.0, 2.0, 0.0], [1.0, 2.02, 0.0], reference_name="r", abs_tol=0.0, rel_tol=0.02)
        self.assertTrue(c.passed)
        self.assertAlmostEqual(c.max_abs_error, 0.02)
        c = record.compare([1.0, float("nan")], [1.0, 1.0], reference_name="r", abs_tol=1.0, rel_tol=1.0)
        self.assertFalse(c.passed)
        json.dumps(c.to_json(), allow_nan=False)

    def test_combine(self):
        a = record.Correctness("a", 0.1, 0.01, 0.2, 0.02, True)
        b = record.Correctness("b", 0.05, 0.03, 0.2, 0.05, False)
        c = record.combine([a, b], "both")
        self.assertEqual((c.max_abs_error, c.max_rel_error, c.rel_tol, c.passed), (0.1, 0.03, 0.05, False))


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
