"""Property tests: random legal games keep every stone accounted for, and records round-trip."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.game import Game
from games.engine.records import (
    game_from_record,
    parse_record,
    record_from_game,
    replay_summary,
    standard_headers,
    write_record,
)

from .helpers import EVERY_SETUP

FAST = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

SETUPS = EVERY_SETUP
CAPTURE_SETUPS = [
    ("Pente", {}),
    ("Keryo-Pente", {}),
    ("Poof-Pente", {}),
    ("O-Pente", {}),
    ("Pente", {"seats": 3}),
    ("Pente", {"seats": 5}),
    ("Keryo-Pente", {"seats": 4}),
    ("Pente", {"partners": True}),
]


def _near(game: Game, data: st.DataObject) -> int:
    """A legal point, biased to the crowded middle so captures and poofs happen."""
    legal = game.legal_points()
    occupied = [i for i, c in enumerate(game.board) if c]
    if occupied and data.draw(st.integers(0, 9), label="bias") < 8:
        size = game.size
        close = [
            p
            for p in legal
            if any(
                abs(p % size - q % size) <= 2 and abs(p // size - q // size) <= 2 for q in occupied
            )
        ]
        if close:
            return data.draw(st.sampled_from(close), label="point")
    return data.draw(st.sampled_from(legal), label="point")


def play_random(game: Game, data: st.DataObject, max_actions: int, check=None) -> Game:
    """Play random legal actions (stones and opening decisions); ``check(before, result)`` after
    each stone."""
    for _ in range(max_actions):
        if game.outcome is not None:
            break
        if game.pending_decision is not None:
            game.decide(data.draw(st.sampled_from(game.decisions_available()), label="decision"))
            continue
        point = _near(game, data)
        before = game.copy()
        result = game.play(point)
        if check is not None:
            check(before, result, game)
    return game


def stones_on_board(game: Game) -> int:
    return sum(1 for c in game.board if c)


@pytest.mark.slow
@FAST
@given(setup=st.sampled_from(CAPTURE_SETUPS), length=st.integers(10, 120), data=st.data())
def test_stones_are_never_lost_or_duplicated(setup, length, data):
    name, options = setup
    removed = 0

    def check(before: Game, result, after: Game) -> None:
        nonlocal removed
        gone = set(result.captured) | set(result.poofed)
        assert len(gone) == len(result.captured) + len(result.poofed), "a stone removed twice"
        removed += len(gone)
        # The stone played is on the board unless it poofed itself.
        if result.point not in result.poofed:
            assert after.board[result.point] == result.colour
        for p in gone:
            assert before.board[p] != 0 or p == result.point
            assert after.board[p] == 0
        assert after.plies - stones_on_board(after) == removed
        assert sum(after.captures) == removed

    game = play_random(Game(name, **options), data, length, check)
    assert game.plies - removed == stones_on_board(game)


@pytest.mark.slow
@FAST
@given(setup=st.sampled_from(CAPTURE_SETUPS), length=st.integers(10, 120), data=st.data())
def test_only_a_poof_removes_the_movers_own_stones(setup, length, data):
    name, options = setup

    def check(before: Game, result, after: Game) -> None:
        mover = result.colour
        for p in result.captured:
            assert before.board[p] not in (0, mover), "captured one of the mover's own stones"
        for p in result.poofed:
            assert p == result.point or before.board[p] == mover
        if not Game(name, **options).variant.poof:
            assert result.poofed == ()
        # Nothing else changed colour or vanished.
        gone = set(result.captured) | set(result.poofed)
        for p, (old, new) in enumerate(zip(before.board, after.board, strict=True)):
            if p == result.point or p in gone:
                continue
            assert old == new

    play_random(Game(name, **options), data, length, check)


@pytest.mark.slow
@FAST
@given(setup=st.sampled_from(SETUPS), length=st.integers(0, 80), data=st.data())
def test_write_then_read_gives_back_the_same_game(setup, length, data):
    name, options = setup
    game = play_random(Game(name, **options), data, length)
    headers = standard_headers(
        game=name,
        rated=bool(options.get("rated")),
        player_names=[f"p{i}" for i in range(1, game.seats + 1)],
    )
    text = write_record(record_from_game(game, headers))
    again = game_from_record(parse_record(text))
    assert again.actions == game.actions
    assert again.board == game.board
    assert again.captures == game.captures
    assert (again.outcome, again.winner_colour) == (game.outcome, game.winner_colour)
    assert [again.seat_colour(s) for s in range(1, game.seats + 1)] == [
        game.seat_colour(s) for s in range(1, game.seats + 1)
    ]
    summary = replay_summary(parse_record(text))
    assert summary["plies"] == game.plies
    assert summary["board"] == game.rows()
