"""SGF export and import of Go games (games/engine/sgf.py): what the file holds, what sgfmill
reads back, round trips that change nothing, real records, and the refusals.

Points are ``x + size*y`` with y from the top; on 9x9 ``B5`` is (1, 4) and ``H5`` is (7, 4)
(no column I).
"""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sgfmill import boards
from sgfmill.sgf import Sgf_game

from games.engine.errors import BadRecord
from games.engine.go import GoGame, GoPhase
from games.engine.sgf import (
    SGF_ERROR_CODES,
    SgfGame,
    SgfMove,
    read_sgf,
    sgf_record,
    sgf_result,
    sgf_to_actions,
    sgf_to_game,
    write_sgf,
)
from tests.games.engine.go_play import FAST, play_random, walls


def counted(komi: float = 7.5, game: GoGame | None = None) -> GoGame:
    """``game`` (default: ``walls``), then a white stone inside black's side (B5) and a black
    one inside white's (H5), two passes, both invaders marked dead and accepted."""
    game = game or walls(komi)
    game.play(7 + 9 * 4)
    game.play(1 + 9 * 4)
    game.play("PASS")
    game.play("PASS")
    game.mark_dead(["H5", "B5"])
    game.accept()
    return game


def refused(text: str | bytes, code: str) -> BadRecord:
    with pytest.raises(BadRecord) as info:
        read_sgf(text)
    assert info.value.code == code
    assert code in SGF_ERROR_CODES
    assert info.value.detail
    return info.value


def same_game(a: GoGame, b: GoGame) -> None:
    assert a.board == b.board
    assert a.captures == b.captures
    assert a.phase == b.phase
    assert a.score() == b.score()
    assert a.outcome == b.outcome


# ---------------------------------------------------------------------- export


def test_a_counted_9x9_game_is_written_with_its_game_information_passes_and_markup():
    game = counted()
    assert game.score().black == 36 and game.score().white == 43.5
    text = write_sgf(game, black="alice", white="bob", date=datetime.date(2024, 5, 1))
    for part in (
        "FF[4]",
        "GM[1]",
        "CA[UTF-8]",
        "SZ[9]",
        "KM[7.5]",
        "PB[alice]",
        "PW[bob]",
        "DT[2024-05-01]",
        "RE[W+7.5]",
        ";B[da]",  # D9: the first move, column d from the left, row a from the top
        ";B[he]",  # H5
        ";W[be]",  # B5
        ";B[]",
        "W[]",
        "TB[",
        "TW[",
    ):
        assert part in text
    assert "tt" not in text
    assert text.startswith("(;FF[4]") and text.rstrip().endswith(")")


def test_sgfmill_reads_the_export_back():
    game = counted()
    sgf = Sgf_game.from_string(write_sgf(game, black="alice", white="bob"))
    assert sgf.get_size() == 9
    assert sgf.get_komi() == 7.5
    assert sgf.get_player_name("b") == "alice" and sgf.get_player_name("w") == "bob"
    assert sgf.get_winner() == "w"
    moves = [node.get_move() for node in sgf.get_main_sequence()[1:]]
    assert len(moves) == 22
    assert moves[0] == ("b", (8, 3))  # sgfmill counts rows from the bottom
    assert moves[-2:] == [("b", None), ("w", None)]
    last = sgf.get_last_node()
    black_area, white_area = last.get("TB"), last.get("TW")
    assert black_area == {(row, col) for row in range(9) for col in range(3)}
    assert white_area == {(row, col) for row in range(9) for col in range(6, 9)}
    assert (4, 1) in black_area and (4, 7) in white_area  # the dead invaders


def test_a_counted_game_comes_back_unchanged():
    game = counted()
    text = write_sgf(game, black="alice", white="bob", date="2024-05-01")
    record = read_sgf(text)
    assert record == sgf_record(game, black="alice", white="bob", date="2024-05-01")
    assert record.scored
    assert record.dead == (1 + 9 * 4, 7 + 9 * 4)
    assert record.result == "W+7.5" and record.winner == 2
    assert [m.point for m in record.moves[:2]] == [3, 5]
    assert [m.colour for m in record.moves[:4]] == [1, 2, 1, 2]
    assert sgf_to_actions(record) == game.actions
    same_game(sgf_to_game(record), game)
    assert write_sgf(record) == text


