"""Double elimination: the seeded winners' bracket, a losers' bracket laid out to put rematches
off for as long as the bracket size allows, and a grand final with a reset.

Winners' bracket (W): the seeded single-elimination bracket of ``size = 2**k`` slots. Losers'
bracket (L), for ``k >= 2``: L1 pairs the losers of W1 in order (W1-1 v W1-2, ...); then for
``r = 2 .. k`` a drop-in round ``L(2r - 2)`` brings in the losers of winners' round ``r`` (its
match ``i``: the winner of losers' match ``i`` against the loser of winners' match
``order[i]``, 0-based), followed, while more than one player is left, by ``L(2r - 1)`` pairing
the survivors in order. Grand final: the winners' champion (upper slot) against the losers'
champion; when the losers' champion wins, the bracket resets and a second final (``GF2``)
decides. The ``order`` of each drop, and why, are in the comment above ``LAYOUTS``.
"""

from __future__ import annotations

from .elimination import BracketMatch, Slot, bracket_size, single_elimination

# Orderings. The names are those of brackets-manager.js; each one sends the loser of winners' match
# ``j`` to losers' match ``j XOR mask`` (``count`` losers, a power of two):
#
# - ``natural``: mask 0 (in order);
# - ``reverse``: mask ``count - 1`` (the whole list backwards);
# - ``half_shift``: mask ``count / 2`` (the second half first);
# - ``reverse_half_shift``: mask ``count / 2 - 1`` (each half backwards);
# - ``pair_flip``: mask 1 (neighbours swapped: m2, m1, m4, m3, ...).
#
# Layout: the ordering of each drop, by bracket size (the first drop, of the winners' round-1
# losers, is always the natural pairing of L1, and the last one, of the winners' final loser, has a
# single player). Right: the exact expected number of losers'-bracket rematches per event with
# coin-flip results (a rematch: two players who already met, in either bracket), the same figure for
# the neighbour swap at every drop (``pair_flip``, this module's former layout), and the first
# losers' round in which a rematch can happen at all:
#
#     size  orderings of the W2 .. W(k-1) losers               rematches   swap   first
#        8  reverse                                                0.625   0.625  L3
#       16  reverse, natural                                       0.750   1.031  L4
#       32  reverse_half_shift, half_shift, natural                0.734   1.883  L5
#       64  reverse, half_shift, reverse_half_shift, reverse       0.703   3.596  L7
#      128  reverse_half_shift, half_shift, reverse, natural,      0.717   7.024  L8
#           reverse
#      256  reverse, half_shift, reverse_half_shift, pair_flip,    0.718  13.881  L9
#           reverse, natural
#
# From 512 slots on, the drop of winners' round ``r`` (``2**(k - r)`` losers) uses the mask whose
# ``k - r`` bits, read from the highest, are those of ``r - 1`` read from the lowest (``r - 1``
# bit-reversed, modulo ``2**(k - r)``): 0.716 rematches per event at 512 slots and 0.715 at 1024,
# none possible before L11 and L13.
#
# Why. A player who loses in winners' round ``r`` has only met players of his own section of the
# winners' bracket (the ``2**r`` slots under that match): the ones he beat, who dropped earlier,
# and the one who beat him, who may drop later. So a losers' match is a rematch only between two
# players from one section who lost in different rounds. Match ``i`` of the drop-in round of
# winners' round ``r`` starts from the round-1 losers of section ``i`` (sections of ``2**r``
# slots), and each earlier drop added to it the losers of one more section. A drop must then send
# the losers of a section to losers' matches that hold no earlier losers of that section, and the
# two matches that the next round merges must not hold losers of one section from different rounds.
# ``natural`` breaks the first rule at once (the W2 loser would meet the L1 winner, maybe the player
# he beat in W1); the neighbour swap at every drop breaks the second one: the round after each drop
# merges the two neighbouring sections again, so from L3 on a dropped player can meet one he beat --
# 1.9 rematches per event at 32 slots and 3.6 at 64. The masks above keep the sections of every
# losers' match apart for as long as there are sections enough (no choice of masks puts the first
# rematch later), and after that make the newest losers meet the oldest ones, who are seldom still
# in. Each table is, of all the combinations of the five orderings, the one with the fewest expected
# rematches (tried exhaustively). The brackets-manager.js defaults give 0.816 at 32 slots, 1.048 at
# 64 and 0.862 at 128; at 8 and 16 slots they are the former layout here.
#
# bracket size -> ordering of the losers of winners' rounds 2 .. k - 1
LAYOUTS: dict[int, tuple[str, ...]] = {
    8: ("reverse",),
    16: ("reverse", "natural"),
    32: ("reverse_half_shift", "half_shift", "natural"),
    64: ("reverse", "half_shift", "reverse_half_shift", "reverse"),
    128: ("reverse_half_shift", "half_shift", "reverse", "natural", "reverse"),
    256: ("reverse", "half_shift", "reverse_half_shift", "pair_flip", "reverse", "natural"),
}


