"""What the lab record tests share: the paths, the lab scripts loaded
without JAX, the record schema's validator, and a record built with a fake
TPU backend. Importing it puts assets/labs on sys.path, so the tests import
common.* as the labs do.
"""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import re
import sys

import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LABS = os.path.join(ROOT, "assets", "labs")
SCHEMA_PATH = os.path.join(ROOT, "assets", "run-record.schema.json")
sys.path.insert(0, LABS)

# irtext is not used here: the tests take it from this module, after the path is set.
from common import irtext, record  # noqa: E402,F401

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
