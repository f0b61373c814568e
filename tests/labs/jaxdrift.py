"""A static check of the lab scripts against the JAX they are written for.

No JAX is imported. Every attribute chain the labs reach through ``jax``,
``jnp``, ``lax``, ``pl`` and ``pltpu`` (and every keyword they pass) is
collected with ``ast`` and compared with a recorded API surface,
``jax_surface.json``: for each name, whether it is present, deprecated or
gone in the JAX source read for each supported release, and for the
callables read, their parameters. Each entry there names the repository,
path and commit it was read from.

Beside the surface, a deny-list (removed or deprecated names and keywords)
and lint rules for the mistakes that break a lab on a learner's JAX:

  make-mesh-axis-types      jax.make_mesh without axis_types: its default
                            changed to Explicit in 0.9.0, which changes how
                            a sharded jnp.dot infers its output sharding
  interpret-abstract-mesh   pltpu.emit_pipeline in a lab with --interpret
                            but no abstract TPU mesh: off a TPU, emit_pipeline
                            cannot learn the TPU generation it tiles for
  kernel-shape-gate         jnp.tile / jnp.reshape / .reshape() inside a
                            kernel outside a version gate: Mosaic's lowering
                            of these changed between releases
  reduction-axis            a kernel's accumulation axis (the program_id
                            whose first step zeroes the accumulator) that is
                            not the last grid axis, or not "arbitrary"
  accumulator-zeroing       a ref accumulated into (+= or x = x * a + b)
                            without a pl.when(program_id == 0) block that
                            initializes it
  block-tiling              (check_block_tiling) a default block shape whose
                            last two dimensions are not multiples of (8, 128)

A version gate is ``if labkit.jax_at_least((0, 9, 0)):``: its body is checked
against the releases from 0.9.0 on, its else branch against the earlier
ones. A name read through ``hasattr`` or ``getattr(..., default)`` anywhere in
a file is "guarded" there: it may be missing from some releases.

    python3 jaxdrift.py [files...]     # report on the labs (default) or files
"""

from __future__ import annotations

import ast
import dataclasses
import glob
import json
import os
import sys
from typing import Any, Iterable

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LABS = os.path.join(ROOT, "assets", "labs")
SURFACE_PATH = os.path.join(HERE, "jax_surface.json")

# Conventional names the labs give JAX's modules. A bare ``jax`` is the
# module even when it arrives as a function parameter (l01, l05 pass it in).
DEFAULT_ALIASES = {
    "jax": "jax",
    "jnp": "jax.numpy",
    "lax": "jax.lax",
    "pl": "jax.experimental.pallas",
    "pltpu": "jax.experimental.pallas.tpu",
}
PL = "jax.experimental.pallas"
PLTPU = "jax.experimental.pallas.tpu"
KERNEL_ENTRIES = {f"{PL}.pallas_call", f"{PLTPU}.emit_pipeline"}
SHAPE_CALLS = {"jax.numpy.tile", "jax.numpy.reshape"}

Version = tuple[int, ...]


def parse_version(text: str) -> Version:
    """"0.9.2" -> (0, 9, 2); a suffix such as ".dev2026" or "rc1" is dropped."""
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


@dataclasses.dataclass(frozen=True)
class Finding:
    rule: str
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{os.path.relpath(self.path, ROOT)}:{self.line}: [{self.rule}] {self.message}"


@dataclasses.dataclass
class Use:
    """One reach into JAX: a chain such as "jax.numpy.tile", with the call's
    keywords (None when the chain is not called), the number of positional
    arguments, and the version range of the code it sits in."""
    chain: str
    line: int
    keywords: tuple[str, ...] | None = None
    npos: int = 0
    starred: bool = False
    lo: Version | None = None   # the code runs only on JAX >= lo
    hi: Version | None = None   # ... and < hi


# --------------------------------------------------------------------- collect


