"""``python -m halgate.cli``: the same entry point as the `halgate` script."""

from . import main

main()
