"""Taking actions back: ``Game.pop()`` restores every part of the position exactly, and
``Game.takeback()`` answers what the server's undo request may take back."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Game, IllegalMove, Outcome, Takeback, Termination
from games.engine.errors import ILLEGAL_MOVE_CODES

from .helpers import (
    EVERY_SETUP,
    act,
    full_board_but,
    names,
    nearly_full,
    position,
    pt,
    random_action,
)


def observed(g: Game) -> tuple:
    """Everything a caller can see of a position."""
    return (
        g.board,
        g.captures,
        g.to_move_seat,
        g.to_move_colour,
        g.pending_decision,
        g.decisions_available(),
        g.stones_this_turn(),
        g.outcome,
        g.winner_colour,
        g.last_point,
        g.plies,
        g.actions,
        tuple(g.seat_colour(s) for s in range(1, g.seats + 1)),
        g.takeback(),
    )


def refusal(call, *args) -> IllegalMove:
    with pytest.raises(IllegalMove) as exc:
        call(*args)
    return exc.value


# -- pop: one rule case at a time ------------------------------------------------------------


def test_pop_takes_a_stone_back_and_returns_it():
    g = Game("Pente")
    before = observed(g)
    g.play("L10")
    assert g.pop() == pt("L10")
    assert observed(g) == before


def test_pop_puts_captured_stones_back_and_lowers_the_count():
    g = position("Pente", {1: "N10", 2: "L10 M10"})
    before = observed(g)
    assert names(g.play("K10").captured) == {"L10", "M10"}
    g.pop()
    assert observed(g) == before


def test_pop_puts_back_a_keryo_triple():
    g = position("Keryo-Pente", {1: "O10", 2: "L10 M10 N10"})
    before = observed(g)
    assert len(g.play("K10").captured) == 3
    g.pop()
    assert observed(g) == before


def test_pop_puts_back_stones_of_two_opponents_in_a_multi_player_capture():
    g = position("Pente", {1: "N10", 2: "L10", 3: "M10"}, seats=3)
    before = observed(g)
    assert names(g.play("K10").captured) == {"L10", "M10"}
    g.pop()
    assert observed(g) == before
    assert g.board[pt("L10")] == 2 and g.board[pt("M10")] == 3


def test_pop_undoes_a_win_and_the_game_goes_on():
    g = position("Pente", {1: "F10 G10 H10 J10"})
    before = observed(g)
    g.play("K10")
    assert g.outcome == Outcome(Termination.FIVE, (1,))
    g.pop()
    assert observed(g) == before and g.outcome is None
    g.play("A1")


@pytest.mark.parametrize("variant", ["Pente", "Gomoku", "Poof-Pente", "Boat-Pente"])
def test_pop_undoes_a_full_board_draw(variant):
    g = full_board_but("K10", variant)
    before = observed(g)
    g.play("K10")
    assert g.outcome == Outcome(Termination.DRAW) and g.outcome.is_draw
    g.pop()
    assert observed(g) == before


def test_pop_restores_a_poofed_stone_and_the_opponents_count():
    g = position("Poof-Pente", {1: "L10", 2: "J10 M10"})
    before = observed(g)
    r = g.play("K10")
    assert names(r.poofed) == {"K10", "L10"}
    g.pop()
    assert observed(g) == before


def test_pop_of_the_reply_to_a_breakable_five_leaves_the_five_pending():
    g = position("Boat-Pente", {1: "F10 G10 H10 J10 H11", 2: "H12"})
    g.play("K10")  # a five O can break
    pending = observed(g)
    g.play("A1")  # O does not break it: X wins
    assert g.outcome == Outcome(Termination.FIVE, (1,))
    g.pop()
    assert observed(g) == pending
    r = g.play("H9")  # and breaking it now works as before
    assert names(r.captured) == {"H10", "H11"} and g.outcome is None


def test_pop_of_the_reply_to_a_breakable_five_keeps_it_able_to_win_again():
    g = position("Boat-Pente", {1: "F10 G10 H10 J10 H11", 2: "H12"})
    g.play("K10")  # a five O can break
    g.play("A1")  # O does not break it: X wins
    g.pop()
    g.play("A2")  # another reply that leaves it standing: X wins again
    assert g.outcome == Outcome(Termination.FIVE, (1,))


@pytest.mark.parametrize(
    ("variant", "colour_1", "colour_2", "gone"),
    [
        ("Pente", "N10", "M10", {"L10", "M10"}),
        ("Poof-Pente", "N10", "M10", {"L10", "M10"}),
        ("Poof-Pente", "L10", "M10", {"K10", "L10"}),
    ],
    ids=["capture", "capture-with-poofs", "poof"],
)
def test_pop_gives_back_the_empty_points_the_draw_rule_counts(variant, colour_1, colour_2, gone):
    # A board full but K10, A1 and A2, where K10 captures or poofs: the count of empty points
    # (which the full-board draw reads) is the board's again after the pop.
    g = nearly_full(variant, colour_1=colour_1, colour_2=colour_2)
    r = g.play("K10")
    assert names(r.captured) | names(r.poofed) == gone
    assert g._empty == g.board.count(0) == 4
    g.pop()
    assert g._empty == g.board.count(0) == 3


def test_pop_of_a_breakable_five_forgets_it():
    g = position("Boat-Pente", {1: "F10 G10 H10 J10 H11", 2: "H12"})
    before = observed(g)
    g.play("K10")
    g.pop()
    assert observed(g) == before
    g.play("A1")
    g.play("A2")  # nothing pending wins for colour 1 here
    assert g.outcome is None


def test_pop_of_a_d_opening_decision_gives_the_choice_back():
    g = Game("D-Pente")
    for move in ["A1", "A3", "A5", "A7"]:
        g.play(move)
    before = observed(g)
    g.decide("swap")
    assert g.seat_colour(2) == 1
    assert g.pop() == "swap"
    assert observed(g) == before
    g.decide("keep")
    assert g.seat_colour(1) == 1 and g.to_move_seat == 1


def test_pop_steps_back_through_swap2_place_two_and_the_colour_choice():
    g = Game("Swap2-Pente")
    seen = [observed(g)]
    for action in ["A1", "A3", "A5", "place_two", "A7", "A9", "colour2", "B1"]:
        act(g, action)
        seen.append(observed(g))
    while len(seen) > 1:
        seen.pop()
        g.pop()
        assert observed(g) == seen[-1]


def test_pop_in_connect6_goes_back_one_stone_of_the_turn():
    g = Game("Connect6")
    g.play_turn(["L10", "L11"])
    half = observed(g)
    g.play("A1")
    assert g.stones_this_turn() == 1
    g.pop()
    assert observed(g) == half and g.stones_this_turn() == 2


def test_pop_never_takes_back_the_servers_centre_stone():
    g = Game("Pente")
    e = refusal(g.pop)
    assert e.code == "nothing_to_undo"
    assert e.detail == "Nothing can be taken back: the only stone was placed by the server"
    g.play("L10")
    g.pop()
    assert refusal(g.pop).code == "nothing_to_undo"
    assert g.plies == 1 and g.board[pt("K10")] == 1


def test_pop_refuses_when_no_action_was_taken():
    refused = refusal(Game("D-Pente").pop)
    assert refused.code == "nothing_to_undo"
    assert refused.detail == "Nothing can be taken back: no action has been taken"
    assert refusal(position("Pente", {1: "K10"}).pop).code == "nothing_to_undo"
    assert "nothing_to_undo" in ILLEGAL_MOVE_CODES


# -- pop: every variant, any number of actions -----------------------------------------------


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=st.sampled_from(EVERY_SETUP),
    n=st.integers(0, 90),
    k=st.integers(0, 90),
    more=st.integers(0, 15),
    data=st.data(),
)
@pytest.mark.slow
def test_popping_k_actions_is_replaying_the_first_n_minus_k(setup, n, k, more, data):
    name, options = setup

    def choose(options):
        return data.draw(st.sampled_from(options))

    g = Game(name, **options)
    for _ in range(n):
        if g.outcome is not None:
            break
        act(g, random_action(g, choose))
    actions = g.actions
    k = min(k, len(actions) - (len(Game(name, **options).actions)))
    for _ in range(k):
        g.pop()
    fresh = Game.replay(name, actions[: len(actions) - k], **options)
    assert observed(g) == observed(fresh)
    for _ in range(more):  # and both go on alike
        if g.outcome is not None:
            break
        action = random_action(g, choose)
        act(g, action)
        act(fresh, action)
        assert observed(g) == observed(fresh)


def test_a_copy_pops_without_touching_the_original():
    g = Game("Keryo-Pente")
    for move in ["L10", "A1", "M10", "N10", "B1"]:
        g.play(move)
    before = observed(g)
    h = g.copy()
    h.pop()
    h.pop()
    assert observed(g) == before and h.plies == g.plies - 2


# -- takeback: the server's undo rule --------------------------------------------------------


def test_takeback_is_the_last_stone_and_its_seat():
    g = Game("Pente")
    assert g.takeback() is None  # only the server's centre stone
    g.play("L10")
    assert g.takeback() == Takeback(actions=1, seat=2)
    g.play("A1")
    assert g.takeback() == (1, 1)


def test_takeback_in_connect6_is_the_whole_turn():
    g = Game("Connect6")
    g.play("L10")
    assert g.takeback() == (1, 2)
    g.play("L11")
    assert g.takeback() == (2, 2)
    g.play("A1")
    assert g.takeback() == (1, 1)


def test_takeback_never_reaches_into_the_d_opening():
    g = Game("D-Pente")
    for move in ["A1", "A3", "A5", "A7"]:
        g.play(move)
        assert g.takeback() is None
    g.decide("keep")
    assert g.takeback() is None  # a decision
    g.play("K10")
    assert g.takeback() == (1, 1)


def test_takeback_in_swap2_waits_for_the_stones_after_place_two():
    g = Game("Swap2-Pente")
    for action in ["A1", "A3", "A5", "place_two", "A7", "A9"]:
        act(g, action)
        assert g.takeback() is None
    g.decide("colour1")
    g.play("B1")
    assert g.takeback() == (1, 2)


def _service_undo_span(variant: str, moves: list[tuple[int, str, int | str]]):
    """The Django service's rule before it moved into the engine (``_undo_span`` and
    ``_swap2_protocol_end``), transcribed over (ply, seat, kind, action) rows."""
    if not moves:
        return None
    ply, seat, kind, _ = last = moves[-1]
    if kind != "stone":
        return None
    base = len(Game(variant).actions)
    opening = Game(variant).variant.opening
    if opening in ("d", "swap2"):
        decisions = [m for m in moves if m[2] == "decision"]
        if not decisions:
            return None
        base = max(base, decisions[-1][0])
        if opening == "swap2":
            end = decisions[-1][0] + 2 if decisions[-1][3] == "place_two" else decisions[-1][0]
            base = max(base, end)
    span = [last]
    if opening == "connect6" and len(moves) >= 2 and moves[-2][1] == last[1]:
        if moves[-2][2] == "stone":
            span.insert(0, moves[-2])
    if span[0][0] <= base:
        return None
    return (len(span), span[-1][1])


@pytest.mark.parametrize(("name", "options"), EVERY_SETUP)
def test_takeback_answers_as_the_services_rule_did(name, options):
    rng = random.Random(f"{name}{options}")
    for _ in range(25):
        g = Game(name, **options)
        rows = [(i, 1, "stone", a) for i, a in enumerate(g.actions, start=1)]
        while True:
            assert g.takeback() == _service_undo_span(name, rows)
            if g.outcome is not None or len(rows) > 150:
                break
            seat = g.to_move_seat
            action = random_action(g, rng.choice)
            act(g, action)
            kind = "decision" if isinstance(action, str) else "stone"
            rows.append((len(rows) + 1, seat, kind, action))
