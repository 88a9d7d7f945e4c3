"""What ``chatmatch run`` does about a stored game it cannot use, in the words every reader
and ``run`` itself print (the end of each warning of :mod:`chatmatch.rundir.integrity`, and
the INCOMPLETE footer of a ranking): it scores the game again, plays it again, removes its
line, or refuses the run directory until a file is moved out.
"""

from __future__ import annotations

from typing import Sequence

#: what ``chatmatch run`` does about an ignored game (the end of every warning)
RESCORE = "`chatmatch run` scores the game again from its transcript"
PLAY = "`chatmatch run` plays the game again"
REPLACE = "`chatmatch run` plays the game again and replaces the unreadable transcript"
DROP = "`chatmatch run` removes the line"


def unfinished(refusing: Sequence[str]) -> str:
    """What a reader says ``chatmatch run`` does about an unfinished run (the end of the
    ranking's INCOMPLETE footer): it plays the rest, or, when stored files make it refuse
    the directory (``refusing``: those files, :attr:`RunDir.refusing`), it refuses."""
    if not refusing:
        return "run again to finish"
    names = ", ".join(refusing[:3])
    more = f" and {len(refusing) - 3} more" if len(refusing) > 3 else ""
    verb = "is" if len(refusing) == 1 else "are"
    return (f"`chatmatch run` refuses this run directory until {names}{more} {verb} mended or "
            "moved out (the warnings above say how)")


def in_the_way(gid: str, action: str) -> str:
    """The stored file of ``gid`` that makes ``chatmatch run`` refuse the directory
    (``action``: the refusal, :func:`refused`): its score record when only that is in the
    way, else its transcript."""
    scores = f"scores/{gid}.json"
    return scores if action == refused(gid, scores_only=True) else f"transcripts/{gid}.jsonl"


#: how every refusal of ``chatmatch run`` (:func:`refused`) begins
REFUSES = "`chatmatch run` refuses this run directory for it"


def refused(gid: str, *, scores_only: bool = False) -> str:
    """What ``chatmatch run`` does about a game it cannot take: it refuses the directory
    (``scores_only``: only the score record is in the way)."""
    if scores_only:
        return (f"{REFUSES}: move scores/{gid}.json out of the run directory (the game is "
                "then scored again from its transcript)")
    return (f"{REFUSES}: move transcripts/{gid}.jsonl "
            f"and scores/{gid}.json out of the run directory, or start a new run with --out NEW_DIR")


def refuses(action: str) -> bool:
    """Whether ``action`` (the second part of a game's problem) is a refusal of the directory."""
    return action.startswith(REFUSES)
