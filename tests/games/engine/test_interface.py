"""One engine interface: every family is a ``Position`` (that no code outside the engine asks
which family it holds is ``tests/test_architecture.py``'s, with ``tests/code_scans.py``)."""

from __future__ import annotations

import inspect

import pytest

from games.engine import (
    BadOptions,
    Game,
    GoGame,
    GoPhase,
    IllegalMove,
    Position,
    get_variant,
    new_game,
    replay_game,
)

FAMILIES = [
    pytest.param("Pente", id="pente"),
    pytest.param("Connect6", id="connect6"),
    pytest.param("D-Pente", id="d-pente"),
    pytest.param("Go (9x9)", id="go"),
]


def test_every_family_implements_the_whole_interface():
    assert issubclass(Game, Position) and issubclass(GoGame, Position)
    for family in (Game, GoGame):
        assert not inspect.isabstract(family), family.__abstractmethods__


@pytest.mark.parametrize("variant", FAMILIES)
def test_a_new_game_is_a_position_answering_every_question(variant):
    position = new_game(variant)
    assert isinstance(position, Position)
    assert position.variant == get_variant(variant)
    assert position.size == get_variant(variant).size
    assert len(position.board) == position.size**2
    assert position.outcome is None and position.winner_colour is None
    assert position.to_move_seat in (1, 2)
    assert position.seat_colour(1) == 1
    assert len(position.rows()) == position.size
    assert all(c == 0 for c in position.captures)
    assert position.score() is None or position.marks_dead
    assert position.decision_due == position.pending_decision
    assert position.decision_choices() == position.decisions_available()


@pytest.mark.parametrize("variant", FAMILIES)
def test_play_turn_then_pop_gives_the_position_back(variant):
    position = new_game(variant)
    if position.decision_due is not None:
        pytest.skip("opens with a protocol")
    before = (position.board, position.actions, position.to_move_seat, position.plies)
    due = position.stones_this_turn()
    points = position.legal_points()[:due]
    results = position.play_turn(points)
    assert [r.point for r in results] == points
    assert position.plies == before[3] + due
    for _ in points:
        position.pop()
    assert (position.board, position.actions, position.to_move_seat, position.plies) == before


@pytest.mark.parametrize("variant", FAMILIES)
def test_act_replays_the_actions_a_position_lists(variant):
    position = new_game(variant)
    for _ in range(6):
        if position.decision_due is not None:
            position.act(position.decision_choices()[0])
        else:
            position.play(position.legal_points()[-1])
    again = replay_game(variant, [])
    for action in again.without_automatic(position.actions):
        again.act(action)
    assert again.board == position.board and again.actions == position.actions


def test_only_go_passes_and_marks_dead_stones():
    pente, go = new_game("Pente"), new_game("Go (9x9)")
    assert not pente.marks_dead and pente.phase is None and pente.komi is None
    assert not pente.can_pass() and pente.parse_move("K10") == pente.parse_point("K10")
    with pytest.raises(IllegalMove):
        pente.parse_move("PASS")
    with pytest.raises(IllegalMove) as refused:
        pente.mark_dead([])
    assert refused.value.code == "not_marking"
    assert refused.value.detail == "This game has no dead stones to mark."
    assert go.marks_dead and go.phase is GoPhase.PLAYING and go.komi == 7.5
    assert go.can_pass() and go.parse_move(" pass ") is None
    go.play_turn([None])
    go.play_turn(["PASS"])
    assert go.phase is GoPhase.MARKING and not go.can_pass()
    assert go.decision_due is None and go.decision_choices() == ()
    go.mark_dead([])
    assert go.decision_due == "dead_stones" and go.decision_choices() == ("accept", "reject")
    assert go.pending_decision is None and go.decisions_available() == ()
    assert go.decide("reject", disputed=[]) == "reject"
    assert go.phase is GoPhase.PLAYING


