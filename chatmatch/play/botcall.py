"""The one boundary between chatmatch and a bot's own code.

Every call into an adapter -- ``__init__`` (construction), ``load``, ``reply``,
``reply_batch``, ``describe``, ``close`` -- goes through :func:`guarded` (or, on the play
path, :func:`reply_call`), so whatever the bot does is turned into something chatmatch
knows how to report, naming the bot and the method:

* any exception, even one whose ``__str__`` raises (:func:`exception_text`), and the
  ``BaseException`` s a plugin raises by mistake (``SystemExit``, ``GeneratorExit``)
  become a :class:`BotCodeError` (``bot 'x': load() failed: OSError: ...``, exit 2) -- or,
  during play, a :class:`BotRaised`, which the failure policy handles like any failed turn
  (retry, then forfeit); Ctrl-C (``KeyboardInterrupt``) and other deliberate
  ``BaseException`` s pass through;
* a :class:`~chatmatch.errors.ChatmatchError` the bot raises on purpose (a dead endpoint,
  a missing model) is already a clear message and passes through unchanged;
* a failed ``reply`` is reported to the :data:`BOT_ERRORS` logger with its traceback
  (:func:`report_failure`; a run writes them to ``RUN/bot_errors.jsonl``), and retried only
  when another call can succeed (:func:`may_pass`);
* text that comes out of a bot is made storable (:func:`clean_text`): lone UTF-16
  surrogates, which no UTF-8 file can hold, are replaced by U+FFFD; a reply with nothing
  visible in it (only whitespace, no-break spaces, zero-width or other format characters)
  counts as empty (:func:`is_blank`).

What happens after a failure depends on the method: ``__init__`` and ``load`` stop the run
before any game; ``reply``/``reply_batch`` follow ``failures`` (retries, forfeit or abort);
``describe`` is replaced by the bot's class name and a warning; ``close`` is reported as a
warning and the run goes on to score and rank what was played.
"""

from __future__ import annotations

import json
import logging
import os
import re
import traceback
import unicodedata
from pathlib import Path
from typing import Callable, TypeVar

from chatmatch.endpoints.safety import redact
from chatmatch.errors import BotError, ChatmatchError
from chatmatch.runtime.resources import CACHE_ENV

T = TypeVar("T")

#: longest exception text kept (forfeit reasons, messages)
MAX_REASON = 500
_SURROGATES = re.compile("[\ud800-\udfff]")
#: categories of characters that show nothing: separators, controls, format characters
#: (zero-width space/joiners, BOM, word joiner), unassigned
_INVISIBLE = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cn"})


#: the ``BaseException`` s a plugin raises by mistake (``sys.exit()`` in a script turned into
#: a bot, a generator closed under it): failures of the bot. ``KeyboardInterrupt`` (Ctrl-C)
#: and other deliberate ``BaseException`` s (a framework's cancellation) pass through.
_NOT_ALLOWED: tuple[type[BaseException], ...] = (SystemExit, GeneratorExit)
_GUARDED: tuple[type[BaseException], ...] = (Exception, *_NOT_ALLOWED)


class BotCodeError(BotError):
    """A bot's own code failed outside play (construction, load, describe, close)."""


class BotRaised(Exception):
    """A ``BaseException`` that is not an ``Exception`` (``SystemExit``, ``GeneratorExit``)
    raised by a bot during play, carried as an ordinary failure of that turn."""


def exception_text(exc: BaseException) -> str:
    """``Type: message`` of an exception, whatever its ``__str__`` does, one line, cut at
    :data:`MAX_REASON` characters, storable as UTF-8."""
    if isinstance(exc, BotRaised):
        return _error_text(str(exc))[:MAX_REASON]
    try:
        msg = str(exc)
    except BaseException:  # noqa: BLE001 - a broken __str__ must not end the run
        msg = "<its message could not be read: __str__ raised>"
    name = type(exc).__name__
    text = f"{name}: {msg}" if msg else name
    return _error_text(" ".join(text.split()))[:MAX_REASON]


def _error_text(text: str) -> str:
    """An exception's text or traceback as stored and shown: :func:`clean_text`, and
    anything that looks like a credential (``sk-...``, ``api_key=...``, ``Bearer ...``, a
    password in a URL) replaced by ``***`` (:func:`chatmatch.endpoints.safety.redact`): a
    bot's error often quotes its request, and the run directory is shared."""
    return redact(clean_text(text))


def clean_text(text: str) -> str:
    """``text`` with lone surrogates replaced by U+FFFD (so it can be written as UTF-8)."""
    return _SURROGATES.sub("\ufffd", text)


def is_blank(text: str) -> bool:
    """True when nothing in ``text`` is visible (whitespace, NBSP, zero-width characters)."""
    return all(unicodedata.category(c) in _INVISIBLE for c in text)


def guarded(bot: str, method: str, fn: Callable[[], T], *, adapter: str | None = None) -> T:
    """Call ``fn`` (a call into bot ``bot``'s ``method``): a failure becomes a one-line
    :class:`BotCodeError` naming the bot (and its adapter) and the method; Ctrl-C and
    chatmatch's own errors pass through."""
    try:
        return fn()
    except ChatmatchError:
        raise
    except _GUARDED as exc:  # the boundary: what a plugin may raise by mistake
        who = f"bot '{bot}'" + (f" (adapter '{adapter}')" if adapter else "")
        raise BotCodeError(f"{who}: {method}() failed: {exception_text(exc)}"
                           + _hint(method, exc)) from None


