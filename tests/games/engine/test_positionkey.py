"""positionkey.py: the explorer's position key. The eight symmetries form a group; a key is the
same for a position however it was reached and in whichever orientation, and differs with the
captures, the side to move, a pending decision, the variant and the table; the incremental keys
of a replayed game are those computed from scratch; keys are stable and fit a ``bigint``."""

from __future__ import annotations

import random
import re

import pytest

from games.engine import Game, GoGame, new_game, parse_point, replay_game
from games.engine.positionkey import (
    ANTI_TRANSPOSE,
    FLIP,
    IDENTITY,
    MIRROR,
    ROTATE_90,
    ROTATE_180,
    ROTATE_270,
    SYMMETRIES,
    TRANSPOSE,
    PlyKey,
    _perms,
    _random64,
    canonical_move,
    compose,
    game_keys,
    inverse,
    key_of,
    keys_along,
    pass_point,
    position_key,
    signed64,
    to_caller,
    transform,
    unsigned64,
)

from .helpers import position, pt, pts

# A Pente game that opens along a diagonal (a self-symmetric position after K10 L11 M12) and
# then leaves it: 1 L9 captures the pair L10 L11.
DIAGONAL_GAME = "K10 L11 M12 L10 L12 J8 L9 K11 M10 N11"


def oriented(names: str, symmetry: int, size: int = 19) -> list[int]:
    """The moves ``names`` with ``symmetry`` applied to each."""
    return [transform(parse_point(n, size), symmetry, size) for n in names.split()]


def self_symmetric(game) -> bool:
    """Whether a symmetry other than the identity maps the board onto itself."""
    size = game.size
    board = game.board
    images = set()
    for s in SYMMETRIES:
        image = [0] * (size * size)
        for p, c in enumerate(board):
            image[transform(p, s, size)] = c
        images.add(tuple(image))
    return len(images) < 8