def test_a_draw_is_written_0():
    game = counted(komi=0)
    assert game.score().winner is None
    record = read_sgf(write_sgf(game))
    assert record.result == "0" and record.winner is None
    same_game(sgf_to_game(record), game)


def test_a_dead_stone_outside_the_other_colours_territory_still_comes_back():
    game = walls()
    game.play(4 + 9 * 4)  # E5, between the walls
    game.play("PASS")
    game.play("PASS")
    game.mark_dead(["E5"])
    game.accept()
    assert 40 not in game.score().white_territory  # column E is dame once E5 is gone
    record = read_sgf(write_sgf(game))
    assert record.dead == (40,)
    same_game(sgf_to_game(record), game)


def turned_down(dead: list[str]) -> GoGame:
    """``walls``, two passes, and a marking of ``dead`` turned down: play goes on."""
    game = walls()
    game.play("PASS")
    game.play("PASS")
    game.mark_dead(dead)
    game.reject()
    return game


def test_play_resumed_after_a_rejected_empty_marking_replays_as_one():
    game = turned_down([])
    counted(game=game)
    text = write_sgf(game)
    assert _second_pass(text).get_raw_list("REJECTEDDEAD") == [b""]
    record = read_sgf(text)
    assert sgf_to_actions(record) == game.actions
    same_game(sgf_to_game(record), game)
    # Another program's file, without the property: the marking proposes no stone all the same.
    assert sgf_to_actions(read_sgf(text.replace("REJECTEDDEAD[]", ""))) == game.actions


def _second_pass(text: str):
    """The node of the 20th move of ``walls`` then two passes: the second pass."""
    node = Sgf_game.from_string(text).get_main_sequence()[20]
    assert node.get_move() == ("w", None)
    return node


def test_a_rejected_marking_comes_back_with_the_stones_it_proposed():
    game = turned_down(["D5", "F5"])
    counted(game=game)
    text = write_sgf(game)
    assert _second_pass(text).get_raw_list("REJECTEDDEAD") == [b"de", b"fe"]  # D5, F5
    record = read_sgf(text)
    assert record.rejected == ((20, (39, 41)),)
    assert sgf_to_actions(record) == game.actions
    same_game(sgf_to_game(record), game)


def test_a_reader_that_does_not_know_the_rejected_marking_reads_the_rest():
    game = turned_down(["D5"])
    counted(game=game)
    sgf = Sgf_game.from_string(write_sgf(game))
    moves = [node.get_move() for node in sgf.get_main_sequence()[1:]]
    assert len(moves) == 24 and moves[18:20] == [("b", None), ("w", None)]
    assert sgf.get_main_sequence()[20].get_raw_list("REJECTEDDEAD") == [b"de"]


def test_a_marking_rejected_with_no_move_since_comes_back_rejected_and_not_counted():
    game = turned_down(["D5"])
    record = read_sgf(write_sgf(game, result=sgf_result(2, how="resign")))
    assert not record.scored and record.rejected == ((20, (39,)),)
    assert sgf_to_actions(record) == game.actions


@pytest.mark.parametrize(
    "tail",
    [
        ";B[ee]REJECTEDDEAD[dd];W[]",  # after a stone, not after two passes
        ";B[];W[]REJECTEDDEAD[zz];B[ee]",  # not a point of the board
    ],
)
def test_a_rejected_marking_out_of_place_or_off_the_board_is_refused(tail):
    with pytest.raises(BadRecord) as refused:
        read_sgf(write_sgf(walls()).rstrip()[:-1] + tail + ")")
    assert refused.value.code == "bad_sgf"
    assert "REJECTEDDEAD" in refused.value.detail


def test_a_game_in_the_marking_phase_comes_back_in_the_marking_phase():
    game = walls()
    game.play("PASS")
    game.play("PASS")
    text = write_sgf(game)
    assert "TB" not in text and "RE[" not in text
    record = read_sgf(text)
    assert not record.scored and record.result is None
    again = sgf_to_game(record)
    assert again.phase is GoPhase.MARKING
    same_game(again, game)


def test_a_resigned_game_keeps_its_result_and_is_not_counted():
    game = walls()
    record = read_sgf(write_sgf(game, result=sgf_result(2, how="resign")))
    assert record.result == "W+R" and record.winner == 2
    assert not record.scored
    assert sgf_to_game(record).phase is GoPhase.PLAYING


