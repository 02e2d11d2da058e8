"""Connect6's threats: how many stones block them, which pairs do, and the bot's threat search
(a turn that leaves more threats than two stones can block wins, whatever the defence)."""

from __future__ import annotations

import itertools
import random

import pytest

from games.bots import WIN, choose_move
from games.bots.board import Mirror
from games.bots.connect6 import blockers_needed, blocking_pairs, threat_windows
from games.bots.search import _NO_CAPTURE_LEVELS
from games.engine import VARIANTS, Game, parse_point

from .helpers import node_bot, random_position

P = parse_point
FAR = "S19 S18 R19 A19 B19 A18"  # stones of the other colour far from the action


def _mirror(game: Game) -> Mirror:
    v = VARIANTS["Connect6"]
    return Mirror(game.board, line=v.line_length, exact=v.exact_line, colours=2, capture_lengths=())


def _position(black: str, white: str = FAR, to_move: int = 1) -> Game:
    return Game.from_position("Connect6", stones={1: black, 2: white}, to_move=to_move)


def _brute_blocks(m: Mirror, c: int, size: int) -> list[tuple[int, ...]]:
    """Every set of ``size`` points of the threat windows that meets all of them."""
    sets = threat_windows(m, c)
    points = sorted(set().union(*sets)) if sets else []
    return [
        chosen
        for chosen in itertools.combinations(points, size)
        if all(set(chosen) & s for s in sets)
    ]


def _brute_blockers(m: Mirror, c: int) -> int:
    """The same count by trying every set of one and two points of the threat windows."""
    if not threat_windows(m, c):
        return 0
    return next((size for size in (1, 2) if _brute_blocks(m, c, size)), 3)


def test_no_window_of_four_needs_no_blocker():
    assert blockers_needed(_mirror(_position("K10 L10 M10")), 1) == 0


def test_a_four_closed_at_one_end_needs_one_blocker():
    game = _position("K10 L10 M10 N10", "J10 " + FAR)
    assert blockers_needed(_mirror(game), 1) == 1


def test_an_open_four_needs_two_blockers_and_lists_the_pairs_that_stop_it():
    m = _mirror(_position("K10 L10 M10 N10"))
    assert blockers_needed(m, 1) == 2
    pairs = (("H10", "O10"), ("J10", "O10"), ("J10", "P10"))
    assert set(blocking_pairs(m, 1)) == {tuple(sorted((P(a), P(b)))) for a, b in pairs}


def test_an_open_four_and_another_four_need_three_blockers():
    m = _mirror(_position("K10 L10 M10 N10 C3 C4 C5 C6", "C2 " + FAR))
    assert blockers_needed(m, 1) == 3


@pytest.mark.parametrize("seed", range(12))
def test_the_count_matches_trying_every_pair_of_points(seed):
    game = random_position("Connect6", seed)
    rng = random.Random(seed)
    m = _mirror(game)
    for _ in range(60):  # more stones, so that threats appear
        if game.outcome is not None:
            break
        game.play(rng.choice([q for q in m.candidates() if q in set(game.legal_points())]))
        m = _mirror(game)
        for c in (1, 2):
            assert blockers_needed(m, c) == _brute_blockers(m, c)
            if blockers_needed(m, c) == 2:
                assert blocking_pairs(m, c) == _brute_blocks(m, c, 2)


@pytest.mark.parametrize("level", [2, 5, 8])
def test_the_bot_makes_three_threats_in_one_turn_when_it_can(level):
    game = _position("K10 L10 M10 C3 C4 C5")
    choice = choose_move(game, level=level, max_nodes=500, rng=random.Random(1))
    assert choice.score == WIN // 2
    game.play_turn(choice.points)
    assert _brute_blockers(_mirror(game), 1) == 3


def test_level_1_has_no_threat_search():
    game = _position("K10 L10 M10 C3 C4 C5")
    choice = choose_move(game, level=1, max_nodes=500, rng=random.Random(1))
    assert choice.score != WIN // 2


