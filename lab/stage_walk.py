"""2026-12-02 -- Does a walk of ``chatmatch run`` enter each stage once?

Runs ``chatmatch run`` on a tiny offline tournament (two eliza bots, 2 exchanges, cheap
dimensions) in this process under :func:`sys.setprofile` and counts, for each stage
package of chatmatch (config, play, executors, run, scoring, ranking, rundir), how often
the path *enters* it: a Python call whose function lives in that package while the
nearest chatmatch frame above it is in another package (a call from a library back into
the package counts by the chatmatch frame that called the library). Module bodies
(imports) are left out. It also prints the distinct chatmatch files whose functions ran.

Run it on any checkout (the one importable first is measured)::

    PYTHONPATH=$PWD .venv/bin/python lab/stage_walk.py
    git worktree add /tmp/old f706b70 && PYTHONPATH=/tmp/old .venv/bin/python lab/stage_walk.py
"""

from __future__ import annotations

import argparse
import runpy
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

STAGES = ("config", "play", "executors", "run", "scoring", "ranking", "rundir")
TOURNAMENT = """name: walk
exchanges: 2
seed: 1
workers: 1
output_dir: {out}
bots:
  - name: eliza-a
    adapter: eliza
  - name: eliza-b
    adapter: eliza
scoring:
  dimensions: [specificity, diversity, proactivity]
"""


def _where(frame: FrameType, root: str) -> tuple[str, str] | None:
    """(package, file) of ``frame`` when it runs chatmatch code, else None."""
    name = frame.f_code.co_filename
    if not name.startswith(root):
        return None
    rel = name[len(root):].lstrip("/")
    parts = rel.split("/")
    return (parts[0] if len(parts) > 1 else rel.removesuffix(".py")), rel


class Walk:
    def __init__(self, root: str) -> None:
        self.root = root
        self.entries: Counter[str] = Counter()
        self.file_entries: Counter[str] = Counter()
        self.files: set[str] = set()
        self.doors: Counter[tuple[str, str, str]] = Counter()  # (stage, from, function)

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or frame.f_code.co_name == "<module>":
            return
        here = _where(frame, self.root)
        if here is None:
            return
        package, rel = here
        self.files.add(rel)
        caller = frame.f_back
        while caller is not None and _where(caller, self.root) is None:
            caller = caller.f_back
        came = _where(caller, self.root) if caller is not None else None
        if came is None or came[0] != package:
            self.entries[package] += 1
            self.doors[package, came[1] if came else "-", f"{rel}:{frame.f_code.co_name}"] += 1
        if came is None or came[1] != rel:
            self.file_entries[rel] += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=8, help="files entered most, shown")
    ap.add_argument("--doors", metavar="STAGE", help="show where the path enters STAGE from")
    args = ap.parse_args()
    import chatmatch

    root = str(Path(chatmatch.__file__).parent)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "walk.yaml"
        path.write_text(TOURNAMENT.format(out=Path(tmp) / "runs"))
        walk = Walk(root)
        sys.argv = ["chatmatch", "run", str(path)]
        threading.setprofile(walk.profile)
        sys.setprofile(walk.profile)
        try:
            runpy.run_module("chatmatch", run_name="__main__")
        except SystemExit as exc:
            if exc.code not in (0, None):
                raise
        finally:
            sys.setprofile(None)
            threading.setprofile(None)  # type: ignore[arg-type]
    print(f"checkout: {root}")
    print(f"distinct chatmatch files run: {len(walk.files)}")
    print("| stage | times entered |\n|---|---|")
    for stage in STAGES:
        print(f"| {stage} | {walk.entries[stage]} |")
    print(f"\nfiles entered most from another file (top {args.top}):")
    for rel, n in walk.file_entries.most_common(args.top):
        print(f"  {n:5d}  {rel}")

    if args.doors:
        print(f"\nentries into {args.doors} (times, from file, function):")
        for (stage, came, fn), n in walk.doors.most_common():
            if stage == args.doors:
                print(f"  {n:5d}  {came} -> {fn}")


if __name__ == "__main__":
    main()