def random_game(variant: str, rng: random.Random, moves: int, **options):
    """A game of ``variant`` of up to ``moves`` actions, each stone next to the stones already
    on the board (so that captures happen), decisions at random."""
    game = new_game(variant, **options)
    size = game.size
    while game.outcome is None and len(game.actions) < moves:
        if game.decisions_available():
            game.decide(rng.choice(game.decisions_available()))
            continue
        board = game.board
        stones = [q for q, c in enumerate(board) if c]
        near = [
            p
            for p in game.legal_points()
            if any(
                abs(p % size - q % size) <= 1 and abs(p // size - q // size) <= 1 for q in stones
            )
        ]
        game.play(rng.choice(near or game.legal_points()))
    return game


# ---------------------------------------------------------------------- the symmetries


def test_the_eight_symmetries_are_a_group_with_the_identity_and_an_inverse_each():
    for size in (9, 13, 19):
        n = size * size
        assert [transform(p, IDENTITY, size) for p in range(n)] == list(range(n))
        for s in SYMMETRIES:
            assert sorted(transform(p, s, size) for p in range(n)) == list(range(n))
            assert all(transform(transform(p, s, size), inverse(s), size) == p for p in range(n))
            assert compose(s, inverse(s)) == IDENTITY
            for t in SYMMETRIES:
                done = compose(s, t)
                assert done in SYMMETRIES
                assert all(
                    transform(transform(p, s, size), t, size) == transform(p, done, size)
                    for p in range(n)
                )


def test_the_eight_symmetries_are_distinct_on_a_point_set_without_symmetry():
    shape = pts("K10 L10 K12")  # an L: no symmetry of the square maps it onto itself
    images = {frozenset(transform(p, s, 19) for p in shape) for s in SYMMETRIES}
    assert len(images) == 8
    assert len(SYMMETRIES) == 8 and IDENTITY in SYMMETRIES


def test_the_named_symmetries_move_the_top_left_corner_as_drawn():
    a19, t19, a1, t1 = pts("A19 T19 A1 T1")
    assert transform(a19, MIRROR, 19) == t19
    assert transform(a19, FLIP, 19) == a1
    assert transform(a19, ROTATE_180, 19) == t1
    assert transform(a19, TRANSPOSE, 19) == a19
    assert transform(a19, ROTATE_90, 19) == t19  # clockwise
    assert transform(a19, ROTATE_270, 19) == a1
    assert transform(a19, ANTI_TRANSPOSE, 19) == t1
    assert transform(pt("K10"), ROTATE_90, 19) == pt("K10")
    assert inverse(ROTATE_90) == ROTATE_270 and inverse(ROTATE_270) == ROTATE_90


def test_to_caller_undoes_the_symmetry_of_the_callers_position():
    for s in SYMMETRIES:
        for p in (0, 7, 80, 180, 360):
            assert to_caller(transform(p, s, 19), s, 19) == p


# ---------------------------------------------------------------------- the same position


def test_two_move_orders_reaching_the_same_position_share_a_key():
    one = Game.replay("Pente", pts("K10 L9 K7 L10"))
    other = Game.replay("Pente", pts("K10 L10 K7 L9"))
    assert one.board == other.board
    assert key_of(one) == key_of(other)


def test_two_move_orders_reaching_the_same_position_share_a_key_in_go():
    one = GoGame.replay(["C3", "G7", "D4", "F6"], size=9)
    other = GoGame.replay(["D4", "F6", "C3", "G7"], size=9)
    assert key_of(one) == key_of(other)


def test_the_same_position_in_each_of_the_eight_orientations_has_the_same_key():
    keys = {key_of(Game.replay("Pente", oriented(DIAGONAL_GAME, s)))[0] for s in SYMMETRIES}
    assert len(keys) == 1
    go = {key_of(GoGame.replay(oriented("C3 G7 D4 E5", s, 9), size=9))[0] for s in SYMMETRIES}
    assert len(go) == 1


def test_the_symmetry_given_maps_the_position_to_one_canonical_board():
    canonical = set()
    for s in SYMMETRIES:
        game = Game.replay("Pente", oriented(DIAGONAL_GAME, s))
        _, symmetry = key_of(game)
        board = [0] * 361
        for p, c in enumerate(game.board):
            board[transform(p, symmetry, 19)] = c
        canonical.add(tuple(board))
    assert len(canonical) == 1


def test_every_ply_of_a_game_in_each_orientation_stores_the_same_key_and_next_move():
    rows = {tuple((k.ply, k.key, k.next_point) for k in keys_along("Pente", DIAGONAL_GAME.split()))}
    for s in SYMMETRIES:
        keys = keys_along("Pente", oriented(DIAGONAL_GAME, s))
        rows.add(tuple((k.ply, k.key, k.next_point) for k in keys))
    assert len(rows) == 1


def test_a_next_move_mapped_to_canonical_and_back_lands_on_the_callers_move():
    """Without symmetry the caller gets its own move back exactly; on a self-symmetric position
    (the diagonal K10 L11 M12, or the lone centre stone) a point equivalent to it: playing it
    gives the position the game went on to."""
    exact = 0
    for s in SYMMETRIES:
        moves = oriented(DIAGONAL_GAME, s)
        for row in keys_along("Pente", moves):
            before = Game.replay("Pente", moves[: row.ply])
            move = moves[row.ply]
            key, symmetry = key_of(before)
            assert (row.key, row.symmetry) == (key, symmetry)
            back = to_caller(row.next_point, symmetry, 19)
            played = before.copy()
            played.play(move)
            alternative = before.copy()
            alternative.play(back)
            assert key_of(alternative)[0] == key_of(played)[0]
            if not self_symmetric(before):
                assert back == move
                exact += 1
    assert exact


def test_on_a_self_symmetric_position_equivalent_next_moves_are_stored_as_one_point():
    centre = Game.replay("Pente", [])
    neighbours = pts("K11 L10 K9 J10")  # the centre stone's four orthogonal neighbours
    assert len({canonical_move(centre, p) for p in neighbours}) == 1
    diagonal = Game.replay("Pente", pts("K10 L11 M12"))
    # mirror images of each other in the diagonal the three stones lie on
    assert canonical_move(diagonal, pt("K11")) == canonical_move(diagonal, pt("L10"))
    assert canonical_move(diagonal, pt("K11")) != canonical_move(diagonal, pt("J10"))


# ---------------------------------------------------------------------- what tells positions apart


def test_positions_differing_only_in_captures_have_different_keys():
    stones = {1: "K10 K7", 2: "L9"}
    keys = {
        key_of(position("Pente", stones, captures=captures))[0]
        for captures in ({}, {1: 2}, {2: 2}, {1: 2, 2: 2}, {1: 4})
    }
    assert len(keys) == 5


def test_positions_differing_only_in_the_side_to_move_have_different_keys():
    stones = {1: "K10 K7", 2: "L9 L10"}
    one = key_of(position("Pente", stones, to_move=1))[0]
    two = key_of(position("Pente", stones, to_move=2))[0]
    assert one != two
    go = {key_of(GoGame.from_position(9, {1: "C3", 2: "G7"}, to_move=c))[0] for c in (1, 2)}
    assert len(go) == 2


def test_positions_differing_only_in_the_variant_have_different_keys():
    stones = {1: "K10 K7", 2: "L9 L10"}
    pente = key_of(position("Pente", stones))
    keryo = key_of(position("Keryo-Pente", stones))
    assert pente[0] != keryo[0]
    assert pente[1] == keryo[1]  # the symmetry depends on the stones alone


def test_a_pending_opening_decision_is_in_the_key():
    pending = Game.replay("D-Pente", pts("K10 L9 K7 L10"))
    assert pending.pending_decision == "d_swap"
    kept = pending.copy()
    kept.decide("keep")
    assert kept.board == pending.board and kept.to_move_colour == pending.to_move_colour
    assert key_of(kept)[0] != key_of(pending)[0]


def test_the_number_of_seats_and_partners_are_in_the_key():
    two, three = Game("Pente"), Game("Pente", seats=3)
    assert two.board == three.board and two.to_move_colour == three.to_move_colour
    assert key_of(two)[0] != key_of(three)[0]
    four, partners = Game("Pente", seats=4), Game("Pente", seats=4, partners=True)
    assert four.to_move_colour == partners.to_move_colour == 2
    assert key_of(four)[0] != key_of(partners)[0]


def test_a_go_9x9_position_has_a_key_with_its_prisoners():
    # black A9 is taken by white A8 (the corner stone's last liberty)
    game = GoGame.replay(["A9", "B9", "E5", "A8"], size=9)
    assert game.captures == (0, 1)
    key, symmetry = key_of(game)
    same = position_key(variant="go-9", size=9, stones=game.board, captures=(0, 1), to_move=1)
    assert same == (key, symmetry)
    assert (
        position_key(variant="Go (9x9)", size=9, stones=game.board, captures=(), to_move=1)[0]
        != key
    )
    rows = list(keys_along("Go (9x9)", ["A9", "B9", "E5", "A8", "PASS", "C3"]))
    assert [r.ply for r in rows] == list(range(6))
    assert rows[4].next_point == pass_point(9) == 81 and rows[5].next_point not in (None, 81)


def test_position_key_from_the_parts_is_key_of_the_position():
    game = Game.replay("Keryo-Pente", pts("K10 L9 M8 N7 J11"))
    by_board = position_key(
        variant="keryo-pente",
        size=19,
        stones=game.board,
        captures=game.captures,
        to_move=game.to_move_colour,
    )
    by_points = position_key(
        variant="Keryo-Pente",
        size=19,
        stones={p: c for p, c in enumerate(game.board) if c},
        captures=(*game.captures, 0, 0),
        to_move=game.to_move_colour,
    )
    assert by_board == by_points == key_of(game)


def test_position_key_refuses_a_board_of_the_wrong_size_and_bad_colours():
    with pytest.raises(ValueError):
        position_key(variant="Pente", size=9, stones={}, captures=(), to_move=1)
    with pytest.raises(ValueError):
        position_key(variant="Pente", size=19, stones=[0] * 81, captures=(), to_move=1)
    with pytest.raises(ValueError):
        position_key(variant="Pente", size=19, stones={180: 7}, captures=(), to_move=1)
    with pytest.raises(ValueError):
        position_key(variant="Pente", size=19, stones={400: 1}, captures=(), to_move=1)


# ---------------------------------------------------------------------- replaying a game


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("Pente", {}),
        ("Keryo-Pente", {}),
        ("Keryo-Pente", {"seats": 3}),
        ("Pente", {"seats": 4, "partners": True}),
        ("Poof-Pente", {}),
        ("O-Pente", {}),
        ("D-Pente", {}),
        ("Swap2-Keryo", {}),
        ("Connect6", {}),
        ("Go (9x9)", {}),
    ],
)
def test_the_incremental_keys_of_a_replayed_game_are_those_computed_from_scratch(variant, options):
    rng = random.Random(f"{variant}{options}")
    removed = 0
    for _ in range(4):
        game = random_game(variant, rng, 70, **options)
        rows = list(game_keys(game))
        assert rows == list(keys_along(variant, game.actions, **options))
        first = len(new_game(variant, **options).actions)
        assert [r.ply for r in rows] == list(range(first, len(game.actions)))
        for row in rows:
            before = replay_game(variant, game.actions[: row.ply], **options)
            assert key_of(before) == (row.key, row.symmetry)
            action = game.actions[row.ply]
            if type(action) is int:
                assert row.next_point == canonical_move(before, action)
            else:
                assert row.next_point is None
        removed += sum(game.captures)
    if variant not in ("Connect6", "Go (9x9)"):
        assert removed  # captures (or poofs) were XOR'd out along the way


