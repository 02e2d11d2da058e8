"""Building a small game database for the explorer's tests: records imported as the import
does it (so their positions are indexed in the same transaction), and the explorer read through
the API."""

from __future__ import annotations

from rest_framework.test import APIClient

from games.engine import EngineError, parse_point, point_name
from games.engine.positionkey import transform
from games.records.imports import games_import


def record(
    moves: str,
    *,
    p1: str = "ann",
    p2: str = "bob",
    r1: int | None = None,
    r2: int | None = None,
    game: str = "Pente",
    **headers: str,
) -> str:
    """A record's text: ``moves`` is the move text after the headers (numbers optional)."""
    lines = [f'[Game "{game}"]', f'[Player 1 Name "{p1}"]', f'[Player 2 Name "{p2}"]']
    if r1 is not None:
        lines.append(f'[Player 1 Rating "{r1}"]')
    if r2 is not None:
        lines.append(f'[Player 2 Rating "{r2}"]')
    lines += [f'[{name} "{value}"]' for name, value in headers.items()]
    return "\n".join(lines) + f"\n\n{moves}\n"


def store(*texts: str) -> list[int]:
    """Import the records; returns their game ids (every record must be taken)."""
    report = games_import(text="\n".join(texts))
    assert report.refusals == [], report.refusals
    return report.game_ids


def turned(moves: str, symmetry: int, size: int = 19) -> str:
    """``moves`` (names separated by commas or spaces; other words kept) moved by ``symmetry``."""
    out = []
    for word in moves.replace(",", " ").split():
        try:
            point = parse_point(word, size)
        except EngineError:
            out.append(word)
            continue
        out.append(point_name(transform(point, symmetry, size), size))
    return " ".join(out)


def explore(**params) -> dict:
    response = APIClient().get("/api/games/explorer", params)
    assert response.status_code == 200, response.content
    return response.json()


def explore_error(**params) -> dict:
    response = APIClient().get("/api/games/explorer", params)
    assert response.status_code == 400, response.content
    return response.json()


def moves_seen(body: dict) -> dict[str, int]:
    """The next moves of an answer: {name: games}."""
    return {m["move"]: m["games"] for m in body["moves"]}
