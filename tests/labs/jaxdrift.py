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

The parsed model (Module, Use, Finding) is in jaxdrift_model.py and the lint
rules in jaxdrift_lints.py; this file holds the surface and deny-list checks,
the block-tiling check and the driver, and is the one to import or run.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys
from typing import Any, Iterable

# Names imported beyond what this file uses are there for callers: the whole
# check is reached through ``import jaxdrift``.
from jaxdrift_lints import (  # noqa: F401
    KERNEL_ENTRIES, SHAPE_CALLS, abstract_mesh_helpers, kernel_functions, lint, lint_accumulators,
    lint_interpret_mesh, lint_kernel_shapes, lint_make_mesh, lint_reduction_axis)
from jaxdrift_model import (  # noqa: F401
    DEFAULT_ALIASES, HERE, LABS, PL, PLTPU, ROOT, Finding, Module, Use, Version, gate_of, parse_version)

SURFACE_PATH = os.path.join(HERE, "jax_surface.json")


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
    parser = argparse.ArgumentParser(
        prog="jaxdrift.py",
        description="Check lab scripts against the JAX API surface they were written for, and the Pallas lint "
                    "rules. Exits 1 when a finding is printed.")
    parser.add_argument("paths", nargs="*", help="scripts to check (default: every lab script)")
    paths = parser.parse_args(argv).paths or lab_files()
    missing = [p for p in paths if not os.path.isfile(p)]
    if missing:
        parser.error(f"no such file: {missing[0]}")
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
