"""Serves a Simulator over the Waypoint simulator protocol: JSON-RPC 2.0, one message per line on stdin/stdout."""
from __future__ import annotations


import inspect
import io
import json
import math
import os
import sys
import threading
import traceback
from typing import Any, Callable, Optional

from . import _protocol as P
from .errors import InvalidParams, SimError, UnknownTask
from .simulator import Simulator

_JSON_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "any": lambda v: True,
}


def _check_params(method: str, params: Any) -> dict[str, Any]:
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise InvalidParams("(params)", "expected an object")
    spec = P.PARAMS[method]
    for name, (json_type, required) in spec.items():
        if name not in params:
            if required:
                raise InvalidParams(name, f"required, expected {json_type}")
            continue
        if not _JSON_TYPES[json_type](params[name]):
            raise InvalidParams(name, f"expected {json_type}, got {type(params[name]).__name__}")
    for name in ("task", "fn", "language", "kind"):
        if name in spec and name in params and params[name] == "":
            raise InvalidParams(name, "must not be empty")
    return params


class Dispatcher:
    """Turns one incoming message into at most one answer; transport-independent."""

    def __init__(self, sim: Simulator, send: Callable[[str], None], max_snapshots: int = 256) -> None:
        self.sim = sim
        self._send = send
        self._lock = threading.Lock()
        self._have_episode = False
        self._snapshots: dict[str, Any] = {}
        self._snapshot_counter = 0
        self._max_snapshots = max_snapshots
        self.closed = False
        sim._notify = self.notify

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def _write(self, message: dict[str, Any]) -> None:
        try:
            text = json.dumps(message, allow_nan=False, separators=(",", ":"))
        except (TypeError, ValueError) as e:
            # NaN or an object json cannot encode: report it instead of sending invalid JSON.
            text = json.dumps({"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": P.INTERNAL_ERROR, "message": f"simulator '{self.sim.name}' produced a result that is not JSON: {e}"}})
        with self._lock:
            self._send(text)

    def handle(self, raw: str) -> None:
        try:
            msg = json.loads(raw)
        except ValueError:
            return self._write({"jsonrpc": "2.0", "id": None, "error": {"code": P.PARSE_ERROR, "message": "parse error: not JSON"}})
        rid = msg.get("id") if isinstance(msg, dict) else None
        id_ok = isinstance(rid, (int, str)) and not isinstance(rid, bool)
        if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0" or not isinstance(msg.get("method"), str):
            why = "batches are not supported" if isinstance(msg, list) else "not a JSON-RPC 2.0 request"
            return self._write({"jsonrpc": "2.0", "id": rid if id_ok else None, "error": {"code": P.INVALID_REQUEST, "message": f"invalid request: {why}"}})
        if "id" not in msg:
            return  # client notifications: none are defined
        if not id_ok:
            return self._write({"jsonrpc": "2.0", "id": None, "error": {"code": P.INVALID_REQUEST, "message": "invalid request: id must be a number or string"}})
        method = msg["method"]
        try:
            result = self._call(method, msg.get("params"))
            self._write({"jsonrpc": "2.0", "id": rid, "result": result})
        except SimError as e:
            err: dict[str, Any] = {"code": e.code, "message": e.message}
            if e.data:
                err["data"] = e.data
            self._write({"jsonrpc": "2.0", "id": rid, "error": err})
        except Exception as e:  # the adapter raised: report it as a crash, with the traceback on stderr
            traceback.print_exc(file=sys.stderr)
            self._write({"jsonrpc": "2.0", "id": rid, "error": {"code": P.SIMULATOR_CRASHED, "message": f"{method} raised {type(e).__name__}: {e}"}})

    def _call(self, method: str, params: Any) -> Any:
        sim = self.sim
        if method not in P.METHODS:
            raise SimError(P.METHOD_NOT_FOUND, f"method not found: {method}")
        p = _check_params(method, params)
        if method in P.METHODS_NEEDING_EPISODE and not self._have_episode:
            raise SimError(P.NO_EPISODE, f"{method} before reset: call reset first")
        if self.closed and method != P.METHOD_CLOSE:
            raise SimError(P.NO_EPISODE, f"{method} after close")
        if method == P.METHOD_INITIALIZE:
            caps: dict[str, Any] = {
                "protocolVersion": P.PROTOCOL_VERSION,
                "simulator": {"name": sim.name},
                "robots": list(sim.robots),
                "tasks": sim.tasks(),
                "apis": sim.api_sets(),
                "codeLanguages": list(sim.code_languages),
                "observationKinds": ["text", "state"],
                "snapshots": "id" if type(sim).snapshot is not Simulator.snapshot else "none",
                "streamsTrajectory": False,
                "jointActions": bool(sim.joint_actions),
                "agentViews": bool(sim.agent_views),
            }
            if sim.version is not None:
                caps["simulator"]["version"] = sim.version
            return caps
        if method == P.METHOD_RESET:
            known = [t["id"] for t in sim.tasks()]
            if p["task"] not in known:
                raise UnknownTask(p["task"], known)
            if "agents" in p:
                # Team size (LLaMAR's 1-5 agents): only adapters whose reset takes `agents` accept it.
                if "agents" not in inspect.signature(sim.reset).parameters:
                    raise InvalidParams("agents", f"simulator '{sim.name}' has a fixed number of agents per task")
                r = dict(sim.reset(p["task"], p["seed"], p.get("api"), agents=p["agents"]))
            else:
                r = dict(sim.reset(p["task"], p["seed"], p.get("api")))
            self._have_episode = True
            self._snapshots.clear()
            r["simTimeSecs"] = sim.sim_time_secs()
            return r
        if method == P.METHOD_OBSERVE:
            if "agent" in p:
                if not sim.agent_views:
                    raise SimError(P.UNSUPPORTED, f"simulator '{sim.name}' has no per-agent views", {"param": "agent"})
                return {**sim.observe_agent(p["agent"]), "simTimeSecs": sim.sim_time_secs()}
            return {**sim.observe(), "simTimeSecs": sim.sim_time_secs()}
        if method == P.METHOD_ACT:
            return {**sim.act(p["fn"], p["args"]), "simTimeSecs": sim.sim_time_secs()}
        if method == P.METHOD_ACT_JOINTLY:
            if not sim.joint_actions:
                raise SimError(P.UNSUPPORTED, f"simulator '{sim.name}' does not run joint actions (act_jointly is an optional capability)")
            return {**sim.act_jointly(p["actions"]), "simTimeSecs": sim.sim_time_secs()}
        if method == P.METHOD_EXECUTE:
            if p["language"] not in sim.code_languages:
                raise SimError(P.UNSUPPORTED, f"simulator '{sim.name}' does not run {p['language']} (runs: {', '.join(sim.code_languages) or 'nothing'})", {"param": "language"})
            return {**sim.execute(p["code"], p["language"], p.get("timeoutSecs")), "simTimeSecs": sim.sim_time_secs()}
        if method == P.METHOD_CHECK:
            return sim.check()
        if method == P.METHOD_DRAIN_TRAJECTORY:
            return sim.drain_trajectory()
        if method == P.METHOD_GEOMETRY:
            return sim.geometry()
        if method == P.METHOD_SNAPSHOT:
            state = sim.snapshot()
            self._snapshot_counter += 1
            sid = f"snap-{self._snapshot_counter}"
            self._snapshots[sid] = state
            if len(self._snapshots) > self._max_snapshots:
                self._snapshots.pop(next(iter(self._snapshots)))
            return {"kind": f"python:{sim.name}", "id": sid}
        if method == P.METHOD_RESTORE:
            if "id" not in p:
                raise InvalidParams("id", "this server hands out snapshot ids; blobs are not accepted")
            if p["id"] not in self._snapshots:
                raise InvalidParams("id", f"unknown snapshot '{p['id']}' (taken before the last reset, or evicted)")
            sim.restore(self._snapshots[p["id"]])
            return {"simTimeSecs": sim.sim_time_secs()}
        if method == P.METHOD_CLOSE:
            if not self.closed:
                self.closed = True
                sim.close()
            return {}
        raise SimError(P.METHOD_NOT_FOUND, f"method not found: {method}")  # pragma: no cover