def _wins_by_threats(game: Game, level: int, turns: int) -> bool:
    """The bot's claimed win holds: after its turn, every defence (every pair of blocks, or
    nothing blocks) leaves it a win at once or another winning turn, within ``turns``."""
    colour = game.to_move_colour
    bot = node_bot(game.copy(), level, 30, random.Random(0))
    found = bot._six_threats(turns)
    if found is None:
        return False
    game.play_turn(list(found))
    try:
        m = _mirror(game)
        needed = _brute_blockers(m, colour)
        if needed >= 3:
            return True
        assert needed == 2 and turns > 1
        for pair in _brute_blocks(m, colour, 2):
            game.play_turn(list(pair))
            try:
                if game.outcome is not None or not _wins_by_threats(game, level, turns - 1):
                    return False
            finally:
                game.pop()
                game.pop()
        return True
    finally:
        game.pop()
        game.pop()


def test_a_two_turn_threat_win_holds_against_every_pair_of_blocks():
    # an open three and two twos crossing at E5: no win this turn; an open four and E5 now
    # (two blocks), then two open fours
    game = _position("K10 L10 M10 C5 D5 E3 E4")
    assert node_bot(game.copy(), 8, 30, random.Random(0))._six_threats(1) is None
    assert _wins_by_threats(game, level=8, turns=2)


@pytest.mark.parametrize("seed", range(20))
def test_every_win_the_threat_search_claims_in_random_positions_is_forced(seed):
    rng = random.Random(seed)
    game = random_position("Connect6", seed)
    for _ in range(40):
        if game.outcome is not None:
            return
        if game.stones_this_turn() == 2:
            bot = node_bot(game.copy(), 8, 30, random.Random(0))
            if bot._six_threats(2) is not None:
                assert _wins_by_threats(game, level=8, turns=2)
                return
        legal = set(game.legal_points())
        game.play(rng.choice([q for q in _mirror(game).candidates() if q in legal]))


def test_the_connect6_depth_grows_with_the_level():
    depths = [_NO_CAPTURE_LEVELS[k].six for k in range(1, 9)]
    assert depths[0] == 0 and depths[-1] == 5
    assert depths == sorted(depths)
    # reading no further than the level below left level 5 at 50-62% against 4, 6 at 60%
    # against 5 and 7 at 62% against 6
    assert depths[3] < depths[4] < depths[5] < depths[6], depths


def _mid_turn_against_two_threes() -> Game:
    # white's open three on row 14 and its three on row 10 closed by J10: after black's turn,
    # white makes more threats than two stones can block unless black's second stone closes
    # row 10 for good (N10, O10 or P10)
    game = _position("J10 C3 C16 R3", "K10 L10 M10 K14 L14 M14")
    game.play(P("A1"))  # black's first stone of the turn, far away
    return game


def test_from_level_3_a_mistake_in_connect6_leaves_the_opponent_no_winning_turn():
    game = _mid_turn_against_two_threes()
    best, safe, losing = P("N10"), P("O10"), P("C10")
    scores = {best: 0, safe: -10, losing: -60}  # the draw (up to 100) is nearer 60 mostly
    for level in (3, 5, 7):
        bot = node_bot(game.copy(), level, 30, random.Random(0), True)
        assert bot._they_win(1) is False  # (no stone played: black still has one to place)
        picks = {bot._slip(best, 0, scores, 100) for _ in range(20)}
        assert picks == {safe}, level
    careless = node_bot(game.copy(), 2, 30, random.Random(0), True)
    assert losing in {careless._slip(best, 0, scores, 100) for _ in range(40)}


def test_the_check_of_a_connect6_mistake_waits_for_the_end_of_the_turn():
    game = _mid_turn_against_two_threes()
    bot = node_bot(game.copy(), 5, 30, random.Random(0), True)
    assert bot._play(P("C10")) and bot._they_win(1) is True
    bot._pop()
    assert bot._play(P("O10")) and bot._they_win(1) is False
    bot._pop()
    start = _position("J10 C3 C16 R3", "K10 L10 M10 K14 L14 M14")  # the turn's first stone
    first = node_bot(start.copy(), 5, 30, random.Random(0), True)
    assert first._play(P("C10")) and first._they_win(1) is False
