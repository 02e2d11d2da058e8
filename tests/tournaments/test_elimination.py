"""Single and double elimination brackets: seeding, byes, drop-down pattern, grand-final reset."""

from __future__ import annotations

import random

import pytest

from tournaments.pairing.double_elimination import double_elimination
from tournaments.pairing.elimination import (
    BYE,
    bracket_stages,
    elimination_places,
    resolve,
    seed_order,
    single_elimination,
)


def play_out(matches, n, *, pick=None, rng=None):
    """Play a bracket to its end; ``pick(state)`` chooses the winner (default: random)."""
    rng = rng or random.Random(n)
    seeds = {s: f"p{s}" for s in range(1, n + 1)}
    winners: dict[str, str] = {}
    played: dict[str, int] = {p: 0 for p in seeds.values()}
    while True:
        state = resolve(matches, seeds, winners)
        ready = state.ready()
        if not ready:
            return state, winners, played
        for ms in ready:
            winners[ms.match.key] = pick(ms) if pick else rng.choice([ms.a, ms.b])
            played[ms.a] += 1
            played[ms.b] += 1


def test_seed_order_for_8_and_16_is_the_standard_one():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@pytest.mark.parametrize("n", [5, 8, 13, 16])
def test_single_elimination_favourites_meet_only_in_the_final(n):
    state, winners, played = play_out(
        single_elimination(n), n, pick=lambda ms: min(ms.a, ms.b, key=lambda p: int(p[1:]))
    )
    final = state.matches[-1]
    assert {final.a, final.b} == {"p1", "p2"}
    assert state.champion == "p1"
    # byes go to the top seeds: with n players, 2**k - n top seeds skip round 1
    size = 1 << (n - 1).bit_length()
    first_round = [ms for ms in state.matches if ms.match.round == 1]
    walkovers = sorted(int(ms.winner[1:]) for ms in first_round if ms.status == "walkover")
    assert walkovers == list(range(1, size - n + 1))


@pytest.mark.parametrize("n", range(2, 34))
def test_single_elimination_plays_n_minus_1_matches_and_everyone_loses_once_but_the_champion(n):
    state, winners, played = play_out(single_elimination(n), n)
    assert state.finished
    assert len(winners) == n - 1
    losses = {}
    for ms in state.matches:
        if ms.status == "done":
            losses[ms.loser] = losses.get(ms.loser, 0) + 1
    assert set(losses) == {f"p{s}" for s in range(1, n + 1)} - {state.champion}
    assert all(v == 1 for v in losses.values())
    places = elimination_places(state)
    assert places[state.champion] == 1 and len(places) == n


def test_double_elimination_for_8_drops_losers_in_the_documented_order():
    keys = {m.key: m for m in double_elimination(8)}
    assert [(keys[f"W1-{i}"].a.ref, keys[f"W1-{i}"].b.ref) for i in range(1, 5)] == [
        (1, 8),
        (4, 5),
        (2, 7),
        (3, 6),
    ]
    assert (keys["L1-1"].a.ref, keys["L1-1"].b.ref) == ("W1-1", "W1-2")
    assert (keys["L2-1"].a.ref, keys["L2-1"].b.ref) == ("L1-1", "W2-2")
    assert (keys["L2-2"].a.ref, keys["L2-2"].b.ref) == ("L1-2", "W2-1")
    assert (keys["L3-1"].a.ref, keys["L3-1"].b.ref) == ("L2-1", "L2-2")
    assert (keys["L4-1"].a.ref, keys["L4-1"].b.kind, keys["L4-1"].b.ref) == (
        "L3-1",
        "loser",
        "W3-1",
    )


def test_double_elimination_for_16_follows_the_documented_layout():
    # Winners' round 2 losers drop in reverse, round 3 losers in order. (The former neighbour
    # swap, m2 m1 m4 m3 then m2 m1, let the loser of W2-1 meet in L3 the player he beat in W1:
    # 0.5 rematches per event in L3 alone, where none can happen before L4 now.)
    keys = {m.key: m for m in double_elimination(16)}
    assert [(keys[f"W1-{i}"].a.ref, keys[f"W1-{i}"].b.ref) for i in range(1, 9)] == [
        (1, 16),
        (8, 9),
        (4, 13),
        (5, 12),
        (2, 15),
        (7, 10),
        (3, 14),
        (6, 11),
    ]
    assert [keys[f"L2-{i}"].b.ref for i in range(1, 5)] == ["W2-4", "W2-3", "W2-2", "W2-1"]
    assert [keys[f"L4-{i}"].b.ref for i in range(1, 3)] == ["W3-1", "W3-2"]
    assert keys["L6-1"].b.ref == "W4-1"
    assert max(m.round for m in keys.values() if m.bracket == "L") == 6


