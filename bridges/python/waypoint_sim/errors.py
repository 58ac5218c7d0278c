"""Errors an adapter may raise; the server turns them into JSON-RPC errors with the right code."""
from __future__ import annotations

from typing import Any, Optional

from . import _protocol as P


class SimError(Exception):
    """A JSON-RPC error with a code from _protocol and optional data (e.g. {"param": "seed"})."""

    def __init__(self, code: int, message: str, data: Optional[dict[str, Any]] = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


class UnknownTask(SimError):
    def __init__(self, task: str, known: list[str]) -> None:
        super().__init__(P.UNKNOWN_TASK, f"unknown task '{task}' (known: {', '.join(known) or 'none'})", {"task": task, "known": known})


class InvalidParams(SimError):
    """Raise with the offending parameter's name, e.g. InvalidParams("api", "unknown API set 'x'")."""

    def __init__(self, param: str, reason: str) -> None:
        super().__init__(P.INVALID_PARAMS, f"invalid params: {param}: {reason}", {"param": param})


class SnapshotUnsupported(SimError):
    def __init__(self, name: str) -> None:
        super().__init__(P.SNAPSHOT_UNSUPPORTED, f"simulator '{name}' does not support snapshots")


class Unsupported(SimError):
    def __init__(self, message: str, param: Optional[str] = None) -> None:
        super().__init__(P.UNSUPPORTED, message, {"param": param} if param else None)
