"""The bot never plays an illegal move: 1,000 random positions of every game of the Pente family,
each answered by the bot and refereed by the engine (``play_turn`` / ``decide`` raise on an
illegal answer).

Positions come from random legal playouts of random length (seeded), biased towards stones near
the last one so that lines, fours, capture threats and captures happen; some are rebuilt with
capture counts close to the target; D and Swap2 games stop at their decisions and protocol
stones, Connect6 games also in the middle of a two-stone turn. Every setup the engine offers is
covered: the tournament rule (Pente-like games, G-Pente's forbidden points), adjacent-only,
3 to 6 seats and Partners (Pente, Keryo-Pente). The levels cycle 1..8 with a tiny think time,
with their mistakes in every other round of eight and without in the others, so that every
level's code paths (mistakes, VCF, VCT, alpha-beta, the book) answer, timeouts
included; think time itself is measured by ``bench/bots.py``, not here.
"""

from __future__ import annotations

import random

import pytest

from games.bots import Choice, choose_move
from games.engine import VARIANTS, Game
from tests.games.bots.playouts import random_game

POSITIONS = 1000  # per game of the family
CHUNK = 250  # positions per test id


def answer_is_legal(
    game: Game, level: int, max_nodes: int, seed: int, mistakes: bool = False
) -> Choice:
    """Let the bot answer (with the level's mistakes or without); the engine referees.
    Returns the choice."""
    rng = random.Random(seed)
    choice = choose_move(game, level=level, max_nodes=max_nodes, rng=rng, mistakes=mistakes)
    g = game.copy()
    if game.pending_decision is not None:
        assert choice.points == () and choice.decision in game.decisions_available()
        g.decide(choice.decision)
    else:
        assert choice.decision is None
        assert len(choice.points) == game.stones_this_turn()
        g.play_turn(list(choice.points))  # raises IllegalMove on an illegal answer
    return choice


def _options(variant: str, rng: random.Random) -> dict[str, object]:
    """A random table for ``variant``: the tournament rule (rated) where the game has it,
    sometimes adjacent-only."""
    v = VARIANTS[variant]
    options: dict[str, object] = {}
    if v.tournament_rule_allowed and rng.random() < 0.5:
        options["tournament_rule"] = True
    elif not v.tournament_rule_always and rng.random() < 0.05:
        # (not with the tournament rule: after a reply next to the centre stone, no point is
        # both 3 away from the centre and touching a stone, and the game is stuck)
        options["adjacent_only"] = True
    return options


def _run(variant: str, start: int, count: int, max_nodes: int, **fixed: object) -> int:
    decisions = 0
    for i in range(start, start + count):
        rng = random.Random(f"{variant}/{sorted(fixed.items())}/{i}")
        options = fixed or _options(variant, rng)
        game = random_game(variant, rng, **options)
        if game.outcome is not None:
            continue
        level = 1 + i % 8
        try:
            choice = answer_is_legal(game, level, max_nodes, i, mistakes=i // 8 % 2 == 0)
        except Exception as exc:  # name the position that failed
            raise AssertionError(
                f"{variant} {options} position {i} level {level}: {exc!r}\n"
                f"actions {game.actions}\n{game}"
            ) from exc
        decisions += choice.decision is not None
    return decisions


@pytest.mark.parametrize("start", range(0, POSITIONS, CHUNK))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_answer_is_legal_in_random_positions(variant, start):
    decisions = _run(variant, start, CHUNK, max_nodes=2)
    if VARIANTS[variant].opening in ("d", "swap2"):
        assert decisions > 0  # the decision points were reached


@pytest.mark.parametrize(
    "variant,options",
    [
        ("Pente", {"seats": 3}),
        ("Pente", {"seats": 4}),
        ("Pente", {"seats": 6}),
        ("Pente", {"partners": True}),
        ("Keryo-Pente", {"seats": 3}),
        ("Keryo-Pente", {"partners": True}),
        ("Pente", {"partners": True, "tournament_rule": True}),
        ("Gomoku", {"adjacent_only": True}),
        ("Connect6", {"adjacent_only": True}),
    ],
)
def test_every_answer_is_legal_with_several_seats_partners_or_adjacent_only(variant, options):
    _run(variant, 0, 150, max_nodes=2, **options)


@pytest.mark.parametrize("variant", ["Pente", "Keryo-Pente", "O-Pente", "Connect6", "Swap2-Keryo"])
def test_level_8_with_a_little_more_time_is_legal_too(variant):
    for i in range(20):
        rng = random.Random(f"deep/{variant}/{i}")
        game = random_game(variant, rng, **_options(variant, rng))
        if game.outcome is None:
            answer_is_legal(game, 8, 0.02, i)


def test_the_random_positions_reach_the_situations_that_matter():
    """The generator is worth its name: decisions, mid-turn Connect6 positions, captures and
    fours all occur."""
    seen = {"decision": 0, "mid_turn": 0, "captures": 0, "tournament_rule_stone": 0}
    for i in range(300):
        for variant in ("Swap2-Pente", "Connect6", "Keryo-Pente"):
            rng = random.Random(f"{variant}/{i}")
            game = random_game(variant, rng, **_options(variant, rng))
            seen["decision"] += game.pending_decision is not None
            seen["mid_turn"] += game.stones_this_turn() == 1 and variant == "Connect6"
            seen["captures"] += any(game.captures)
            seen["tournament_rule_stone"] += game.tournament_rule and game.plies == 2
    assert all(seen.values()), seen
