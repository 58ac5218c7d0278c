"""Trajectory columns of the compact trace encoding (docs/trace.md, "Trajectories in columns").

A column group is {"e": digits, "v": [column, ...]}; a value is stored as k = round(value * 10**e) and read as
k / 10**e. A column is a JSON number (every sample has it), "1<base64>" / "2<base64>" (zigzag LEB128 varints of
first / second differences of k), or "f<base64>" (raw little-endian float64). The reference decoder is
src/core/trace/encoding/ (TypeScript); this one gives the same doubles (k and 10**e are exact, the division is
correctly rounded in both languages).
"""
from __future__ import annotations

import base64
import binascii
import math
import struct
from typing import Any, List, Optional


class ColumnError(ValueError):
    """A trajectory's columns cannot be decoded (the event is skipped with a warning)."""


def _deltas(b64: str, n: int, order: int, scale: int) -> List[float]:
    try:
        data = base64.b64decode(b64, validate=True)
    except (binascii.Error, ValueError) as e:
        raise ColumnError(f"column is not base64 ({e})") from None
    out: List[float] = []
    p = 0
    k1 = k2 = 0
    for i in range(n):
        z = 0
        shift = 0
        while True:
            if p >= len(data):
                raise ColumnError(f"column ends after {i} of {n} values")
            byte = data[p]
            p += 1
            z |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
            if shift > 63:
                raise ColumnError(f"column value too large (sample {i} of {n})")
        d = z // 2 if z % 2 == 0 else -(z + 1) // 2
        k = k1 + d if order == 1 else d + 2 * k1 - k2
        k2, k1 = k1, k
        out.append(k / scale)
    if p != len(data):
        raise ColumnError(f"column has {len(data) - p} bytes after its {n} values")
    return out


def decode_column(col: Any, n: int, digits: int) -> List[float]:
    """One column of n samples."""
    if isinstance(col, bool):
        raise ColumnError("column is a boolean")
    if isinstance(col, (int, float)):
        if not math.isfinite(col):
            raise ColumnError("column is not a finite number")
        return [float(col)] * n
    if isinstance(col, str) and col[:1] in ("1", "2"):
        return _deltas(col[1:], n, int(col[0]), 10 ** digits)
    if isinstance(col, str) and col[:1] == "f":
        try:
            raw = base64.b64decode(col[1:], validate=True)
        except (binascii.Error, ValueError) as e:
            raise ColumnError(f"column is not base64 ({e})") from None
        if len(raw) != 8 * n:
            raise ColumnError(f"column holds {len(raw) / 8:g} raw values, expected {n}")
        vals = list(struct.unpack(f"<{n}d", raw))
        if not all(math.isfinite(x) for x in vals):
            raise ColumnError("column holds a non-finite value")
        return vals
    raise ColumnError("column has an unknown encoding")


def decode_group(group: Any, n: int, width: Optional[int] = None) -> List[List[float]]:
    """A column group as one list per column (width columns; None: as many as the group has)."""
    if not isinstance(group, dict):
        raise ColumnError("column group is not an object")
    e, v = group.get("e"), group.get("v")
    if not isinstance(e, int) or isinstance(e, bool) or not 0 <= e <= 15:
        raise ColumnError(f"column group has no valid digit count (e = {e!r})")
    if not isinstance(v, list) or (width is not None and len(v) != width):
        raise ColumnError(f"column group has {len(v) if isinstance(v, list) else 'no'} columns, expected {width}")
    return [decode_column(c, n, e) for c in v]


def _runs(runs: Any, n: int, name: str, valid) -> List[tuple]:
    if not isinstance(runs, list) or not runs:
        raise ColumnError(f"columns.{name} has no runs")
    out = []
    for k, r in enumerate(runs):
        if not (isinstance(r, list) and len(r) == 2 and isinstance(r[0], int) and 0 <= r[0] < n and valid(r[1])):
            raise ColumnError(f"columns.{name}[{k}] is not [sample index, value]")
        if (k == 0 and r[0] != 0) or (k > 0 and r[0] <= out[-1][0]):
            raise ColumnError(f"columns.{name} runs must start at sample 0 and ascend")
        out.append((r[0], r[1]))
    return out


def _run_values(runs: List[tuple], n: int) -> list:
    out = []
    j = 0
    for i in range(n):
        while j + 1 < len(runs) and runs[j + 1][0] <= i:
            j += 1
        out.append(runs[j][1])
    return out


def _is_pairs(x: Any) -> bool:
    return x is None or (isinstance(x, list) and all(isinstance(p, list) and len(p) == 2 and all(isinstance(s, str) for s in p) for p in x))


def decode_samples(columns: Any) -> List[dict]:
    """A trajectory line's columns back to its samples, as the TypeScript reader returns them."""
    if not isinstance(columns, dict):
        raise ColumnError("columns is not an object")
    n = columns.get("n")
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < 2 ** 31:
        raise ColumnError("columns.n is not a sample count")
    t = decode_group(columns.get("tSecs"), n, 1)[0]
    ee = decode_group(columns.get("ee"), n, 4)
    width = decode_group(columns.get("gripperWidth"), n, 1)[0]
    qpos = decode_group(columns.get("qpos"), n)
    grasped = _run_values(_runs(columns.get("grasped"), n, "grasped", lambda x: x is None or isinstance(x, str)), n)
    bodies = decode_group(columns["bodies"], n) if "bodies" in columns else None
    # Every arm's x, y, z, yaw and finger width (5 per arm), in scenes with several arms.
    arms = decode_group(columns["arms"], n) if "arms" in columns else None
    contacts = _run_values(_runs(columns["contacts"], n, "contacts", _is_pairs), n) if "contacts" in columns else None
    samples = []
    for i in range(n):
        s = {
            "tSecs": t[i],
            "qpos": [c[i] for c in qpos],
            "ee": [c[i] for c in ee],
            "gripperWidth": width[i],
            "grasped": grasped[i],
        }
        if bodies is not None:
            s["bodies"] = [c[i] for c in bodies]
        if arms is not None:
            s["arms"] = [c[i] for c in arms]
        # An empty list is a sample with no contacts; null is a sample without a list.
        if contacts is not None and contacts[i] is not None:
            s["contacts"] = [list(p) for p in contacts[i]]
        samples.append(s)
    return samples
