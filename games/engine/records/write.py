"""Writing records: the text of a record, Pente.org's headers, and the record of a game."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from ..errors import EngineError
from ..game import Game
from ..go import KOMI, MARK, REJECT, GoGame
from ..notation import point_name
from .model import (
    ADJACENT_HEADER,
    D_OPENING_GAMES,
    DEAD_HEADER,
    FORFEIT,
    GO_NAMES,
    IN_PROGRESS,
    KOMI_HEADER,
    NONE_PROPOSED,
    PARTNERS_HEADER,
    PASS,
    REJECTED_HEADER,
    REJECTED_SEPARATOR,
    RESIGN,
    SEATS_HEADER,
    SWAP2_GAMES,
    SWAP2_HEADER,
    SWAPPED_HEADER,
    TOURNAMENT_RULE_HEADER,
    UNKNOWN_RESULT,
    Record,
    strip_prefix,
)

_WRAP = 79


def write_record(record: Record) -> str:
    """Format one record: headers, a blank line, the numbered move text, a final newline."""
    lines = []
    for name, value in record.headers:
        if "\n" in value or "\r" in value or not name or '"' in name or "]" in name:
            raise ValueError(f"header {name!r} cannot be written on one line")
        lines.append(f'[{name} "{value}"]')
    body = _move_text(record)
    if lines and body:
        lines.append("")
    lines.extend(body)
    return "\n".join(lines) + "\n"


def write_records(records: Iterable[Record]) -> str:
    """Format several records, separated by a blank line."""
    return "\n".join(write_record(r) for r in records)


def _move_text(record: Record) -> list[str]:
    cycle = 2 if record.partners else max(2, record.seats)
    words: list[str] = []
    for i, token in enumerate(record.moves):
        if i % cycle == 0:
            words.append(f"{i // cycle + 1}.")
        words.append(token)
    if record.result is not None:
        words.append(record.result)
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > _WRAP:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines


def standard_headers(
    *,
    game: str,
    site: str = "Pente.org",
    event: str | None = None,
    round: str | None = None,
    section: str | None = None,
    played_at: datetime | None = None,
    time_control: str | None = None,
    rated: bool = False,
    player_names: Sequence[str | None] = (),
    player_ratings: Sequence[int | None] = (),
    player_types: Sequence[str | None] = (),
    result: str | None = None,
) -> tuple[tuple[str, str], ...]:
    """Pente.org's header block in Pente.org's order, with its placeholders for unknown values.

    ``played_at`` should be an aware UTC datetime (written ``MM/DD/YYYY`` and ``HH:MM:SS``).
    Names/ratings/types are by colour (player 1 first); seats past 2 get ``Player N ...``
    headers after the standard block. ``player_types`` are ``"Human"`` or ``"Computer"``.
    """

    def at(seq: Sequence[Any], i: int) -> Any:
        return seq[i] if i < len(seq) else None

    def text(value: Any, placeholder: str) -> str:
        return placeholder if value in (None, "", 0) else str(value)

    out: list[tuple[str, str]] = [
        ("Game", game),
        ("Site", site),
        ("Event", text(event, "-")),
        ("Round", text(round, "-")),
        ("Section", text(section, "-")),
        ("Date", played_at.strftime("%m/%d/%Y") if played_at else "?"),
        ("Time", played_at.strftime("%H:%M:%S") if played_at else "?"),
        ("TimeControl", text(time_control, "-")),
        ("Rated", "Y" if rated else "N"),
        ("Player 1 Name", text(at(player_names, 0), "?")),
        ("Player 2 Name", text(at(player_names, 1), "?")),
        ("Player 1 Rating", text(at(player_ratings, 0), "?")),
        ("Player 2 Rating", text(at(player_ratings, 1), "?")),
        ("Player 1 Type", text(at(player_types, 0), "?")),
        ("Player 2 Type", text(at(player_types, 1), "?")),
        ("Result", text(result, UNKNOWN_RESULT)),
    ]
    for i in range(2, max(len(player_names), len(player_ratings), len(player_types))):
        out.append((f"Player {i + 1} Name", text(at(player_names, i), "?")))
        out.append((f"Player {i + 1} Rating", text(at(player_ratings, i), "?")))
        out.append((f"Player {i + 1} Type", text(at(player_types, i), "?")))
    return tuple(out)


def result_token(game: Game | GoGame) -> str:
    """``1-0`` / ``0-1`` / ``1/2-1/2`` / ``*`` from the position (``0-1-0`` with 3+ sides)."""
    n = sides(game)
    outcome = game.outcome
    if outcome is None:
        return IN_PROGRESS
    if outcome.is_draw:
        return "-".join(["1/2"] * n)
    return "-".join("1" if c == game.winner_colour else "0" for c in range(1, n + 1))


def record_from_game(
    game: Game | GoGame,
    headers: Mapping[str, str] | Iterable[tuple[str, str]] = (),
    *,
    resigned_colour: int | None = None,
    forfeit: bool = False,
) -> Record:
    """The record of ``game``: the given headers (``Game``, ``Result``, the decision and the
    extension headers are filled in from the game), every stone, and the result token.

    ``resigned_colour``: the colour that resigned (or forfeited, with ``forfeit=True``); written as
    a final ``Resign``/``Forfeit`` token when that colour is the one to move (see ``model.Record``).

    A ``GoGame`` is written with Go's name for its size, its stones and ``PASS`` tokens, the
    agreed dead stones of a counted game in ``Dead`` (by point, top row first; no header when
    there are none) and ``Komi`` when it is not 7.5. Marking steps are not moves: a marking
    turned down leaves its two passes, which the replay reads back as a rejection when more
    moves follow (or when ``Rejected Dead`` has one more marking than that), and the stones it
    proposed in ``Rejected Dead`` (``rejected_header``; no header without a marking turned
    down). A game still in its marking phase cannot be told apart from a counted game with no
    dead stone: its record, ending with two passes, replays as counted.
    """
    pairs = list(headers.items()) if isinstance(headers, Mapping) else list(headers)
    name = GO_NAMES[game.size] if isinstance(game, GoGame) else game.variant.name
    given = dict(pairs)
    if "Game" in given and strip_prefix(given["Game"]) != name:
        raise ValueError(f"Game header {given['Game']!r} does not match the game {name!r}")
    if "Game" not in given:
        pairs.insert(0, ("Game", name))

    # Stones by name and Go's passes; the other actions are decisions (or Go's marking steps).
    moves = [
        point_name(a, game.size) if isinstance(a, int) else a
        for a in game.actions
        if isinstance(a, int) or a == PASS
    ]
    decisions = [a for a in game.actions if isinstance(a, str) and a != PASS]
    result = result_token(game)
    ending = None
    if resigned_colour is not None and game.outcome is None:
        if sides(game) == 2 and game.to_move_colour == resigned_colour:
            ending = FORFEIT if forfeit else RESIGN
            moves.append(ending)
        winner = 2 if resigned_colour == 1 else 1
        result = "1-0" if winner == 1 else "0-1"
        if sides(game) > 2:
            result = IN_PROGRESS

    record = Record(headers=tuple(pairs), moves=tuple(moves), result=result)
    record = record.with_header("Result", result)
    if isinstance(game, GoGame):
        dead = game.proposed_dead if game.outcome is not None else None
        names = " ".join(point_name(p, game.size) for p in sorted(dead or ()))
        record = record.with_header(DEAD_HEADER, names or None)
        record = record.with_header(REJECTED_HEADER, rejected_header(game.actions))
        record = record.with_header(KOMI_HEADER, None if game.komi == KOMI else f"{game.komi:g}")
    elif name in D_OPENING_GAMES:
        value = "-"
        if decisions:
            value = "Yes" if decisions[0] == "swap" else "No"
        record = record.with_header(SWAPPED_HEADER, value)
    elif name in SWAP2_GAMES:
        record = record.with_header(SWAP2_HEADER, " ".join(decisions) if decisions else "-")

    seats, partners = _game_seats(game)
    if partners:
        record = record.with_header(PARTNERS_HEADER, "Y")
        if seats != 4:
            record = record.with_header(SEATS_HEADER, str(seats))
    elif seats != 2:
        record = record.with_header(SEATS_HEADER, str(seats))
    rule = _game_option(game, "tournament_rule")
    if rule is not None:
        default = _default_tournament_rule(game, rated=record.rated)
        if default is not None and bool(rule) != default:
            record = record.with_header(TOURNAMENT_RULE_HEADER, "Y" if rule else "N")
    if _game_option(game, "adjacent_only"):
        record = record.with_header(ADJACENT_HEADER, "Y")
    return record


def rejected_header(actions: Sequence[int | str]) -> str | None:
    """The ``Rejected Dead`` header of a Go game's ``actions``: the stones each marking turned
    down proposed (by name, as the marking lists them), in order, ``;`` between markings and
    ``-`` for a marking of no stone; None when no marking was turned down."""
    groups = [
        str(action).split()[1:]
        for action, answer in zip(actions, actions[1:], strict=False)
        if str(action).split()[:1] == [MARK] and answer == REJECT
    ]
    if not groups:
        return None
    return f"{REJECTED_SEPARATOR} ".join(" ".join(group) or NONE_PROPOSED for group in groups)


def sides(game: Game | GoGame) -> int:
    seats, partners = _game_seats(game)
    return 2 if partners or seats <= 2 else seats


def _game_option(game: Game | GoGame, name: str) -> Any:
    return getattr(game, name, None)


def _game_seats(game: Game | GoGame) -> tuple[int, bool]:
    return int(getattr(game, "seats", 2) or 2), bool(getattr(game, "partners", False))


def _default_tournament_rule(game: Game | GoGame, *, rated: bool) -> bool | None:
    """The tournament rule a game of these options gets when none is chosen (None: unknown)."""
    seats, partners = _game_seats(game)
    try:
        fresh = Game(game.variant, seats=seats, partners=partners, rated=rated)
    except (EngineError, ValueError):
        return None
    return bool(_game_option(fresh, "tournament_rule"))