def serve_stdio(sim: Simulator) -> None:
    """Serve `sim` on stdin/stdout until the client closes or stdin ends.

    While serving, everything written to stdout goes to stderr instead: print() and also C/C++ code that writes
    to file descriptor 1 (simulators such as CoppeliaSim do), since a stray line would corrupt the protocol stream.
    """
    saved_stdout = sys.stdout
    saved_stdout.flush()
    protocol_fd = os.dup(1)
    os.dup2(2, 1)
    out = io.open(protocol_fd, "w", encoding="utf-8", newline="\n")
    sys.stdout = sys.stderr
    binary_in = sys.stdin.buffer

    def send(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    d = Dispatcher(sim, send)
    try:
        while not d.closed:
            line = binary_in.readline()
            if not line:
                break
            text = line.decode("utf-8", errors="replace").strip()
            if text:
                d.handle(text)
    finally:
        if not d.closed:
            d.closed = True
            sim.close()
        sys.stdout = saved_stdout
        out.flush()
        os.dup2(protocol_fd, 1)
        out.close()


def main(make_sim: Callable[[], Simulator], argv: Optional[list[str]] = None) -> None:
    """Command-line entry for an adapter script: stdio by default, `--ws [HOST:]PORT` for WebSocket
    (one simulator per connection, loopback unless a host is given)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "--ws":
        from .websocket import serve_websocket

        host, _, port = (args[1] if len(args) > 1 else "8765").rpartition(":")
        serve_websocket(make_sim, host or "127.0.0.1", int(port))
    else:
        serve_stdio(make_sim())


__all__ = ["Dispatcher", "serve_stdio", "main"]