def test_the_keys_of_a_go_game_follow_it_through_the_count():
    game = GoGame.replay(["E5", "D5", "PASS", "PASS", "MARK D5", "ACCEPT"], size=9)
    rows = list(game_keys(game))
    passes, marking = [rows[2], rows[3]], rows[4:]
    assert [r.next_point for r in passes] == [pass_point(9)] * 2
    assert [r.next_point for r in marking] == [None, None]  # the marking and its answer
    assert key_of(GoGame.replay(["E5", "D5", "PASS"], size=9)) == (rows[3].key, rows[3].symmetry)


def test_game_keys_leaves_the_game_as_it_was():
    game = Game.replay("Pente", pts(DIAGONAL_GAME))
    before = (game.board, game.captures, game.actions, game.to_move_colour)
    rows = list(game_keys(game))
    assert (game.board, game.captures, game.actions, game.to_move_colour) == before
    assert rows[0] == PlyKey(1, *key_of(Game("Pente")), canonical_move(Game("Pente"), pt("L11")))


# ---------------------------------------------------------------------- stored keys


def test_keys_are_stable_across_processes_and_releases():
    """A change of the tables or of how a key is put together changes every stored key: bump
    KEY_VERSION and re-index, then update this figure."""
    key = position_key(
        variant="Pente",
        size=19,
        stones={pt("K10"): 1, pt("L9"): 2, pt("K7"): 1},
        captures=(0, 2),
        to_move=2,
    )
    assert key == (EXPECTED_KEY, EXPECTED_SYMMETRY)


