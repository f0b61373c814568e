"""Small readers for the IR text JAX prints: StableHLO dot_general lines and
optimized HLO (computations, fusions, dots). Pure Python, no JAX: the labs
use them on real dumps and the tests use them on sample text.

They read what dense programs' dumps contain, not every corner of the
grammar; anything they cannot decode is reported as not decoded rather than
guessed.
"""

from __future__ import annotations

import math
import re
from typing import Any

# ---------------------------------------------------------------- StableHLO

_TENSOR_RE = re.compile(r"tensor<([^>]*)>")
_SHLO_DOT_RE = re.compile(r"stablehlo\.dot_general\b(?P<body>.*)$")
_DIMS_PAIR_RE = re.compile(r"(?P<name>batching_dims|contracting_dims)\s*=\s*\[(?P<l>[^\]]*)\]\s*x\s*\[(?P<r>[^\]]*)\]")
_GENERIC_DIMS_RE = re.compile(r"(lhs_batching_dimensions|rhs_batching_dimensions|"
                              r"lhs_contracting_dimensions|rhs_contracting_dimensions)\s*=\s*\[([^\]]*)\]")


def _ints(text: str) -> list[int]:
    text = text.strip()
    return [int(t) for t in re.split(r"\s*,\s*", text) if t] if text else []


def tensor_dims(type_text: str) -> tuple[list[int], str]:
    """'8x4x16xf32' -> ([8, 4, 16], 'f32'); 'f32' -> ([], 'f32')."""
    parts = type_text.strip().split("x")
    dims: list[int] = []
    for p in parts[:-1]:
        dims.append(int(p) if p.isdigit() else -1)
    return dims, parts[-1]


def dot_output_shape(lhs: list[int], rhs: list[int], lb: list[int], rb: list[int],
                     lc: list[int], rc: list[int]) -> list[int]:
    """batch dims, then lhs free dims, then rhs free dims (the rule at every level)."""
    batch = [lhs[d] for d in lb]
    lfree = [lhs[d] for d in range(len(lhs)) if d not in lb and d not in lc]
    rfree = [rhs[d] for d in range(len(rhs)) if d not in rb and d not in rc]
    return batch + lfree + rfree


def dot_flops(lhs: list[int], lc: list[int], out: list[int]) -> int:
    """2 x (output elements) x (contracted elements): one multiply and one add each."""
    return 2 * math.prod(out) * math.prod(lhs[d] for d in lc)


