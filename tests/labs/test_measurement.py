"""Tests of how a lab run is started and measured, without JAX: the
supported Python and JAX range labkit checks at start, the timing of calls,
the --profile trace, and the correctness comparison (when numpy is there).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import unittest
from unittest import mock

from labsupport import record


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


if __name__ == "__main__":
    unittest.main()
