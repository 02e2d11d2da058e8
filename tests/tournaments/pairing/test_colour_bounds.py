"""The colour bound of a bracket with many floaters (``split_colours_fit`` with more than two
floaters, C12 alone) against a count by brute force: it must say True exactly when some choice
of floaters and some pairing of the movers with the partners left denies at most ``denied``
colour preferences. A bound that said False too often would prune the right pairing; one that
said True too often would prune nothing. Written to kill the mutants ``bench/mutation.py``
found reached by no test in ``tournaments/pairing/dutch/bounds.py``."""

from __future__ import annotations

import random

from tournaments.pairing.dutch.bounds import COLOUR_CLASSES, split_colours_fit

WHITE, BLACK, NONE = 0, 1, 2


def colour_of(cls: int) -> int:
    """Classes 0-2 prefer white (mild, strong, absolute), 3-5 black, 6 nothing."""
    return WHITE if cls < 3 else BLACK if cls < 6 else NONE


def by_colour(counts: list[int]) -> tuple[int, int, int]:
    out = [0, 0, 0]
    for cls, n in enumerate(counts):
        out[colour_of(cls)] += n
    return out[0], out[1], out[2]


def fewest_denied(movers: tuple[int, ...], partners: tuple[int, ...]) -> int | None:
    """The fewest same-colour pairs (each denies a preference) over every pairing of the movers
    with as many partners (counts white, black, none), or None when the counts differ."""
    if sum(movers) != sum(partners):
        return None
    best = None
    mw, mb, mn = movers
    pw, pb, pn = partners
    for ww in range(min(mw, pw) + 1):
        for wb in range(min(mw - ww, pb) + 1):
            wn = mw - ww - wb
            if wn > pn:
                continue
            for bw in range(min(mb, pw - ww) + 1):
                for bb in range(min(mb - bw, pb - wb) + 1):
                    bn = mb - bw - bb
                    if bn > pn - wn:
                        continue
                    # the movers without a preference take the partners left, whoever they are
                    if best is None or ww + bb < best:
                        best = ww + bb
    return best


def brute_force(movers, allowed, others, floaters, denied) -> bool:
    """Some floaters (by colour, from ``allowed``) and some pairing deny at most ``denied``."""
    allowed3, others3 = by_colour(allowed), by_colour(others)
    for fw in range(allowed3[0] + 1):
        for fb in range(allowed3[1] + 1):
            fn = floaters - fw - fb
            if not 0 <= fn <= allowed3[2]:
                continue
            partners = tuple(
                a + o - f for a, o, f in zip(allowed3, others3, (fw, fb, fn), strict=True)
            )
            least = fewest_denied(by_colour(movers), partners)
            if least is not None and least <= denied:
                return True
    return False


def random_counts(rng: random.Random, total: int) -> list[int]:
    counts = [0] * COLOUR_CLASSES
    for _ in range(total):
        counts[rng.randrange(COLOUR_CLASSES)] += 1
    return counts


def test_with_many_floaters_the_colour_bound_is_exactly_the_brute_force_count():
    rng = random.Random(40)
    answers = set()
    for case in range(3000):
        n_movers = rng.randint(0, 5)
        floaters = rng.randint(3, 5)
        n_allowed = rng.randint(floaters, floaters + n_movers)
        movers = random_counts(rng, n_movers)
        allowed = random_counts(rng, n_allowed)
        others = random_counts(rng, n_movers + floaters - n_allowed)
        denied = rng.randint(0, 3)
        expected = brute_force(movers, allowed, others, floaters, denied)
        got = split_colours_fit(movers, allowed, others, floaters, denied, denied, False)
        assert got == expected, (case, movers, allowed, others, floaters, denied)
        answers.add(got)
    assert answers == {True, False}