def ordering_mask(ordering: str, count: int) -> int:
    """The XOR mask of a named ordering of ``count`` (a power of two) losers."""
    if count < 1 or count & (count - 1):
        raise ValueError("count must be a power of two")
    half = count // 2
    masks = {
        "natural": 0,
        "reverse": count - 1,
        "half_shift": half,
        "reverse_half_shift": max(half - 1, 0),
        "pair_flip": 1 if count > 1 else 0,
    }
    if ordering not in masks:
        raise ValueError(f"unknown ordering {ordering!r}")
    return masks[ordering]


def drop_mask(size: int, wb_round: int) -> int:
    """The mask of the drop of the losers of winners' round ``wb_round`` (2 .. k) of a bracket of
    ``size = 2**k`` slots: the loser of winners' match ``j`` plays losers' match ``j XOR mask``."""
    if size < 2 or size & (size - 1):
        raise ValueError("size must be a power of two")
    k = size.bit_length() - 1
    if not 2 <= wb_round <= k:
        raise ValueError("the drops are of winners' rounds 2 .. k")
    bits = k - wb_round  # count = 2**bits losers
    if wb_round == k:
        return 0
    if size in LAYOUTS:
        return ordering_mask(LAYOUTS[size][wb_round - 2], 1 << bits)
    value = (wb_round - 1) % (1 << bits)
    return int(format(value, f"0{bits}b")[::-1], 2)


def drop_order(size: int, wb_round: int) -> list[int]:
    """0-based: entry ``i`` is the winners' match of round ``wb_round`` whose loser plays in the
    ``i``-th match of the drop-in round of a bracket of ``size`` slots."""
    mask = drop_mask(size, wb_round)
    return [i ^ mask for i in range(size >> wb_round)]


def double_elimination(n: int) -> list[BracketMatch]:
    winners = single_elimination(n)
    size = max(2, bracket_size(n))
    k = size.bit_length() - 1  # winners' rounds
    by_round: dict[int, list[BracketMatch]] = {}
    for m in winners:
        by_round.setdefault(m.round, []).append(m)
    losers: list[BracketMatch] = []
    if k == 1:
        losers_champion = Slot("loser", by_round[1][0].key)
    else:
        w1 = by_round[1]
        current = [
            BracketMatch(
                f"L1-{i // 2 + 1}",
                "L",
                1,
                i // 2 + 1,
                Slot("loser", w1[i].key),
                Slot("loser", w1[i + 1].key),
            )
            for i in range(0, len(w1), 2)
        ]
        losers.extend(current)
        r = 1
        for j in range(1, k):
            # drop-in round: losers of winners' round j + 1
            r += 1
            dropping = by_round[j + 1]
            order = drop_order(size, j + 1)
            current = [
                BracketMatch(
                    f"L{r}-{i + 1}",
                    "L",
                    r,
                    i + 1,
                    Slot("winner", current[i].key),
                    Slot("loser", dropping[order[i]].key),
                )
                for i in range(len(current))
            ]
            losers.extend(current)
            if len(current) > 1:
                r += 1
                current = [
                    BracketMatch(
                        f"L{r}-{i // 2 + 1}",
                        "L",
                        r,
                        i // 2 + 1,
                        Slot("winner", current[i].key),
                        Slot("winner", current[i + 1].key),
                    )
                    for i in range(0, len(current), 2)
                ]
                losers.extend(current)
        losers_champion = Slot("winner", current[0].key)
    winners_champion = Slot("winner", by_round[k][0].key)
    finals = [
        BracketMatch("GF1", "GF", 1, 1, winners_champion, losers_champion),
        BracketMatch("GF2", "GF", 2, 1, winners_champion, losers_champion, reset=True),
    ]
    return winners + losers + finals
