"""Points and tie-breaks (pure).

A tournament's history is a list of rounds; each round lists :class:`Result` rows (one per
match; ``score_a`` is 1, 0.5 or 0 for player ``a``) and :class:`Bye` rows (points given without
a game). Scores are floats with halves only, which binary floating point represents exactly.

- Swiss: points, Buchholz cut 1, Buchholz, Sonneborn-Berger, wins. For a round a player did
  not play (a bye), Buchholz counts a virtual opponent with the player's own score (FIDE C.07,
  2023) and Sonneborn-Berger counts nothing.
- Round robin: points, Sonneborn-Berger, head-to-head (points among the tied players), wins.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Result:
    a: Hashable
    b: Hashable
    score_a: float  # 1, 0.5 or 0

    @property
    def score_b(self) -> float:
        return 1.0 - self.score_a


@dataclass(frozen=True)
class Bye:
    player: Hashable
    points: float = 1.0


@dataclass(frozen=True)
class Row:
    rank: int
    player: Hashable
    points: float
    tiebreaks: dict = field(default_factory=dict)
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0


def _collect(players: Sequence[Hashable], rounds: Sequence[Sequence[Result | Bye]]):
    points = {p: 0.0 for p in players}
    games: dict[Hashable, list[tuple[Hashable, float]]] = {p: [] for p in players}
    byes: dict[Hashable, int] = {p: 0 for p in players}
    for rnd in rounds:
        for item in rnd:
            if isinstance(item, Bye):
                points[item.player] = points.get(item.player, 0.0) + item.points
                byes[item.player] = byes.get(item.player, 0) + 1
                games.setdefault(item.player, [])
            else:
                points[item.a] = points.get(item.a, 0.0) + item.score_a
                points[item.b] = points.get(item.b, 0.0) + item.score_b
                games.setdefault(item.a, []).append((item.b, item.score_a))
                games.setdefault(item.b, []).append((item.a, item.score_b))
    return points, games, byes


def _counts(results: list[tuple[Hashable, float]]) -> tuple[int, int, int]:
    wins = sum(1 for _, s in results if s == 1)
    draws = sum(1 for _, s in results if s == 0.5)
    return wins, draws, len(results) - wins - draws


def _rank(players, key) -> list[tuple[int, Hashable]]:
    """Players ranked by ``key`` (points and tie-breaks, best first), equal keys sharing a rank.
    Equals keep the order of ``players`` (the sort is stable): the players as given, then those
    met only in the history, in the order they first appear there (see ``_collect``)."""
    ordered = sorted(players, key=key)
    out = []
    previous = None
    rank = 0
    for i, p in enumerate(ordered, start=1):
        k = key(p)
        if k != previous:
            rank, previous = i, k
        out.append((rank, p))
    return out


def swiss_standings(
    players: Sequence[Hashable], rounds: Sequence[Sequence[Result | Bye]]
) -> list[Row]:
    points, games, byes = _collect(players, rounds)
    tb: dict[Hashable, dict] = {}
    for p in points:
        opp_scores = [points[o] for o, _ in games[p]] + [points[p]] * byes.get(p, 0)
        buchholz = sum(opp_scores)
        cut1 = buchholz - min(opp_scores) if opp_scores else 0.0
        sb = sum(points[o] * s for o, s in games[p])
        wins, _, _ = _counts(games[p])
        tb[p] = {"buchholz_cut1": cut1, "buchholz": buchholz, "sonneborn_berger": sb, "wins": wins}

    def key(p):
        t = tb[p]
        return (
            -points[p],
            -t["buchholz_cut1"],
            -t["buchholz"],
            -t["sonneborn_berger"],
            -t["wins"],
        )

    return _rows(_rank(list(points), key), points, games, tb)


def round_robin_standings(
    players: Sequence[Hashable], rounds: Sequence[Sequence[Result | Bye]]
) -> list[Row]:
    points, games, _ = _collect(players, rounds)
    tb: dict[Hashable, dict] = {}
    for p in points:
        wins, _, _ = _counts(games[p])
        tb[p] = {"sonneborn_berger": sum(points[o] * s for o, s in games[p]), "wins": wins}
    # head-to-head among players tied on points and Sonneborn-Berger
    groups: dict[tuple, list] = {}
    for p in points:
        groups.setdefault((points[p], tb[p]["sonneborn_berger"]), []).append(p)
    for tied in groups.values():
        members = set(tied)
        for p in tied:
            tb[p]["head_to_head"] = sum((s for o, s in games[p] if o in members and o != p), 0.0)

    def key(p):
        t = tb[p]
        return (
            -points[p],
            -t["sonneborn_berger"],
            -t["head_to_head"],
            -t["wins"],
        )

    return _rows(_rank(list(points), key), points, games, tb)


def _rows(ranked, points, games, tb) -> list[Row]:
    rows = []
    for rank, p in ranked:
        wins, draws, losses = _counts(games[p])
        rows.append(Row(rank, p, points[p], tb[p], len(games[p]), wins, draws, losses))
    return rows
