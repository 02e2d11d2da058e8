"""Two small rules no whole-tournament test reaches: a last bracket that cannot pair its
moved-down players with its residents collapses into one homogeneous bracket in rank order, and
an elimination slot names where its player comes from. Written to kill the mutants
``bench/mutation.py`` found reached by no test."""

from __future__ import annotations

from types import SimpleNamespace

from tournaments.pairing.dutch.bracket import Bracket
from tournaments.pairing.elimination import Slot


def test_a_collapsed_bracket_has_every_player_as_a_resident_in_rank_order():
    ctx = SimpleNamespace(size=4, players={})  # an even round: no C9 question asked
    bracket = Bracket(ctx, mdps=[5, 1], residents=[4, 2], lower=[], next_residents=[], budget=0)
    bracket.collapse()
    assert bracket.residents == [1, 2, 4, 5]
    assert bracket.mdps == []


def test_a_slot_says_the_seed_or_the_match_its_player_comes_from():
    assert Slot("seed", 3).label() == "seed 3"
    assert Slot("winner", "W1-2").label() == "winner of W1-2"
    assert Slot("loser", "W2-1").label() == "loser of W2-1"
