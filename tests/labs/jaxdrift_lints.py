"""The lint rules of the drift check: mistakes that break a lab on a
learner's JAX although every name it uses exists there. jaxdrift.py's
docstring lists the rules; lint() runs them all on one parsed file.
"""

from __future__ import annotations

import ast
import os

from jaxdrift_model import LABS, PL, PLTPU, Finding, Module, gate_of

# Calls whose first argument is a kernel body, and the shape calls whose
# lowering inside a kernel changed between releases.
KERNEL_ENTRIES = {f"{PL}.pallas_call", f"{PLTPU}.emit_pipeline"}
SHAPE_CALLS = {"jax.numpy.tile", "jax.numpy.reshape"}


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