def test_sgf_results():
    assert sgf_result(1, margin=3.5) == "B+3.5"
    assert sgf_result(2, margin=12.0) == "W+12"
    assert sgf_result(None) == "0"
    assert sgf_result(2, how="resign") == "W+R"
    assert sgf_result(1, how="time") == "B+T"
    assert sgf_result(2, how="forfeit") == "W+F"
    assert sgf_result(None, how="void") == "Void"
    for bad in (
        {"winner": 1},
        {"winner": None, "how": "resign"},
        {"winner": 1, "how": "x"},
        {"winner": 1, "how": "void"},  # a void game names no winner
    ):
        with pytest.raises(ValueError):
            sgf_result(**bad)
    with pytest.raises(BadRecord) as info:
        write_sgf(walls(), result="white won")
    assert info.value.code == "bad_result"


def test_player_names_are_escaped_and_come_back():
    name = "al]ice \\o/ [x]"
    text = write_sgf(walls(), black=name, white="Bob ]")
    assert r"PB[al\]ice \\o/ [x\]]" in text
    assert r"PW[Bob \]]" in text
    assert Sgf_game.from_string(text).get_player_name("b") == name
    record = read_sgf(text)
    assert (record.black, record.white) == (name, "Bob ]")


def test_a_19x19_pass_is_written_empty():
    game = GoGame(19)
    game.play("Q16")
    game.play("PASS")
    text = write_sgf(game)
    assert ";B[pd]" in text and ";W[]" in text and "tt" not in text


def test_a_game_from_a_set_up_position_is_not_exported():
    game = GoGame.from_position(9, {1: "E5"}, to_move=2)
    game.play("C3")
    with pytest.raises(BadRecord) as info:
        write_sgf(game)
    assert info.value.code == "sgf_setup_unsupported"


def test_an_sgf_game_is_written_as_it_is():
    record = read_sgf(write_sgf(walls(), black="a"))
    with pytest.raises(TypeError):
        write_sgf(record, black="b")
    assert read_sgf(write_sgf(record)) == record


# ---------------------------------------------------------------------- import


def test_a_19x19_record_with_captures():
    # black takes the white stone at B18 (bb) in the corner
    record = read_sgf("(;GM[1]FF[4]SZ[19]KM[6.5];B[ba];W[bb];B[ab];W[pp];B[cb];W[pd];B[bc])")
    assert record.size == 19 and record.komi == 6.5
    game = sgf_to_game(record)
    assert game.captures == (1, 0)
    assert game.board[1 + 19 * 1] == 0
    assert game.phase is GoPhase.PLAYING


def test_the_ff3_tt_pass():
    record = read_sgf("(;FF[3]GM[1]SZ[19];B[pd];W[tt];B[dp];W[dd];B[tt];W[tt])")
    assert [m.point for m in record.moves] == [
        15 + 19 * 3,
        None,
        3 + 19 * 15,
        3 + 19 * 3,
        None,
        None,
    ]
    assert not record.scored  # no count: neither markup nor a counted result
    assert sgf_to_game(record).phase is GoPhase.MARKING
    assert read_sgf("(;GM[1]SZ[9];B[ee];W[tt];B[])").moves[1:] == (
        SgfMove(2, None),
        SgfMove(1, None),
    )


def test_variations_are_skipped_for_the_main_line():
    record = read_sgf("(;GM[1]FF[4]SZ[9];B[ee](;W[cc];B[gg](;W[gc])(;W[cg]))(;W[gc];B[cc]))")
    assert [m.point for m in record.moves] == [40, 20, 60, 24]


def test_markup_read_as_dead_stones():
    # TB covers the white stone at cc (dead), a black stone (ignored) and empty points
    record = read_sgf("(;GM[1]SZ[9]KM[7.5];B[ee];W[cc];B[];W[]TB[cc][ee][aa][ab])")
    assert record.scored and record.dead == (20,)
    game = sgf_to_game(record)
    assert game.phase is GoPhase.OVER
    assert game.score().black == 81 and game.score().dead == frozenset({20})


