"""The class an adapter subclasses. Override what your simulator does; the server does the protocol.

Payloads are plain dicts with the protocol's (camelCase) keys, documented in docs/simulator-protocol.md.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from .errors import SnapshotUnsupported, Unsupported


class Simulator:
    #: Shown in Waypoint's messages and traces.
    name: str = "python-simulator"
    version: Optional[str] = None
    #: [{"name": ..., "description": ...}]
    robots: list[dict[str, Any]] = []
    #: Languages execute() runs, e.g. ["python"]; leave empty if Waypoint should run the agent's code.
    code_languages: list[str] = []
    #: True if observe_agent() gives each agent its own partial view (RoCo, LLaMAR).
    agent_views: bool = False
    #: True if act_jointly() runs several agents' actions in the same simulator steps.
    joint_actions: bool = False

    # Set by the server so an adapter can report progress while a call runs.
    _notify: Optional[Callable[[str, dict[str, Any]], None]] = None

    # --- required -------------------------------------------------------------------------------------------
    def tasks(self) -> list[dict[str, Any]]:
        """TaskInfo dicts: id, description, instruction, suite, arms, imitates."""
        raise NotImplementedError

    def reset(self, task: str, seed: int, api: Optional[str]) -> dict[str, Any]:
        """Build the scene. Return {"task": TaskInfo, "observation": {...}, "api": [ApiFunctionSpec], "workspace": {...},
        "agents"?: [names of the robots / agents in order]}. To let Waypoint choose the team size, add a keyword
        parameter `agents: Optional[int] = None` (without it, a reset that asks for a size is refused)."""
        raise NotImplementedError

    def observe(self) -> dict[str, Any]:
        """{"text": str, "state": {"objects": [...], "ee": {"pos": [x,y,z], "yawRad": r}, "gripperOpen": bool, "grasped": name|None}}"""
        raise NotImplementedError

    def act(self, fn: str, args: list[Any]) -> dict[str, Any]:
        """Run one robot API call to completion: {"ok": True, "output"?: str} or {"ok": False, "error": str}."""
        raise NotImplementedError

    def check(self) -> dict[str, Any]:
        """{"success": bool, "detail": "what was checked, with the numbers"}"""
        raise NotImplementedError

    def sim_time_secs(self) -> float:
        raise NotImplementedError

    # --- optional -------------------------------------------------------------------------------------------
    def api_sets(self) -> list[dict[str, Any]]:
        """[{"id": "malmm", "functions": [ApiFunctionSpec]}] known before reset (may stay empty)."""
        return []

    def drain_trajectory(self) -> dict[str, Any]:
        """Samples since the last drain: {"rateHz": float, "samples": [TrajectorySample]}."""
        return {"rateHz": 1.0, "samples": []}

    def geometry(self) -> dict[str, Any]:
        return {"bodies": [], "geoms": []}

    def snapshot(self) -> Any:
        """Return any Python object that restore() accepts; the server keeps it and hands out an id."""
        raise SnapshotUnsupported(self.name)

    def restore(self, state: Any) -> None:
        raise SnapshotUnsupported(self.name)

    def execute(self, code: str, language: str, timeout_secs: Optional[float]) -> dict[str, Any]:
        """{"ok", "exitCode", "stdout", "error"?: {"type", "message", "line"?}, "apiCalls": [{"fn","args","ok","error"?}]}"""
        raise Unsupported(f"simulator '{self.name}' does not run code (execute is an optional capability)")

    def observe_agent(self, agent: str) -> dict[str, Any]:
        """One agent's partial view (same shape as observe()). Override it and set agent_views = True to offer it."""
        raise Unsupported(f"simulator '{self.name}' has no per-agent views")

    def act_jointly(self, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """Several agents' actions ({"agent", "name", "args"}) in the same simulator steps.
        Return {"results": [{"agent", "name", "ok", "output"?, "error"?}, ...] (one per action, in order),
        "collisions"?: [...]}. Override it and set joint_actions = True to offer it."""
        raise Unsupported(f"simulator '{self.name}' does not run joint actions")

    def close(self) -> None:
        pass

    # --- helpers for adapters -------------------------------------------------------------------------------
    def log(self, message: str, level: str = "info") -> None:
        """Send a log line to Waypoint (shown in its output; never mixed into the protocol stream)."""
        if self._notify:
            self._notify("log", {"level": level, "message": message})

    def emit_trajectory(self, rate_hz: float, samples: list[dict[str, Any]]) -> None:
        """Stream samples for live display while a long call runs (drain_trajectory must still return them)."""
        if self._notify:
            self._notify("trajectory", {"rateHz": rate_hz, "samples": samples})


def api_function(name: str, params: list[tuple[str, str]], doc: str, returns: str = "None") -> dict[str, Any]:
    """ApiFunctionSpec from (name, type) pairs; type is one of _protocol.API_PARAM_TYPES."""
    py_types = {"float": "float", "int": "int", "str": "str", "bool": "bool", "vec3": "list[float]", "list[float]": "list[float]", "poses": "list[list[float]]", "any": "Any"}
    sig = ", ".join(f"{n}: {py_types.get(t, t)}" for n, t in params)
    return {"name": name, "params": [{"name": n, "type": t} for n, t in params], "signature": f"{name}({sig}) -> {returns}", "doc": doc}
