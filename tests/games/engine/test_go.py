"""Go (docs/rules.md, "Go on three boards" and "Board and notation"): captures, suicide, superko,
passes, marking, area scoring, notation and taking back, on small hand-made positions.

Diagrams are rows top first, as ``GoGame.rows()`` prints them: ``.`` empty, ``1`` black,
``2`` white. On 9x9 the top row is row 9 and the columns are A..J (no I).
"""

from __future__ import annotations

import pickle

import pytest

from games.engine import BadOptions, IllegalMove, Outcome, Termination
from games.engine.go import GO_ILLEGAL_MOVE_CODES, GoGame, GoPhase, go_tables, zobrist_hash
from games.engine.notation import parse_point, point_name
from tests.games.engine.go_play import state


def diagram(*rows: str, to_move: int = 1, komi: float = 7.5) -> GoGame:
    """A game whose board is the diagram (rows top first), ``to_move`` next."""
    size = len(rows)
    stones: dict[int, list[int]] = {1: [], 2: []}
    for y, row in enumerate(rows):
        assert len(row) == size, row
        for x, ch in enumerate(row):
            if ch in "12":
                stones[int(ch)].append(x + size * y)
    return GoGame.from_position(size, stones, to_move=to_move, komi=komi)


def refused(game: GoGame, action, code: str, **kwargs) -> None:
    """``action`` is refused with ``code`` and changes nothing."""
    before = state(game)
    with pytest.raises(IllegalMove) as info:
        if action == "ACCEPT":
            game.accept(**kwargs)
        elif action == "REJECT":
            game.reject(**kwargs)
        elif isinstance(action, list):
            game.mark_dead(action, **kwargs)
        else:
            game.play(action, **kwargs)
    assert info.value.code == code
    assert info.value.code in GO_ILLEGAL_MOVE_CODES
    assert state(game) == before


def names(points, size: int = 9) -> set[str]:
    return {point_name(p, size) for p in points}


def _stones(game: GoGame, colour: int) -> list[int]:
    return [p for p, c in enumerate(game.board) if c == colour]


def finish(game: GoGame, dead: str = "") -> Outcome:
    """Pass twice, the first passer marks ``dead``, the other accepts."""
    game.play("PASS")
    game.play("PASS")
    game.mark_dead(dead.split())
    return game.accept()


# -- the start -------------------------------------------------------------------------------


def test_black_moves_first_on_an_empty_board_with_white_getting_komi():
    game = GoGame(9)
    assert game.board == (0,) * 81
    assert game.to_move_seat == 1 and game.to_move_colour == 1
    assert game.seat_colour(1) == 1 and game.seat_colour(2) == 2
    assert game.phase == GoPhase.PLAYING == "playing"
    assert game.komi == 7.5
    assert game.outcome is None and game.pending_decision is None
    assert game.decisions_available() == () and game.stones_this_turn() == 1
    assert game.captures == (0, 0) and game.last_point is None and game.ply == 0
    assert game.passes == 0


@pytest.mark.parametrize("size", [9, 13, 19])
def test_each_go_size_starts_empty(size):
    game = GoGame(size)
    assert len(game.board) == size * size
    assert game.rows() == ["." * size] * size


@pytest.mark.parametrize("size", [7, 15, 20, True, "19"])
def test_other_board_sizes_are_refused(size):
    with pytest.raises(BadOptions) as info:
        GoGame(size)
    assert str(info.value) == f"Go is played on 9x9, 13x13 or 19x19, not {size!r}"


@pytest.mark.parametrize("komi", [True, "7.5", None, float("inf"), float("nan")])
def test_komi_is_a_finite_number_of_points(komi):
    with pytest.raises(BadOptions) as info:
        GoGame(9, komi=komi)
    assert str(info.value) == f"komi must be a number of points, not {komi!r}"


def test_colours_alternate_and_the_stone_goes_where_named():
    game = GoGame(9)
    result = game.play("E5")
    assert result.point == 40 and result.colour == 1 and result.captured == ()
    assert not result.finished and not result.is_pass
    game.play("C3")
    assert game.rows()[4] == "....1...." and game.rows()[6] == "..2......"
    assert game.to_move_seat == 1 and game.ply == 2 and game.last_point == parse_point("C3", 9)


def test_a_position_is_by_default_an_empty_19x19_board_with_black_to_move():
    for game in (GoGame.from_position(), GoGame()):
        assert game.board == (0,) * 361 and game.to_move_seat == 1 and game.ply == 0


@pytest.mark.parametrize(
    ("stones", "message"),
    [
        ({3: "E5"}, "There is no colour 3 in Go"),
        ({1: "E5", 2: "D4 E5"}, "E5 is given twice"),
        ({1: "A9", 2: "B9 A8"}, "The group at A9 has no liberty"),
        ({1: "A9 B9", 2: "C9 A8 B8"}, "The group at A9 has no liberty"),
        # the dead stone comes after the living ones next to it, in board order
        ({1: "J2 H1", 2: "J1"}, "The group at J1 has no liberty"),
    ],
)
def test_a_position_refuses_a_stone_of_no_colour_a_point_twice_and_a_dead_group(stones, message):
    with pytest.raises(ValueError) as info:
        GoGame.from_position(9, stones)
    assert str(info.value) == message


