"""A sweep folder (.waypoint/sweeps/<name>) as one row per episode: the same columns, order and values as
`waypoint export <sweep> --csv | --parquet` (src/core/export/table/episodeTable.ts; docs/data.md lists them).

Rows come from the records in episodes/<key>.json (only the plan's keys, in the plan's order), with the labels in
effect (the folder's labels.json replaces an episode's automatic labels) and, from each trace, its first and last
events (simulated time, simulator, start time).
"""
from __future__ import annotations

import json
import os
import re
from typing import Any, Callable, Dict, List, Optional, Tuple

from .reader import PathLike, trace_ends

PLAN_FILE = "plan.json"
SWEEPS_DIR = os.path.join(".waypoint", "sweeps")
_PROMPT_VERSION_FIELDS = ("promptVersion", "promptHash")


def _num(x: Any) -> Optional[float]:
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) and x == x and abs(x) != float("inf") else None


def _int(x: Any) -> Optional[int]:
    v = _num(x)
    return None if v is None else int(v) if float(v).is_integer() else v  # a fraction stays as it is


def _float(x: Any) -> Optional[float]:
    v = _num(x)
    return None if v is None else float(v)


def _secs(ms: Any) -> Optional[float]:
    v = _num(ms)
    return None if v is None else v / 1000


def _str(x: Any) -> Optional[str]:
    return x if isinstance(x, str) else None


def _json_sorted(o: Any) -> str:
    # The same text as JavaScript's JSON.stringify of the object with sorted keys.
    return json.dumps(dict(sorted((o or {}).items())), separators=(",", ":"), ensure_ascii=False)


def _labels(labels: List[dict]) -> Optional[str]:
    names = list(dict.fromkeys(l.get("label") for l in labels))
    return ";".join(names) if names else None


def _label_turn(labels: List[dict]) -> Optional[int]:
    turns = [l["turn"] for l in labels if isinstance(l.get("turn"), int) and not isinstance(l.get("turn"), bool)]
    return min(turns) if turns else None


def _prompt_version(r: dict) -> Optional[str]:
    return next((r[f] for f in _PROMPT_VERSION_FIELDS if isinstance(r.get(f), str)), None)


def _posix_dir(p: str) -> str:
    s = p.replace("\\", "/")
    return s.rsplit("/", 1)[0] if "/" in s else "."


_FIXED: List[Tuple[str, str, Callable[[dict], Any]]] = [
    ("sweep", "string", lambda s: s["sweep"]),
    ("key", "string", lambda s: s["r"].get("key")),
    ("run_id", "string", lambda s: s["r"].get("runId")),
    ("architecture", "string", lambda s: s["arch"]),
    ("task", "string", lambda s: s["r"].get("task")),
    ("cell", "string", lambda s: s["r"].get("cell")),
    ("variant", "string", lambda s: s["r"].get("variant")),
    ("ablations", "string", lambda s: _json_sorted(s["r"].get("ablations"))),
    ("seed", "int", lambda s: _int(s["r"].get("seed"))),
    ("repeat", "int", lambda s: _int(s["r"].get("repeat"))),
    ("model", "string", lambda s: s["model"]),
    ("success", "boolean", lambda s: s["r"].get("success")),
    ("end_reason", "string", lambda s: s["r"].get("reason")),
    ("end_message", "string", lambda s: _str(s["r"].get("message"))),
    ("agent_claimed_done", "boolean", lambda s: s["r"].get("agentClaimedDone") if isinstance(s["r"].get("agentClaimedDone"), bool) else None),
    ("failure_labels", "string", lambda s: _labels(s["labels"])),
    ("failure_turn", "int", lambda s: _label_turn(s["labels"])),
    ("turns", "int", lambda s: _int(s["r"].get("turns"))),
    ("rounds", "int", lambda s: _int(s["r"].get("rounds"))),
    ("steps", "int", lambda s: _int(s["r"].get("steps"))),
    ("model_calls", "int", lambda s: _int(s["r"].get("modelCalls"))),
    ("cached_calls", "int", lambda s: _int(s["r"].get("cachedCalls"))),
    ("tokens_in", "int", lambda s: _int(s["r"].get("promptTokens"))),
    ("tokens_out", "int", lambda s: _int(s["r"].get("completionTokens"))),
    ("cost", "double", lambda s: _float(s["r"].get("cost"))),
    ("code_errors", "int", lambda s: _int(s["r"].get("codeErrors"))),
    ("model_latency_secs", "double", lambda s: _secs(s["r"].get("latencyMs"))),
    ("wall_secs", "double", lambda s: _secs(s["r"].get("durationMs"))),
    ("sim_secs", "double", lambda s: _float(((s["end"] or {}).get("metrics") or {}).get("simTimeSecs"))),
    ("sim_total_secs", "double", lambda s: _float(((s["end"] or {}).get("metrics") or {}).get("simTotalSecs"))),
    ("prompt_version", "string", lambda s: _prompt_version(s["r"])),
    ("simulator", "string", lambda s: ((s["start"] or {}).get("simulator") or {}).get("name")),
    ("simulator_version", "string", lambda s: ((s["start"] or {}).get("simulator") or {}).get("version")),
    ("started_at", "string", lambda s: (s["start"] or {}).get("startedAt")),
    ("run_path", "string", lambda s: _posix_dir(s["r"].get("tracePath", ""))),
    ("trace_path", "string", lambda s: s["r"].get("tracePath", "").replace("\\", "/")),
]
_ROLE: List[Tuple[str, Callable[[dict], Any]]] = [
    ("calls", lambda r: _int(r.get("calls"))),
    ("tokens_in", lambda r: _int(r.get("promptTokens"))),
    ("tokens_out", lambda r: _int(r.get("completionTokens"))),
    ("cost", lambda r: _float(r.get("cost"))),
]
_KNOWN = {
    "key", "task", "cell", "variant", "ablations", "seed", "repeat", "runId", "tracePath", "success", "reason", "message", "agentClaimedDone",
    "turns", "rounds", "steps", "modelCalls", "cachedCalls", "promptTokens", "completionTokens", "cost", "callsByRole", "latencyMs",
    "durationMs", "codeErrors", "archMetrics", "labels", *_PROMPT_VERSION_FIELDS,
}


