"""``python -m chatmatch``: the same as the ``chatmatch`` command."""

from chatmatch.cli import main

if __name__ == "__main__":
    main()
