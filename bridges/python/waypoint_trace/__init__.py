"""Read Waypoint traces and sweeps from Python with the standard library alone; DataFrames when pandas is there.

    import waypoint_trace as wt
    rows = wt.load_sweep(".waypoint/sweeps/topologies")   # one dict per episode (the columns of `waypoint export --csv`)
    run = wt.load_run(".waypoint/runs/<run-id>")          # {"run_id", "start", "end", "events", "warnings", "path"}
    calls = wt.turns(run)                                 # one dict per role call
    samples = wt.trajectory(run)                          # one dict per simulator sample
    df = wt.to_frame(rows)                                # pandas.DataFrame (needs pandas)

Each loader also takes frame=True and then returns a DataFrame. See docs/data.md.
"""
from __future__ import annotations

from typing import Any

from . import reader as _reader, sweep as _sweep, views as _views
from ._columns import ColumnError, decode_samples
from .frames import have_pandas, to_frame
from .reader import read_trace, trace_ends

__all__ = ["load_sweep", "load_run", "turns", "trajectory", "read_trace", "trace_ends", "to_frame", "have_pandas", "decode_samples", "ColumnError"]
__version__ = "0.1.0"


def load_sweep(path: Any, frame: bool = False) -> Any:
    """A sweep folder (or its name under ./.waypoint/sweeps) as one row per finished episode."""
    rows = _sweep.load_sweep(path)
    return to_frame(rows) if frame else rows


def load_run(path: Any) -> dict:
    """A run folder or trace.jsonl: {"path", "run_id", "start", "end", "events", "warnings"}."""
    return _reader.load_run(path)


def turns(run: Any, frame: bool = False) -> Any:
    """One row per role call of a run (a dict from load_run, or a path)."""
    rows = _views.turns(run if isinstance(run, dict) else load_run(run))
    return to_frame(rows) if frame else rows


def trajectory(run: Any, bodies: bool = False, frame: bool = False) -> Any:
    """One row per simulator sample of a run (a dict from load_run, or a path); bodies=True adds every body's pose."""
    rows = _views.trajectory(run if isinstance(run, dict) else load_run(run), bodies=bodies)
    return to_frame(rows) if frame else rows
