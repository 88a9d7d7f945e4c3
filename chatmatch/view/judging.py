"""Which judge a run used, in words (the compare page says it for both runs): its preset,
its dimensions and weights, and the scorer settings in which two runs differ."""

from __future__ import annotations

from typing import Any, Mapping

from chatmatch.analysis.templating import setting
from chatmatch.run.storedrun import Run
from chatmatch.run.storedsetup import StoredSetup


def _preset(run: Run) -> str | None:
    """The ``preset`` the run's config.yaml names (as written; None: none or unreadable)."""
    data = StoredSetup(run.store.path).data
    preset = data.get("preset") if data is not None else None
    return preset if isinstance(preset, str) and preset else None


def judge_text(run: Run) -> str:
    """``preset paper; dimensions fluency, knowledge (weight 2), ...``: what scored the
    run's games."""
    preset = _preset(run)
    dims = [d if run.weights.get(d, 1.0) == 1.0 else f"{d} (weight {run.weights[d]:g})"
            for d in run.dimensions]
    where = f"preset {preset}" if preset else "chatmatch's defaults"
    return f"{where}; dimensions {', '.join(dims) or 'none'}"


def _flat(params: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in params.items():
        if isinstance(v, Mapping):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def _scorer_settings(run: Run) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for dim, described in (run.manifest.scorers or {}).items():
        if isinstance(described, Mapping):
            out.update(_flat({k: v for k, v in described.items() if k != "name"}, f"{dim} "))
    return out


def judge_differences(a: Run, b: Run) -> list[tuple[str, str, str]]:
    """(setting, value in ``a``, value in ``b``) for each scorer setting the two runs'
    manifests record differently ("-": not set in that run)."""
    sa, sb = _scorer_settings(a), _scorer_settings(b)
    return [(k.replace("params.", ""),
             setting(sa[k]) if k in sa else "-", setting(sb[k]) if k in sb else "-")
            for k in sorted(set(sa) | set(sb)) if sa.get(k, ...) != sb.get(k, ...)]
