"""A setup stored by an earlier version (a run directory's ``config.yaml``) as this version
reads it: the fluency LM's runtime keys (``engine``, ``device``, batches, processes,
threads) move from ``scoring.params.fluency`` to the top-level ``runtime:`` block, and the
scorer parameters that were removed (:mod:`chatmatch.scoring.removed`) are dropped, so
that the run directory still reads. A tournament file a user gives is not upgraded: it
is refused with what to write instead.
"""

from __future__ import annotations

from typing import Any

from chatmatch.scoring.removed import MOVED_TO_RUNTIME, current_params


def current_setup(data: Any) -> Any:
    """``data`` (a stored setup, parsed) with removed keys dropped and the fluency runtime
    keys moved to ``runtime:`` (a key already in ``runtime:`` wins); anything that is not
    such a mapping is returned as it is."""
    if not isinstance(data, dict) or not isinstance(data.get("scoring"), dict):
        return data
    scoring: dict[str, Any] = data["scoring"]
    params = scoring.get("params")
    if not isinstance(params, dict):
        return data
    fluency = params.get("fluency")
    moved = {k: fluency[k] for k in MOVED_TO_RUNTIME if k in fluency} if isinstance(fluency, dict) else {}
    out = {**data, "scoring": {**scoring, "params": current_params(params)}}
    if moved:
        runtime = data.get("runtime")
        out["runtime"] = {**moved, **runtime} if isinstance(runtime, dict) else moved
    return out


__all__ = ["current_setup"]
