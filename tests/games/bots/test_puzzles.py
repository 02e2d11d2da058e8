"""Hand-made won positions: the bot wins them against every defence, and its threat-space
search (VCF, VCT, capture threats) proves them on its own.

Each puzzle is played out by the bot (level 8) against a defender that tries, depth first,
every reply that stops the bot's immediate win (a block, a capture, a counter-threat); the bot
must win every line within the puzzle's number of its own stones. Separately the threat search
alone (``_Bot._forced_win``, without alpha-beta) must find a first stone, and that stone must win
against every defence too: so these tests fail if VCF/VCT were switched off or unsound.

Puzzles are written for colour 1 to move; each is also played turned by a symmetry of the
board. The defender's far stones (C3 H3 R3 R17) only balance the board.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from games.bots import WIN, choose_move
from games.bots.search import _Timeout
from games.engine import Game, parse_point, point_name

from .helpers import defences, node_bot, turned

P = parse_point
FAR = " C3 H3 R3 R17"


@dataclass(frozen=True)
class Puzzle:
    name: str
    variant: str
    attacker: str
    defender: str
    moves: int  # the attacker's stones to win, the winning one included
    captures: dict[int, int] = field(default_factory=dict)
    threes: bool = False  # a VCT: threes answered locally (see ``wins_against_every_defence``)

    def game(self, symmetry: int = 0) -> Game:
        return Game.from_position(
            self.variant,
            stones={1: turned(self.attacker, symmetry), 2: turned(self.defender, symmetry)},
            captures=self.captures,
            to_move=1,
        )


PUZZLES = [
    # ---- Gomoku (exactly five wins)
    Puzzle("gomoku four-three", "Gomoku", "K10 L10 M10 N11 N12", "J10" + FAR, 3),
    Puzzle("gomoku double four", "Gomoku", "L10 M10 N10 K12 K13 K14", "J10 K15 P10" + FAR, 2),
    Puzzle(
        "gomoku three fours, the last one double",
        "Gomoku",
        "K10 L10 M10 N11 N12 L7 K6 J8 K8 L8",
        "J10 N13 H8" + FAR,
        4,
    ),
    Puzzle(
        "gomoku a four whose block makes no overline for us",
        "Gomoku",
        "G10 K10 L10 M10 N12 N13 N14",
        "J10 N15" + FAR,
        3,
    ),
    Puzzle(
        "gomoku a four then a double four",
        "Gomoku",
        "K10 L10 M10 N11 N12 K9 L9 M9",
        "J10 J9 N13" + FAR,
        3,
    ),
    # ---- Pente: fours the opponent cannot capture out of
    Puzzle("pente four-three", "Pente", "K10 L10 M10 N11 N12", "J10" + FAR, 3),
    Puzzle(
        "pente three fours, the last one double",
        "Pente",
        "K10 L10 M10 N11 N12 L7 K6 J8 K8 L8",
        "J10 N13 H8" + FAR,
        4,
    ),
    Puzzle(
        "pente the four-three whose four is capturable is refuted; the other one wins",
        "Pente",
        "K10 L10 M10 N11 N12 M11 D4 E4 F4 G5 G6",
        "J10 M12 C4" + FAR,
        5,
    ),
    Puzzle(
        "pente double four on the diagonals",
        "Pente",
        "L11 M12 N13 L9 M8 N7",
        "O14 O6" + FAR,
        2,
    ),
    Puzzle(
        "pente a split three made an open four",
        "Pente",
        "K10 M10 N10",
        "K13 O13" + FAR,
        3,
    ),
    # ---- Pente and Keryo: wins by captures
    Puzzle(
        "pente fifth pair by a double capture threat",
        "Pente",
        "K12 C16 Q3",
        "L11 M12 L9 M8 R17",
        2,
        {1: 8},
    ),
    Puzzle(
        "pente a four that also threatens the fifth pair",
        "Pente",
        "K10 L10 M10 C16 E16",
        "J10 O11 P12 R3 S4",
        2,
        {1: 8},
    ),
    Puzzle(
        "pente a capture threat that also makes a four",
        "Pente",
        "K10 L10 M10 C16 E16",
        "J10 N11 N12 R3 S4",
        2,
        {1: 8},
    ),
    Puzzle(
        "pente a capture that leaves two threats of the fifth pair",
        "Pente",
        "K10 C16 Q3",
        "L10 M10 N11 N12 O11 P12 R17",
        2,
        {1: 6},
    ),
    Puzzle(
        "keryo a capture that leaves two threats of the last pair",
        "Keryo-Pente",
        "K10 C16 Q3",
        "L10 M10 N11 N12 O11 P12 R17",
        2,
        {1: 11},
    ),
    Puzzle(
        "keryo a triple and a pair threatened at once",
        "Keryo-Pente",
        "K12 C16 Q3",
        "L11 M12 N13 L9 M8 R17",
        2,
        {1: 13},
    ),
    Puzzle(
        "keryo four-three",
        "Keryo-Pente",
        "K10 L10 M10 N11 N12",
        "J10" + FAR,
        3,
    ),
    Puzzle(
        "keryo a four that also threatens the last triple",
        "Keryo-Pente",
        "K10 L10 M10 C16 E16",
        "J10 O11 P12 Q13 R3",
        2,
        {1: 12},
    ),
    Puzzle(
        "keryo the fifth capture, of a triple, at once",
        "Keryo-Pente",
        "K10 C16 Q3",
        "L10 M10 N10 R17 C4",
        1,
        {1: 12},
    ),
    Puzzle(
        "pente the fifth pair while a four stands against us",
        "Pente",
        "K12 C16 Q3",
        "L11 M10 E10 F10 G10 H10 R17",
        1,
        {1: 8},
    ),
    # ---- threes (VCT): a double three, no four to start with
    Puzzle(
        "gomoku double open three",
        "Gomoku",
        "K10 L10 N12 N13",
        "C4" + FAR,
        4,
        threes=True,
    ),
    Puzzle(
        "pente double open three",
        "Pente",
        "K10 L10 N12 N13",
        "C4" + FAR,
        4,
        threes=True,
    ),
    Puzzle(
        "keryo double open three",
        "Keryo-Pente",
        "K10 L10 N12 N13",
        "C4" + FAR,
        4,
        threes=True,
    ),
    # ---- Poof-Pente and O-Pente
    Puzzle("poof four-three", "Poof-Pente", "K10 L10 M10 N11 N12", "J10" + FAR, 3),
    Puzzle(
        "o-pente triple threatened with a four",
        "O-Pente",
        "K10 L10 M10 C16 E16",
        "J10 O11 P12 Q13 R3",
        2,
        {1: 12},
    ),
]


def _act(game: Game) -> tuple[int, ...]:
    choice = choose_move(game, level=8, max_nodes=300, rng=random.Random(7))
    game.play_turn(list(choice.points))
    return choice.points


def _distance(p: int, q: int) -> int:
    return max(abs(p % 19 - q % 19), abs(p // 19 - q // 19))


def _vcf_stone(game: Game, moves: int) -> int | None:
    """The threat search's own next stone (VCF alone, generous time), with ``moves`` stones
    left: a claim of depth d promises a win of depth d - 1 after every defence."""
    return node_bot(game.copy(), 8, 20.0, random.Random(0))._vcf(moves - 1)


def wins_against_every_defence(
    game: Game, moves: int, first: int | None = None, threes: bool = False, chooser=None
) -> bool:
    """The bot (colour to move; ``first``: its first stone is given) against every defence,
    depth first: whether it wins every line within ``moves`` of its own stones.

    The defences are all the replies that stop a win at once. With ``threes`` (a VCT), where
    almost every reply does that, they are the replies within 2 points of the bot's last stone
    plus one far reply standing for all the others (a far stone changes nothing locally)."""
    attacker = game.to_move_colour
    if moves == 0:
        return False
    if first is not None:
        game.play(first)
    elif chooser is not None:
        stone = chooser(game, moves)
        if stone is None:
            return False
        game.play(stone)
    else:
        _act(game)
    try:
        if game.outcome is not None:
            return game.winner_colour == attacker
        replies = defences(game)
        if threes:
            last = game.last_point
            near = [r for r in replies if _distance(r, last) <= 2]
            far = [r for r in replies if _distance(r, last) > 4][:1]
            replies = near + far
        if not replies:  # nothing stops the next stone: any reply, then a win at once
            replies, moves = [game.legal_points()[0]], 2
        for reply in replies:
            game.play(reply)
            try:
                if game.outcome is not None:
                    return False
                if not wins_against_every_defence(game, moves - 1, threes=threes, chooser=chooser):
                    return False
            finally:
                game.pop()
        return True
    finally:
        game.pop()


IDS = [p.name.replace(" ", "-").replace(",", "").replace(";", "") for p in PUZZLES]
#: Puzzles whose proof takes more than about 5 s (``-m "not slow"`` leaves them out).
SLOW = {
    "gomoku double open three",
    "pente double open three",
    "keryo double open three",
    "pente the four-three whose four is capturable is refuted; the other one wins",
}
CASES = [
    pytest.param(p, id=i, marks=[pytest.mark.slow] if p.name in SLOW else [])
    for p, i in zip(PUZZLES, IDS, strict=True)
]


@pytest.mark.parametrize("puzzle", CASES)
@pytest.mark.parametrize("symmetry", [0, 6])
def test_the_bot_wins_the_puzzle_against_every_defence(puzzle, symmetry):
    game = puzzle.game(symmetry)
    assert wins_against_every_defence(game, puzzle.moves, threes=puzzle.threes)


@pytest.mark.parametrize("puzzle", CASES)
def test_the_threat_search_alone_proves_the_puzzle(puzzle):
    game = puzzle.game(3)
    bot = node_bot(game.copy(), 8, 5.0, random.Random(0))
    found = bot._forced_win()
    assert found is not None and found.score == WIN // 2, f"no forced win found in {puzzle.name}"
    first = found.points[0]
    assert wins_against_every_defence(game, puzzle.moves, first=first, threes=puzzle.threes), (
        point_name(first, 19)
    )


def test_defends_an_open_four_by_capturing_a_triple_in_keryo():
    # colour 2's open four K10..N10; L10 L11 L12 is a triple bracketed from L13
    game = Game.from_position(
        "Keryo-Pente", stones={1: "L13 F4", 2: "K10 L10 M10 N10 L11 L12"}, to_move=1
    )
    choice = choose_move(game, level=8, max_nodes=200, rng=random.Random(1))
    assert choice.points == (P("L9"),)


def test_gomoku_takes_the_exact_five_not_the_overline():
    # O10 would make six (K10..P10): no win in Gomoku; J10 makes exactly five
    game = Game.from_position(
        "Gomoku", stones={1: "K10 L10 M10 N10 P10", 2: "A1 A3 A5 A7 T19"}, to_move=1
    )
    for level in (1, 8):
        choice = choose_move(game, level=level, max_nodes=100, rng=random.Random(1))
        assert choice.points == (P("J10"),) and choice.score == WIN


def test_connect6_completes_a_split_line_with_both_stones():
    game = Game.from_position(
        "Connect6", stones={1: "K10 L10 N10 O10", 2: "K12 L12 M12 A1"}, to_move=1
    )
    choice = choose_move(game, level=5, max_nodes=100, rng=random.Random(1))
    game.play_turn(list(choice.points))
    assert game.winner_colour == 1


def test_connect6_stops_an_open_four_with_both_stones():
    game = Game.from_position(
        "Connect6", stones={1: "K12 L12 A1 B1", 2: "K10 L10 M10 N10"}, to_move=1
    )
    choice = choose_move(game, level=8, max_nodes=200, rng=random.Random(1))
    game.play_turn(list(choice.points))
    assert game.outcome is None
    # no two stones of colour 2 complete a six now
    row = [p for p in range(P("A10"), P("A10") + 19)]
    for i in range(19 - 5):
        window = row[i : i + 6]
        assert (
            any(game.board[q] == 1 for q in window) or sum(game.board[q] == 2 for q in window) < 4
        )


@pytest.mark.parametrize("variant", ["Pente", "Keryo-Pente", "Gomoku"])
def test_every_forced_win_the_threat_search_claims_in_random_positions_is_real(variant):
    """Soundness: in random positions where the VCF claims a win, its first stone and then its
    own next stones win against every defence (captures out of the fours included)."""
    from .playouts import random_game

    checked = 0
    for i in range(400):
        rng = random.Random(f"vcf/{variant}/{i}")
        game = random_game(variant, rng)
        if game.outcome is not None or game.pending_decision is not None or game.plies < 12:
            continue
        bot = node_bot(game.copy(), 8, 2.0, rng)
        c = game.to_move_colour
        if bot._wins_now(c, 1) or bot._wins_now(3 - c, 1):
            continue  # a win at once, or a four to answer: not a forcing line
        try:
            found = bot._vcf(6)
        except _Timeout:
            continue
        if found is None:
            continue
        assert wins_against_every_defence(game, 7, first=found, chooser=_vcf_stone), (
            i,
            point_name(found, 19),
        )
        checked += 1
        if checked == 4:
            break
    assert checked >= 1