@pytest.mark.parametrize("n", range(2, 34))
def test_double_elimination_everyone_but_the_champion_loses_twice(n):
    state, winners, played = play_out(double_elimination(n), n)
    assert state.finished
    losses: dict[str, int] = {}
    for ms in state.matches:
        if ms.status == "done":
            losses[ms.loser] = losses.get(ms.loser, 0) + 1
    champion = state.champion
    assert champion not in (None, BYE)
    assert losses.get(champion, 0) <= 1
    for p in (f"p{s}" for s in range(1, n + 1)):
        if p != champion:
            assert losses[p] == 2, (p, losses)
    # 2n - 2 matches, plus one when the bracket reset
    reset = state.by_key["GF2"].status == "done"
    assert len(winners) == 2 * n - 2 + reset
    assert sorted(elimination_places(state).values())[0] == 1


def test_grand_final_resets_when_the_losers_champion_wins():
    matches = double_elimination(4)
    seeds = {s: f"p{s}" for s in range(1, 5)}
    winners = {"W1-1": "p1", "W1-2": "p2", "W2-1": "p1", "L1-1": "p4", "L2-1": "p2"}
    state = resolve(matches, seeds, winners)
    gf1 = state.by_key["GF1"]
    assert (gf1.status, gf1.a, gf1.b) == ("ready", "p1", "p2")
    state = resolve(matches, seeds, {**winners, "GF1": "p2"})
    gf2 = state.by_key["GF2"]
    assert (gf2.status, gf2.a, gf2.b) == ("ready", "p1", "p2")
    assert not state.finished
    state = resolve(matches, seeds, {**winners, "GF1": "p2", "GF2": "p2"})
    assert (state.finished, state.champion) == (True, "p2")
    assert elimination_places(state)["p1"] == 2


def test_no_reset_when_the_winners_champion_wins_the_first_final():
    matches = double_elimination(4)
    seeds = {s: f"p{s}" for s in range(1, 5)}
    winners = {"W1-1": "p1", "W1-2": "p2", "W2-1": "p1", "L1-1": "p4", "L2-1": "p2", "GF1": "p1"}
    state = resolve(matches, seeds, winners)
    assert state.by_key["GF2"].status == "void"
    assert (state.finished, state.champion) == (True, "p1")


@pytest.mark.parametrize("n", [2, 5, 8, 16, 33])
def test_single_elimination_stage_is_the_round(n):
    matches = single_elimination(n)
    assert bracket_stages(matches) == {m.key: m.round for m in matches}


def test_double_elimination_stages_number_winners_losers_and_finals_in_one_sequence():
    stages = bracket_stages(double_elimination(8))
    by_stage: dict[int, list[str]] = {}
    for key, stage in stages.items():
        by_stage.setdefault(stage, []).append(key.split("-")[0])
    assert {s: sorted(set(k)) for s, k in by_stage.items()} == {
        1: ["W1"],
        2: ["L1", "W2"],
        3: ["L2", "W3"],
        4: ["L3"],
        5: ["L4"],
        6: ["GF1"],
        7: ["GF2"],
    }


@pytest.mark.parametrize("n", range(2, 34))
def test_every_double_elimination_match_comes_after_the_matches_that_feed_it(n):
    matches = double_elimination(n)
    stages = bracket_stages(matches)
    for m in matches:
        for slot in (m.a, m.b):
            if slot.kind != "seed":
                assert stages[m.key] > stages[str(slot.ref)]


@pytest.mark.parametrize(("n", "shared"), [(4, 3), (8, 5), (6, 5)])
def test_players_knocked_out_while_the_bracket_is_played_come_after_those_still_in(n, shared):
    matches = single_elimination(n)
    seeds = {s: f"p{s}" for s in range(1, n + 1)}
    first = resolve(matches, seeds, {})
    winners = {ms.match.key: min(ms.a, ms.b, key=lambda p: int(p[1:])) for ms in first.ready()}
    state = resolve(matches, seeds, winners)
    places = elimination_places(state)
    losers = {ms.loser for ms in state.matches if ms.status == "done"}
    assert losers and {places[p] for p in losers} == {shared}
    assert not set(places) - losers  # the players still in have no place yet
