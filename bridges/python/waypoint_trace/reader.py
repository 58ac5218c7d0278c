"""Reading a Waypoint trace (.waypoint/runs/<id>/trace.jsonl) into plain dicts.

Both encodings: schema v1 (every event as it is) and the compact one (docs/trace.md, "Encoding"): `record` lines
hold each distinct chat message once (by a 16-hex-digit hash) and each image once (by sha256); a role_call lists
its messages as hashes; a trajectory stores its samples as columns. The events come back as the TypeScript
reader (src/core/trace/reader.ts) returns them.

Tolerant like that reader: a truncated last line, a corrupt line, a message hash with no record or columns that do
not decode become warnings naming the line, and every readable event is returned. Unlike it, this reader does not
validate fields against the schema, and it keeps events of types it does not know.
"""
from __future__ import annotations

import json
import os
from typing import Dict, List, Optional, Tuple, Union

from ._columns import ColumnError, decode_samples

#: The newest trace schema this reader was written for (episode_start.schemaVersion).
SCHEMA_VERSION = 2
TRACE_FILE = "trace.jsonl"

PathLike = Union[str, "os.PathLike[str]"]


def _warning(line: int, kind: str, message: str) -> dict:
    return {"line": line, "kind": kind, "message": message}


class _Content:
    """Message and blob records of one trace."""

    def __init__(self) -> None:
        self.messages: Dict[str, dict] = {}
        self.blobs: Dict[str, dict] = {}

    def add(self, rec: dict) -> Optional[str]:
        kind = rec.get("record")
        if kind == "message":
            h, m = rec.get("hash"), rec.get("message")
            if not isinstance(h, str) or not isinstance(m, dict) or not isinstance(m.get("content"), str) or not isinstance(m.get("role"), str):
                return "message record is invalid (needs hash, message.role, message.content)"
            self.messages[h] = m
            return None
        if kind == "blob":
            sha, data = rec.get("sha256"), rec.get("dataBase64")
            if not isinstance(sha, str) or not isinstance(data, str):
                return "blob record is invalid (needs sha256, dataBase64)"
            self.blobs[sha] = {"mediaType": rec.get("mediaType"), "dataBase64": data}
            return None
        return f"unknown record kind {json.dumps(kind)}"

    def resolve(self, refs: list, where: str, warnings: List[dict], line: int) -> list:
        out = []
        for ref in refs:
            if not isinstance(ref, str):
                out.append(ref)  # inline message (schema v1, or a hash collision)
                continue
            d = self.messages.get(ref)
            if d is None:
                warnings.append(_warning(line, "missing_content", f"{where} refers to message {ref}, which is not in the trace; shown as a placeholder"))
                out.append({"role": "user", "content": f"[message {ref} is missing from this trace]"})
                continue
            m = {"role": d["role"], "content": d["content"]}
            if "name" in d:
                m["name"] = d["name"]
            if "parts" in d:
                parts = []
                for p in d["parts"]:
                    if p.get("type") != "image":
                        parts.append(dict(p))
                        continue
                    q = {k: v for k, v in p.items() if k != "blob"}
                    if p.get("blob"):
                        blob = self.blobs.get(p.get("sha256"))
                        if blob is not None:
                            q["dataBase64"] = blob["dataBase64"]
                        else:
                            warnings.append(_warning(line, "missing_content", f"{where}: image {p.get('sha256')} of message {ref} is not in the trace; shown without its picture"))
                    parts.append(q)
                m["parts"] = parts
            out.append(m)
        return out


def read_trace(text: str) -> Tuple[List[dict], List[dict]]:
    """Events and warnings of a trace's text. Each warning: {"line": 1-based, "kind", "message"}."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    last = len(lines) - 1
    warnings: List[dict] = []
    content = _Content()
    parsed: List[Tuple[dict, int]] = []
    # Pass 1: every line; records are collected wherever they are (a hand-joined file may put one late).
    for i, raw in enumerate(lines):
        if not raw.strip():
            continue
        n = i + 1
        try:
            obj = json.loads(raw)
        except ValueError:
            if i == last:
                warnings.append(_warning(n, "truncated_last_line", f"line {n} is incomplete (the run was probably interrupted while writing it); {len(parsed)} events before it were read"))
            else:
                warnings.append(_warning(n, "corrupt_line", f"line {n} is not valid JSON and was skipped"))
            continue
        if not isinstance(obj, dict):
            warnings.append(_warning(n, "unknown_event", f"line {n} is not a JSON object; skipped"))
            continue
        if "record" in obj and "type" not in obj:
            problem = content.add(obj)
            if problem:
                warnings.append(_warning(n, "invalid_record", f"line {n}: {problem}; skipped"))
            continue
        parsed.append((obj, n))
    # Pass 2: events, references resolved.
    events: List[dict] = []
    for obj, n in parsed:
        t = obj.get("type")
        if not isinstance(t, str):
            warnings.append(_warning(n, "unknown_event", f"line {n} has no event type; skipped"))
            continue
        if t == "role_call" and isinstance(obj.get("messages"), list) and any(isinstance(m, str) for m in obj["messages"]):
            where = f"line {n}: role_call {obj.get('callId', '')}".rstrip()
            obj = {**obj, "messages": content.resolve(obj["messages"], where, warnings, n)}
        elif t == "trajectory" and "columns" in obj and "samples" not in obj:
            try:
                samples = decode_samples(obj["columns"])
            except ColumnError as e:
                warnings.append(_warning(n, "invalid_event", f"line {n}: trajectory columns are invalid ({e}); the trajectory was skipped"))
                continue
            obj = {k: v for k, v in obj.items() if k != "columns"}
            obj["samples"] = samples
        elif t == "episode_start" and isinstance(obj.get("schemaVersion"), int) and obj["schemaVersion"] > SCHEMA_VERSION:
            warnings.append(_warning(n, "newer_schema", f"trace schema v{obj['schemaVersion']} is newer than this reader (v{SCHEMA_VERSION}); some events may read differently"))
        events.append(obj)
    warnings.sort(key=lambda w: w["line"])
    return events, warnings


def trace_path(path: PathLike) -> str:
    """The trace file a path names: a trace.jsonl itself, or a run folder holding one."""
    p = os.fspath(path)
    if os.path.isdir(p):
        p = os.path.join(p, TRACE_FILE)
    if not os.path.isfile(p):
        raise FileNotFoundError(f"no trace at {p} (give a run folder or its trace.jsonl)")
    return p


def load_run(path: PathLike) -> dict:
    """A run as a dict: path, run_id, start (episode_start), end (episode_end or None), events, warnings."""
    p = trace_path(path)
    with open(p, encoding="utf-8") as f:
        events, warnings = read_trace(f.read())
    start = next((e for e in events if e.get("type") == "episode_start"), None)
    end = next((e for e in reversed(events) if e.get("type") == "episode_end"), None)
    run_id = start.get("runId") if start else os.path.basename(os.path.dirname(os.path.abspath(p)))
    return {"path": p, "run_id": run_id, "start": start, "end": end, "events": events, "warnings": warnings}


def _event_on(line: str, kind: str) -> Optional[dict]:
    if kind not in line:
        return None
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) and obj.get("type") == kind else None


def trace_ends(text: str) -> Tuple[Optional[dict], Optional[dict]]:
    """The first episode_start and the last episode_end, without decoding what lies between (for sweep tables)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    start = next((e for e in (_event_on(x, "episode_start") for x in lines) if e is not None), None)
    end = next((e for e in (_event_on(x, "episode_end") for x in reversed(lines)) if e is not None), None)
    return start, end
