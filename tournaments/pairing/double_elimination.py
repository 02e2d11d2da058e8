"""Double elimination with the widely used layout ("superior losers-bracket seeding").

Winners' bracket: the seeded single-elimination bracket. Losers' bracket, for a bracket of
``2**k`` slots: round 1 pairs the winners' round-1 losers in order (m1 v m2, m3 v m4, ...); every
even losers' round ``2j`` brings in the losers of winners' round ``j + 1``, in swapped pairs
(m2, m1, m4, m3, ...; a single loser stays as is) against the survivors in order; the odd rounds
after that pair the survivors (m1 v m2, ...). The last losers' round takes the loser of the
winners' final. Grand final: the winners' champion (upper slot) against the losers' champion;
when the losers' champion wins, the bracket resets and a second final (``GF2``) decides.
"""

from __future__ import annotations

from .elimination import BracketMatch, Slot, bracket_size, single_elimination


def drop_order(count: int) -> list[int]:
    """0-based order in which the losers of a winners' round drop into the losers' bracket."""
    if count == 1:
        return [0]
    order: list[int] = []
    for i in range(0, count, 2):
        order.extend([i + 1, i])
    return order


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
            order = drop_order(len(dropping))
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
