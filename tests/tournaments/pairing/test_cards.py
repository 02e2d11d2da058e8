"""The pairing cards built from the rounds played (``dutch.players_from_history``): the floats,
the byes that forbid another PAB, and the scores of players who have left, each on a small
history where the rule alone decides."""

from __future__ import annotations

from tournaments.pairing.dutch import PlayedPair, RoundRecord, players_from_history


def cards(entrants: list[str], rounds: list[RoundRecord]) -> dict:
    """The cards of ``entrants`` (TPNs in the order given), by player."""
    players = [(pid, tpn) for tpn, pid in enumerate(entrants, start=1)]
    return {card.id: card for card in players_from_history(players, rounds)}


def test_a_game_between_equal_scores_is_no_float_for_either_player():
    round_1 = RoundRecord(pairs=(PlayedPair("a", "b", 1),))
    card = cards(["a", "b"], [round_1])
    assert card["a"].floats == (None,) and card["b"].floats == (None,)
    assert card["a"].colours == ("w",) and card["b"].colours == ("b",)


def test_a_half_point_without_playing_is_a_downfloat_for_both():
    # A forfeit scored half a point each: points without a game, so both floated down.
    round_1 = RoundRecord(pairs=(PlayedPair("a", "b", 1, played=False),))
    card = cards(["a", "b"], [round_1])
    assert card["a"].floats == ("down",) and card["b"].floats == ("down",)
    assert card["a"].colours == (None,) and card["b"].opponents == frozenset()


def test_a_player_who_left_counts_with_their_real_score_for_their_opponents_floats():
    # "x" left after round 2. Round 1: x had a half-point bye while a beat b; round 2: a (2)
    # met x (1): a floated down, x up.
    round_1 = RoundRecord(pairs=(PlayedPair("a", "b", 2),), byes=(("x", 1),))
    round_2 = RoundRecord(pairs=(PlayedPair("a", "x", 1),), byes=(("b", 0),))
    card = cards(["a", "b"], [round_1, round_2])
    assert card["a"].floats == (None, "down")
    assert card["a"].points2 == 3


def test_a_full_point_bye_and_a_half_point_pab_each_forbid_another_pab():
    round_1 = RoundRecord(pairs=(PlayedPair("c", "d", 1),), byes=(("a", 2), ("b", 1)), pab="b")
    card = cards(["a", "b", "c", "d"], [round_1])
    assert card["a"].had_bye  # a full point without playing
    assert card["b"].had_bye  # the pairing-allocated bye, scored as a half point here
    assert not card["c"].had_bye and not card["d"].had_bye


def test_a_half_point_bye_asked_for_leaves_the_pab_open():
    round_1 = RoundRecord(pairs=(PlayedPair("c", "d", 2),), byes=(("a", 1), ("b", 0)))
    card = cards(["a", "b", "c", "d"], [round_1])
    assert not card["a"].had_bye and not card["b"].had_bye
    assert card["a"].floats == ("down",) and card["b"].floats == (None,)
