"""The command-line tests read the same run directories as the tests of their package: the
scripted four-bot run and its human ranking (tests/analysis/conftest.py), and a private
copy of it to write annotations into (tests/annotate/conftest.py)."""

from tests.analysis.conftest import human_file, scripted_run
from tests.annotate.conftest import scripted, scripted_template

__all__ = ["human_file", "scripted", "scripted_run", "scripted_template"]