def test_a_position_takes_captures_of_black_and_white_and_a_side_to_move_of_1_or_2():
    game = GoGame.from_position(9, {1: "E5"}, captures={1: 2, 2: 3}, to_move=2)
    assert game.captures == (2, 3) and game.to_move_seat == 2
    for captures in ({3: 1}, {0: 1}):
        with pytest.raises(ValueError) as info:
            GoGame.from_position(9, captures=captures)
        assert str(info.value) == f"There is no colour {next(iter(captures))} in Go"
    with pytest.raises(ValueError) as info:
        GoGame.from_position(9, to_move=3)
    assert str(info.value) == "to_move must be 1 or 2, not 3"


# -- notation --------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "index"), [("A9", 0), ("J9", 8), ("A1", 72), ("J1", 80)])
def test_9x9_corner_names_convert_exactly(name, index):
    game = GoGame(9)
    assert game.parse_point(name) == index
    assert game.point_name(index) == name


def test_a1_and_j9_on_9x9_are_the_corners_where_the_stones_land():
    game = GoGame(9)
    game.play("A1")
    game.play("J9")
    assert game.rows()[8] == "1........"
    assert game.rows()[0] == "........2"


def test_no_go_board_has_a_column_i():
    for size in (9, 13, 19):
        game = GoGame(size)
        columns = {game.point_name(p)[0] for p in range(size * size)}
        assert "I" not in columns and len(columns) == size
    assert GoGame(9).point_name(8) == "J9"


@pytest.mark.parametrize("point", ["T19", "K5", "J10", "A0", 81, -1])
def test_points_off_the_9x9_board_are_off_board(point):
    refused(GoGame(9), point, "off_board")


@pytest.mark.parametrize("point", ["I5", "hello", "", "5E", 4.0, None, True])
def test_garbage_is_a_bad_coordinate(point):
    refused(GoGame(9), point, "bad_coordinate")
    if not isinstance(point, str):
        assert words(GoGame(9).play, point) == f"{point!r} is not a point"


def test_t19_is_on_the_19x19_board():
    game = GoGame(19)
    game.play("T19")
    assert game.board[18] == 1


def test_pass_is_written_pass_in_any_case():
    game = GoGame(9)
    assert game.play("pass").is_pass
    assert game.actions == ["PASS"]


# -- captures --------------------------------------------------------------------------------


def test_a_single_stone_without_liberties_is_captured():
    game = diagram(
        ".........",
        ".........",
        ".........",
        "....1....",
        "...121...",
        ".........",
        ".........",
        ".........",
        ".........",
    )
    result = game.play("E4")
    assert names(result.captured) == {"E5"}
    assert game.board[parse_point("E5", 9)] == 0
    assert game.captures == (1, 0)


def test_one_stone_captures_two_groups_at_once():
    game = diagram(
        "12.21....",  # C9 is the shared last liberty of B9 and D9
        ".1.1.....",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    )
    result = game.play("C9")
    assert names(result.captured) == {"B9", "D9"}
    assert game.rows()[0] == "1.1.1...."
    assert game.captures == (2, 0)


def test_a_large_group_is_captured_whole():
    game = diagram(
        ".........",
        ".........",
        "...111...",
        "..12221..",
        "..12221..",
        "..1222...",  # G4 is the 3x3 white block's last liberty
        "...111...",
        ".........",
        ".........",
    )
    result = game.play("G4")
    assert len(result.captured) == 9
    assert game.rows()[3:6] == ["..1...1..", "..1...1..", "..1...1.."]
    assert game.captures == (9, 0)


def test_a_stone_on_the_edge_is_captured_with_three_stones():
    game = diagram(
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        "...121...",  # E1 has one liberty left: E2
    )
    assert names(game.play("E2").captured) == {"E1"}
    assert game.rows()[8] == "...1.1..."


def test_a_stone_in_the_corner_is_captured_with_two_stones():
    game = diagram(
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        "21.......",  # A1 has one liberty left: A2
    )
    assert names(game.play("A2").captured) == {"A1"}
    assert game.rows()[7:] == ["1........", ".1......."]


def test_a_group_with_a_liberty_left_is_not_captured():
    game = diagram(
        ".........",
        ".........",
        ".........",
        "...11....",
        "..1221...",
        "...1.....",  # the pair D5-E5 still breathes at E4
        ".........",
        ".........",
        ".........",
    )
    assert game.play("J1").captured == ()
    assert game.rows()[4] == "..1221..."


# -- suicide ---------------------------------------------------------------------------------