def describe_bot(bot: str, fn: Callable[[], dict[str, object]], fallback: str,
                 warn: Callable[[str], None]) -> dict[str, object]:
    """The bot's ``describe()``; when it fails (or returns no mapping), the class name
    ``fallback`` and the error, with a warning: a description is not worth a run."""
    try:
        out = guarded(bot, "describe", fn)
        if isinstance(out, dict):
            return _as_json(bot, out, warn)
        problem = f"describe() returned a {type(out).__name__}, not a dict"
    except BotCodeError as exc:
        problem = str(exc)
    warn(f"{problem}; the manifest records its class only")
    return {"class": fallback, "describe_error": problem}


def _as_json(bot: str, out: dict[str, object], warn: Callable[[str], None]) -> dict[str, object]:
    """``out`` as the manifest can store it: values that are not JSON become their text."""
    try:
        json.dumps(out, allow_nan=False)
        return out
    except (TypeError, ValueError, RecursionError):
        fixed: dict[str, object] = json.loads(json.dumps(out, default=lambda o: repr(o)[:200]))
        warn(f"bot '{bot}': describe() returned values that are not JSON; stored as their text")
        return {str(k): v for k, v in fixed.items()}


def close_bot(bot: str, fn: Callable[[], object], warn: Callable[[str], None]) -> None:
    """The bot's ``close()``; a failure is a warning, never the end of a run whose games
    are played and still to be scored."""
    try:
        guarded(bot, "close", fn)
    except ChatmatchError as exc:
        warn(f"{exc}; ignored (the games are kept and scored)")


def reply_call(fn: Callable[[], T]) -> T:
    """A ``reply``/``reply_batch`` call during play: exceptions stay exceptions for the
    failure policy; ``SystemExit``/``GeneratorExit`` become :class:`BotRaised`."""
    try:
        return fn()
    except _NOT_ALLOWED as exc:
        raise BotRaised(f"raised {exception_text(exc)} (a bot must return a reply or raise an "
                        "Exception)") from None


def _hint(method: str, exc: BaseException) -> str:
    if isinstance(exc, OSError) and method in ("load", "__init__"):
        cache = os.environ.get(CACHE_ENV)
        if cache and str(exc.filename or "").startswith(str(Path(cache).expanduser())):
            return (f"; the cache folder ${CACHE_ENV} ({cache}) cannot be used: point it at a "
                    "folder chatmatch can write into, or unset it")
        return "; a file or service the bot needs is missing or unreadable (check its parameters)"
    if isinstance(exc, SystemExit):
        return "; a bot must not exit the process"
    return ""


#: every failed ``reply``/``reply_batch`` call of a bot is logged here (WARNING), the
#: failure itself in the record's ``bot_error`` attribute (:func:`failure_record`)
BOT_ERRORS = logging.getLogger("chatmatch.bot_errors")
#: longest traceback text kept in a failure record
MAX_TRACEBACK = 20_000
#: names of exception classes (anywhere in the class's MRO) of failures that can pass by
#: themselves: the network, a server that is busy or restarting (requests, httpx, openai,
#: aiohttp all name theirs so)
_PASSING = re.compile(r"Timeout|Connect|Network|RateLimit|ServiceUnavailable|TooManyRequests"
                      r"|Temporar|InternalServerError")


def may_pass(exc: BaseException) -> bool:
    """Can the same call, on the same history, succeed when made again? True for a
    timeout, a connection error (``TimeoutError``, ``ConnectionError`` and the exception
    classes of HTTP clients named like them: ``ReadTimeout``, ``APIConnectionError``,
    ``RateLimitError``, ...); an exception may say so itself with a ``transient``
    attribute (``True``/``False``). False for anything else: an ``IndexError`` in a bot's
    code comes back every time it sees the same history."""
    flag = getattr(exc, "transient", None)
    if isinstance(flag, bool):
        return flag
    if isinstance(exc, (TimeoutError, ConnectionError)):
        return True
    return any(_PASSING.search(cls.__name__) for cls in type(exc).__mro__)


def failure_record(bot: str, game_id: str, turn: int, attempt: int, exc: BaseException,
                   retried: bool) -> dict[str, object]:
    """One line of ``RUN/bot_errors.jsonl``: which call failed, how, where (``at``: the
    file and line of the innermost frame, where it was raised) and the whole traceback."""
    tb = traceback.TracebackException.from_exception(exc)
    last = tb.stack[-1] if tb.stack else None
    text = _error_text("".join(tb.format()))
    return {"bot": bot, "game": game_id, "turn": turn, "attempt": attempt,
            "error": exception_text(exc), "type": type(exc).__qualname__,
            "at": f"{last.filename}:{last.lineno}" if last else None,
            "function": last.name if last else None, "retried": retried,
            "traceback": text if len(text) <= MAX_TRACEBACK else "..." + text[-MAX_TRACEBACK:]}


def report_failure(bot: str, game_id: str, turn: int, attempt: int, exc: BaseException,
                   retried: bool) -> None:
    """Log a failed reply call of ``bot`` to :data:`BOT_ERRORS` (one line; the record with
    the traceback rides along for the run's error log)."""
    rec = failure_record(bot, game_id, turn, attempt, exc, retried)
    BOT_ERRORS.warning("bot '%s', game %s, turn %d: %s (%s)", bot, game_id, turn, rec["error"],
                       "retrying" if retried else "not retried",
                       extra={"bot_error": rec})
