"""Double elimination: where the winners' bracket losers drop into the losers' bracket, and how
few losers'-bracket rematches that layout lets happen."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from tournaments.pairing.double_elimination import double_elimination
from tournaments.pairing.elimination import Slot, resolve

# The orderings as brackets-manager.js defines them, on lists (the module computes XOR masks).


def natural(xs):
    return list(xs)


def reverse(xs):
    return list(xs)[::-1]


def half_shift(xs):
    h = len(xs) // 2
    return xs[h:] + xs[:h]


def reverse_half_shift(xs):
    h = len(xs) // 2
    return xs[:h][::-1] + xs[h:][::-1]


def pair_flip(xs):
    out = []
    for i in range(0, len(xs), 2):
        out += [xs[i + 1], xs[i]]
    return out


# The layout of the module docstring: the orderings of the losers of winners' rounds 2 .. k - 1.
DOCUMENTED = {
    8: [reverse],
    16: [reverse, natural],
    32: [reverse_half_shift, half_shift, natural],
    64: [reverse, half_shift, reverse_half_shift, reverse],
    128: [reverse_half_shift, half_shift, reverse, natural, reverse],
    256: [reverse, half_shift, reverse_half_shift, pair_flip, reverse, natural],
}

# The first losers' round in which a rematch can happen (the latest possible, see the docstring).
FIRST_POSSIBLE_REMATCH = {8: 3, 16: 4, 32: 5, 64: 7, 128: 8, 256: 9, 512: 11, 1024: 13}


def rounds(size: int) -> int:
    return size.bit_length() - 1


def wb_round_of(key: str) -> tuple[int, int]:
    """``"W3-5"`` -> ``(3, 5)``."""
    r, j = key[1:].split("-")
    return int(r), int(j)


def drops(matches) -> dict[int, list[str]]:
    """Winners' round -> the winners' matches whose losers play the drop-in losers' matches of
    that round, in losers' match order (round 1: both players of L1-1, then of L1-2, ...)."""
    out: dict[int, list[str]] = {}
    for m in matches:
        if m.bracket != "L":
            continue
        for slot in (m.a, m.b):
            if slot.kind == "loser":
                out.setdefault(wb_round_of(str(slot.ref))[0], []).append(str(slot.ref))
    return out


def old_neighbour_swap(matches):
    """The former layout: every drop swaps neighbours (m2, m1, m4, m3, ...)."""
    keys = {m.key for m in matches}
    out = []
    for m in matches:
        if m.bracket == "L" and m.round > 1 and m.b.kind == "loser":
            r, _ = wb_round_of(str(m.b.ref))
            if f"W{r}-2" in keys:  # more than one loser drops
                m = dataclasses.replace(m, b=Slot("loser", f"W{r}-{((m.index - 1) ^ 1) + 1}"))
        out.append(m)
    return out


# -- the documented layout ----------------------------------------------------------------------


