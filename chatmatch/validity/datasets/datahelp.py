"""Where a user reads how to get a lab dataset (:func:`data_help`): the dataset's own
``README.md`` beside its data, named by an absolute path so that the pointer works from any
working folder, or the documentation page when no README is found."""

from __future__ import annotations

import os
from pathlib import Path

from chatmatch.common.safeio import file_problem
from chatmatch.errors import ChatmatchError

#: environment variable naming the folder that holds stb/, fed/, dstc9/, usr/
DATA_ENV = "CHATMATCH_DATA"


class DataFolderMissing(ChatmatchError):
    """Neither ``--data`` nor ``$CHATMATCH_DATA`` names the datasets' folder."""


def default_data_dir() -> Path | None:
    """The folder ``$CHATMATCH_DATA`` names, or None when it is unset or empty."""
    env = os.environ.get(DATA_ENV)
    return Path(env) if env else None


def data_dir(given: Path | None, flag: str = "--data") -> Path:
    """``given`` (the command's ``flag``), else ``$CHATMATCH_DATA``; a
    :class:`DataFolderMissing` naming both when neither is set."""
    found = given or default_data_dir()
    if found is None:
        raise DataFolderMissing(f"no data folder: give {flag} DIR or set {DATA_ENV} to the "
                                f"folder holding stb/, fed/, dstc9/ and usr/ (see 'The "
                                f"datasets' in docs/validity.md)")
    return found


def data_help(dataset: str, near: Path | None = None) -> str:
    """``see /abs/path/README.md`` for ``dataset`` (looked for in ``near`` when it is the
    dataset's folder, then in the folder ``$CHATMATCH_DATA`` names), or the documentation section when
    there is none."""
    places = [near] if near is not None and near.name == dataset else []
    if (env := default_data_dir()) is not None:
        places.append(env / dataset)
    for folder in places:
        readme = folder / "README.md"
        try:
            if readme.is_file():
                return f"see {readme.resolve()}"
        except OSError:
            continue
    return (f"see 'The datasets' in docs/validity.md of chatmatch (section {dataset}) for "
            f"where to get it; set {DATA_ENV} to the folder holding {dataset}/")


def data_file(path: str | Path, file_name: str, error: type[ChatmatchError], dataset: str,
              missing: str) -> Path:
    """The data file at ``path`` (the file, or a folder holding ``file_name``), checked:
    ``error`` saying ``{path}: {missing} ({data_help})...`` when it does not exist
    (``missing`` holds ``{help}`` where the pointer goes), ``cannot read {path} (why)``
    when it cannot be read."""
    p = Path(path)
    if p.is_dir():
        p = p / file_name
    if (why := file_problem(p)) == "no such file":
        raise error(f"{p}: " + missing.format(help=data_help(dataset, p.parent)))
    if why:
        raise error(f"cannot read {p} ({why})")
    return p
