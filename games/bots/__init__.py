"""The computer opponent of the Pente family (pure Python, no framework).

Import from here: ``from games.bots import Choice, choose_move``.
"""

from .search import WIN, Choice, choose_move

__all__ = ["WIN", "Choice", "choose_move"]
