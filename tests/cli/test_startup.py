"""Starting the ``chatmatch`` command costs little: ``chatmatch.cli`` imports a subcommand's
module only when that command is used, so ``chatmatch --version`` (and ``--help`` of a
light command) never loads the analysis and plotting stack. The wall time is measured in
benchmarks/bench_startup.py."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from chatmatch import __version__
from chatmatch.cli import COMMANDS, cli

HEAVY = ("matplotlib", "sklearn", "scipy", "pandas", "torch", "transformers", "spacy",
         "onnxruntime", "ray")


def _heavy_after(code: str) -> list[str]:
    probe = (f"import sys, json\n{code}\n"
             f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=120, check=True)
    loaded: list[str] = json.loads(out.stdout.strip().splitlines()[-1])
    return loaded


def test_importing_the_cli_loads_no_analysis_or_model_stack() -> None:
    assert _heavy_after("import chatmatch.cli") == []


def test_version_loads_no_subcommand() -> None:
    code = ("import chatmatch.cli\ntry:\n    chatmatch.cli.cli.main(['--version'])\n"
            "except SystemExit:\n    pass")
    assert _heavy_after(code) == []
    res = subprocess.run([sys.executable, "-m", "chatmatch", "--version"], capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0 and res.stdout.strip() == f"chatmatch, version {__version__}"


def test_every_subcommand_is_found_by_its_name_and_listed() -> None:
    for name in COMMANDS:
        command = cli.get_command(None, name)  # type: ignore[arg-type]
        assert command is not None and command.name == name
    assert cli.get_command(None, "nope") is None  # type: ignore[arg-type]
    res = CliRunner().invoke(cli, ["--help"])
    assert res.exit_code == 0
    listed = [ln.split()[0] for ln in res.stdout.split("Commands:")[1].splitlines() if ln.strip()]
    assert listed == sorted(COMMANDS)
    res = CliRunner().invoke(cli, ["nope"])
    assert res.exit_code == 2 and "No such command 'nope'" in res.output
    res = CliRunner().invoke(cli, ["rnu"])
    assert res.exit_code == 2 and "Did you mean 'run'?" in res.output
