"""The game database explorer: every stored game indexed by the positions it went through (a
key the same in all 8 symmetries of the board, ``games.engine.positionkey``), searched by
position with next-move statistics (``GET /api/games/explorer``).

``indexing``: the index's rows, written as games finish (a task), as records are imported (in
the import's own transaction) and by ``manage.py explorer_rebuild``; ``query``: a position
from the caller's moves or stones; ``selectors``: the statistics and the games at a position.
"""
