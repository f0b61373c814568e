"""The model the drift check works on: a lab file parsed into the JAX
chains it reaches, each with the keywords it passes and the release range of
the code it sits in (see jaxdrift.py for the check as a whole).

No JAX is imported; everything here is read with ``ast``.
"""

from __future__ import annotations

import ast
import dataclasses
import os
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LABS = os.path.join(ROOT, "assets", "labs")
if LABS not in sys.path:
    sys.path.insert(0, LABS)
from common.labkit import version_tuple  # noqa: E402  (imports no JAX)

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

Version = tuple[int, ...]


# A version read as the labs themselves read it (common/labkit.py), so the
# check and the scripts can never disagree on what "0.9.2rc1" means.
parse_version = version_tuple


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
