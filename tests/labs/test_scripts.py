"""Tests of the lab scripts themselves, without JAX: one script per lab
that imports and parses its defaults, the lab pages in labs.json that point
at them, and the runner L02-L04 share.
"""

from __future__ import annotations

import glob
import json
import os
import re
import unittest
from unittest import mock

from labsupport import (GATES, INTERPRET_LABS, LAB_COUNT, LABS, ROOT, TPU, good_check, lab_scripts, load,
                        record)


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


if __name__ == "__main__":
    unittest.main()
