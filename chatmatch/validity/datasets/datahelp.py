"""Where a user reads how to get a lab dataset (:func:`data_help`): the dataset's own
``README.md`` beside its data, named by an absolute path so that the pointer works from any
working folder, or the documentation page when no README is found."""

from __future__ import annotations

import os
from pathlib import Path

#: environment variable naming the folder that holds stb/, fed/, dstc9/, usr/
DATA_ENV = "CHATMATCH_DATA"
#: the folder a lab run reads when neither --data nor CHATMATCH_DATA says otherwise
DEFAULT_DATA = Path("..") / "shared" / "data"


def default_data_dir() -> Path:
    env = os.environ.get(DATA_ENV)
    return Path(env) if env else DEFAULT_DATA


def data_help(dataset: str, near: Path | None = None) -> str:
    """``see /abs/path/README.md`` for ``dataset`` (looked for in ``near`` when it is the
    dataset's folder, then in the default data folder), or the documentation section when
    there is none."""
    places = [near] if near is not None and near.name == dataset else []
    places.append(default_data_dir() / dataset)
    for folder in places:
        readme = folder / "README.md"
        try:
            if readme.is_file():
                return f"see {readme.resolve()}"
        except OSError:
            continue
    return (f"see 'The datasets' in docs/validity.md of chatmatch (section {dataset}) for "
            f"where to get it; set {DATA_ENV} to the folder holding {dataset}/")
