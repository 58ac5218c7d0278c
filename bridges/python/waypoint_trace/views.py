"""Tables of one run: its role calls (turns) and its trajectory samples, as lists of flat dicts."""
from __future__ import annotations

from typing import Dict, List


def _counters(e: dict) -> dict:
    return {"turn": e.get("turn"), "round": e.get("round"), "step": e.get("step"), "agent": e.get("agent")}


def turns(run: dict) -> List[dict]:
    """One row per role call, in order: what the role saw, what it answered, and how the answer parsed.

    Columns: seq, turn, round, step, agent, role, call_id, model, prompt_path, prompt_sha256, messages (the exact
    list the model received), n_messages, prompt_chars, human, ok, answer, error_kind, error, cached, attempts,
    latency_ms, tokens_in, tokens_out, parsed_kind, parsed_ok, parse_error. A call without an answer in the trace
    (an interrupted run) has None in the answer's columns.
    """
    responses: Dict[str, List[dict]] = {}
    parsed: Dict[str, List[dict]] = {}
    for e in run["events"]:
        if e.get("type") == "model_response":
            responses.setdefault(e.get("callId"), []).append(e)
        elif e.get("type") == "parsed_output":
            parsed.setdefault(e.get("callId"), []).append(e)
    rows = []
    for e in run["events"]:
        if e.get("type") != "role_call":
            continue
        cid = e.get("callId")
        # A call id may come back (a fork replays its parent's calls): pair each call with the next answer.
        r = responses[cid].pop(0) if responses.get(cid) else {}
        p = parsed[cid].pop(0) if parsed.get(cid) else {}
        messages = e.get("messages") or []
        usage = r.get("usage") or {}
        error = r.get("error") or {}
        rows.append({
            "seq": e.get("seq"),
            **_counters(e),
            "role": e.get("role"),
            "call_id": cid,
            "model": e.get("model"),
            "prompt_path": e.get("promptPath"),
            "prompt_sha256": e.get("promptSha256"),
            "messages": messages,
            "n_messages": len(messages),
            "prompt_chars": sum(len(m.get("content", "")) for m in messages if isinstance(m, dict)),
            "human": bool(e.get("human", False)),
            "ok": r.get("ok"),
            "answer": r.get("text"),
            "error_kind": error.get("kind"),
            "error": error.get("message"),
            "cached": r.get("cached"),
            "attempts": r.get("attempts"),
            "latency_ms": r.get("latencyMs"),
            "tokens_in": usage.get("promptTokens"),
            "tokens_out": usage.get("completionTokens"),
            "parsed_kind": p.get("kind"),
            "parsed_ok": p.get("ok"),
            "parse_error": p.get("error"),
        })
    return rows


_POSE = ("x", "y", "z", "qw", "qx", "qy", "qz")


def trajectory(run: dict, bodies: bool = False) -> List[dict]:
    """One row per simulator sample, in trace order (a run that restored a snapshot has its timelines one after the other).

    Columns: seq and counters of the trajectory event, t_secs, x, y, z, yaw (the end effector), gripper_width,
    grasped, qpos (a list), n_contacts (None when the sample has no contact list). With bodies=True, every scene
    body's pose as `<body>.x`, `.y`, `.z`, `.qw`, `.qx`, `.qy`, `.qz` (names from the scene event).
    """
    names: List[str] = []
    for e in run["events"]:
        if e.get("type") == "scene":
            names = list(e.get("bodies") or [])
            break
    rows = []
    for e in run["events"]:
        if e.get("type") != "trajectory":
            continue
        head = {"seq": e.get("seq"), **_counters(e)}
        for s in e.get("samples") or []:
            ee = s.get("ee") or [None] * 4
            contacts = s.get("contacts")
            row = {
                **head,
                "t_secs": s.get("tSecs"),
                "x": ee[0], "y": ee[1], "z": ee[2], "yaw": ee[3],
                "gripper_width": s.get("gripperWidth"),
                "grasped": s.get("grasped"),
                "qpos": s.get("qpos"),
                "n_contacts": None if contacts is None else len(contacts),
            }
            if bodies:
                vals = s.get("bodies") or []
                for b in range(len(vals) // 7):
                    name = names[b] if b < len(names) else f"body{b}"
                    for k, axis in enumerate(_POSE):
                        row[f"{name}.{axis}"] = vals[7 * b + k]
            rows.append(row)
    return rows