def test_a_counted_result_without_markup_scores_with_every_stone_alive():
    record = read_sgf("(;GM[1]SZ[9]KM[7.5]RE[B+73.5];B[ee];W[];B[])")
    assert record.scored and record.dead == ()
    game = sgf_to_game(record)
    assert game.phase is GoPhase.OVER and game.score().margin == 73.5


def test_game_information_is_kept_and_comments_dropped():
    text = (
        "(;GM[1]FF[4]SZ[9]KM[6.5]PB[Black]PW[White]EV[Cup \\] final]RU[Japanese]C[hello]"
        "GC[a comment]HA[0];B[ee]C[nice])"
    )
    record = read_sgf(text)
    assert record.extra == (("EV", "Cup ] final"), ("RU", "Japanese"))
    again = write_sgf(record)
    assert "C[" not in again and "GC[" not in again
    assert read_sgf(again) == record


def test_encodings():
    latin = "(;GM[1]SZ[9]CA[ISO-8859-1]PB[Müller];B[ee])".encode("latin-1")
    assert read_sgf(latin).black == "Müller"
    assert read_sgf("(;GM[1]SZ[9]PB[Müller];B[ee])".encode()).black == "Müller"
    assert read_sgf("(;GM[1]SZ[9]PB[Müller];B[ee])".encode("latin-1")).black == "Müller"
    assert read_sgf("(;GM[1]SZ[9]PB[李昌镐];B[ee])").black == "李昌镐"
    refused(b"(;GM[1]SZ[9]CA[no-such-charset]PB[x];B[ee])", "bad_sgf")


def test_square_sizes_and_defaults():
    record = read_sgf("(;SZ[19:19];B[pd])")
    assert record.size == 19 and record.komi == 0  # no KM: no komi
    assert read_sgf("(;B[pd])").size == 19


# Honinbo Shusaku (black) - Gennan Inseki, Osaka 1846, the "ear-reddening game": black won by
# 2 points in 325 moves, no komi. The moves are the game's published record (here as found in
# the test data of a public Go library), replayed to the end and checked against sgfmill's own
# board.
SHUSAKU = (
    "qd dc pq oc cp cf ep qo pe np po pp op qp oq oo pn qq nq on pm om pl mp mq ol pk lq lr kr "
    "lp kq qr rr rs mr nr pr ps qs no mo qr rm rl qs lo mn qr qm or ql qj rj ri rk ln mm qi rq "
    "jn ls ns gq go ck kc ic pc nj ke og oh pb qb ng mi mj nd ph qg pg hq hr ir iq hp jr fc lc "
    "ld mc lb mb md qf pf qh rg rh sh rf sg pj pi oi oj ni qk ok qe kb jb ka jc ob ja la db cc "
    "fe cn gr is fq io ji eb fb eg dj dk ej cj dh ij hm gj eh fl fg er dm fn dn gn jj jk kk ii "
    "ik jl kl il jh co do ih hn hl bl dg gh ch ig ec cr fd gd ed gc bk cm gs gp li kg in lj lg "
    "gm jf jg im fm kf lf mf le gf hf ff gg lk kj km lm ll jm ge he ef ea cb fr fs dr qa ra pa "
    "rb da gi fj fi fa ga gl ek em ho el en jo kn ci lh mh mg di ei lg qn rn re sl mg bm am lg "
    "eq es mg ha gb lg ds hs mg sj si lg sr sq mg hd hb lg ro so mg ss qs lg sn rp mg cl bn lg "
    "ml mk mg pj sf lg nn nl mg ib ia lg nc nb mg jd kd lg ma na mg qc rc lg js ks mg hc id lg "
    "fk hj mg hh hg lg gk hk mg ak lg al bm nf od ki ms kp ip jp lr oj mr ea sr"
).split()


def test_a_real_game_replays_to_its_end():
    moves = "".join(f";{'BW'[i % 2]}[{move}]" for i, move in enumerate(SHUSAKU))
    text = f"(;FF[3]GM[1]SZ[19]PB[Honinbo Shusaku]PW[Gennan Inseki]KM[0]RE[B+2]{moves})"
    record = read_sgf(text)
    assert len(record.moves) == 325
    assert record.winner == 1 and not record.scored
    game = sgf_to_game(record)
    assert game.ply == 325
    assert game.captures == (31, 29)
    board = boards.Board(19)
    for node in Sgf_game.from_string(text).get_main_sequence()[1:]:
        colour, (row, col) = node.get_move()
        board.play(row, col, colour)
    expected = [0] * 361
    for colour, (row, col) in board.list_occupied_points():
        expected[col + 19 * (18 - row)] = 1 if colour == "b" else 2
    assert game.board == tuple(expected)
    assert read_sgf(write_sgf(record)) == record


