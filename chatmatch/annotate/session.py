"""An annotation session: the run's items, transcripts and questions, the settings of the
page, and what each annotator sees next; everything the web layer (:mod:`.web`) shows,
without HTTP.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from chatmatch.annotate.assign import next_item
from chatmatch.annotate.items import Item, Mode, Side, build_items
from chatmatch.annotate.questions import Question, questions_for
from chatmatch.annotate.store import AnnotationStore, person
from chatmatch.errors import ChatmatchError
from chatmatch.run.storedrun import Run
from chatmatch.transcript import Transcript

#: an annotator's name: 1-40 letters, digits, spaces, dots, dashes, underscores
NAME_RE = re.compile(r"^[\w .-]{1,40}$")


def check_name(raw: str) -> str:
    """The annotator's name, or a ValueError saying what is wrong. One person, one name:
    spaces collapsed, NFKC-normalised and case-folded ("Alice", "alice" and a full-width
    "Ａｌｉｃｅ" are all "alice")."""
    name = person(raw)
    if not NAME_RE.match(name):
        raise ValueError("a name is 1 to 40 letters, digits, spaces, dots, dashes or "
                         "underscores" + ("" if name else " (it was empty)"))
    return name


#: the files whose change means new or other games (what `chatmatch view` watches too)
WATCHED = ("results.jsonl", "manifest.json", "config.yaml")


def run_version(run_dir: Path) -> tuple[tuple[int, int], ...]:
    """The size and modification time of the run's :data:`WATCHED` files."""
    out = []
    for name in WATCHED:
        try:
            st = (run_dir / name).stat()
            out.append((st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((-1, -1))
    return tuple(out)


@dataclass(frozen=True)
class Settings:
    mode: Mode = "game"
    show_names: bool = False
    #: seed of the order and of which bot is speaker A (None: the run's seed)
    seed: int | None = None
    #: annotators targeted per item (for inter-annotator agreement)
    overlap: int = 2
    #: items per annotator (None: all)
    limit: int | None = None
    #: dimensions asked (None: every dimension the run scored; (): overall only)
    dimensions: tuple[str, ...] | None = None


@dataclass(frozen=True)
class TurnView:
    index: int
    label: str
    role: str  # "a", "b", "other" (a third bot, pairs mode) or "seed"
    text: str


@dataclass(frozen=True)
class Panel:
    title: str
    turns: tuple[TurnView, ...]


@dataclass(frozen=True)
class Session:
    run_name: str
    run_dir: Path
    items: dict[str, Item]
    transcripts: dict[str, Transcript]
    questions: tuple[Question, ...]
    settings: Settings
    store: AnnotationStore
    #: the run's files as read (:func:`run_version`): another means the run changed
    version: tuple[tuple[int, int], ...] = ()

    @classmethod
    def open(cls, run_dir: Path, settings: Settings) -> "Session":
        """Read the run, build its items, open (or create) ``RUN/annotations.sqlite``."""
        version = run_version(run_dir)
        run = Run.load(run_dir)
        if settings.seed is None:
            settings = replace(settings, seed=run.seed)
        transcripts = run.transcripts()
        items = build_items(run.results, set(transcripts), settings.mode, run.seed if settings.seed is None else settings.seed)
        questions = questions_for(run.dimensions, settings.dimensions)
        store = AnnotationStore.open(run.store.path, create=True)
        return cls(run.name, run.store.path, {it.item_id: it for it in items}, transcripts,
                   questions, settings, store, version)

    def fresh(self) -> "Session":
        """This session, or the run read again when its games changed since (``chatmatch
        run`` added a bot while the page serves: its new games are offered too). A run
        that cannot be read now keeps the page on what it read (the error page says why
        when its files are gone)."""
        if run_version(self.run_dir) == self.version:
            return self
        try:
            return Session.open(self.run_dir, self.settings)
        except (ChatmatchError, OSError):
            return self

    @property
    def total(self) -> int:
        """Items each annotator is asked to judge."""
        n = len(self.items)
        return n if self.settings.limit is None else min(n, self.settings.limit)

    def judged(self, annotator: str) -> int:
        return sum(1 for who in self._judged_by().values() if annotator in who)

    def _judged_by(self) -> dict[str, set[str]]:
        return {k: v for k, v in self.store.judged_by().items() if k in self.items}

    def next_for(self, annotator: str) -> Item | None:
        """The item ``annotator`` is on (a reload shows it again), else the next one by
        :func:`next_item`; None when they are done."""
        judged_by = self._judged_by()
        cur = self.store.current(annotator)
        if cur in self.items and annotator not in judged_by.get(cur, set()):
            return self.items[cur]
        item = next_item(list(self.items.values()), annotator, judged_by, self.settings.seed or 0,
                         self.settings.overlap, self.settings.limit)
        if item is not None:
            self.store.set_current(annotator, item.item_id)
        return item

    def item(self, item_id: str) -> Item:
        if item_id not in self.items:
            raise ChatmatchError(f"unknown item '{item_id}' (not a game of run {self.run_name})")
        return self.items[item_id]

    def label(self, side: Side, letter: str) -> str:
        return f"Speaker {letter}" + (f" ({side.bot})" if self.settings.show_names else "")

    def panels(self, item: Item) -> tuple[Panel, ...]:
        """What the page shows: the game (both speakers marked), or two games (each with
        its speaker to judge marked and the partner shown as such)."""
        if item.single_game:
            roles = {item.a.bot: ("a", self.label(item.a, "A")),
                     item.b.bot: ("b", self.label(item.b, "B"))}
            return (self._panel("The conversation", self.transcripts[item.a.game_id], roles),)
        out = []
        for side, letter in ((item.a, "A"), (item.b, "B")):
            tr = self.transcripts[side.game_id]
            partner = tr.other(side.bot)
            roles = {side.bot: (letter.lower(), self.label(side, letter)),
                     partner: ("other", "partner" + (f" ({partner})" if self.settings.show_names
                                                     else ""))}
            out.append(self._panel(f"Conversation of speaker {letter}", tr, roles))
        return tuple(out)

    @staticmethod
    def _panel(title: str, tr: Transcript, roles: dict[str, tuple[str, str]]) -> Panel:
        turns = []
        for t in tr.turns:
            role, label = roles[t.speaker]
            if t.seed:
                role = "seed"  # the page says it is the tournament's opening line
            turns.append(TurnView(t.index, label, role, t.text))
        return Panel(title, tuple(turns))
