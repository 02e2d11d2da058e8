"""Whether an action is legal now: whose turn, the point, the tournament rule, G-Pente's points,
adjacent-only. Refusals raise ``IllegalMove`` with a code and a sentence a person can act on."""

from __future__ import annotations

from .errors import IllegalMove
from .notation import parse_point, point_name
from .openings import DECISIONS
from .state import GameState


class Checks(GameState):
    __slots__ = ()

    def _coerce(self, point: object) -> int:
        if isinstance(point, bool):
            raise IllegalMove("bad_coordinate", f"{point!r} is not a point")
        if isinstance(point, int):
            if not 0 <= point < self._n:
                raise IllegalMove(
                    "off_board",
                    f"{point} is off the {self._size}x{self._size} board (0..{self._n - 1})",
                )
            return point
        if isinstance(point, str):
            return parse_point(point, self._size)
        raise IllegalMove("bad_coordinate", f"{point!r} is not a point")

    def _check_turn(self, seat: int | None) -> None:
        if self._outcome is not None:
            raise IllegalMove("game_over", f"The game is over: {self._describe_result()}")
        if self._pending is not None:
            choices = " or ".join(repr(c) for c in DECISIONS[self._pending])
            raise IllegalMove(
                "decision_pending",
                f"No stone can be placed yet: seat {self._seat} must first choose {choices}",
            )
        if seat is not None and seat != self._seat:
            raise IllegalMove(
                "not_your_turn", f"It is seat {self._seat}'s turn to move, not seat {seat}'s"
            )

    def _check_point(self, p: int, extra_neighbour: int | None = None) -> None:
        b = self._board
        if b[p]:
            raise IllegalMove("occupied", f"{point_name(p, self._size)} is already taken")
        if self._plies == self._tr_ply:
            if self._t.chebyshev[p] < 3:
                raise IllegalMove(
                    "tournament_rule",
                    "Tournament rule: player 1's second stone must be at least 3 points from "
                    f"the centre (outside H8..M12); {point_name(p, self._size)} is too close",
                )
            if p in self._g_points:
                raise IllegalMove(
                    "g_pente_point",
                    "In G-Pente player 1's second stone may not be on K6, K7, K13, K14, F10, "
                    f"G10, N10 or O10; {point_name(p, self._size)} is one of them",
                )
        # Adjacent-only binds every stone but the first, and but player 1's second stone under
        # the tournament rule: no point 3 or more from the centre touches a stone when player 2
        # has answered next to the centre, so that stone is bound by the distance alone.
        if self._adjacent and self._plies > 0 and self._plies != self._tr_ply:
            for q in self._t.neighbours[p]:
                if b[q] or q == extra_neighbour:
                    break
            else:
                raise IllegalMove(
                    "adjacent_only",
                    f"{point_name(p, self._size)} touches no stone; with the adjacent-only "
                    "option every stone must be placed next to one already on the board",
                )

    def check(self, point: int | str, *, seat: int | None = None) -> None:
        """Raise ``IllegalMove`` unless ``seat`` (default: whoever is to move) may play ``point``."""
        self._check_turn(seat)
        self._check_point(self._coerce(point))

    def legal_points(self) -> list[int]:
        """Every point the side to move may play now (empty when over or a decision is due)."""
        if self._outcome is not None or self._pending is not None:
            return []
        out = []
        for p in range(self._n):
            if self._board[p]:
                continue
            try:
                self._check_point(p)
            except IllegalMove:
                continue
            out.append(p)
        return out
