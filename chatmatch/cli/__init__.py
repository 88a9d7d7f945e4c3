"""The ``chatmatch`` command. One module per subcommand; errors meant for users are printed
without a traceback and exit with status 2."""

from __future__ import annotations

import errno
import importlib
import os
import signal
import sys
from typing import Any

import click

from chatmatch import __version__
from chatmatch.common.display import shown
from chatmatch.errors import ChatmatchError, os_error_message

#: what an interrupted command leaves: only `run` plays games, which it keeps and resumes
_AFTER_STOP = {"run": "finished games are saved — run the same command again to resume"}
_STOPPED = "stopped before it finished; run the same command again"


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ChatmatchError as exc:
            click.echo(f"error: {shown(str(exc))}", err=True)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt as exc:
            how = "terminated (SIGTERM)" if isinstance(exc, Terminated) else "interrupted"
            click.echo(f"{how}; {_AFTER_STOP.get(ctx.invoked_subcommand or '', _STOPPED)}",
                       err=True)
            sys.exit(143 if isinstance(exc, Terminated) else 130)
        except RecursionError:
            click.echo("error: the input is nested too deeply to read; flatten it", err=True)
            sys.exit(2)
        except BrokenPipeError:  # `chatmatch show RUN | head`: the reader has what it wanted
            _quiet_stdout()
            sys.exit(0)
        except OSError as exc:  # a file or folder chatmatch could not read or write
            full_or_ro = exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS)
            click.echo(f"error: {os_error_message(exc, doing='write' if full_or_ro else 'read or write it')}",
                       err=True)
            sys.exit(2)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so the flush at exit does not fail on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill PID``, a batch scheduler ending the job): handled like Ctrl-C, so
    the games in flight are dropped cleanly and finished ones are kept."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated()


#: the subcommands (``chatmatch --help`` lists them by name): name -> module of
#: chatmatch.cli holding its ``command``. A module is imported when its command is used (or
#: listed by ``--help``), so ``chatmatch --version`` and a light command do not pay for the
#: analysis and plotting stack (scipy, scikit-learn, matplotlib) the others import.
COMMANDS = {"run": "run", "rank": "rank", "show": "show", "bots": "bots", "score": "score",
            "compare": "compare", "plot": "plot", "report": "report", "analyze": "analyze",
            "meta-eval": "meta_eval", "robustness": "robustness", "validate": "validate",
            "annotate": "annotate", "view": "view"}


class _LazyGroup(_Group):
    """The subcommands of :data:`COMMANDS`, each imported on first use; Ctrl-C meanwhile
    ends the process with one line and status 130, not an import traceback."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMANDS.get(cmd_name)
        if module is None:
            return None
        try:
            command: click.Command = importlib.import_module(f"chatmatch.cli.{module}").command
        except KeyboardInterrupt:
            sys.stderr.write("interrupted while starting; nothing was done\n")
            sys.exit(130)
        return command


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="chatmatch")
def cli() -> None:
    """Rank chatbots by making them talk to each other (ChatMatch tournaments).

    \b
    Quick start:
      chatmatch run tournaments/demo.yaml      play, score and rank a tournament
      chatmatch rank runs/demo --method points re-rank a stored run
      chatmatch show runs/demo g001            read one game
      chatmatch bots                           list bot adapters
    """


#: Environment defaults of the ``chatmatch`` process (a variable already set wins), set by
#: :func:`main` only, never on import: model-loading progress bars (GGUF de-quantizing,
#: weights; transformers' GGUF loader uses plain tqdm) would drown chatmatch's own progress
#: (set HF_HUB_DISABLE_PROGRESS_BARS=0 to see them again), and tokenizers' thread pool
#: warns when games run in threads. ``OMP_WAIT_POLICY=PASSIVE``: torch's OpenMP threads
#: sleep between parallel regions instead of spinning, so a model run in this process (the
#: sentence embedder of relevance and consistency, a bot) does not collapse when another
#: job holds a core (measured in docs/scale.md, "What limits the speed now").
PROCESS_ENV_DEFAULTS = {"HF_HUB_DISABLE_PROGRESS_BARS": "1", "TQDM_DISABLE": "1",
                        "TOKENIZERS_PARALLELISM": "false", "OMP_WAIT_POLICY": "PASSIVE"}


def main() -> None:
    """The ``chatmatch`` console script: sets :data:`PROCESS_ENV_DEFAULTS`, handles SIGTERM
    like Ctrl-C, and (like ``python -m``) lets ``adapter: mypkg.mod:Class`` find modules in
    the current folder, then runs the command."""
    for key, value in PROCESS_ENV_DEFAULTS.items():
        os.environ.setdefault(key, value)
    signal.signal(signal.SIGTERM, _on_sigterm)
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    cli(prog_name="chatmatch")
