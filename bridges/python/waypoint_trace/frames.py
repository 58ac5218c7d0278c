"""DataFrames, when pandas is installed. Everything else in this package needs only the standard library."""
from __future__ import annotations

from typing import Any, List, Optional


def have_pandas() -> bool:
    try:
        import pandas  # noqa: F401
    except ImportError:
        return False
    return True


def to_frame(rows: List[dict], columns: Optional[List[str]] = None) -> Any:
    """A pandas DataFrame of rows (lists of dicts from load_sweep, turns or trajectory), columns in their order.

    Raises ImportError naming what to install when pandas is not there.
    """
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("waypoint_trace.to_frame needs pandas (pip install pandas); the loaders return plain dicts without it") from None
    if columns is None:
        columns = list(rows[0].keys()) if rows else []
        seen = set(columns)
        for r in rows[1:]:
            for k in r:
                if k not in seen:
                    seen.add(k)
                    columns.append(k)
    return pd.DataFrame.from_records(rows, columns=columns)
