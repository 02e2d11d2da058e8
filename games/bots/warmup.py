"""The compiled search code (numba) loaded before it is needed: from numba's on-disk cache, or
compiled the first time, so that no computer move waits for a compiler."""

from __future__ import annotations

from games.bots import fastboard, go_search


def warm() -> bool:
    """Load or compile the Pente family's compiled loops and Go's compiled playouts; whether
    both compiled paths are on (False: numba is missing and the pure paths play)."""
    pente = fastboard.warm()
    go = go_search.warm()
    return pente and go
