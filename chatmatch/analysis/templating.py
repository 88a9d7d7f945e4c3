"""The Jinja2 environment of the run's pages: ``templates/`` holds the tables (``tables.html``),
the stylesheet and ``report.html``; ``chatmatch view`` adds its own page templates in front
of them, so the report and the app draw every table from the same macros. Autoescape is
on: every name and reply is HTML-escaped where it is written."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Mapping

import jinja2
from markupsafe import Markup

from chatmatch.common.display import shown

TEMPLATES = Path(__file__).parent / "templates"


def num(v: Any) -> str:
    """A table value as text: floats with 3 significant digits ("n/a" for NaN)."""
    if isinstance(v, float):
        return "n/a" if math.isnan(v) else f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"
    return "" if v is None else str(v)


def setting(v: Any) -> str:
    """A setting's value as a reader writes it: numbers as :func:`num`, yes/no, a list
    joined with commas, a mapping as ``(key value, ...)`` with spaces for underscores."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, Mapping):
        return "(" + ", ".join(f"{str(k).replace('_', ' ')} {setting(x)}" for k, x in v.items()) + ")"
    if isinstance(v, (list, tuple)):
        return ", ".join(setting(x) for x in v)
    return num(v)


def settings_text(meta: Mapping[str, Any]) -> str:
    """A ranking's settings (``Ranking.meta``) in one readable line: ``shuffles 5, rank by
    conservative, ties (rule record, share 0.25)``."""
    return ", ".join(f"{str(k).replace('_', ' ')} {setting(v)}" for k, v in meta.items())


def shown_text(v: Any) -> Any:
    """Every text a template writes, with control and bidirectional characters escaped
    (:func:`chatmatch.common.display.shown`); markup the code built is left as it is."""
    return shown(v) if isinstance(v, str) and not isinstance(v, Markup) else v


def environment(*first: Path) -> jinja2.Environment:
    """The environment (templates of ``first`` folders win over the shared ones)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([*first, TEMPLATES]),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             finalize=shown_text)
    env.filters["num"] = num
    env.filters["settings"] = settings_text
    return env


def stylesheet() -> str:
    """The shared stylesheet (inline in report.html, served by the app)."""
    return (TEMPLATES / "style.css").read_text(encoding="utf-8")