@pytest.mark.parametrize("size", sorted(DOCUMENTED))
def test_every_drop_in_round_feeds_the_losers_bracket_in_the_documented_ordering(size):
    k = rounds(size)
    got = drops(double_elimination(size))
    assert got[1] == [f"W1-{j}" for j in range(1, size // 2 + 1)]  # L1: natural pairs
    for r, ordering in enumerate(DOCUMENTED[size], start=2):
        assert got[r] == ordering([f"W{r}-{j}" for j in range(1, (size >> r) + 1)]), r
    assert got[k] == [f"W{k}-1"]
    assert len(got) == k


# (size, losers' match, winners' match whose loser plays in its lower slot), worked out by hand
SPOT_CHECKS = [
    (8, "L2-1", "W2-2"),
    (8, "L2-2", "W2-1"),
    (8, "L4-1", "W3-1"),
    (16, "L2-1", "W2-4"),
    (16, "L2-4", "W2-1"),
    (16, "L4-1", "W3-1"),
    (16, "L4-2", "W3-2"),
    (16, "L6-1", "W4-1"),
    # 32: reverse_half_shift (8), half_shift (4), natural (2)
    (32, "L2-1", "W2-4"),
    (32, "L2-4", "W2-1"),
    (32, "L2-5", "W2-8"),
    (32, "L2-8", "W2-5"),
    (32, "L4-1", "W3-3"),
    (32, "L4-2", "W3-4"),
    (32, "L4-3", "W3-1"),
    (32, "L6-1", "W4-1"),
    (32, "L6-2", "W4-2"),
    (32, "L8-1", "W5-1"),
    # 64: reverse (16), half_shift (8), reverse_half_shift (4), reverse (2)
    (64, "L2-1", "W2-16"),
    (64, "L2-5", "W2-12"),
    (64, "L2-16", "W2-1"),
    (64, "L4-1", "W3-5"),
    (64, "L4-8", "W3-4"),
    (64, "L6-1", "W4-2"),
    (64, "L6-3", "W4-4"),
    (64, "L8-1", "W5-2"),
    (64, "L8-2", "W5-1"),
    (64, "L10-1", "W6-1"),
    # 128: reverse_half_shift (32), half_shift (16), reverse (8), natural (4), reverse (2)
    (128, "L2-1", "W2-16"),
    (128, "L2-16", "W2-1"),
    (128, "L2-17", "W2-32"),
    (128, "L2-32", "W2-17"),
    (128, "L4-1", "W3-9"),
    (128, "L4-9", "W3-1"),
    (128, "L6-1", "W4-8"),
    (128, "L6-8", "W4-1"),
    (128, "L8-3", "W5-3"),
    (128, "L10-1", "W6-2"),
    (128, "L12-1", "W7-1"),
    # 512, beyond the table: match j of winners' round r drops to j XOR (r - 1 bit-reversed)
    (512, "L2-1", "W2-65"),  # 1 -> 1000000
    (512, "L4-1", "W3-17"),  # 2 -> 010000
    (512, "L6-1", "W4-25"),  # 3 -> 11000
    (512, "L8-1", "W5-3"),  # 4 -> 0010
    (512, "L10-1", "W6-6"),  # 5 -> 101
    (512, "L12-1", "W7-2"),  # 6 mod 4 = 2 -> 01
    (512, "L14-1", "W8-2"),  # 7 mod 2 = 1 -> 1
    (512, "L16-1", "W9-1"),
]


@pytest.mark.parametrize(("size", "lb_key", "wb_key"), SPOT_CHECKS)
def test_a_winners_match_loser_lands_in_the_documented_losers_match(size, lb_key, wb_key):
    m = {x.key: x for x in double_elimination(size)}[lb_key]
    assert m.a.kind == "winner" and m.a.ref.startswith("L")
    assert (m.b.kind, m.b.ref) == ("loser", wb_key)


# -- structure ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [*range(2, 41), 63, 64, 65, 100, 128, 200, 256, 300, 512, 1024])
def test_every_winners_bracket_loser_enters_the_losers_bracket_exactly_once(n):
    matches = double_elimination(n)
    winners_keys = [m.key for m in matches if m.bracket == "W"]
    dropped = Counter(
        str(s.ref) for m in matches if m.bracket == "L" for s in (m.a, m.b) if s.kind == "loser"
    )
    if n <= 2:
        assert not dropped  # the single winners' match's loser goes straight to the final
        return
    assert dropped == Counter(winners_keys)


@pytest.mark.parametrize("n", [*range(3, 41), 64, 100, 128, 300, 512, 1024])
def test_every_losers_match_has_two_earlier_sources_and_feeds_exactly_one_later_match(n):
    matches = double_elimination(n)
    position = {m.key: i for i, m in enumerate(matches)}
    used = Counter()
    for i, m in enumerate(matches):
        for slot in (m.a, m.b):
            if slot.kind != "seed":
                used[(slot.kind, str(slot.ref))] += 1
        if m.bracket != "L":
            continue
        assert m.a.kind != "seed" and m.b.kind != "seed"
        assert position[str(m.a.ref)] < i and position[str(m.b.ref)] < i
        if m.round == 1:
            assert m.a.kind == m.b.kind == "loser"
        elif m.b.kind == "loser":  # a drop-in round: the losers' survivor against a dropped player
            assert m.a.kind == "winner" and str(m.a.ref).startswith("L")
        else:
            assert m.a.kind == m.b.kind == "winner"
    losers_final = [m for m in matches if m.bracket == "L"][-1]
    for m in matches:
        if m.bracket == "L":
            # the losers' final feeds the grand final and its reset, the others one match each
            assert used[("winner", m.key)] == (2 if m is losers_final else 1), m.key


# -- rematches ----------------------------------------------------------------------------------


def play_event(matches, rng):
    """Play a full bracket (no byes) with coin-flip results up to the grand final. Returns the
    number of losers' matches between two players who met before, the winners, and who played
    whom in each match."""
    win: dict[str, int] = {}
    lose: dict[str, int] = {}
    met: set[tuple[int, int]] = set()
    players: dict[str, tuple[int, int]] = {}
    rematches = 0
    for m in matches:
        if m.bracket == "GF":
            break
        a, b = (
            int(s.ref) if s.kind == "seed" else (win if s.kind == "winner" else lose)[str(s.ref)]
            for s in (m.a, m.b)
        )
        pair = (a, b) if a < b else (b, a)
        if m.bracket == "L" and pair in met:
            rematches += 1
        met.add(pair)
        players[m.key] = (a, b)
        if rng.random() < 0.5:
            win[m.key], lose[m.key] = a, b
        else:
            win[m.key], lose[m.key] = b, a
    return rematches, win, players


def mean_rematches(matches, size, events=1000):
    rng = random.Random(size)
    return sum(play_event(matches, rng)[0] for _ in range(events)) / events


@pytest.mark.parametrize("size", [8, 32, 64])
def test_the_rematch_simulation_plays_the_bracket_as_the_resolver_does(size):
    matches = double_elimination(size)
    _, win, players = play_event(matches, random.Random(1))
    state = resolve(matches, {s: s for s in range(1, size + 1)}, win)
    for key, (a, b) in players.items():
        ms = state.by_key[key]
        assert (ms.status, ms.a, ms.b, ms.winner) == ("done", a, b, win[key])
    assert state.by_key["GF1"].status == "ready"


@pytest.mark.parametrize(("size", "at_most"), [(32, 0.8), (64, 1.0)])
def test_1000_random_events_average_no_more_losers_bracket_rematches_than_the_common_layout(
    size, at_most
):
    """brackets-manager.js's defaults give about 0.8 (32 slots) and 1.0 (64 slots) rematches per
    event (exactly 0.82 and 1.05); the neighbour swap at every drop gave 1.9 and 3.6."""
    matches = double_elimination(size)
    new = mean_rematches(matches, size)
    old = mean_rematches(old_neighbour_swap(matches), size)
    assert new <= at_most
    assert old > 1.5 * at_most and new < old / 2


def expected_rematches(matches) -> dict[int, float]:
    """Losers' round -> the exact expected number of its matches between players who met before,
    with coin-flip results. A losers' match holds one of the losers of a few winners' matches;
    the player who lost in winners' round r1, match q1 (0-based) met the one who lost in round
    r2 > r1, match q2, when q2 is the ancestor of q1 (q1 >> (r2 - r1) == q2) and the latter came
    through q1: one chance in 2 ** (r2 - r1)."""
    survivor: dict[str, dict[tuple[int, int], float]] = {}
    per_round: dict[int, float] = {}

    def side(slot):
        if slot.kind == "loser":
            r, j = wb_round_of(str(slot.ref))
            return {(r, j - 1): 1.0}
        return survivor[str(slot.ref)]

    def met(x, y):
        (r1, q1), (r2, q2) = sorted((x, y))
        return 0.5 ** (r2 - r1) if r1 < r2 and q1 >> (r2 - r1) == q2 else 0.0

    for m in matches:
        if m.bracket != "L":
            continue
        a, b = side(m.a), side(m.b)
        chance = sum(p * q * met(x, y) for x, p in a.items() for y, q in b.items())
        per_round[m.round] = per_round.get(m.round, 0.0) + chance
        merged = {x: p / 2 for x, p in a.items()}
        for y, q in b.items():
            merged[y] = merged.get(y, 0.0) + q / 2
        survivor[m.key] = merged
    return per_round


@pytest.mark.parametrize("size", sorted(FIRST_POSSIBLE_REMATCH))
def test_no_losers_bracket_rematch_can_happen_before_the_documented_round(size):
    per_round = expected_rematches(double_elimination(size))
    first = FIRST_POSSIBLE_REMATCH[size]
    assert all(per_round[r] == 0 for r in range(1, first))
    assert per_round[first] > 0


@pytest.mark.parametrize("size", sorted(FIRST_POSSIBLE_REMATCH))
def test_expected_losers_bracket_rematches_stay_below_three_quarters_per_event(size):
    matches = double_elimination(size)
    new = sum(expected_rematches(matches).values())
    old = sum(expected_rematches(old_neighbour_swap(matches)).values())
    assert new <= 0.75
    assert new < old or size == 8  # 8 slots: the layout did not change


def test_exact_expectation_agrees_with_the_simulation():
    matches = double_elimination(32)
    exact = sum(expected_rematches(matches).values())
    assert exact == pytest.approx(mean_rematches(matches, 32, events=2000), abs=0.06)
    assert sum(expected_rematches(old_neighbour_swap(matches)).values()) == pytest.approx(1.8828125)
