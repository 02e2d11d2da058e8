"""Taking actions back: ``Game.pop()`` (any action, exactly) and ``Game.takeback()`` (what the
server's undo request may take back now). See state.py for the per-action log they read."""

from __future__ import annotations

from .errors import IllegalMove
from .openings import Takeback, takeback
from .state import GameState


class Undo(GameState):
    __slots__ = ()

    def pop(self) -> int | str:
        """Take back the last action (a stone or a decision) and return it.

        Everything goes back as it was: board, captures, poofs, a pending boat five, whose turn,
        the opening script and its decision, the outcome. The opening stone the server placed
        itself is never taken back: ``IllegalMove("nothing_to_undo")`` when nothing else is left.
        """
        log = self._log
        if len(log) <= self._automatic:
            raise IllegalMove("nothing_to_undo", self._nothing_to_undo())
        entry = log.pop()
        action = entry[0]
        if type(action) is str:
            self._set_turn(entry[2])
            return action
        if self._outcome is not None:  # the stone ended the game: the turn stayed with it
            self._outcome = None
            self._winner = None
            self._resume()
        elif self._script:
            self._sp -= 1
            self._apply_step(self._script[self._sp - 1])
        else:
            ci = (self._ci or self._clen) - 1
            self._ci = ci
            self._seat, self._colour = self._cycle[ci]
        c = self._colour
        assert c is not None
        b = self._board
        captured = entry[2]
        removed = len(captured)
        if self._simple:
            colours = entry[3] if len(entry) > 3 else (3 - c,) * removed
            for q, x in zip(captured, colours, strict=True):
                b[q] = x
        else:
            o = 3 - c
            for q in captured:
                b[q] = o
            poofed = entry[3]
            for q in poofed:
                b[q] = c
            removed += len(poofed)
            self._captures[o] -= len(poofed)
            self._boat_pending = entry[4]
        b[action] = 0
        self._captures[c] -= len(captured)
        self._empty += 1 - removed
        self._plies -= 1
        return action

    def takeback(self) -> Takeback | None:
        """What an undo request may take back now: ``Takeback(actions, seat)``, the number of
        trailing actions and the seat that made them, or None (see ``openings.takeback``).

        Whether the game is still being played is the caller's concern.
        """
        log = self._log
        return takeback(self._variant, [e[0] for e in log], [e[1] for e in log], self._automatic)

    def _nothing_to_undo(self) -> str:
        if self._automatic:
            return "Nothing can be taken back: the only stone was placed by the server"
        return "Nothing can be taken back: no action has been taken"