EXPECTED_KEY = 8922705952778304487
EXPECTED_SYMMETRY = TRANSPOSE


def test_keys_fit_a_signed_64_bit_column_after_signed64():
    keys = [row.key for row in keys_along("Pente", DIAGONAL_GAME.split())]
    keys += [0, 1, (1 << 63) - 1, 1 << 63, (1 << 64) - 1]
    for key in keys:
        assert 0 <= key < 1 << 64
        value = signed64(key)
        assert -(1 << 63) <= value < 1 << 63
        assert unsigned64(value) == key
    assert signed64((1 << 64) - 1) == -1
    with pytest.raises(ValueError):
        signed64(1 << 64)
    with pytest.raises(ValueError):
        signed64(-1)


# ---------------------------------------------------------------------- refusals


@pytest.mark.parametrize("symmetry", [-1, 8, True, 1.0, "1", None])
def test_a_symmetry_is_an_int_from_0_to_7(symmetry):
    message = f"A symmetry is an int 0..7, not {symmetry!r}"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        transform(0, symmetry, 19)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        inverse(symmetry)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        compose(symmetry, IDENTITY)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        compose(IDENTITY, symmetry)


@pytest.mark.parametrize("size", [0, 20, True, 9.0, "9", None])
def test_a_board_size_is_an_int_from_1_to_19(size):
    message = f"The board size must be 1..19, not {size!r}"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        transform(0, IDENTITY, size)


def test_the_smallest_and_largest_boards_have_their_symmetries():
    assert [transform(0, s, 1) for s in SYMMETRIES] == [0] * 8
    assert transform(360, MIRROR, 19) == 342


