"""The bot: always legal, takes wins, blocks, defends by capture, and wins forcing lines."""

from __future__ import annotations

import random
import time

import pytest

from games.bots import WIN, Choice, choose_move
from games.bots.search import _LEVELS, _Bot
from games.engine import VARIANTS, Game, parse_point

from .helpers import act, bot_wins_against_every_defence, random_position, turned

P = parse_point


def _choose(game: Game, level: int = 8, budget_s: float = 0.2) -> Choice:
    return choose_move(game, level=level, budget_s=budget_s, rng=random.Random(7))


# ---------------------------------------------------------------------- legality


# (random positions of every game, seat setup and level: test_legality.py)


def test_the_tournament_rule_stone_is_far_enough_from_the_centre():
    game = Game("Pente", tournament_rule=True, rated=True)
    game.play("K11")
    act(game, level=8, budget_s=0.05)  # the third stone: the engine refuses it if too close


def test_a_decision_is_answered_with_a_word_the_engine_accepts():
    for variant in ("D-Pente", "Swap2-Pente", "Swap2-Keryo"):
        game = Game(variant)
        while game.pending_decision is None:
            act(game, level=3, budget_s=0.02)
        choice = _choose(game, budget_s=0.05)
        assert choice.decision in game.decisions_available()
        game.decide(choice.decision)


# ---------------------------------------------------------------------- tactics


@pytest.mark.parametrize("level", [1, 8])
def test_takes_an_immediate_five(level):
    game = Game.from_position(
        "Pente", stones={1: "K10 L10 M10 N10 K12", 2: "J10 K11 L11 M11 L13"}, to_move=1
    )
    choice = _choose(game, level=level)
    assert choice.points == (P("O10"),)
    assert choice.score == WIN


def test_takes_the_capture_of_the_fifth_pair_in_pente():
    game = Game.from_position(
        "Pente", stones={1: "K10 G4", 2: "L10 M10 O12 Q14"}, captures={1: 8}, to_move=1
    )
    game.play_turn(_choose(game, level=1).points)
    assert game.winner_colour == 1


def test_takes_the_sixth_stone_in_connect6_with_both_stones_of_a_turn():
    game = Game("Connect6")
    game.play_turn(["A1", "A2"])
    game = Game.from_position(
        "Connect6", stones={1: "K10 L10 M10 N10", 2: "K12 L12 M12 A1"}, to_move=1
    )
    game.play_turn(_choose(game).points)
    assert game.winner_colour == 1


@pytest.mark.parametrize("level", [1, 3, 8])
def test_blocks_a_four_when_it_cannot_win_at_once(level):
    game = Game.from_position("Gomoku", stones={1: "J10 K12 M13", 2: "K10 L10 M10 N10"}, to_move=1)
    assert _choose(game, level=level).points == (P("O10"),)


@pytest.mark.parametrize("level", [3, 5, 8])
def test_blocks_an_open_three_at_level_3_and_up(level):
    game = Game.from_position("Pente", stones={1: "K12 F4", 2: "K10 L10 M10"}, to_move=1)
    assert _choose(game, level=level).points[0] in {P(n) for n in ("H10", "J10", "N10", "O10")}


def test_defends_an_open_four_by_capturing_a_pair_of_it_in_pente():
    # K10 L10 M10 N10 is open at both ends; L10-L11 is a pair bracketed from L12
    game = Game.from_position("Pente", stones={1: "L12 F4", 2: "K10 L10 M10 N10 L11"}, to_move=1)
    assert _choose(game).points == (P("L9"),)


# ---------------------------------------------------------------------- forcing lines

_VCF = [
    # an open four from an open three
    ("K10 L10 M10", "K13 M13"),
    # two fours at once (row and column)
    ("L10 M10 N10 K11 K12 K13", "O10 K14"),
    # two fours at once on the diagonals
    ("L11 M12 N13 L9 M8 N7", "O14 O6"),
    # a four that forces J10, then an open four in the column
    ("L10 M10 N10 K12 K13", "O10 F5"),
    # a four, then a four and an open three crossing
    ("L10 M10 N10 K11 K12", "O10 F15"),
    # a split three completed into an open four
    ("K10 M10 N10", "K13 O13"),
]


@pytest.mark.parametrize(
    "attacker,defender,symmetry",
    [(a, d, s) for a, d in _VCF for s in (0, 5)],
)
def test_wins_a_won_vcf_position_against_every_defence(attacker, defender, symmetry):
    game = Game.from_position(
        "Pente",
        stones={1: turned(attacker, symmetry), 2: turned(defender, symmetry)},
        to_move=1,
    )
    assert bot_wins_against_every_defence(game, moves_left=4)


# ---------------------------------------------------------------------- the mirror


@pytest.mark.parametrize("variant", ["Pente", "Keryo-Pente", "Gomoku", "Connect6", "O-Pente"])
def test_the_incremental_patterns_match_a_fresh_count_after_stones_captures_and_undo(variant):
    from games.bots.board import Mirror

    v = VARIANTS[variant]

    def fresh(board):
        return Mirror(
            board,
            line=v.line_length,
            exact=v.exact_line,
            colours=2,
            capture_lengths=v.capture_lengths,
        )

    for seed in range(6):
        game = random_position(variant, seed)
        m = fresh(game.board)
        rng = random.Random(seed)
        played = 0
        for _ in range(30):
            if game.outcome is not None or game.pending_decision is not None:
                break
            c = game.to_move_colour
            p = rng.choice([q for q in m.candidates() if q in set(game.legal_points())])
            r = game.play(p)
            m.apply(p, c, r.captured, r.poofed)
            played += 1
            ref = fresh(game.board)
            assert m.pattern == ref.pattern and m.hash == ref.hash
            assert m.capture_points(1) == ref.capture_points(1)
            assert m.line_points(1) == ref.line_points(1)
            assert m.line_points(2, 2) == ref.line_points(2, 2)
        for _ in range(played):
            game.pop()
            m.undo()
        ref = fresh(game.board)
        assert m.pattern == ref.pattern and m.hash == ref.hash and m.nearby == ref.nearby


# ---------------------------------------------------------------------- the guard (level 8)


def _guard_position() -> Game:
    # white threatens two fours at once on N10 (its threes are closed by J10 and N14)
    return Game.from_position(
        "Gomoku",
        stones={1: "J10 N14 C3", 2: "K10 L10 M10 N11 N12 N13"},
        to_move=1,
    )


def test_the_guard_passes_over_a_stone_that_leaves_the_opponent_a_vcf():
    bot = _Bot(_guard_position(), 8, time.perf_counter() + 30, random.Random(0))
    assert bot._guarded([P("C17"), P("N10")]) == P("N10")


def test_the_guard_keeps_the_search_s_stone_when_it_leaves_no_vcf():
    bot = _Bot(_guard_position(), 8, time.perf_counter() + 30, random.Random(0))
    assert bot._guarded([P("N10"), P("C17")]) == P("N10")


def test_only_level_8_guards_its_stone():
    assert [k for k, spec in _LEVELS.items() if spec.guard] == [8]