# ---------------------------------------------------------------------- refusals


def test_refusals():
    refused("(;GM[2]SZ[19];B[pd])", "not_go")
    refused("(;GM[1]SZ[15];B[pd])", "bad_size")
    refused("(;GM[1]SZ[9:13];B[ee])", "bad_size")
    refused("(;GM[1]SZ[big];B[ee])", "bad_size")
    refused("hello, world", "bad_sgf")
    refused("", "bad_sgf")
    refused("(;GM[1]SZ[9];B[ee]", "bad_sgf")
    assert "B[zz]" in refused("(;GM[1]SZ[9];B[zz])", "bad_sgf").detail
    refused("(;GM[1]SZ[9];B[ee];W[];B[]TB[zz])", "bad_sgf")
    assert "KM[lots]" in refused("(;GM[1]SZ[9]KM[lots];B[ee])", "bad_sgf").detail
    refused("(;GM[1]SZ[9];B[ee]W[cc])", "bad_sgf")
    refused("(;GM[1]SZ[19]HA[2]AB[dd][pp];W[dp])", "sgf_setup_unsupported")
    refused("(;GM[1]SZ[9];B[ee];AW[cc];W[gg])", "sgf_setup_unsupported")
    refused("(;GM[1]SZ[9]HA[2];B[cc];B[gg])", "sgf_out_of_turn")
    refused("(;GM[1]SZ[9];W[ee])", "sgf_out_of_turn")
    error = refused("(;GM[1]SZ[9];B[ee];W[ee])", "sgf_illegal_move")
    assert "Move 2" in error.detail


# ---------------------------------------------------------------------- any game


@FAST
@given(length=st.integers(1, 150), data=st.data())
def test_random_games_come_back_unchanged(length, data):
    game = play_random(GoGame(19), data, length)
    record = sgf_record(game, black="b", white="w")
    assert read_sgf(write_sgf(game, black="b", white="w")) == record
    again = sgf_to_game(record)
    assert again.board == game.board and again.captures == game.captures
    assert again.outcome == game.outcome
    assert again.phase == game.phase
    if not str(game.last_action).startswith("MARK"):  # a proposal unanswered is not written
        assert again.actions == game.actions
    if game.phase is GoPhase.OVER:
        assert again.score() == game.score()


def test_the_record_value_type_checks_itself():
    with pytest.raises(ValueError):
        SgfGame(size=15)
    with pytest.raises(ValueError):
        SgfGame(size=9, moves=(SgfMove(1, 40),), scored=True)
    with pytest.raises(ValueError):
        SgfGame(size=9, dead=(40,))
    for komi in (float("nan"), float("inf"), "7.5"):
        with pytest.raises(ValueError, match="komi"):
            SgfGame(size=9, komi=komi)
    with pytest.raises(ValueError):
        SgfGame(extra=(("PB", "someone"),))
    with pytest.raises(ValueError):  # a marking turned down after a stone, not two passes
        SgfGame(size=9, moves=(SgfMove(1, None), SgfMove(2, 40)), rejected=((2, ()),))


def test_a_count_with_no_territory_and_no_dead_stones_is_still_marked_and_comes_back():
    game = GoGame.replay(["E5", "D5", "E4", "D4", "E6", "D6", "PASS", "F5", "PASS", "PASS"], size=9)
    game.mark_dead([])
    game.accept()
    assert not game.score().black_territory and not game.score().white_territory
    text = write_sgf(game)
    assert "TB[]" in text and "TW[]" in text
    record = read_sgf(text)
    assert record.scored and record.dead == ()
    same_game(sgf_to_game(record), game)


def test_a_game_with_no_move_yet_is_written_and_read_back():
    text = write_sgf(GoGame(9), black="alice", white="bob")
    record = read_sgf(text)
    assert list(record.moves) == []
    assert Sgf_game.from_string(text).get_size() == 9