@pytest.mark.parametrize("point", [-1, 81, True, 0.0, "0", None])
def test_transform_refuses_what_is_not_a_point_of_the_board(point):
    message = f"{point!r} is not a point of a 9x9 board"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        transform(point, IDENTITY, 9)
    assert transform(80, IDENTITY, 9) == 80 and transform(0, IDENTITY, 9) == 0


def test_each_symmetry_has_its_inverse_and_its_compositions():
    assert [inverse(s) for s in SYMMETRIES] == [0, 1, 2, 3, 4, 6, 5, 7]
    assert compose(MIRROR, FLIP) == ROTATE_180
    assert compose(TRANSPOSE, MIRROR) == ROTATE_90
    assert compose(ROTATE_90, ROTATE_90) == ROTATE_180
    assert compose(ROTATE_90, MIRROR) == TRANSPOSE  # the top left corner goes back home
    assert compose(MIRROR, ROTATE_90) == ANTI_TRANSPOSE
    assert compose(ROTATE_270, ROTATE_270) == ROTATE_180
    assert compose(ANTI_TRANSPOSE, ANTI_TRANSPOSE) == IDENTITY


def test_a_pass_stays_a_pass_on_the_callers_board():
    for s in SYMMETRIES:
        assert to_caller(pass_point(9), s, 9) == 81
        assert to_caller(pass_point(19), s, 19) == 361
    assert to_caller(0, ROTATE_90, 9) == transform(0, ROTATE_270, 9) == 72
    assert to_caller(1, ROTATE_90, 9) == transform(1, ROTATE_270, 9) == 63
    with pytest.raises(ValueError, match="^82 is not a point of a 9x9 board$"):
        to_caller(82, IDENTITY, 9)


def test_signed64_and_unsigned64_refuse_values_out_of_their_range_by_name():
    with pytest.raises(ValueError, match=f"^{1 << 64} is not an unsigned 64-bit key$"):
        signed64(1 << 64)
    with pytest.raises(ValueError, match="^-1 is not an unsigned 64-bit key$"):
        signed64(-1)
    assert signed64(0) == 0 and signed64((1 << 63) - 1) == (1 << 63) - 1
    assert signed64(1 << 63) == -(1 << 63)
    assert unsigned64(-(1 << 63)) == 1 << 63 and unsigned64((1 << 63) - 1) == (1 << 63) - 1
    assert unsigned64(-1) == (1 << 64) - 1 and unsigned64(0) == 0
    with pytest.raises(ValueError, match=f"^{1 << 63} is not a signed 64-bit value$"):
        unsigned64(1 << 63)
    with pytest.raises(ValueError, match=f"^{-(1 << 63) - 1} is not a signed 64-bit value$"):
        unsigned64(-(1 << 63) - 1)


def refusal(**parts) -> str:
    """The message of the ValueError ``position_key`` raises for ``parts`` (a Pente board, none
    captured, colour 1 to move, unless given)."""
    given = {"variant": "Pente", "size": 19, "stones": {}, "captures": (), "to_move": 1}
    with pytest.raises(ValueError) as raised:
        position_key(**{**given, **parts})
    return str(raised.value)


def test_position_key_names_what_it_refuses():
    assert refusal(size=9) == "Pente is played on 19x19, not 9"
    assert refusal(stones=[0] * 81) == "A 19x19 board has 361 points, not 81"
    assert refusal(stones={180: 7}) == "7 is not a colour (0..6) at point 180"
    assert refusal(stones={180: -1}) == "-1 is not a colour (0..6) at point 180"
    assert refusal(stones={180: True}) == "True is not a colour (0..6) at point 180"
    assert refusal(stones={180: 1.0}) == "1.0 is not a colour (0..6) at point 180"
    assert refusal(stones=[0] * 180 + [7] + [0] * 180) == "7 is not a colour (0..6) at point 180"
    assert refusal(stones={361: 1}) == "361 is not a point of a 19x19 board"
    assert refusal(stones={-1: 1}) == "-1 is not a point of a 19x19 board"
    assert refusal(stones={True: 1}) == "True is not a point of a 19x19 board"
    assert refusal(stones={"K10": 1}) == "'K10' is not a point of a 19x19 board"
    assert refusal(captures=(0,) * 7) == "(0, 0, 0, 0, 0, 0, 0) is not a capture count per colour"
    assert refusal(captures=(0, -2)) == "(0, -2) is not a capture count per colour"
    assert refusal(captures=[True]) == "[True] is not a capture count per colour"
    assert refusal(captures=(2.0,)) == "(2.0,) is not a capture count per colour"
    assert refusal(to_move=7) == "7 is not a colour to move (1..6, or 0/None)"
    assert refusal(to_move=-1) == "-1 is not a colour to move (1..6, or 0/None)"
    assert refusal(to_move=True) == "True is not a colour to move (1..6, or 0/None)"
    assert refusal(to_move=1.0) == "1.0 is not a colour to move (1..6, or 0/None)"