def stablehlo_dots(text: str) -> list[dict[str, Any]]:
    """Every stablehlo.dot_general in a module, decoded."""
    dots: list[dict[str, Any]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        m = _SHLO_DOT_RE.search(line)
        if not m:
            continue
        entry: dict[str, Any] = {"line": lineno, "text": line.strip()}
        try:
            lb: list[int] = []
            rb: list[int] = []
            lc: list[int] = []
            rc: list[int] = []
            for d in _DIMS_PAIR_RE.finditer(line):
                l, r = _ints(d.group("l")), _ints(d.group("r"))
                if d.group("name") == "batching_dims":
                    lb, rb = l, r
                else:
                    lc, rc = l, r
            for name, val in _GENERIC_DIMS_RE.findall(line):
                {"lhs_batching_dimensions": lb, "rhs_batching_dimensions": rb,
                 "lhs_contracting_dimensions": lc, "rhs_contracting_dimensions": rc}[name].extend(_ints(val))
            # The trailing function type: (tensor<A>, tensor<B>) -> tensor<C>
            sig = line[line.rfind(":"):] if "->" in line else ""
            tensors = _TENSOR_RE.findall(sig)
            if len(tensors) < 3:
                raise ValueError("operand and result types not printed on this line")
            lhs, ltype = tensor_dims(tensors[0])
            rhs, _ = tensor_dims(tensors[1])
            printed, otype = tensor_dims(tensors[2])
            out = dot_output_shape(lhs, rhs, lb, rb, lc, rc)
            entry.update({
                "decoded": True,
                "lhsShape": lhs, "rhsShape": rhs,
                "lhsBatch": lb, "rhsBatch": rb, "lhsContracting": lc, "rhsContracting": rc,
                "outputShape": out, "printedOutputShape": printed,
                "agrees": out == printed, "elementType": otype,
                "flops": dot_flops(lhs, lc, out),
            })
        except (ValueError, IndexError) as e:
            entry.update({"decoded": False, "why": str(e)})
        dots.append(entry)
    return dots


# ---------------------------------------------------------------- HLO

# "bf16[8,128]{1,0:T(8,128)(2,1)}", "f32[]", "(f32[2], s32[])" -> the first array type
_HLO_TYPE_RE = re.compile(r"\b([a-z]+[0-9]*[a-z0-9]*)\[([0-9,]*)\]")
# An instruction: "[ROOT] %name = TYPE opcode(operands), attrs"
_HLO_INSTR_RE = re.compile(
    r"^\s*(?P<root>ROOT\s+)?%?(?P<name>[\w.\-]+)\s*=\s*(?P<type>.+?)\s+(?P<op>[a-z][a-z0-9\-_]*)\((?P<rest>.*)$")
_HLO_COMP_RE = re.compile(r"^\s*(?P<entry>ENTRY\s+)?%?(?P<name>[\w.\-]+)\s*(?:\(.*\))?.*\{\s*$")
_ATTR_DIMS_RE = re.compile(r"(lhs_batch_dims|rhs_batch_dims|lhs_contracting_dims|rhs_contracting_dims)=\{([0-9,]*)\}")


def hlo_shape(type_text: str) -> list[int] | None:
    m = _HLO_TYPE_RE.search(type_text)
    if not m:
        return None
    return _ints(m.group(2))


def hlo_element_type(type_text: str) -> str | None:
    m = _HLO_TYPE_RE.search(type_text)
    return m.group(1) if m else None


# Bytes per element of HLO's element types; a type without a size (token) counts 0.
ELEMENT_BYTES = {
    "pred": 1, "s4": 0.5, "u4": 0.5, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "s32": 4, "u32": 4, "s64": 8, "u64": 8,
    "f16": 2, "bf16": 2, "f32": 4, "f64": 8, "c64": 8, "c128": 16,
    "f8e4m3fn": 1, "f8e5m2": 1, "f8e4m3": 1, "f8e4m3b11fnuz": 1, "f8e4m3fnuz": 1, "f8e5m2fnuz": 1, "f8e3m4": 1,
}
_CALLS_RE = re.compile(r"calls=%?([\w.\-]+)")


def hlo_type_bytes(type_text: str) -> int:
    """Bytes of every array in an HLO type ('(bf16[2,4]{1,0}, f32[])' -> 20)."""
    total = 0.0
    for etype, dims in _HLO_TYPE_RE.findall(type_text):
        n = 1
        for t in dims.split(","):
            if t:
                n *= int(t)
        total += ELEMENT_BYTES.get(etype, 0) * n
    return int(total)


def hlo_plain_type(type_text: str) -> str:
    """An HLO type without its layouts: 'bf16[8,128]{1,0:T(8,128)(2,1)}' -> 'bf16[8,128]'."""
    previous = None
    while previous != type_text:
        previous, type_text = type_text, re.sub(r"\{[^{}]*\}", "", type_text)
    return type_text.strip()


def hlo_called(ins: dict[str, Any]) -> str | None:
    """The computation a parse_hlo instruction calls (calls=%name), or None."""
    m = _CALLS_RE.search(ins["attrs"])
    return m.group(1) if m else None


def hlo_operand_names(ins: dict[str, Any]) -> list[str]:
    """The instruction names a parse_hlo instruction reads ('bf16[8]{0} %p.1' -> 'p.1')."""
    return [o.split()[-1].lstrip("%") for o in ins["operands"] if o.split()]


def _split_operands(rest: str) -> tuple[str, str]:
    """'a, b), attrs' -> ('a, b', ' attrs'): the operand list up to its matching paren."""
    depth = 1
    for i, ch in enumerate(rest):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return rest[:i], rest[i + 1:]
    return rest, ""


def _split_top(text: str) -> list[str]:
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def parse_hlo(text: str) -> list[dict[str, Any]]:
    """Splits an HLO module into computations, each with its instructions:
    [{"name", "entry", "instructions": [{"name", "op", "type", "shape",
    "operands", "attrs", "root"}]}]."""
    comps: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if current is None:
            if stripped.startswith("HloModule") or not stripped:
                continue
            m = _HLO_COMP_RE.match(line)
            if m and " = " not in stripped.split("(")[0]:
                current = {"name": m.group("name"), "entry": bool(m.group("entry")), "instructions": []}
            continue
        if stripped == "}":
            comps.append(current)
            current = None
            continue
        m = _HLO_INSTR_RE.match(line)
        if not m:
            continue
        operands, attrs = _split_operands(m.group("rest"))
        current["instructions"].append({
            "name": m.group("name"),
            "op": m.group("op"),
            "type": m.group("type"),
            "shape": hlo_shape(m.group("type")),
            "operands": _split_top(operands),
            "attrs": attrs,
            "root": bool(m.group("root")),
        })
    if current is not None:
        comps.append(current)
    return comps


def _called(attrs: str) -> str | None:
    m = re.search(r"calls=%?([\w.\-]+)", attrs)
    return m.group(1) if m else None


def hlo_fusions(text: str) -> list[dict[str, Any]]:
    """The fusion instructions outside fused computations (the kernels XLA
    launches), each with its kind and the ops fused into it."""
    comps = parse_hlo(text)
    by_name = {c["name"]: c for c in comps}
    fused_bodies = {_called(i["attrs"]) for c in comps for i in c["instructions"] if i["op"] == "fusion"}
    out: list[dict[str, Any]] = []
    for c in comps:
        if c["name"] in fused_bodies:
            continue
        for ins in c["instructions"]:
            if ins["op"] != "fusion":
                continue
            kind = re.search(r"kind=(k\w+)", ins["attrs"])
            body = by_name.get(_called(ins["attrs"]) or "")
            ops: dict[str, int] = {}
            if body:
                for b in body["instructions"]:
                    if b["op"] in ("parameter", "constant"):
                        continue
                    ops[b["op"]] = ops.get(b["op"], 0) + 1
            out.append({
                "name": ins["name"],
                "kind": kind.group(1) if kind else "",
                "type": ins["type"].split("{")[0] if not ins["type"].startswith("(") else ins["type"],
                "computation": c["name"],
                "ops": ops,
            })
    return out


def hlo_dots(text: str) -> list[dict[str, Any]]:
    """Every dot in the module (fused or not), decoded from its attributes and
    the operand types printed inline. Convolutions are listed too: the TPU
    compiler may express a matmul as a convolution."""
    dots: list[dict[str, Any]] = []
    for c in parse_hlo(text):
        for ins in c["instructions"]:
            if ins["op"] not in ("dot", "convolution"):
                continue
            entry: dict[str, Any] = {"name": ins["name"], "op": ins["op"], "computation": c["name"],
                                     "outputShape": ins["shape"]}
            if ins["op"] == "dot":
                dims = {k: _ints(v) for k, v in _ATTR_DIMS_RE.findall(ins["attrs"])}
                shapes = [hlo_shape(o) for o in ins["operands"]]
                lc = dims.get("lhs_contracting_dims", [])
                if len(shapes) == 2 and shapes[0] is not None and shapes[1] is not None and ins["shape"] is not None:
                    lhs, rhs = shapes[0], shapes[1]
                    out = dot_output_shape(lhs, rhs, dims.get("lhs_batch_dims", []), dims.get("rhs_batch_dims", []),
                                           lc, dims.get("rhs_contracting_dims", []))
                    entry.update({"decoded": True, "lhsShape": lhs, "rhsShape": rhs,
                                  "agrees": out == ins["shape"], "flops": dot_flops(lhs, lc, ins["shape"])})
                else:
                    entry.update({"decoded": False, "why": "operand types not printed inline"})
            else:
                entry.update({"decoded": False, "why": "convolution: read its dim_labels by hand"})
            dots.append(entry)
    return dots
