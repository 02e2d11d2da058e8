"""Go puzzles for the computer (``games.bots.go_search``) on 9x9: eyes (the vital point that
lives or kills), ko (take the ko that decides the game, then connect it), seki (never break it by
filling a shared liberty, and count its stones alive), and the end of the game (never play in its
own territory after the opponent's pass; the tree kept from one move to the next).

Each position is a finished game (black's wall on one column, white's on the next) with one
local fight whose result decides the winner, so that the search's win rate points at one move.
"""

from __future__ import annotations

import random

import pytest

from games.bots import go_kernel, go_search
from games.bots.go_search import estimate_dead, go_action
from games.engine import GoGame

NODES = 60_000  # looks at the clock: some 700 playouts


def best(game: GoGame, seed: int) -> str:
    action = go_action(game, level=8, max_nodes=NODES, rng=random.Random(seed))
    return game.point_name(action.point) if action.kind == "play" else action.kind


# Black's wall on E, white's on F (black 45 points, white 36 + 7.5). White's corner A2-D2, D1
# inside black's side has the eye space A1-C1: B1 makes two eyes, or kills. Alive, white wins.
CORNER = {
    1: "E1 E2 E3 E4 E5 E6 E7 E8 E9 A3 B3 C3 D3",
    2: "F1 F2 F3 F4 F5 F6 F7 F8 F9 A2 B2 C2 D2 D1",
}


@pytest.mark.parametrize("seed", [1, 2])
def test_black_kills_the_corner_on_its_vital_point(seed):
    assert best(GoGame.from_position(9, CORNER, to_move=1), seed) == "B1"


@pytest.mark.parametrize("seed", [3, 4])
def test_white_makes_two_eyes_on_the_vital_point(seed):
    assert best(GoGame.from_position(9, CORNER, to_move=2), seed) == "B1"


# The walls with a ko at E5/F5: white's E5 (in atari, its liberty F5) cuts black's wall. Black
# taking it at F5 wins the game (then connects at E5); white connecting at F5 wins it.
KO = {1: "E1 E2 E3 E4 E6 E7 E8 E9 D5", 2: "F1 F2 F3 F4 F6 F7 F8 F9 G5 E5"}


@pytest.mark.parametrize("to_move", [1, 2])
def test_takes_or_connects_the_ko_that_decides_the_game(to_move):
    assert best(GoGame.from_position(9, KO, to_move=to_move), seed=5) == "F5"


def test_connects_the_ko_it_took_when_the_opponent_plays_elsewhere():
    game = GoGame.from_position(9, KO, to_move=1)
    game.play(game.parse_point("F5"))  # takes E5
    game.pass_turn()  # white may not take back at once, and has no threat
    assert best(game, seed=6) == "E5"


# Seki in black's bottom-left corner: black's A1 A2 B1 B2 and white's A3-D3 D2 D1 share their
# last two liberties C1 and C2; whoever fills one is taken. Black's wall on F, white's on G: with
# the seki black wins by 5.5; black filling C1 or C2 loses its four stones and the game.
SEKI = {
    1: "F1 F2 F3 F4 F5 F6 F7 F8 F9 A4 B4 C4 D4 E4 E3 E2 E1 A1 A2 B1 B2",
    2: "G1 G2 G3 G4 G5 G6 G7 G8 G9 A3 B3 C3 D3 D2 D1",
}


@pytest.mark.parametrize("seed", [7, 8])
def test_does_not_break_a_seki_it_wins_with(seed):
    assert best(GoGame.from_position(9, SEKI, to_move=1), seed) not in ("C1", "C2")


@pytest.mark.parametrize("to_move", [1, 2])
def test_the_stones_of_a_seki_count_alive(to_move):
    game = GoGame.from_position(9, SEKI, to_move=to_move)
    assert estimate_dead(game, max_nodes=40_000, rng=random.Random(to_move)) == frozenset()


