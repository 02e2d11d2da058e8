"""Domain exceptions of the rules engine.

Every refusal carries a machine-readable ``code`` and a ``detail`` sentence a person can act on.
"""

from __future__ import annotations

ILLEGAL_MOVE_CODES = frozenset(
    {
        "occupied",
        "off_board",
        "bad_coordinate",
        "tournament_rule",
        "g_pente_point",
        "adjacent_only",
        "not_your_turn",
        "decision_pending",
        "no_decision_pending",
        "bad_decision",
        "game_over",
        "wrong_stone_count",
        "nothing_to_undo",
    }
)


class EngineError(Exception):
    """Base class of every error the engine raises."""


class IllegalMove(EngineError, ValueError):
    """A stone, turn or decision that the rules refuse right now."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail

    def __reduce__(self):
        return (type(self), (self.code, self.detail))

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.detail!r})"


class UnknownGame(EngineError, ValueError):
    """No game of that name or slug."""


class BadRecord(EngineError, ValueError):
    """A game record that cannot be read or replayed."""

    def __init__(self, code: str, detail: str, line: int | None = None) -> None:
        super().__init__(detail if line is None else f"line {line}: {detail}")
        self.code = code
        self.detail = detail
        self.line = line

    def __reduce__(self):
        return (type(self), (self.code, self.detail, self.line))

    def __repr__(self) -> str:
        return f"BadRecord({self.code!r}, {self.detail!r}, line={self.line!r})"


class BadOptions(EngineError, ValueError):
    """Game options that do not go together (e.g. partners in Connect6)."""