class Module:
    """One lab file parsed: its aliases, uses, functions and calls."""

    def __init__(self, path: str, source: str | None = None):
        self.path = path
        if source is None:
            with open(path, encoding="utf-8") as f:
                source = f.read()
        self.source = source
        self.tree = ast.parse(self.source, filename=path)
        self.aliases: dict[str, str] = dict(DEFAULT_ALIASES)
        self.guarded: set[str] = set()
        self.uses: list[Use] = []
        self.functions: dict[str, ast.FunctionDef] = {}
        self._collect_aliases()
        for node in self.tree.body:
            if isinstance(node, ast.FunctionDef):
                self.functions[node.name] = node
        _Collector(self).visit(self.tree)

    # Imports and plain assignments of a JAX chain to a name (P = jax.sharding.PartitionSpec).
    def _collect_aliases(self) -> None:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] in ("jax", "jaxlib"):
                        if a.asname:
                            self.aliases[a.asname] = a.name
                        else:
                            head = a.name.split(".")[0]
                            self.aliases[head] = head
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                    and node.module.split(".")[0] in ("jax", "jaxlib"):
                for a in node.names:
                    self.aliases[a.asname or a.name] = f"{node.module}.{a.name}"
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name):
                chain = self.chain(node.value)
                if chain:
                    self.aliases[node.targets[0].id] = chain
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("hasattr", "getattr") and len(node.args) >= 2:
                base = self.chain(node.args[0])
                name = node.args[1]
                if base and isinstance(name, ast.Constant) and isinstance(name.value, str):
                    if node.func.id == "hasattr" or len(node.args) >= 3:
                        self.guarded.add(f"{base}.{name.value}")

    def chain(self, node: ast.AST) -> str | None:
        """The JAX chain an expression names ("jax.numpy.tile"), or None."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id in self.aliases:
            base = self.aliases[node.id]
            if base.split(".")[0] in ("jax", "jaxlib"):
                return ".".join([base, *reversed(parts)])
        return None

    def dict_keys(self, func: ast.AST | None, name: str) -> set[str] | None:
        """Keys of a dict built in ``func`` as ``name = {...}`` plus
        ``name["k"] = ...``: the keywords a ``**name`` passes."""
        if func is None:
            return None
        keys: set[str] | None = None
        for node in ast.walk(func):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Name) and t.id == name and isinstance(node.value, ast.Dict):
                        keys = keys or set()
                        keys |= {k.value for k in node.value.keys
                                 if isinstance(k, ast.Constant) and isinstance(k.value, str)}
                    elif isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) \
                            and t.value.id == name and isinstance(t.slice, ast.Constant):
                        keys = keys or set()
                        keys.add(t.slice.value)
        return keys


def gate_of(test: ast.AST) -> tuple[Version, bool] | None:
    """``labkit.jax_at_least((0, 9, 0))`` -> ((0, 9, 0), True); under ``not``
    -> False. Anything else -> None."""
    negate = False
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        negate, test = True, test.operand
    if not isinstance(test, ast.Call):
        return None
    f = test.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    if name != "jax_at_least" or len(test.args) != 1:
        return None
    try:
        v = ast.literal_eval(test.args[0])
    except ValueError:
        return None
    if not (isinstance(v, tuple) and all(isinstance(x, int) for x in v)):
        return None
    return tuple(v), not negate


class _Collector(ast.NodeVisitor):
    def __init__(self, module: Module):
        self.m = module
        self.lo: Version | None = None
        self.hi: Version | None = None
        self.func_stack: list[ast.AST] = []

    def _use(self, chain: str, node: ast.AST, **kw: Any) -> None:
        self.m.uses.append(Use(chain, getattr(node, "lineno", 0), lo=self.lo, hi=self.hi, **kw))

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.func_stack.append(node)
        self.generic_visit(node)
        self.func_stack.pop()

    def generic_visit(self, node: ast.AST) -> None:
        # Statement lists are walked in order so that a gated early exit,
        # ``if labkit.jax_at_least(v): return ...``, puts the rest of the
        # block in the complementary range.
        for _, value in ast.iter_fields(node):
            if isinstance(value, list) and value and all(isinstance(v, ast.stmt) for v in value):
                self._visit_block(value)
            elif isinstance(value, list):
                for v in value:
                    if isinstance(v, ast.AST):
                        self.visit(v)
            elif isinstance(value, ast.AST):
                self.visit(value)

    def _visit_block(self, stmts: list[ast.stmt]) -> None:
        saved = (self.lo, self.hi)
        for stmt in stmts:
            self.visit(stmt)
            gate = gate_of(stmt.test) if isinstance(stmt, ast.If) else None
            if gate is not None and not stmt.orelse and stmt.body \
                    and isinstance(stmt.body[-1], (ast.Return, ast.Raise)):
                v, positive = gate
                self.lo, self.hi = (self.lo, v) if positive else (v, self.hi)
        self.lo, self.hi = saved

    def visit_If(self, node: ast.If) -> None:
        gate = gate_of(node.test)
        if gate is None:
            self.generic_visit(node)
            return
        v, positive = gate
        saved = (self.lo, self.hi)
        self.lo, self.hi = (v, saved[1]) if positive else (saved[0], v)
        for stmt in node.body:
            self.visit(stmt)
        self.lo, self.hi = (saved[0], v) if positive else (v, saved[1])
        for stmt in node.orelse:
            self.visit(stmt)
        self.lo, self.hi = saved

    def visit_Import(self, node: ast.Import) -> None:
        pass

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for a in node.names:
            if node.module and node.level == 0 and node.module.split(".")[0] in ("jax", "jaxlib"):
                self._use(f"{node.module}.{a.name}", node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain = self.m.chain(node)
        if chain:
            self._use(chain, node)
            return
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        chain = self.m.chain(node.func)
        if chain:
            kws: list[str] = []
            starred = any(isinstance(a, ast.Starred) for a in node.args)
            for k in node.keywords:
                if k.arg is not None:
                    kws.append(k.arg)
                elif isinstance(k.value, ast.Name):
                    keys = self.m.dict_keys(self.func_stack[-1] if self.func_stack else self.m.tree, k.value.id)
                    if keys is None:
                        starred = True
                    else:
                        kws.extend(sorted(keys))
                else:
                    starred = True
            self._use(chain, node, keywords=tuple(kws), npos=len(node.args), starred=starred)
        else:
            self.visit(node.func)
        for a in node.args:
            self.visit(a)
        for k in node.keywords:
            self.visit(k.value)


# --------------------------------------------------------------------- surface


class Surface:
    def __init__(self, data: dict[str, Any]):
        self.data = data
        self.snapshots = {s["id"]: s for s in data["snapshots"]}
        self.sources = {s["id"]: s for s in data["sources"]}
        self.modules: dict[str, dict[str, Any]] = data["modules"]
        self.unverified: dict[str, str] = {u["chain"]: u["why"] for u in data["unverified"]}
        self.deny = data["denyList"]

    @classmethod
    def load(cls, path: str = SURFACE_PATH) -> "Surface":
        with open(path, encoding="utf-8") as f:
            return cls(json.load(f))

    def version_of(self, snap: str) -> Version | None:
        v = self.snapshots[snap].get("version")
        return parse_version(v) if v else None

    def split(self, chain: str) -> tuple[str, str | None, list[str]]:
        """"jax.lax.Precision.HIGHEST" -> ("jax.lax", "Precision", ["HIGHEST"])."""
        parts = chain.split(".")
        for n in range(len(parts), 0, -1):
            mod = ".".join(parts[:n])
            if mod in self.modules:
                rest = parts[n:]
                return mod, (rest[0] if rest else None), rest[1:]
        return chain, None, []

    def is_unverified(self, chain: str) -> bool:
        return any(chain == u or chain.startswith(u + ".") for u in self.unverified)


def _in_range(v: Version | None, use: Use) -> bool:
    if v is None:
        return True
    if use.lo is not None and v < use.lo:
        return False
    if use.hi is not None and v >= use.hi:
        return False
    return True


def check_surface(m: Module, surface: Surface) -> list[Finding]:
    out: list[Finding] = []
    deny_chains = {d["chain"] for d in surface.deny if "chain" in d}
    for use in m.uses:
        mod, name, attrs = surface.split(use.chain)
        if name is None and mod in surface.modules:
            continue  # the module itself
        if surface.is_unverified(use.chain):
            continue
        entry = surface.modules.get(mod, {}).get("names", {}).get(name) if name else None
        if entry is None:
            out.append(Finding("surface", m.path, use.line,
                               f"{use.chain} is not in the recorded API surface (jax_surface.json): read it in "
                               "JAX's source at each supported release and record it"))
            continue
        qual = f"{mod}.{name}"
        for snap, status in entry["status"].items():
            if not _in_range(surface.version_of(snap), use):
                continue
            release = surface.snapshots[snap].get("version") or snap
            if status in ("absent", "removed") and qual not in m.guarded:
                out.append(Finding("surface", m.path, use.line,
                                   f"{qual} is {status} in JAX {release} ({surface.snapshots[snap]['label']})"))
            elif status == "deprecated" and qual not in deny_chains:
                out.append(Finding("surface", m.path, use.line,
                                   f"{qual} is deprecated in JAX {release} ({surface.snapshots[snap]['label']})"))
        for attr in attrs[:1]:
            if attr not in entry.get("attrs", []):
                out.append(Finding("surface", m.path, use.line,
                                   f"{qual}.{attr} is not in the recorded API surface"))
        if use.keywords is None:
            continue
        for sig in entry.get("signatures", []):
            params = sig.get("params", [])
            kwonly = sig.get("kwonly", [])
            src = sig["source"]
            if not sig.get("varkw"):
                for kw in use.keywords:
                    if kw not in params and kw not in kwonly:
                        out.append(Finding("surface", m.path, use.line,
                                           f"{qual} has no parameter {kw!r} (read at {src})"))
            if not sig.get("varargs") and use.npos > len(params):
                out.append(Finding("surface", m.path, use.line,
                                   f"{qual} takes at most {len(params)} positional arguments, given {use.npos} "
                                   f"(read at {src})"))
    return out


def check_deny(m: Module, surface: Surface) -> list[Finding]:
    out: list[Finding] = []
    for d in surface.deny:
        deprecated = parse_version(d["deprecated"]) if d.get("deprecated") else None
        for use in m.uses:
            hit = (("chain" in d and (use.chain == d["chain"] or use.chain.startswith(d["chain"] + ".")))
                   or ("keyword" in d and use.keywords is not None and d["keyword"] in use.keywords))
            if not hit:
                continue
            # Allowed only in code gated to releases before the deprecation.
            if deprecated is not None and use.hi is not None and use.hi <= deprecated:
                continue
            what = d.get("chain") or f"keyword {d['keyword']}="
            out.append(Finding("deny", m.path, use.line, f"{what}: {d['why']}"))
    return out


# ------------------------------------------------------------------ lint rules


def _call_chain(m: Module, node: ast.AST) -> str | None:
    return m.chain(node.func) if isinstance(node, ast.Call) else None


def _kw(node: ast.Call, name: str) -> ast.AST | None:
    for k in node.keywords:
        if k.arg == name:
            return k.value
    return None


def lint_make_mesh(m: Module) -> list[Finding]:
    return [Finding("make-mesh-axis-types", m.path, u.line,
                    "jax.make_mesh without axis_types: its default is Explicit from JAX 0.9.0 (Auto before), "
                    "so pass the axis types the lab is written for")
            for u in m.uses if u.chain == "jax.make_mesh" and u.keywords is not None
            and "axis_types" not in u.keywords and u.npos < 3 and not u.starred]


def abstract_mesh_helpers(labkit_path: str = os.path.join(LABS, "common", "labkit.py")) -> set[str]:
    """Functions of labkit that build an AbstractMesh whose abstract device is
    a TPU (device_kind "TPU ..."), so a lab may call them instead."""
    if not os.path.isfile(labkit_path):
        return set()
    lk = Module(labkit_path)
    out = set()
    for name, fn in lk.functions.items():
        defaults = {a.arg: d for a, d in zip(fn.args.args[::-1], fn.args.defaults[::-1])}
        defaults.update({a.arg: d for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is not None})
        mesh = device = False
        for node in ast.walk(fn):
            c = _call_chain(lk, node)
            if c == "jax.sharding.AbstractMesh" and _kw(node, "abstract_device") is not None:
                mesh = True
            if c == "jax.sharding.AbstractDevice":
                kind = _kw(node, "device_kind")
                if isinstance(kind, ast.Name) and kind.id in defaults:
                    kind = defaults[kind.id]
                if isinstance(kind, ast.Constant) and isinstance(kind.value, str) and kind.value.startswith("TPU"):
                    device = True
        if mesh and device:
            out.add(name)
    return out


def _has_interpret_flag(m: Module) -> bool:
    for node in ast.walk(m.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "parser":
            v = _kw(node, "interpret")
            if isinstance(v, ast.Constant) and v.value is True:
                return True
    return False


def lint_interpret_mesh(m: Module, helpers: set[str] | None = None) -> list[Finding]:
    pipelines = [u for u in m.uses if u.chain == f"{PLTPU}.emit_pipeline" and u.keywords is not None]
    if not pipelines or not _has_interpret_flag(m):
        return []
    helpers = abstract_mesh_helpers() if helpers is None else helpers
    for node in ast.walk(m.tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "labkit" \
                and f.attr in helpers:
            return []
        if _call_chain(m, node) == "jax.sharding.AbstractMesh" and _kw(node, "abstract_device") is not None:
            return []
    return [Finding("interpret-abstract-mesh", m.path, pipelines[0].line,
                    "pltpu.emit_pipeline in a lab with --interpret, but no abstract TPU mesh: off a TPU it asks "
                    "the device for its TPU generation and fails (AssertionError up to 0.8.0, 'Unsupported TPU "
                    "device kind: cpu' from 0.8.1)")]


def kernel_functions(m: Module) -> dict[str, ast.FunctionDef]:
    """Module-level functions that run inside a kernel: those passed to
    pl.pallas_call or pltpu.emit_pipeline (directly or through
    functools.partial), and the module functions they call."""
    roots: set[str] = set()
    for node in ast.walk(m.tree):
        if _call_chain(m, node) in KERNEL_ENTRIES and node.args:
            first = node.args[0]
            if isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute) \
                    and first.func.attr == "partial" and first.args:
                first = first.args[0]
            if isinstance(first, ast.Name):
                roots.add(first.id)
    seen: dict[str, ast.FunctionDef] = {}
    todo = [r for r in roots if r in m.functions]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen[name] = m.functions[name]
        for node in ast.walk(m.functions[name]):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in m.functions:
                todo.append(node.func.id)
    return seen


def lint_kernel_shapes(m: Module) -> list[Finding]:
    out = []
    kernels = kernel_functions(m)
    spans = [(fn.lineno, fn.end_lineno or fn.lineno) for fn in kernels.values()]

    def in_kernel(line: int) -> bool:
        return any(a <= line <= b for a, b in spans)

    for u in m.uses:
        if u.chain in SHAPE_CALLS and u.keywords is not None and in_kernel(u.line) \
                and u.lo is None and u.hi is None:
            out.append(Finding("kernel-shape-gate", m.path, u.line,
                               f"{u.chain.replace('jax.numpy', 'jnp')} inside a kernel without a version gate: "
                               "Mosaic lowers it natively only from JAX 0.9.0; gate it "
                               "(if labkit.jax_at_least((0, 9, 0)): ...) with a path for older releases"))
    gated = _gated_lines(m)
    for fn in kernels.values():
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "reshape" and m.chain(node.func) is None \
                    and node.lineno not in gated:
                out.append(Finding("kernel-shape-gate", m.path, node.lineno,
                                   ".reshape() inside a kernel without a version gate: Mosaic's shape casts "
                                   "differ between releases"))
    return out


def _gated_lines(m: Module) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(m.tree):
        if isinstance(node, ast.If) and gate_of(node.test) is not None:
            for stmt in [*node.body, *node.orelse]:
                for n in ast.walk(stmt):
                    if hasattr(n, "lineno"):
                        out.add(n.lineno)
    return out


def _program_id_vars(m: Module, fn: ast.AST) -> dict[str, int]:
    out = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and _call_chain(m, node.value) == f"{PL}.program_id" and node.value.args \
                and isinstance(node.value.args[0], ast.Constant):
            out[node.targets[0].id] = node.value.args[0].value
    return out


def _first_step_axis(m: Module, dec: ast.AST, pids: dict[str, int]) -> int | None:
    """pl.when(k == 0) with k = pl.program_id(a) -> a."""
    if _call_chain(m, dec) != f"{PL}.when" or not dec.args:
        return None
    t = dec.args[0]
    if not (isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.Eq)
            and isinstance(t.comparators[0], ast.Constant) and t.comparators[0].value == 0):
        return None
    left = t.left
    if isinstance(left, ast.Name) and left.id in pids:
        return pids[left.id]
    if _call_chain(m, left) == f"{PL}.program_id" and left.args and isinstance(left.args[0], ast.Constant):
        return left.args[0].value
    return None


def _accumulated_refs(fn: ast.AST) -> dict[str, int]:
    """Refs a kernel accumulates into: ``r[...] += v`` or ``r[...] = r[...] * a + b``."""
    out: dict[str, int] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript) \
                and isinstance(node.target.value, ast.Name):
            out.setdefault(node.target.value.id, node.lineno)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript) \
                and isinstance(node.targets[0].value, ast.Name):
            name = node.targets[0].value.id
            if any(isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name
                   for n in ast.walk(node.value)):
                out.setdefault(name, node.lineno)
    return out


def _zeroed_refs(m: Module, fn: ast.AST, pids: dict[str, int]) -> dict[str, int]:
    """Refs assigned inside a function decorated pl.when(program_id == 0) -> that axis."""
    out: dict[str, int] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                axis = _first_step_axis(m, dec, pids)
                if axis is None:
                    continue
                for n in ast.walk(node):
                    if isinstance(n, ast.Assign):
                        for t in n.targets:
                            if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
                                out[t.value.id] = axis
    return out


def lint_accumulators(m: Module) -> list[Finding]:
    out = []
    for fn in kernel_functions(m).values():
        pids = _program_id_vars(m, fn)
        zeroed = _zeroed_refs(m, fn, pids)
        for ref, line in sorted(_accumulated_refs(fn).items(), key=lambda kv: kv[1]):
            if ref not in zeroed:
                out.append(Finding("accumulator-zeroing", m.path, line,
                                   f"{ref} is accumulated into but never initialized under "
                                   "pl.when(program_id(k) == 0): scratch starts with garbage and an output "
                                   "block is not zero"))
    return out


def _grid_len(node: ast.AST | None) -> int | None:
    return len(node.elts) if isinstance(node, ast.Tuple) else None


def _semantics(m: Module, call: ast.Call, func: ast.AST | None) -> tuple[str, ...] | None:
    """The dimension_semantics a pallas_call / emit_pipeline call gives, if literal."""
    direct = _kw(call, "dimension_semantics")
    cp = _kw(call, "compiler_params")
    node = direct
    if node is None and isinstance(cp, ast.Call):
        node = _kw(cp, "dimension_semantics")
        if node is None:
            for k in cp.keywords:
                if k.arg is None and isinstance(k.value, ast.Name) and func is not None:
                    for n in ast.walk(func):
                        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == k.value.id
                                                             for t in n.targets) and isinstance(n.value, ast.Dict):
                            for key, val in zip(n.value.keys, n.value.values):
                                if isinstance(key, ast.Constant) and key.value == "dimension_semantics":
                                    node = val
    if node is None:
        return None
    try:
        v = ast.literal_eval(node)
    except ValueError:
        return None
    return tuple(v) if isinstance(v, (tuple, list)) else None


def lint_reduction_axis(m: Module) -> list[Finding]:
    out = []
    kernels = kernel_functions(m)
    seen: set[int] = set()
    for outer in [*m.functions.values(), m.tree]:
        for node in ast.walk(outer):
            if _call_chain(m, node) not in KERNEL_ENTRIES or not node.args or id(node) in seen:
                continue
            seen.add(id(node))
            first = node.args[0]
            if isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute) and first.func.attr == "partial":
                first = first.args[0] if first.args else None
            if not isinstance(first, ast.Name):
                continue
            kernel = kernels.get(first.id)
            if kernel is None:  # a nested body (emit_pipeline's), searched from its enclosing function
                kernel = next((n for n in ast.walk(outer) if isinstance(n, ast.FunctionDef) and n.name == first.id),
                              None)
            if kernel is None:
                continue
            grid = _kw(node, "grid")
            spec = _kw(node, "grid_spec")
            if grid is None and isinstance(spec, ast.Call):
                grid = _kw(spec, "grid")
            n = _grid_len(grid)
            if n is None:
                continue
            pids = _program_id_vars(m, kernel)
            axes = set(_zeroed_refs(m, kernel, pids).values())
            sem = _semantics(m, node, outer if outer is not m.tree else None)
            for axis in sorted(axes):
                if axis != n - 1:
                    out.append(Finding("reduction-axis", m.path, node.lineno,
                                       f"the accumulation axis {axis} is not the last of a {n}-axis grid: the "
                                       "accumulator must stay resident while that axis runs innermost"))
                elif sem is not None and (len(sem) != n or sem[axis] != "arbitrary"):
                    out.append(Finding("reduction-axis", m.path, node.lineno,
                                       f"the accumulation axis {axis} must be 'arbitrary' in dimension_semantics "
                                       f"{sem}: a 'parallel' axis may be split across cores"))
    return out


def lint(m: Module, helpers: set[str] | None = None) -> list[Finding]:
    return [*lint_make_mesh(m), *lint_interpret_mesh(m, helpers), *lint_kernel_shapes(m),
            *lint_reduction_axis(m), *lint_accumulators(m)]


# --------------------------------------------------------------- block tiling

# Per lab: the blocks of its kernels, each dimension an argument name (or
# LANES for the 128-lane scratch), the last two checked against the (8, 128)
# tiling unless the block spans that whole array dimension (the full-dim
# exception of jax/_src/pallas/mosaic/lowering.py's block-shape rules).
BLOCKS: dict[str, list[tuple[str, tuple[str, str], tuple[str, str]]]] = {
    # name: (rows arg, array rows arg), (cols arg, array cols arg)
    "L06": [("x, y, out", ("block_rows", "rows"), ("block_cols", "cols"))],
    "L07": [("x", ("bm", "m"), ("bk", "k")), ("y", ("bk", "k"), ("bn", "n")), ("out", ("bm", "m"), ("bn", "n"))],
    "L09": [("q, out", ("block_q", "seq"), ("head_dim", "head_dim")),
            ("k, v", ("block_k", "seq"), ("head_dim", "head_dim"))],
    "L11": [("x", ("bm", "m_per_device"), ("bk", "k")), ("w", ("bk", "k"), ("bn", "n_per_device")),
            ("y", ("bm", "m_per_device"), ("bn", "n_per_device"))],
    "L14": [("q, dO, dQ", ("block_q", "seq"), ("head_dim", "head_dim")),
            ("k, v, dK, dV", ("block_k", "seq"), ("head_dim", "head_dim"))],
    "L15": [("x", ("bm", "m"), ("bk", "k")), ("w", ("bk", "k"), ("bn", "n")), ("out", ("bm", "m"), ("bn", "n"))],
    "L16": [("k and v pages", ("page_size", "max_len"), ("head_dim", "head_dim"))],
    "L19": [("x", ("bm", "m"), ("bk", "k")), ("y", ("bk", "k"), ("bn", "n")), ("out", ("bm", "m"), ("bn", "n"))],
    "L20": [("q, out", ("block_q", "seq"), ("head_dim", "head_dim")),
            ("k, v", ("block_k", "seq"), ("head_dim", "head_dim"))],
    # gmm: x (tm, tk), W (tk, tn), out (tm, tn); tgmm: x (tm, tk), dy (tm, tn), dW (tk, tn); dx's gmm
    # swaps tk and tn, which these cover.
    "L21": [("x", ("tm", "m"), ("tk", "k")), ("W, dW", ("tk", "k"), ("tn", "n")),
            ("out, dy", ("tm", "m"), ("tn", "n"))],
}


def check_block_tiling(lab: str, args: Any, where: str) -> list[str]:
    """Problems of one parsed argument set (empty when every block tiles)."""
    out = []
    for name, (r, rfull), (c, cfull) in BLOCKS.get(lab, []):
        rows, cols = getattr(args, r), getattr(args, c)
        if rows % 8 and rows != getattr(args, rfull):
            out.append(f"{lab} {where}: block {name} has {rows} rows (--{r.replace('_', '-')}), not a multiple of 8")
        if cols % 128 and cols != getattr(args, cfull):
            out.append(f"{lab} {where}: block {name} has {cols} columns (--{c.replace('_', '-')}), "
                       "not a multiple of 128")
    return out


# ---------------------------------------------------------------------- driver


def lab_files() -> list[str]:
    return sorted(glob.glob(os.path.join(LABS, "l[0-9][0-9]_*.py")) + glob.glob(os.path.join(LABS, "common", "*.py")))


def check_file(path: str, surface: Surface | None = None, source: str | None = None,
               helpers: set[str] | None = None) -> list[Finding]:
    surface = surface or Surface.load()
    m = Module(path, source)
    return [*check_surface(m, surface), *check_deny(m, surface), *lint(m, helpers)]


def coverage(paths: Iterable[str], surface: Surface | None = None) -> dict[str, list[str]]:
    """What the check could not verify: chains taken on trust (not read at a
    supported release) and called chains whose parameters were not read."""
    surface = surface or Surface.load()
    trusted, unsigned = set(), set()
    for p in paths:
        for u in Module(p).uses:
            mod, name, _ = surface.split(u.chain)
            if surface.is_unverified(u.chain):
                trusted.add(u.chain)
            elif name and u.keywords and not surface.modules.get(mod, {}).get("names", {}).get(name, {}) \
                    .get("signatures"):
                unsigned.add(f"{mod}.{name}")
    return {"unverified": sorted(trusted), "parametersNotRead": sorted(unsigned)}


def main(argv: list[str] | None = None) -> int:
    paths = (argv if argv else None) or lab_files()
    surface = Surface.load()
    findings = [f for p in paths for f in check_file(p, surface)]
    for f in findings:
        print(f)
    cov = coverage(paths, surface)
    print(f"{len(findings)} finding(s) in {len(paths)} file(s); taken on trust (not read at a supported "
          f"release): {', '.join(cov['unverified']) or 'none'}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