def test_suicide_of_a_single_stone_is_refused():
    game = diagram(
        ".2.......",  # A9 is surrounded by white
        "2........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    )
    refused(game, "A9", "suicide")


def test_suicide_of_a_group_is_refused():
    game = diagram(
        "1.2......",  # B9 would join A9 and leave the pair without a liberty
        "22.......",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    )
    refused(game, "B9", "suicide")


def test_a_move_that_captures_is_not_suicide():
    game = diagram(
        ".21......",  # A9 has no empty neighbour, but takes B9's last liberty
        "21.......",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    )
    result = game.play("A9")
    assert names(result.captured) == {"B9"}
    assert game.rows()[:2] == ["1.1......", "21......."]


def test_the_suicide_rule_binds_white_too():
    game = diagram(
        "1........",
        ".1.......",
        "1........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        to_move=2,
    )
    refused(game, "A8", "suicide")


def test_an_occupied_point_is_refused():
    game = GoGame(9)
    game.play("E5")
    refused(game, "E5", "occupied")


# -- ko and superko --------------------------------------------------------------------------

KO = (
    ".........",
    ".........",
    "...12....",
    "..12.2...",  # black E6 takes D6; white D6 would take E6 straight back
    "...12....",
    ".........",
    ".........",
    ".........",
    ".........",
)


def test_taking_a_ko_straight_back_is_refused():
    game = diagram(*KO)
    assert names(game.play("E6").captured) == {"D6"}
    refused(game, "D6", "superko")


def test_a_ko_may_be_retaken_after_a_threat_and_an_answer_elsewhere():
    game = diagram(*KO)
    game.play("E6")  # black takes the ko
    refused(game, "D6", "superko")
    game.play("J1")  # white's ko threat
    game.play("J2")  # black answers it
    assert names(game.play("D6").captured) == {"E6"}  # the position is new: white retakes
    refused(game, "E6", "superko")  # and now black must find a threat


# Three kos on the top edge of a 19x19 board; in each the two points (k, 0) and (k+1, 0) are
# contested: white on (k, 0) ("W") or black on (k+1, 0) ("B"). Ko 1: B19/C19, ko 2: G19/H19,
# ko 3: M19/N19. The start is (W, B, W), black to move.
TRIPLE_KO = (
    "12.2.1.12.12.2.....",
    ".12...12...12......",
    *["..................."] * 17,
)


def test_a_triple_ko_cycle_is_refused_when_it_would_repeat_the_first_position():
    game = diagram(*TRIPLE_KO)
    start = game.position_hash
    assert game.play("C19").captured == (parse_point("B19"),)  # ko 1: W -> B
    assert game.play("G19").captured == (parse_point("H19"),)  # ko 2: B -> W
    assert game.play("N19").captured == (parse_point("M19"),)  # ko 3: W -> B
    assert game.play("B19").captured == (parse_point("C19"),)  # ko 1: B -> W
    assert game.play("H19").captured == (parse_point("G19"),)  # ko 2: W -> B
    # White taking ko 3 now is no immediate recapture (black last played in ko 2), so simple
    # ko would allow it; it would recreate the first position (W, B, W): superko refuses it.
    refused(game, "M19", "superko")
    # On the same board without that history the move is an ordinary capture back to the start.
    fresh = GoGame.from_position(19, {1: _stones(game, 1), 2: _stones(game, 2)}, to_move=2)
    assert fresh.play("M19").captured == (parse_point("N19"),)
    assert fresh.position_hash == start


def test_a_position_is_refused_whoever_was_to_move_when_it_stood():
    # Two kos (the first two of TRIPLE_KO with black holding ko 1): (B, W), white to move.
    game = diagram(
        "1.12.12.2..........",
        ".12...12...........",
        *["..................."] * 17,
        to_move=2,
    )
    game.play("B19")  # white takes ko 1: (W, W)
    game.play("H19")  # black takes ko 2: (W, B)
    game.play("PASS")  # white passes
    game.play("C19")  # black retakes ko 1: (B, B)
    # White retaking ko 2 makes (B, W), the start, which stood with white to move; now black
    # would be to move. Positional superko refuses it all the same.
    refused(game, "G19", "superko")


# A black stone in the corner (A1) that white takes from A2; black passes, white adds A3, and
# black's A1 would take the two white stones back to the start. No simple ko: it captures two.
TWO_STONE_RETURN = (
    *["........."] * 5,
    "1........",
    ".1.......",
    ".1.......",
    "12.......",
)


def test_a_capture_of_two_stones_that_repeats_a_position_is_refused():
    game = diagram(*TWO_STONE_RETURN, to_move=2)
    start = game.position_hash
    assert names(game.play("A2").captured) == {"A1"}
    game.play("PASS")
    assert game.play("A3").captured == ()
    refused(game, "A1", "superko")
    # On the same board without that history the move takes both stones, back to the start.
    fresh = GoGame.from_position(9, {1: _stones(game, 1), 2: _stones(game, 2)}, to_move=1)
    assert names(fresh.play("A1").captured) == {"A2", "A3"}
    assert fresh.position_hash == start


# Two black stones in the corner (A1, A2) that white takes with A3; black takes A3 back from A2
# (one stone: the board is not the start, A1 is empty), white passes, and black's A1 would
# rebuild the start. That last move captures nothing: no ko of any kind, only positional superko.
NON_CAPTURING_RETURN = (
    *["........."] * 5,
    "1........",
    ".1.......",
    "12.......",
    "12.......",
)


def test_a_move_that_captures_nothing_but_repeats_a_position_is_refused():
    game = diagram(*NON_CAPTURING_RETURN, to_move=2)
    start = game.position_hash
    assert names(game.play("A3").captured) == {"A1", "A2"}
    assert names(game.play("A2").captured) == {"A3"}
    game.play("PASS")
    refused(game, "A1", "superko")
    # On the same board without that history A1 is an ordinary move, capturing nothing, and
    # the board is the start again.
    fresh = GoGame.from_position(9, {1: _stones(game, 1), 2: _stones(game, 2)}, to_move=1)
    assert fresh.play("A1").captured == ()
    assert fresh.position_hash == start


def test_a_refused_move_leaves_the_player_to_move():
    game = diagram(*KO)
    game.play("E6")
    refused(game, "D6", "superko")
    assert game.to_move_seat == 2
    game.play("PASS")
    assert game.to_move_seat == 1


# -- asking before playing -------------------------------------------------------------------

# The KO board after black's E6 (white to move): D6 retakes (superko), E6 is taken; a board whose
# A9 is white's suicide; E4 and "pass" are fine.
CHECK_CASES = [("D6", "superko"), ("E6", "occupied"), (parse_point("E6", 9), "occupied")]


def test_check_refuses_what_play_refuses_with_the_same_code_and_words():
    game = diagram(*KO)
    game.play("E6")
    for point, code in CHECK_CASES:
        before = state(game)
        with pytest.raises(IllegalMove) as asked:
            game.check(point)
        assert state(game) == before
        with pytest.raises(IllegalMove) as played:
            game.play(point)
        assert (asked.value.code, asked.value.detail) == (played.value.code, played.value.detail)
        assert asked.value.code == code and point_name(game.parse_point(point), 9) in str(
            asked.value
        )
    suicide = diagram(".1.......", "1........", *["........."] * 7, to_move=2)
    with pytest.raises(IllegalMove) as asked:
        suicide.check("A9")
    assert asked.value.code == "suicide" and "A9" in asked.value.detail


def test_check_lets_a_legal_stone_or_a_pass_through_and_changes_nothing():
    game = diagram(*KO)
    game.play("E6")
    before = state(game)
    for point in ("E4", parse_point("E4", 9), "pass", " PASS "):
        assert game.check(point) is None
        assert game.check(point, seat=2) is None
    assert state(game) == before


def test_check_refuses_the_seat_not_to_move_and_the_marking():
    game = GoGame(9)
    with pytest.raises(IllegalMove) as info:
        game.check("E5", seat=2)
    assert info.value.code == "not_your_turn"
    game.play("PASS")
    game.play("PASS")
    with pytest.raises(IllegalMove) as info:
        game.check("PASS")
    assert info.value.code == "marking_in_progress"


def test_parse_move_reads_a_point_by_name_or_index():
    game = GoGame(9)
    assert game.parse_move("E5") == parse_point("E5", 9) == game.parse_move(40)
    assert game.parse_move("pass") is None
    with pytest.raises(IllegalMove) as info:
        game.parse_move("Z9")
    assert info.value.code == "off_board"


def test_a_turn_of_go_is_one_stone_or_a_pass_for_the_seat_to_move():
    game = GoGame(9)
    for points in ([], ["E5", "D4"]):
        with pytest.raises(IllegalMove) as info:
            game.play_turn(points)
        assert info.value.code == "wrong_stone_count"
        assert info.value.detail == "Go is one stone (or PASS) a turn."
    with pytest.raises(IllegalMove) as info:
        game.play_turn(["E5"], seat=2)
    assert info.value.code == "not_your_turn" and game.ply == 0
    assert game.play_turn(["E5"], seat=1)[0].point == parse_point("E5", 9)
    assert game.play_turn([None], seat=2)[0].is_pass


def test_a_seat_of_go_is_1_or_2_and_nothing_else():
    game = GoGame(9)
    for seat in (0, 3, True):
        with pytest.raises(ValueError) as info:
            game.seat_colour(seat)
        assert str(info.value) == f"There is no seat {seat!r} in a 2-seat game"


# -- turns ---------------------------------------------------------------------------------


def test_playing_out_of_turn_is_refused():
    game = GoGame(9)
    refused(game, "E5", "not_your_turn", seat=2)
    game.play("E5", seat=1)
    refused(game, "PASS", "not_your_turn", seat=1)
    with pytest.raises(IllegalMove) as info:
        game.pass_turn(seat=1)
    assert info.value.code == "not_your_turn" and game.passes == 0
    game.play("PASS", seat=2)


# -- passes and marking --------------------------------------------------------------------


def test_one_pass_changes_nothing_but_the_turn():
    game = GoGame(9)
    game.play("E5")
    result = game.play("PASS")
    assert result.is_pass and result.colour == 2
    assert game.phase == "playing" and game.to_move_seat == 1 and game.passes == 1
    assert game.last_point == parse_point("E5", 9) and game.last_action == "PASS"
    game.play("D4")
    assert game.passes == 0


def test_two_passes_in_a_row_start_the_marking_by_the_first_passer():
    game = GoGame(9)
    game.play("E5")
    game.play("PASS")  # white passes first
    game.play("PASS")
    assert game.phase == GoPhase.MARKING
    assert game.marking_seat == 2 and game.to_move_seat == 2
    assert game.proposed_dead is None
    assert game.stones_this_turn() == 0 and game.legal_points() == []
    assert game.ply == 3


def test_passes_apart_do_not_start_the_marking():
    game = GoGame(9)
    game.play("PASS")  # black
    game.play("E5")  # white
    game.play("PASS")  # black
    assert game.phase == "playing" and game.to_move_seat == 2
    game.play("PASS")  # white: the second pass in a row, after black's
    assert game.phase == "marking" and game.marking_seat == 1


def test_no_move_is_allowed_during_the_marking():
    game = GoGame(9)
    game.play("PASS")
    game.play("PASS")
    refused(game, "E5", "marking_in_progress")
    refused(game, "PASS", "marking_in_progress")


def test_marking_is_refused_while_playing():
    game = GoGame(9)
    game.play("E5")
    refused(game, [game.parse_point("E5")], "not_marking")
    refused(game, "ACCEPT", "not_marking")
    refused(game, "REJECT", "not_marking")


def test_only_the_first_passer_marks_and_only_stones_can_be_marked_dead():
    game = GoGame(9)
    game.play("E5")
    game.play("PASS")
    game.play("PASS")  # black passed second: white marks
    refused(game, ["E5"], "not_your_turn", seat=1)
    refused(game, ["D4"], "bad_dead", seat=2)
    refused(game, ["Z9"], "off_board")
    refused(game, "ACCEPT", "no_proposal")
    refused(game, "REJECT", "not_your_turn", seat=1)
    game.mark_dead(["E5"], seat=2)
    assert game.proposed_dead == frozenset({parse_point("E5", 9)})
    assert game.to_move_seat == 1
    assert game.board[parse_point("E5", 9)] == 1  # the stone stays until the count
    refused(game, ["E5"], "proposal_pending")
    refused(game, ["E5"], "not_your_turn", seat=2)
    refused(game, "ACCEPT", "not_your_turn", seat=2)


def test_a_rejection_resumes_play_with_the_first_passer_to_move_and_keeps_the_history():
    game = diagram(*KO)
    game.play("E6")  # black takes the ko
    game.play("PASS")  # white passes first
    game.play("PASS")
    game.mark_dead([], seat=2)
    game.reject(seat=1)
    assert game.phase == "playing" and game.to_move_seat == 2
    assert game.proposed_dead is None and game.marking_seat is None and game.passes == 0
    # The position before black took the ko is still in the history: no retake.
    refused(game, "D6", "superko", seat=2)
    # A single pass after the rejection does not start the marking again.
    game.play("PASS")
    assert game.phase == "playing" and game.to_move_seat == 1


def test_after_a_rejection_two_more_passes_mark_again_and_an_acceptance_ends_the_game():
    game = diagram(*KO)
    game.play("E6")
    game.play("PASS")
    game.play("PASS")
    game.mark_dead("D7", seat=2)  # white proposes black's D7 dead
    game.reject(seat=1)
    game.play("J1")  # white plays on
    game.play("PASS")  # black passes first this time
    game.play("PASS")
    assert game.phase == "marking" and game.marking_seat == 1 and game.to_move_seat == 1
    game.mark_dead([], seat=1)
    outcome = game.accept(seat=2)
    assert game.phase == GoPhase.OVER and game.to_move_seat is None
    assert outcome == game.outcome and outcome.termination == Termination.SCORE
    assert game.actions[-5:] == [parse_point("J1", 9), "PASS", "PASS", "MARK", "ACCEPT"]


def test_nothing_can_be_played_or_marked_once_the_game_is_over():
    game = GoGame(9)
    finish(game)
    refused(game, "E5", "game_over")
    refused(game, "PASS", "game_over")
    refused(game, [], "game_over")
    refused(game, "ACCEPT", "game_over")
    refused(game, "REJECT", "game_over")
    assert game.stones_this_turn() == 0


def game_over_words(game: GoGame) -> str:
    with pytest.raises(IllegalMove) as info:
        game.play("A1")
    assert info.value.code == "game_over"
    return info.value.detail


def test_a_move_after_the_count_is_refused_naming_the_winner_and_the_count():
    black = diagram(*JOG, komi=0)
    finish(black)
    assert game_over_words(black) == (
        "The game is over: seat 1 (black) won by 7 points (black 44, white 37)"
    )
    white = diagram(*JOG)
    finish(white)
    assert game_over_words(white) == (
        "The game is over: seat 2 (white) won by 0.5 points (black 44, white 44.5)"
    )
    drawn = diagram(*JOG, komi=7)
    finish(drawn)
    assert game_over_words(drawn) == (
        "The game is over: it was drawn on the count (black 44, white 44)"
    )


def test_accept_is_the_answer_accept_and_ends_the_game():
    game = GoGame(9)
    game.play("E5")
    game.play("PASS")
    game.play("PASS")
    game.mark_dead([])
    assert game.decide("accept") == "accept"
    assert game.phase == "over" and game.outcome == Outcome(Termination.SCORE, (1,))


def test_a_move_during_the_marking_is_refused_naming_who_acts_next():
    game = GoGame(9)
    game.play("E5")
    game.play("PASS")  # white passes first and marks
    game.play("PASS")
    with pytest.raises(IllegalMove) as info:
        game.play("D4")
    assert info.value.detail == (
        "Both players passed: no move until the marking is settled;"
        " seat 2, who passed first, marks the dead stones"
    )
    game.mark_dead(["E5"])
    with pytest.raises(IllegalMove) as info:
        game.play("D4")
    assert info.value.detail.endswith("; seat 1 accepts or rejects the proposed dead stones")


def test_an_answer_before_the_proposal_and_an_empty_point_marked_dead_are_refused_in_words():
    game = GoGame.replay(["E5", "PASS", "PASS"], size=9)
    with pytest.raises(IllegalMove) as info:
        game.accept()
    assert info.value.detail == (
        "There is no proposal to answer yet: seat 2, who passed first, marks the dead stones"
    )
    with pytest.raises(IllegalMove) as info:
        game.mark_dead(["D4"])
    assert info.value.detail == "D4 holds no stone to mark dead"


def words(action, *args, **kwargs) -> str:
    with pytest.raises(IllegalMove) as info:
        action(*args, **kwargs)
    return info.value.detail


def test_each_refusal_of_the_marking_says_what_to_do_instead():
    game = GoGame(9)
    game.play("E5")
    assert words(game.mark_dead, ["E5"]) == (
        "The dead stones are marked only after two passes in a row"
    )
    assert words(game.play, "D4", seat=1) == "It is seat 2's turn to move, not seat 1's"
    game.play("PASS")
    game.play("PASS")
    assert words(game.mark_dead, ["E5"], seat=1) == (
        "Not seat 1's turn: seat 2, who passed first, marks the dead stones"
    )
    game.mark_dead(["E5"])
    assert words(game.mark_dead, ["E5"]) == (
        "The dead stones are proposed; seat 1 must accept or reject them"
    )
    game.accept()
    assert words(game.mark_dead, ["E5"]) == words(game.play, "D4")
    assert words(game.mark_dead, ["E5"]).startswith("The game is over: seat 2 (white) won by ")


def test_each_refusal_of_a_stone_names_the_point_and_the_rule():
    game = diagram(*KO)
    game.play("E6")
    assert words(game.play, "E6") == "E6 is already taken"
    assert words(game.play, "D6") == "D6 would repeat an earlier position of the board (superko)"
    suicide = diagram(".1.......", "1........", *["........."] * 7, to_move=2)
    assert words(suicide.play, "A9") == (
        "A9 would leave your own stones without a liberty (suicide)"
    )


def test_a_marking_is_answered_by_the_seat_to_answer_with_accept_or_reject_only():
    game = GoGame(9)
    game.play("E5")
    game.play("PASS")
    game.play("PASS")
    game.mark_dead(["E5"])
    before = state(game)
    for choice, seat in (("accept", 2), ("reject", 2), ("keep", 1), ("Accept", 1)):
        with pytest.raises(IllegalMove) as info:
            game.decide(choice, seat=seat, disputed=["E5"])
        assert state(game) == before
        if seat == 2:
            assert info.value.code == "not_your_turn"
        else:
            assert info.value.code == "bad_decision"
            assert info.value.detail == "In Go, answer a marking with accept or reject."
    assert game.decide("reject", seat=1, disputed=["E5"]) == "reject E5"
    assert game.disputed == frozenset({parse_point("E5", 9)})


def test_during_the_marking_the_count_takes_off_the_proposed_dead_stones():
    game = GoGame(9)
    game.play("E5")
    game.play("D4")
    game.play("PASS")
    game.play("PASS")
    assert (game.score().black, game.score().white) == (1, 8.5)  # nothing proposed yet
    game.mark_dead(["D4"])
    assert game.score() == game.score(dead=["D4"])
    assert (game.score().black, game.score().dead) == (81, frozenset({parse_point("D4", 9)}))


def test_an_accepted_marking_removes_the_dead_stones_as_captures():
    game = GoGame(9)
    game.play("E5")
    game.play("D4")
    outcome = finish(game, "D4")  # white marks its own D4 dead; black accepts
    assert game.board[parse_point("D4", 9)] == 0
    assert game.captures == (1, 0)
    assert game.proposed_dead == frozenset({parse_point("D4", 9)})
    # black: E5 plus the other 80 points, all touching black only = 81; white 7.5
    assert game.score().black == 81 and game.score().white == 7.5
    assert outcome == Outcome(Termination.SCORE, (1,))
    assert game.winner_colour == 1


# -- area scoring ----------------------------------------------------------------------------

# Black wall on column D, white wall on column E, nothing else.
WALLS = ("...12....",) * 9


def test_area_score_of_two_walls():
    game = diagram(*WALLS)
    score = game.score()
    # black: 9 stones on D + 27 points on A..C = 36
    # white: 9 stones on E + 36 points on F..J = 45, + 7.5 komi = 52.5
    assert (score.black_stones, len(score.black_territory), score.black) == (9, 27, 36)
    assert (score.white_stones, len(score.white_territory), score.white) == (9, 36, 52.5)
    assert names(score.black_territory) == {f"{c}{r}" for c in "ABC" for r in range(1, 10)}
    assert score.winner == 2 and score.margin == 16.5
    assert score.komi == 7.5


def test_an_accepted_count_decides_the_game_for_the_higher_score():
    game = diagram(*WALLS)
    outcome = finish(game)
    assert outcome == Outcome(Termination.SCORE, (2,))
    assert game.score().white == 52.5


def test_stones_left_on_the_board_spoil_the_territory_they_touch():
    game = diagram(
        "...12....",
        ".2.12....",  # a white stone in black's area (B8)
        "...12....",
        "...12....",
        "...12....",
        "...12....",
        "...12....",
        "...12..1.",  # a black stone in white's area (H2)
        "...12....",
    )
    score = game.score()
    # Nothing marked: both areas touch both colours and count for nobody.
    # black: 10 stones; white: 10 stones + 7.5
    assert (score.black, score.white) == (10, 17.5)
    assert score.black_territory == score.white_territory == frozenset()


def test_dead_stones_are_removed_before_the_count():
    game = diagram(
        "...12....",
        ".2.12....",
        "...12....",
        "...12....",
        "...12....",
        "...12....",
        "...12....",
        "...12..1.",
        "...12....",
    )
    assert game.score(dead=["B8", "H2"]).black == 36
    outcome = finish(game, "B8 H2")
    score = game.score()
    # B8 and H2 leave the board: black 9 stones + 27 = 36; white 9 stones + 36 + 7.5 = 52.5
    assert (score.black, score.white) == (36, 52.5)
    assert score.dead == frozenset({parse_point("B8", 9), parse_point("H2", 9)})
    assert game.captures == (1, 1)  # each dead stone counts for the other side
    assert game.rows()[1] == "...12...." and game.rows()[7] == "...12...."
    assert outcome.winners == (2,)


# The walls with a jog: black E9..E2 and D1, white F9..F2 and E1.
JOG = ("....12...",) * 8 + ("...12....",)


def test_komi_decides_a_close_game():
    game = diagram(*JOG)
    score = game.score()
    # black: 9 stones + A..D of rows 9..2 (32) + A..C of row 1 (3) = 44
    # white: 9 stones + G..J of rows 9..2 (24) + F..J of row 1 (4) = 37, + 7.5 = 44.5
    assert (score.black, score.white) == (44, 44.5)
    assert finish(game) == Outcome(Termination.SCORE, (2,))


def test_without_komi_the_same_board_is_black_s():
    game = diagram(*JOG, komi=0)
    assert (game.score().black, game.score().white) == (44, 37)
    assert finish(game) == Outcome(Termination.SCORE, (1,))


def test_equal_scores_draw_with_a_whole_komi():
    game = diagram(*JOG, komi=7)
    assert finish(game) == Outcome(Termination.SCORE, ())
    assert game.outcome.is_draw and game.winner_colour is None


def test_seki_points_count_for_nobody():
    game = diagram(
        ".........",
        ".........",
        "111111111",  # black wall, alive with rows 9-8
        "222222222",  # white group: its only liberties are A5 and J5
        ".1111111.",
        "111111111",  # black group: its only liberties are A5 and J5 too: seki
        "222222222",  # white wall, alive with rows 2-1
        ".........",
        ".........",
    )
    for point in ("A5", "J5"):  # filling a shared liberty gives the other side the capture
        trial = game.copy()
        trial.play(point)
        assert trial.play("J5" if point == "A5" else "A5").captured
    score = game.score()
    # black: 25 stones + rows 9-8 (18) = 43; white: 18 stones + rows 2-1 (18) + 7.5 = 43.5
    # A5 and J5 touch both colours: nobody's.
    assert (score.black, score.white) == (43, 43.5)
    seki = {parse_point("A5", 9), parse_point("J5", 9)}
    assert not seki & (score.black_territory | score.white_territory)


def test_an_empty_board_is_nobody_s_territory():
    score = GoGame(9).score()
    assert (score.black, score.white) == (0, 7.5)


# -- taking back -----------------------------------------------------------------------------


def test_pop_restores_board_captures_hash_and_history_after_a_capture():
    game = diagram(*KO)
    before = state(game)
    game.play("E6")
    assert game.captures == (1, 0)
    assert game.pop() == parse_point("E6", 9)
    assert state(game) == before
    assert game.position_hash == zobrist_hash(game.board, 9)
    game.play("E6")  # and the same move is legal again
    assert game.captures == (1, 0)


def test_pop_takes_back_passes_and_every_marking_step():
    game = GoGame(9)
    game.play("E5")
    game.play("D4")
    states = [state(game)]
    for action in ("PASS", "PASS", "MARK D4", "REJECT", "PASS", "PASS", "MARK D4", "ACCEPT"):
        game.act(action)
        states.append(state(game))
    assert game.phase == "over" and game.captures == (1, 0)
    for expected in reversed(states[:-1]):
        game.pop()
        assert state(game) == expected
    game.pop()
    game.pop()
    with pytest.raises(IllegalMove) as info:
        game.pop()
    assert info.value.code == "nothing_to_undo"


def test_an_undo_request_takes_back_the_last_move_but_no_marking_step():
    game = GoGame(9)
    assert game.takeback() is None
    game.play("E5")
    assert game.takeback() == (1, 1)
    game.play("PASS")
    assert game.takeback() == (1, 2)
    game.play("PASS")
    game.mark_dead([])
    assert game.takeback() is None


def test_replay_rebuilds_the_game_from_its_actions():
    game = GoGame(9)
    for action in ("E5", "D4", 10, "PASS", "C3", "PASS", "PASS", "MARK C3 D4", "REJECT"):
        game.act(action)
    again = GoGame.replay(game.actions, size=9)
    assert state(again) == state(game)
    assert game.actions[:3] == [parse_point("E5", 9), parse_point("D4", 9), 10]
    assert game.actions[-2:] == ["MARK D4 C3", "REJECT"]  # marked points in board order


def test_replay_reads_a_marking_as_a_pair_too():
    game = GoGame.replay(["E5", "PASS", "PASS", ["MARK", ["E5"]], "ACCEPT"], size=9)
    assert game.outcome == Outcome(Termination.SCORE, (2,))
    assert game.captures == (0, 1)


def test_a_copy_moves_on_alone():
    game = GoGame(9)
    game.play("E5")
    other = game.copy()
    other.play("D4")
    assert game.board[parse_point("D4", 9)] == 0 and game.ply == 1
    assert len(other.positions) == 3 and len(game.positions) == 2


def test_a_pickled_game_loads_with_the_shared_tables_and_plays_on_identically():
    game = diagram(*KO)
    game.play("E6")
    loaded = pickle.loads(pickle.dumps(game))
    assert state(loaded) == state(game)
    assert loaded._t is go_tables(9)  # looked up again, not a copy
    assert loaded._nbrs is go_tables(9).neighbours and loaded._zob is go_tables(9).zobrist
    assert set(game.__getstate__()) == set(GoGame.__slots__) - set(GoGame._SHARED_SLOTS)
    refused(loaded, "D6", "superko")
    for g in (game, loaded):
        g.play("J1")
        g.play("J2")
        g.play("D6")
    assert state(loaded) == state(game)


def test_each_action_in_the_form_of_the_actions_list_is_taken_for_the_seat_named():
    game = GoGame(9)
    for action in ("E5", parse_point("E5", 9), "PASS"):
        with pytest.raises(IllegalMove) as info:
            game.act(action, seat=2)
        assert info.value.code == "not_your_turn"
    for action in ("E5", "PASS", "PASS"):
        game.act(action, seat=game.to_move_seat)  # white marks
    for action in ("MARK E5", ("MARK", ["E5"])):
        with pytest.raises(IllegalMove) as info:
            game.act(action, seat=1)
        assert info.value.code == "not_your_turn"
    game.act("MARK E5", seat=2)
    for action in ("ACCEPT", "REJECT"):
        with pytest.raises(IllegalMove) as info:
            game.act(action, seat=2)
        assert info.value.code == "not_your_turn"
    game.act("REJECT", seat=1)
    game.act("PASS", seat=2)
    game.act("PASS", seat=1)
    game.act(("MARK", []), seat=2)
    assert game.act("ACCEPT", seat=1) == game.outcome


@pytest.mark.parametrize("action", [("E5", "D4"), ["E5"], ("MARK", "E5", "D4")])
def test_a_list_that_is_no_marking_is_no_action_of_go(action):
    game = GoGame(9)
    with pytest.raises(IllegalMove) as info:
        game.act(action)
    assert info.value.code == "bad_coordinate"
    assert info.value.detail == f"{action!r} is not an action of Go"


def test_a_replay_is_on_19x19_unless_told_and_nothing_is_taken_back_from_nothing():
    game = GoGame.replay(["T19"])
    assert len(game.board) == 361 and game.board[18] == 1
    game.pop()
    with pytest.raises(IllegalMove) as info:
        game.pop()
    assert info.value.detail == "Nothing can be taken back: no action yet"


def test_taking_back_the_acceptance_counts_the_proposal_again():
    game = GoGame.replay(["E5", "D4", "PASS", "PASS", "MARK D4", "ACCEPT"], size=9)
    assert game.score().black == 81
    game.pop()
    assert game.phase == "marking"
    assert game.score() == game.score(dead=["D4"])
    assert game.score().dead == frozenset({parse_point("D4", 9)})


# ---------------------------------------------------------------------- disputes and groups


def ko_marked_dead_by_white() -> GoGame:
    """The ko taken, both passed (white first), white proposing black's D7 dead."""
    game = diagram(*KO)
    game.play("E6")
    game.play("PASS")
    game.play("PASS")
    game.mark_dead("D7", seat=2)
    return game


def test_a_rejection_names_the_stones_it_disputes_until_the_next_marking():
    game = ko_marked_dead_by_white()
    game.act("REJECT D7 E6", seat=1)  # black disputes its D7, and names E6 too
    assert {game.point_name(p) for p in game.disputed} == {"D7", "E6"}
    assert game.actions[-1] == "REJECT"  # the moves of the game do not carry the dispute
    game.play("J1")
    assert {game.point_name(p) for p in game.disputed} == {"D7", "E6"}
    game.play("PASS")
    game.play("PASS")  # marking again: the old dispute is over
    assert game.disputed == frozenset()


def test_a_rejection_disputes_only_stones_and_pop_restores_the_marking():
    game = ko_marked_dead_by_white()
    with pytest.raises(IllegalMove) as info:
        game.reject(seat=1, disputed=["A1"])
    assert info.value.code == "bad_dead" and game.phase == "marking"
    game.reject(seat=1, disputed=["D7"])
    assert game.pop() == "REJECT"
    assert game.phase == "marking" and game.disputed == frozenset()
    assert game.proposed_dead == {parse_point("D7", 9)}


def test_a_rejection_without_names_disputes_nothing():
    game = diagram(*KO)
    game.play("PASS")
    game.play("PASS")
    game.mark_dead([], seat=1)
    game.reject(seat=2)
    assert game.phase == "playing" and game.disputed == frozenset()


def test_a_group_is_the_chain_with_its_colours_stones_across_the_same_empty_region():
    game = diagram(
        ".........",
        ".1...1...",  # B8 and F8: black stones in white's area, apart
        "......1..",  # G7 touches F8's region
        "222222222",
        ".........",
        "....1....",
        "111111111",
        ".2.......",  # a white stone alone under black's wall
        ".........",
    )
    group = {game.point_name(p) for p in game.group_of("B8")}
    assert group == {"B8", "F8", "G7"}  # through the empty points, not across white's wall
    assert {game.point_name(p) for p in game.group_of("B2")} == {"B2"}
    assert len(game.group_of("A6")) == 9  # white's wall: its stones on both sides are apart
    below = game.group_of("E4")  # black's stone above its wall, in the same region as the wall
    assert below == game.group_of("A3") and len(below) == 10
    assert game.group_of("E1") == frozenset()  # an empty point