def _snake(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.]+", "_", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s)).lower()


def _extra_values(raw: List[Any]) -> List[Any]:
    present = [v for v in raw if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return raw
    if present and all(_num(v) is not None for v in present):
        return raw
    return [None if v is None else v if isinstance(v, str) else json.dumps(v, separators=(",", ":"), ensure_ascii=False) for v in raw]


def sweep_dir(path: PathLike) -> str:
    """The sweep folder a path names: the folder itself, its plan.json, or a sweep name under ./.waypoint/sweeps."""
    p = os.fspath(path)
    if os.path.isfile(p):
        p = os.path.dirname(p)
    for d in (p, os.path.join(SWEEPS_DIR, p)):
        if os.path.isfile(os.path.join(d, PLAN_FILE)):
            return d
    raise FileNotFoundError(f"no sweep at {os.fspath(path)} (a folder with {PLAN_FILE}, or a sweep name under {SWEEPS_DIR})")


def _read_json(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _records(d: str) -> Dict[str, dict]:
    """Finished records by key; a file cut short by a kill (or not a record) is not finished."""
    out: Dict[str, dict] = {}
    ep = os.path.join(d, "episodes")
    if not os.path.isdir(ep):
        return out
    for f in sorted(os.listdir(ep)):
        if not f.endswith(".json"):
            continue
        r = _read_json(os.path.join(ep, f))
        if isinstance(r, dict) and isinstance(r.get("key"), str) and isinstance(r.get("success"), bool) and f"{r['key']}.json" == f:
            out[r["key"]] = r
    return out


def load_sweep(path: PathLike) -> List[dict]:
    """One dict per finished episode of the sweep, columns as `waypoint export --csv` writes them (None: missing)."""
    d = sweep_dir(path)
    plan = _read_json(os.path.join(d, PLAN_FILE))
    if not isinstance(plan, dict) or not isinstance(plan.get("episodes"), list) or not isinstance((plan.get("spec") or {}).get("arch"), str):
        raise ValueError(f"{os.path.join(d, PLAN_FILE)} is not a sweep plan (no spec.arch or episodes)")
    records = _records(d)
    manual = _read_json(os.path.join(d, "labels.json"))
    manual = manual if isinstance(manual, dict) else {}
    ws = os.path.normpath(os.path.join(d, "..", "..", ".."))
    name = plan.get("name") or os.path.basename(os.path.normpath(d))
    sources = []
    for e in plan["episodes"]:
        r = records.get(e.get("key"))
        if r is None:
            continue
        start = end = None
        tp = os.path.join(ws, r.get("tracePath", ""))
        if os.path.isfile(tp):
            with open(tp, encoding="utf-8") as f:
                start, end = trace_ends(f.read())
        model = ((plan["spec"].get("model") or {}).get("name")) or ((start or {}).get("model") or {}).get("model") or ""
        labels = manual.get(r["key"], r.get("labels") or [])
        sources.append({"r": r, "sweep": name, "arch": plan["spec"]["arch"], "model": model, "labels": labels, "start": start, "end": end})
    return _table(sources)


def _table(sources: List[dict]) -> List[dict]:
    cols: List[Tuple[str, List[Any]]] = [(n, [get(s) for s in sources]) for n, _t, get in _FIXED]
    taken = {n for n, _ in cols}
    roles = sorted({k for s in sources for k in (s["r"].get("callsByRole") or {})})
    for role in roles:
        for prefix, get in _ROLE:
            name = f"{prefix}.{role}"
            taken.add(name)
            # A role the episode never called: 0 calls, 0 tokens, 0 cost.
            cols.append((name, [get((s["r"].get("callsByRole") or {})[role]) if role in (s["r"].get("callsByRole") or {}) else 0 for s in sources]))
    metrics = sorted({k for s in sources for k in (s["r"].get("archMetrics") or {})})
    for m in metrics:
        name = f"metric.{m}"
        taken.add(name)
        cols.append((name, [_float((s["r"].get("archMetrics") or {}).get(m)) for s in sources]))
    extras = sorted({k for s in sources for k in s["r"] if k not in _KNOWN})
    for field in extras:
        name = _snake(field)
        if name in taken:
            name = f"record.{name}"
        taken.add(name)
        cols.append((name, _extra_values([s["r"].get(field) for s in sources])))
    return [{n: vals[i] for n, vals in cols} for i in range(len(sources))]
