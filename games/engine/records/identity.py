"""The identity of a game, to find the same game twice in the database (a record imported
again, or the export of a game played here imported back): ``game_fingerprint``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence

_DRAW = "1/2"


def result_colours(token: str | None, *, colours: int) -> tuple[int, ...] | None:
    """The winning colours a result token names, colour 1 first: ``1-0`` is ``(1,)``, ``0-1-1``
    is ``(2, 3)``, a draw (``1/2-1/2``) is ``()``; None when it names no result (``*``, ``?``,
    no token, or not one part per colour)."""
    parts = (token or "").strip().split("-")
    if len(parts) != colours:
        return None
    if all(part == _DRAW for part in parts):
        return ()
    if not set(parts) <= {"0", "1"} or "1" not in parts:
        return None
    return tuple(colour for colour, part in enumerate(parts, start=1) if part == "1")


def game_fingerprint(
    *,
    variant: str,
    seats: int,
    partners: bool,
    actions: Iterable[int | str],
    names: Sequence[str],
    seat_colours: Sequence[int],
    winners: Sequence[int] | None,
) -> str:
    """The fingerprint (32 hex digits) of a game: ``variant``, ``seats`` and ``partners`` its
    kind; ``actions`` as the engine lists them (a word in any case); ``names`` and
    ``seat_colours`` the name and colour of each seat, seat 1 first (an unknown name is "");
    ``winners`` the winning colours (``()``: a draw; None: no result).

    Two games are the same game when they have the same kind (the game, its number of seats,
    partners or not), the same actions (stones, passes, opening decisions, Go's markings and
    answers, in order), the same players (names as recorded, by colour: partners' two names joined
    by ``/`` as the records write them) and the same result (the winning colours, a draw, or no
    result). ``game_fingerprint`` hashes those facts; the date is left out of it, so that the
    caller can decide how a game without a date compares (see ``games.records.imports``).

    The result is what the moves decide (a five, captures, a count, a final Resign token) when they
    decide it; otherwise the record's ``Result`` header (a game lost on time, a resignation out of
    turn), read by ``result_colours``.
    """
    by_colour: dict[int, list[str]] = {}
    for name, colour in zip(names, seat_colours, strict=True):
        by_colour.setdefault(colour, [])
        if name:
            by_colour[colour].append(name)
    facts = [
        variant,
        seats,
        bool(partners),
        ["/".join(by_colour[colour]) for colour in sorted(by_colour)],
        None if winners is None else sorted(winners),
        [a if isinstance(a, int) else str(a).upper() for a in actions],
    ]
    text = json.dumps(facts, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