def test_go_refuses_two_stones_a_turn_and_answers_only_accept_or_reject():
    go = new_game("Go (9x9)")
    with pytest.raises(IllegalMove) as refused:
        go.play_turn(["C3", "D4"])
    assert refused.value.code == "wrong_stone_count"
    with pytest.raises(IllegalMove) as refused:
        go.decide("keep")
    assert refused.value.code == "bad_decision"


def test_go_decide_returns_the_rejection_with_the_stones_it_disputes():
    go = replay_game("Go (9x9)", ["C3", "D4", "PASS", "PASS", "MARK C3"])
    # in board order (rows from the top), each stone once, as the record of moves keeps it
    assert go.decide("reject", disputed=["C3", "D4", "C3"]) == "reject D4 C3"
    assert go.disputed == {go.parse_point("C3"), go.parse_point("D4")}


def test_pente_decide_returns_the_choice_and_act_plays_a_word_not_due_as_a_stone():
    game = new_game("D-Pente")
    for point in ("K10", "L10", "M10", "N10"):
        game.act(point)
    assert game.decision_due is not None
    choice = game.decision_choices()[0]
    assert game.act(choice) == choice and game.decision_due is None
    with pytest.raises(IllegalMove) as refused:
        game.act(choice)  # no decision due: a word is no stone
    assert refused.value.code != "no_decision_pending"


@pytest.mark.parametrize("variant", FAMILIES)
def test_is_legal_says_whether_check_would_refuse_the_point(variant):
    game = new_game(variant)
    taken = next(p for p, colour in enumerate(game.board) if colour) if any(game.board) else None
    free = game.legal_points()[0]
    assert game.is_legal(free) and game.is_legal(game.point_name(free))
    assert not game.is_legal(game.size * game.size)  # off the board
    if taken is not None:  # the centre stone the game placed
        assert not game.is_legal(taken)


def test_is_legal_refuses_go_suicide_and_the_ko_recapture():
    # White surrounds A1's neighbours; black at A1 would have no liberty.
    suicide = replay_game("Go (9x9)", ["E5", "A2", "E6", "B1"])
    assert not suicide.is_legal("A1") and suicide.is_legal("C1")
    # A ko: black takes at D5, white may not take back at once at E5.
    ko = replay_game("Go (9x9)", ["D6", "E6", "C5", "F5", "D4", "E4", "A9", "D5", "E5"])
    assert not ko.is_legal("D5")


def test_a_position_prints_as_its_rows_with_numbers_and_letters():
    game = replay_game("Go (9x9)", ["A1", "J9"])
    lines = str(game).split("\n")
    assert len(lines) == 10
    assert lines[0] == " 9 " + " ".join(game.rows()[0]) and lines[0].endswith("2")
    assert lines[8] == " 1 " + " ".join(game.rows()[8]) and lines[8][3] == "1"
    assert lines[9] == "   A B C D E F G H J"


def test_new_game_hands_the_pente_family_its_options():
    game = new_game("Pente", tournament_rule=True, rated=True, adjacent_only=True)
    assert game.tournament_rule and game.rated and game.adjacent_only
    assert new_game("Pente", tournament_rule=True).tournament_rule  # off unless rated
    assert not new_game("Pente", rated=True, tournament_rule=False).tournament_rule
    plain = new_game("Pente")
    assert not (plain.tournament_rule or plain.rated or plain.adjacent_only)


@pytest.mark.parametrize(
    ("variant", "options", "detail"),
    [
        ("Go (9x9)", {"seats": 3}, "Go (9x9) is a game for two players."),
        ("Go (9x9)", {"partners": True}, "Go (9x9) is a game for two players."),
        (
            "Go (13x13)",
            {"tournament_rule": True},
            "Go (13x13) has no tournament rule and no adjacent-only option.",
        ),
        (
            "Go (9x9)",
            {"adjacent_only": True},
            "Go (9x9) has no tournament rule and no adjacent-only option.",
        ),
        ("Pente", {"komi": 6.5}, "Pente has no komi."),
    ],
)
def test_new_game_refuses_options_a_game_has_not_and_says_which(variant, options, detail):
    with pytest.raises(BadOptions) as refused:
        new_game(variant, **options)
    assert str(refused.value) == detail