def test_behind_after_the_opponents_pass_it_never_plays_in_its_own_territory(monkeypatch):
    # the finished walls (black's E, white's F) with a komi that puts black behind: black plays
    # on, but none of the moves its search weighs lies in its own area (A-D)
    stones = {1: "E1 E2 E3 E4 E5 E6 E7 E8 E9", 2: "F1 F2 F3 F4 F5 F6 F7 F8 F9"}
    game = GoGame.from_position(9, stones, to_move=2, komi=10.5)
    game.pass_turn()
    weighed: list[str] = []
    search = go_search._Search.search

    def spy(self, me, last, allowed=None):
        children = search(self, me, last, allowed)
        weighed.extend(game.point_name(self.geo.outer[ch.move]) for ch in children)
        return children

    monkeypatch.setattr(go_search._Search, "search", spy)
    for seed in range(3):
        action = go_action(game, level=8, max_nodes=20_000, rng=random.Random(seed))
        assert action.kind == "pass" or game.point_name(action.point)[0] in "GHJ"
    assert weighed and {name[0] for name in weighed} <= set("GHJ")


def _field(ti, node: int, field: int) -> int:
    return int(ti[node * go_kernel.TI + field])


def test_the_next_search_starts_from_the_subtree_of_the_moves_played():
    go_search._TREES.clear()
    game = GoGame(9)
    game.play(40)
    action = go_action(game, level=8, max_nodes=80_000, rng=random.Random(9))
    kept = go_search._TREES[0]  # the subtree after the stone chosen
    ti, node = kept.ti, kept.root
    first = _field(ti, node, go_kernel.I_FIRST)
    replies = range(first, first + _field(ti, node, go_kernel.I_COUNT))
    reply = max(replies, key=lambda ch: _field(ti, ch, go_kernel.I_VISITS))
    visits = _field(ti, reply, go_kernel.I_VISITS)
    assert _field(ti, reply, go_kernel.I_FIRST) >= 0  # grown: it has children of its own
    game.play(action.point)
    game.play(go_search._geometry(9).outer[_field(ti, reply, go_kernel.I_MOVE)])
    search = go_search._Search(game, 0.0, 1, random.Random(1), clock=go_search._NodeClock())
    tree, _floats, root = search._tree(game.to_move_colour, None, [1] * search.geo.cells)
    assert _field(tree, root, go_kernel.I_VISITS) == visits  # its statistics carried on
    assert not go_search._TREES  # taken over, not copied


def _kernel_board(stones: dict[int, str]) -> tuple[list[int], int, GoGame]:
    game = GoGame.from_position(9, stones, to_move=1)
    geo = go_search._geometry(9)
    b = [0] * go_kernel.board_len(geo.width)
    go_kernel.clear(b, geo.width)
    for p, c in enumerate(game.board):
        if c:
            go_kernel.play(b, geo.width, geo.inner[p], c)
    return b, geo.width, game


def test_the_playouts_shape_sees_cuts_their_mends_and_hanes():
    # white's D5 and E4 touch E5 at a right angle, black's D4 between them: E5 cuts for black
    # and mends for white. White's C3 touches C4, black's D3 diagonal to it: C4 is black's hane.
    b, w, game = _kernel_board({1: "D4 D3", 2: "D5 E4 C3"})
    inner = go_search._geometry(9).inner

    def shape(name: str, c: int) -> int:
        return go_kernel.shape(b, w, inner[game.parse_point(name)], c)

    assert shape("E5", 1) == shape("E5", 2) == 3
    assert shape("C4", 1) == 2
    assert shape("J9", 1) == 0


def _reply(stones: dict[int, str], last: str, c: int) -> str:
    b, w, game = _kernel_board(stones)
    geo = go_search._geometry(9)
    st = [12345, 0, 0, 0, 0, 0, 0, 0]
    return game.point_name(
        geo.outer[go_kernel.tactical(b, w, geo.inner[game.parse_point(last)], c, st)]
    )


def test_the_playouts_take_a_stone_on_the_edge_that_cannot_run():
    # white's A2 (liberties A1, A3) just played against black's B2: black at A3 leaves it
    # only A1 to run to, one liberty (B1); black at A1 would be a self-atari.
    assert _reply({1: "B2", 2: "A2"}, "A2", 1) == "A3"


def test_the_playouts_run_out_with_a_stone_that_would_be_taken():
    # black's A2 just touched by white's B2: white at A3 would take it, so black runs to A3
    # (three liberties), not to A1 (two).
    assert _reply({1: "A2", 2: "B2"}, "B2", 1) == "A3"