def test_position_key_takes_every_colour_up_to_six_and_six_capture_counts():
    def key(stones, captures=(0,) * 6, to_move=6):
        return position_key(
            variant="Pente", size=19, stones=stones, captures=captures, to_move=to_move
        )[0]

    assert key({0: 1, 360: 6}) != key({0: 1})
    assert key({0: 1, 360: 6}) == key({0: 6, 360: 1})  # a half turn
    assert key({0: 1}, captures=(0, 0, 0, 0, 0, 2)) != key({0: 1})
    assert key({0: 1}, to_move=6) != key({0: 1}, to_move=5)
    assert key({0: 1}, to_move=0) == key({0: 1}, to_move=None)


# ---------------------------------------------------------------------- the cached tables
# The permutations and the random numbers are computed once per process and kept (``@cache``);
# these tests compute them afresh, so that they check the computation and not the cache.


def test_the_permutations_of_a_3x3_board_computed_afresh_are_the_eight_symmetries_as_drawn():
    assert _perms.__wrapped__(3) == (
        (0, 1, 2, 3, 4, 5, 6, 7, 8),  # identity
        (2, 1, 0, 5, 4, 3, 8, 7, 6),  # mirror: left-right
        (6, 7, 8, 3, 4, 5, 0, 1, 2),  # flip: top-bottom
        (8, 7, 6, 5, 4, 3, 2, 1, 0),  # the half turn
        (0, 3, 6, 1, 4, 7, 2, 5, 8),  # transpose: the main diagonal stays
        (2, 5, 8, 1, 4, 7, 0, 3, 6),  # a quarter turn clockwise: the top left corner goes right
        (6, 3, 0, 7, 4, 1, 8, 5, 2),  # counter-clockwise: it goes down
        (8, 5, 2, 7, 4, 1, 6, 3, 0),  # the other diagonal stays
    )


def test_the_random_number_of_a_stone_is_cut_from_blake2b_of_the_text_naming_it():
    """The text is the parts joined by "|" (``"stone|19|1|180"``), hashed with the key's
    version as the personalisation: a stored key depends on every detail of it."""
    assert _random64("stone", 19, 1, 180) == 12118434476310735760
    assert _random64("to_move", 2) == 17415594882339356402


def key_by_parts(game, **extra) -> tuple[int, int]:
    """``position_key`` of ``game``'s variant, board, captures and colour to move, with
    ``extra`` (the pending step, the table)."""
    return position_key(
        variant=game.variant.name,
        size=game.size,
        stones=game.board,
        captures=game.captures,
        to_move=game.to_move_colour,
        **extra,
    )


def test_partners_are_in_the_key_given_by_parts():
    game = Game("Pente", seats=4, partners=True)
    assert key_by_parts(game, seats=4, partners=True) == key_of(game)
    assert key_by_parts(game, seats=4, partners=False) == key_of(Game("Pente", seats=4))


def test_a_pending_decision_is_in_the_key_given_by_parts():
    game = Game.replay("D-Pente", pts("K10 L9 K7 L10"))
    assert key_by_parts(game, pending="d_swap") == key_of(game)
    assert key_by_parts(game)[0] != key_of(game)[0]


@pytest.mark.parametrize("point", [-1, 361, True, 180.0, "K10", None])
def test_canonical_move_refuses_what_is_not_a_point_of_the_board(point):
    message = f"{point!r} is not a point of a 19x19 board"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        canonical_move(Game("Pente"), point)


def test_go_s_marking_phase_is_a_pending_step_in_the_key():
    marking = GoGame.replay(["E5", "D5", "PASS", "PASS"], size=9)
    assert key_by_parts(marking, pending="marking") == key_of(marking)
    assert key_by_parts(marking)[0] != key_of(marking)[0]
