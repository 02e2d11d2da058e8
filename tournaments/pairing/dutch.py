"""The FIDE (Dutch) Swiss system, Handbook C.04.3, 2026 edition (approved 28/10/2025, in force
from 1 February 2026; the "2025 rules").

Scores are kept in half points (``points2``: a win is 2, a draw 1) so that they stay exact.

Definitions (Art. 1):

- Players are ranked by score, then TPN (1.2). A scoregroup is all players with one score; a
  bracket is a scoregroup's residents plus the players moved down (MDPs) from the bracket
  above (1.3). MDPs are paired with residents only; the residents left over form the
  remainder.
- Floats (1.4): of two players with different scores who meet, the higher ranked gets a
  downfloat and the other an upfloat; a PAB, or more than a loss's points without playing
  (a forfeit win), is a downfloat too.
- Colour preference (1.7): absolute (colour difference beyond +-1, or the same colour in the
  two latest played games), strong (difference +-1), mild (difference 0: alternate), none.
- Topscorers (1.8): more than 50% of the maximum score, when pairing the final round.

Criteria (Art. 2), in priority order:

- C1 no rematch; C2 no second PAB (nor a PAB after a win's points without playing);
  C3 non-topscorers with the same absolute colour preference do not meet.
- C4 completion: after every bracket the players not yet paired can still all be paired
  (one of them getting the PAB when the field is odd).
- C5 the PAB goes to the lowest score possible (computed once for the whole round and kept as
  a completion constraint from then on).
- C6 fewest downfloaters; C7 the scores of the downfloaters, in descending order, as low as
  possible (pair the highest MDPs); C8 the set of downfloaters lets the next bracket reach
  its best C6 and C7 (looking one bracket ahead only); C9 fewest unplayed games for the PAB
  assignee -- applied to a bracket that downfloats exactly one player who must then get the
  PAB (no player below the bracket could take it).
- C10/C11 topscorers or their opponents: colour difference beyond +-2 / the same colour three
  times running; C12 colour preferences not granted; C13 strong preferences not granted.
- C14/C16 resident downfloaters who had a downfloat one / two rounds before; C15/C17 opponents
  of higher-scored players (MDP opponents) who had an upfloat one / two rounds before;
  C18/C20 the scores, in descending order, of the downfloaters who had a downfloat one / two
  rounds before; C19/C21 the score differences, in descending order, of the pairs whose
  lower player had an upfloat one / two rounds before.

Candidates (Art. 3-4) are generated in the rules' order -- valid MDP sets (lexicographic on
BSNs), then the MDPs' partners (transpositions of S2: lexicographic on BSNs), then the
remainder's exchanges (fewest players, smallest BSN-sum difference, largest BSN moved down,
smallest BSN moved up) and transpositions -- and the pairing of a bracket is the first
candidate in that order whose criteria vector (C8..C21, compared lexicographically) is the best
achievable. The search is a depth-first branch and bound in generation order: it first looks
for a candidate reaching a lower bound of the vector (which is normally achievable: then the
first hit is the answer; the bound is tightened, when a cheap one is missed, by maximum
matchings per downfloater set, and pairs that would exceed a criterion already at its bound are
pruned early), and only if none exists does it search for the true optimum, keeping
the first candidate found with each better vector. Huge searches are capped by a node budget;
if one is hit the best candidate found so far is used and the result says ``approximate``.

Colours (Art. 5): grant both preferences; else the stronger (two absolutes: the wider colour
difference); else alternate from the latest round in which the two had different colours
(played games right-aligned, C.04.2 3.4); else the preference of the higher-ranked player
(score, then TPN); else the higher-ranked player gets white if their TPN is odd.

If even C3 cannot be met (tiny fields) it is relaxed and the result says so; if even rematches
cannot be avoided, :class:`PairingError` is raised. In the last bracket, if no pairing exists
with MDPs paired to residents only, the bracket is paired as one homogeneous group (MDPs may
then meet each other).
"""

from __future__ import annotations

import bisect
import itertools
import math
import sys
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from . import PairingError
from .matching import max_matching

WHITE, BLACK = 1, -1
_BYE = -1  # the dummy vertex standing for the PAB in completion checks


@dataclass(frozen=True)
class SwissPlayer:
    id: Hashable
    tpn: int
    points2: int = 0  # score in half points
    colours: tuple[str | None, ...] = ()  # per past round: "w", "b" or None (no game played)
    opponents: frozenset = field(default_factory=frozenset)
    had_bye: bool = False  # a PAB, or a win's points without playing: no (further) PAB
    floats: tuple[str | None, ...] = ()  # per past round: "down", "up" or None


@dataclass(frozen=True)
class SwissRound:
    pairs: tuple[tuple[Hashable, Hashable], ...]  # (white, black), best boards first
    bye: Hashable | None = None
    relaxed: bool = False  # the colour criteria had to be relaxed to pair at all
    fallback: bool = False  # a search budget was hit somewhere (see ``approximate``)

    @property
    def approximate(self) -> bool:
        return self.fallback


@dataclass(frozen=True)
class PlayedPair:
    white: Hashable
    black: Hashable
    white_points2: int  # 2 win, 1 draw, 0 loss for white
    played: bool = True  # False for a forfeit: no colour, and the two may meet again


@dataclass(frozen=True)
class RoundRecord:
    pairs: tuple[PlayedPair, ...] = ()
    byes: tuple[tuple[Hashable, int], ...] = ()  # (player, half points scored); PAB included
    pab: Hashable | None = None  # the pairing-allocated bye of the round, if any


def default_rounds(players: int) -> int:
    """4 rounds below 16 players, 5 below 32, 6 below 64, else 7."""
    if players < 16:
        return 4
    if players < 32:
        return 5
    if players < 64:
        return 6
    return 7


def max_rounds(players: int) -> int:
    """The most rounds a Swiss of this size can always pair without rematches: with at most
    ``n // 2`` rounds every player still has at least half the field as possible opponents, so a
    complete pairing always exists (Dirac)."""
    return max(1, players // 2)


def colour_preference(colours: Iterable[str | None]) -> tuple[int, int, int]:
    """(preference, strength, colour difference). Preference WHITE/BLACK/0; strength 3 absolute,
    2 strong, 1 mild, 0 none (no game played yet). Unplayed rounds are skipped."""
    played = [c for c in colours if c]
    if not played:
        return 0, 0, 0
    diff = played.count("w") - played.count("b")
    last2 = played[-2:] if len(played) >= 2 else []
    if diff > 1:
        return BLACK, 3, diff
    if diff < -1:
        return WHITE, 3, diff
    if last2 == ["w", "w"]:
        return BLACK, 3, diff
    if last2 == ["b", "b"]:
        return WHITE, 3, diff
    if diff == 1:
        return BLACK, 2, diff
    if diff == -1:
        return WHITE, 2, diff
    return (BLACK if played[-1] == "w" else WHITE), 1, diff


def players_from_history(
    entrants: Sequence[tuple[Hashable, int]], rounds: Sequence[RoundRecord]
) -> list[SwissPlayer]:
    """Build the pairing cards. ``entrants`` is (player, TPN) for everyone still in the event."""
    points = {pid: 0 for pid, _ in entrants}
    colours: dict[Hashable, list] = {pid: [] for pid, _ in entrants}
    floats: dict[Hashable, list] = {pid: [] for pid, _ in entrants}
    opponents: dict[Hashable, set] = {pid: set() for pid, _ in entrants}
    had_bye: dict[Hashable, bool] = {pid: False for pid, _ in entrants}
    tpn_of = dict(entrants)
    for record in rounds:
        before = dict(points)
        seen: dict[Hashable, tuple[str | None, str | None]] = {}
        for pair in record.pairs:
            w, b = pair.white, pair.black
            for pid in (w, b):
                points.setdefault(pid, 0)
            points[w] = points.get(w, 0) + pair.white_points2
            points[b] = points.get(b, 0) + 2 - pair.white_points2
            if pair.played:
                opponents.setdefault(w, set()).add(b)
                opponents.setdefault(b, set()).add(w)
                fw = fb = None
                sw, sb = before.get(w, 0), before.get(b, 0)
                if sw != sb:
                    fw, fb = ("down", "up") if sw > sb else ("up", "down")
                seen[w] = ("w", fw)
                seen[b] = ("b", fb)
            else:  # forfeit: no colour; scoring without playing is a downfloat (1.4.3)
                for pid, pts in ((w, pair.white_points2), (b, 2 - pair.white_points2)):
                    seen[pid] = (None, "down" if pts > 0 else None)
                    if pts >= 2:
                        had_bye[pid] = True
        for pid, pts in record.byes:
            points[pid] = points.get(pid, 0) + pts
            if pid == record.pab or pts >= 2:
                had_bye[pid] = True
            seen[pid] = (None, "down" if pts > 0 else None)
        for pid in colours:
            colour, flt = seen.get(pid, (None, None))
            colours[pid].append(colour)
            floats[pid].append(flt)
    return [
        SwissPlayer(
            id=pid,
            tpn=tpn_of[pid],
            points2=points.get(pid, 0),
            colours=tuple(colours[pid]),
            opponents=frozenset(opponents[pid]),
            had_bye=had_bye[pid],
            floats=tuple(floats[pid]),
        )
        for pid, _ in entrants
    ]


# --------------------------------------------------------------------------------------------
# Pairing context: per-player facts in rank order, compatibility, completion, colours.


class _Budget(Exception):
    pass


class _Ctx:
    def __init__(self, ranked: list[SwissPlayer], *, round_number: int, total_rounds: int):
        self.players = ranked
        n = self.n = len(ranked)
        index = {p.id: i for i, p in enumerate(ranked)}
        self.score = [p.points2 for p in ranked]
        self.tpn = [p.tpn for p in ranked]
        last_round = round_number >= total_rounds
        self.top = [last_round and p.points2 > round_number - 1 for p in ranked]
        self.pref = [0] * n
        self.strength = [0] * n
        self.diff = [0] * n
        for i, p in enumerate(ranked):
            self.pref[i], self.strength[i], self.diff[i] = colour_preference(p.colours)
        self.absolute = [s == 3 for s in self.strength]
        self.played = [tuple(c for c in p.colours if c) for p in ranked]
        self.unplayed = [sum(1 for c in p.colours if not c) for p in ranked]
        self.down1 = [bool(p.floats) and p.floats[-1] == "down" for p in ranked]
        self.up1 = [bool(p.floats) and p.floats[-1] == "up" for p in ranked]
        self.down2 = [len(p.floats) > 1 and p.floats[-2] == "down" for p in ranked]
        self.up2 = [len(p.floats) > 1 and p.floats[-2] == "up" for p in ranked]
        self.eligible = [not p.had_bye for p in ranked]
        self.opp = [frozenset(index[o] for o in p.opponents if o in index) for p in ranked]
        self.bye_ok = [False] * n
        self.relax = False
        self.approximate = False
        self._cost: dict[tuple[int, int], tuple] = {}
        self._complete: dict[frozenset, bool] = {}

    # --- absolute criteria -------------------------------------------------------------------
    def compatible(self, i: int, j: int) -> bool:
        if i == _BYE:
            return self.bye_ok[j]
        if j == _BYE:
            return self.bye_ok[i]
        if i == j or j in self.opp[i]:
            return False
        return not (
            not self.relax
            and self.absolute[i]
            and self.absolute[j]
            and self.pref[i] == self.pref[j]
            and not self.top[i]
            and not self.top[j]
        )

    def completable(self, players: Sequence[int]) -> bool:
        """C4 (+C2, C5): can these players all be paired, the PAB (if the count is odd) going
        to a player allowed to take it?"""
        key = frozenset(players)
        hit = self._complete.get(key)
        if hit is None:
            vs = list(players)
            if len(vs) % 2:
                if not any(self.bye_ok[v] for v in vs):
                    self._complete[key] = False
                    return False
                vs.append(_BYE)
            hit = not vs or len(max_matching(vs, self.compatible)) == len(vs)
            self._complete[key] = hit
        return hit

    # --- colours ------------------------------------------------------------------------------
    def allocate(self, i: int, j: int) -> tuple[int, int]:
        """(white, black) for two players (Art. 5.2)."""
        if j < i:
            i, j = j, i  # i is the higher-ranked player
        pi, pj = self.pref[i], self.pref[j]
        si, sj = self.strength[i], self.strength[j]
        if pi and pj and pi != pj:  # 5.2.1
            return (i, j) if pi == WHITE else (j, i)
        if pi != pj:  # one has no preference: the other's is the stronger (5.2.2)
            k = i if pi else j
            other = j if k == i else i
            return (k, other) if self.pref[k] == WHITE else (other, k)
        if pi:  # same preference
            di, dj = abs(self.diff[i]), abs(self.diff[j])
            if si != sj or (si == 3 and di != dj):  # 5.2.2
                k = i if (si > sj or (si == sj and di > dj)) else j
                other = j if k == i else i
                return (k, other) if self.pref[k] == WHITE else (other, k)
        ci, cj = self.played[i], self.played[j]  # 5.2.3, right-aligned
        for a, b in zip(reversed(ci), reversed(cj), strict=False):
            if a != b:
                return (j, i) if a == "w" else (i, j)
        if pi:  # 5.2.4
            return (i, j) if pi == WHITE else (j, i)
        return (i, j) if self.tpn[i] % 2 else (j, i)  # 5.2.5 (initial colour white)

    def pair_cost(self, a: int, b: int) -> tuple:
        """Per-pair criteria: (C10, C11, C12, C13, C15, C17, C19 value, C21 value)."""
        key = (a, b) if a < b else (b, a)
        hit = self._cost.get(key)
        if hit is not None:
            return hit
        white, black = self.allocate(a, b)
        c10 = c11 = c12 = c13 = 0
        if self.top[a] or self.top[b]:
            for p, col, step in ((white, "w", 1), (black, "b", -1)):
                if abs(self.diff[p] + step) > 2:
                    c10 += 1
                if self.played[p][-2:] == (col, col):
                    c11 += 1
        if self.pref[a] and self.pref[a] == self.pref[b]:
            c12 = 1
            loser = white if self.pref[white] == BLACK else black
            c13 = 1 if self.strength[loser] == 2 else 0
        sa, sb = self.score[a], self.score[b]
        lo = b if sa > sb else a if sb > sa else -1
        sd = abs(sa - sb)
        c15 = 1 if lo >= 0 and self.up1[lo] else 0
        c17 = 1 if lo >= 0 and self.up2[lo] else 0
        hit = (c10, c11, c12, c13, c15, c17, sd if c15 else 0, sd if c17 else 0)
        self._cost[key] = hit
        return hit


def _pad(values: list[int], length: int, fill: int) -> tuple[int, ...]:
    out = sorted(values, reverse=True)
    out.extend([fill] * (length - len(out)))
    return tuple(out)


def _exchanges(n1: int, n2: int, limit: int):
    """Exchanges between S1 (positions 0..n1-1) and S2 (n1..n1+n2-1) in the rules' order
    (Art. 4.3): fewest players, smallest sum(S2->S1) - sum(S1->S2), the largest differing BSN
    moved S1->S2 first, the smallest differing BSN moved S2->S1 first."""
    s1 = range(n1)
    s2 = range(n1, n1 + n2)
    for k in range(1, min(n1, n2) + 1):
        count = 1
        for a in (n1, n2):
            for t in range(k):
                count = count * (a - t) // (t + 1)
        if count > limit:
            raise _Budget
        combos = [
            (sum(y) - sum(x), tuple(-v for v in sorted(x, reverse=True)), y, x)
            for x in itertools.combinations(s1, k)
            for y in itertools.combinations(s2, k)
        ]
        combos.sort()
        for _, _, y, x in combos:
            yield x, y


# --------------------------------------------------------------------------------------------
# One bracket.


class _Bracket:
    """A bracket: ``mdps`` (moved down, rank order) and ``residents``; ``lower`` are all the
    players below it, of which ``next_res`` form the next scoregroup."""

    def __init__(self, ctx: _Ctx, mdps, residents, lower, next_res, budget: int):
        self.ctx = ctx
        self.mdps = list(mdps)
        self.res = list(residents)
        self.lower = list(lower)
        self.next_res = list(next_res)
        self.after_next = self.lower[len(self.next_res) :]
        self.is_last = not self.lower
        self.size = len(self.mdps) + len(self.res)
        self.budget = budget
        self.nodes = 0
        self.collapsed = False
        self._floaters_ok: dict[frozenset, bool] = {}
        self._next: dict[frozenset, tuple] = {}
        # C9 applies when the single downfloater must be the PAB: nobody below could take it.
        self.c9_possible = ctx.n % 2 == 1 and not any(ctx.bye_ok[x] for x in self.lower)

    # --- completion ---------------------------------------------------------------------------
    def floaters_ok(self, floaters: Sequence[int]) -> bool:
        key = frozenset(floaters)
        hit = self._floaters_ok.get(key)
        if hit is None:
            if self.is_last:
                hit = not floaters or (len(floaters) == 1 and self.ctx.bye_ok[floaters[0]])
            else:
                hit = self.ctx.completable(list(floaters) + self.lower)
            self._floaters_ok[key] = hit
        return hit

    # --- C6 / C7: how many pairs, which MDPs ---------------------------------------------------
    def mdp_classes(self, p: int):
        """(floater score profile, [MDP sets in lexicographic order]) for ``p`` pairs, best
        profile (C7) first. MDP sets are tuples of positions in ``self.mdps``."""
        ctx = self.ctx
        m0, r = len(self.mdps), len(self.res)
        s_res = ctx.score[self.res[0]] if self.res else 0
        d = self.size - 2 * p
        classes: dict[tuple, list] = {}
        for m in range(min(m0, p, r), -1, -1):
            q = p - m
            if 2 * q > r - m:
                continue
            if m0 > 16 and m < m0 - 4:
                break  # keep the enumeration bounded; more MDPs in Limbo is never better here
            for chosen in itertools.combinations(range(m0), m):
                limbo = [ctx.score[self.mdps[k]] for k in range(m0) if k not in chosen]
                profile = _pad(limbo, d, s_res)
                classes.setdefault(profile, []).append(chosen)
        for profile in sorted(classes):
            yield profile, classes[profile]

    def optimum(self):
        """(pairs, floater profile, feasible MDP sets) of the best C6/C7 class, or None."""
        ctx = self.ctx
        r = len(self.res)
        pmax = 0
        for m in range(min(len(self.mdps), r) + 1):
            pmax = max(pmax, m + (r - m) // 2)
        if self.size <= 40:
            # An upper bound from the bracket's own graph (MDPs only meet residents).
            residents = set(self.res)
            graph = max_matching(
                self.mdps + self.res,
                lambda a, b: ctx.compatible(a, b) and (a in residents or b in residents),
            )
            pmax = min(pmax, len(graph) // 2)
        need = self.lower_deficiency()
        for p in range(pmax, -1, -1):
            d = self.size - 2 * p
            if self.is_last and d > 1:
                break
            if d < need:
                continue
            for profile, sets in self.mdp_classes(p):
                feasible = [chosen for chosen in sets if self.exists(chosen, p - len(chosen))]
                if feasible:
                    return p, profile, feasible
        return None

    def lower_deficiency(self) -> int:
        """Downfloaters needed at least: lower players left over by a maximum matching among
        themselves (the PAB can take one)."""
        if self.is_last:
            return 0
        ctx = self.ctx
        if len(self.lower) > 200:
            need = len(self.lower) % 2
        else:
            need = len(self.lower) - len(max_matching(self.lower, ctx.compatible))
        return max(0, need - ctx.n % 2)

    def exists(self, chosen, q: int) -> bool:
        """Is there a legal candidate with MDP set ``chosen`` and ``q`` remainder pairs? The
        floaters taken from the residents are tried lowest first; the rest must then have a
        perfect matching in which MDPs meet residents only."""
        ctx = self.ctx
        S = [self.mdps[k] for k in chosen]
        limbo = [self.mdps[k] for k in range(len(self.mdps)) if k not in chosen]
        p = len(S) + q
        f = self.size - 2 * p - len(limbo)
        if f < 0:
            return False
        res = self.res
        mdp_set = set(S)

        def compat(a, b):
            return ctx.compatible(a, b) and not (a in mdp_set and b in mdp_set)

        tried = 0
        for picked in itertools.combinations(range(len(res) - 1, -1, -1), f):
            tried += 1
            if tried > self.budget // 50:
                ctx.approximate = True
                return False
            floaters = limbo + [res[k] for k in picked]
            if not self.floaters_ok(floaters):
                continue
            taken = set(picked)
            rest = S + [res[k] for k in range(len(res)) if k not in taken]
            if len(max_matching(rest, compat)) == len(rest):
                return True
        return False

    def next_eval(self, floaters: Sequence[int]) -> tuple:
        """C8: the next bracket's best (-pairs, downfloater score profile) with these MDPs."""
        if self.is_last:
            return (0, ())
        key = frozenset(floaters)
        hit = self._next.get(key)
        if hit is None:
            nb = _Bracket(
                self.ctx,
                sorted(floaters),
                self.next_res,
                self.after_next,
                self.after_next[: self._next_group_len()],
                self.budget,
            )
            opt = nb.optimum()
            if opt is None:  # only a collapsed last bracket can pair it
                hit = (-(nb.size // 2), ())
            else:
                hit = (-opt[0], opt[1])
            self.nodes += nb.nodes
            self._next[key] = hit
        return hit

    def _next_group_len(self) -> int:
        ctx = self.ctx
        rest = self.after_next
        if not rest:
            return 0
        s = ctx.score[rest[0]]
        k = 0
        while k < len(rest) and ctx.score[rest[k]] == s:
            k += 1
        return k

    # --- the candidate search ------------------------------------------------------------------
    def search(self, chosen, q: int, *, mode: str, bound=None, lb=None, budget=None):
        """Depth-first search over the candidates with MDP set ``chosen`` (positions in
        ``self.mdps``) and ``q`` remainder pairs, in generation order.

        mode "reach": the first candidate whose vector is <= ``bound`` (a lower bound: so it
        equals it). mode "best": the first candidate with the smallest vector below ``bound``
        (None: any). Returns ((vector, pairs, floaters) or None, budget exhausted?)."""
        S = [self.mdps[k] for k in chosen]
        limbo = [self.mdps[k] for k in range(len(self.mdps)) if k not in chosen]
        p = len(S) + q
        d = self.size - 2 * p
        st = _State(self, S, limbo, q, p, d, mode, bound, lb)
        st.budget = budget or self.budget
        hit = False
        try:
            st.level_a(0)
        except _Stop:
            pass
        except _Budget:
            hit = True
        self.nodes += st.nodes
        return st.found, hit


class _Stop(Exception):
    pass


class _State:
    """The mutable state of one candidate search."""

    def __init__(self, br: _Bracket, S, limbo, q, p, d, mode, bound, lb):
        self.br = br
        self.ctx = br.ctx
        self.S = S
        self.limbo = limbo
        self.q = q
        self.p = p
        self.d = d
        self.mode = mode
        self.bound = bound
        self.found = None
        self.nodes = 0
        self.budget = br.budget
        self.used = set()
        self.pairs: list[tuple[int, int]] = []
        ctx = self.ctx
        # per-pair partial sums: C10 C11 C12 C13 C15 C17, and the C19 / C21 lists
        self.sums = [0] * 6
        self.l19: list[int] = []
        self.l21: list[int] = []
        # the pool of players still to place (to be paired, or to float): colour counts
        pool = S + br.res
        self.f = d - len(limbo)  # floaters still to choose from the pool
        self.cnt = {WHITE: 0, BLACK: 0, 0: 0}
        self.mild = {WHITE: 0, BLACK: 0}
        self.abs = {WHITE: 0, BLACK: 0}
        for x in pool:
            self._count(x, 1)
        self.allow_aa = any(ctx.top[x] for x in pool)
        # fixed parts of the root lower bound
        self.lb = lb
        self.limbo_down1 = [ctx.score[x] for x in limbo if ctx.down1[x]]
        self.limbo_down2 = [ctx.score[x] for x in limbo if ctx.down2[x]]
        self.s2_pool: list[int] | None = None  # candidates to float, once known (level C)
        self.s2_free = 0  # unpaired players of S2 (level C), and how many would count for C14/16
        self.s2_dirty = [0, 0]
        self.res_score = ctx.score[br.res[0]] if br.res else None
        self.small = br.size <= 24
        # reach mode in a mid-sized bracket: check at every level that S1 can still be paired
        # without exceeding a criterion that has reached its bound
        self.strict = mode == "reach" and br.size <= 64

    def _count(self, x: int, sign: int) -> None:
        ctx = self.ctx
        pr = ctx.pref[x]
        self.cnt[pr] += sign
        if pr:
            if ctx.strength[x] == 1:
                self.mild[pr] += sign
            elif ctx.strength[x] == 3:
                self.abs[pr] += sign

    # --- bounds -------------------------------------------------------------------------------
    def colour_lb(self) -> tuple[int, int]:
        w, b, z = self.cnt[WHITE], self.cnt[BLACK], self.cnt[0]
        f = self.f
        if w >= b:
            big, small, side = w, b, WHITE
        else:
            big, small, side = b, w, BLACK
        x = max(0, -((f + small + z - big) // 2))  # ceil((big - f - small - z) / 2)
        lb13 = max(0, x - self.mild[side] - (self.abs[side] // 2 if self.allow_aa else 0))
        return x, lb13

    def node_vector(self) -> tuple:
        """A lower bound of the vector of every candidate below this node."""
        lb = self.lb
        x12, x13 = self.colour_lb()
        lb14 = lb16 = 0
        if self.s2_pool is not None and self.f:
            lb14 = max(0, self.f - (self.s2_free - self.s2_dirty[0]))
            lb16 = max(0, self.f - (self.s2_free - self.s2_dirty[1]))
        s = self.sums
        return (
            lb[0],
            lb[1],
            s[0],
            s[1],
            s[2] + x12,
            s[3] + x13,
            lb14,
            s[4],
            lb16,
            s[5],
            _pad(self.limbo_down1, self.d, -1),
            _pad(self.l19, self.p, 0),
            _pad(self.limbo_down2, self.d, -1),
            _pad(self.l21, self.p, 0),
        )

    def leaf_vector(self, floaters: list[int]) -> tuple:
        ctx, br = self.ctx, self.br
        c8 = br.next_eval(floaters)
        c9 = 0
        if br.c9_possible and len(floaters) == 1:
            c9 = ctx.unplayed[floaters[0]]
        res_score = ctx.score[br.res[0]] if br.res else None
        c14 = sum(1 for x in floaters if ctx.down1[x] and ctx.score[x] == res_score)
        c16 = sum(1 for x in floaters if ctx.down2[x] and ctx.score[x] == res_score)
        s = self.sums
        return (
            c8,
            c9,
            s[0],
            s[1],
            s[2],
            s[3],
            c14,
            s[4],
            c16,
            s[5],
            _pad([ctx.score[x] for x in floaters if ctx.down1[x]], self.d, -1),
            _pad(self.l19, self.p, 0),
            _pad([ctx.score[x] for x in floaters if ctx.down2[x]], self.d, -1),
            _pad(self.l21, self.p, 0),
        )

    def pruned(self) -> bool:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget
        if self.bound is None:
            return False
        nv = self.node_vector()
        if self.mode == "reach":
            return nv > self.bound
        return nv >= self.bound

    # --- pairing steps ------------------------------------------------------------------------
    def add(self, a: int, b: int) -> tuple:
        cost = self.ctx.pair_cost(a, b)
        s = self.sums
        for k in range(4):
            s[k] += cost[k]
        s[4] += cost[4]
        s[5] += cost[5]
        if cost[4]:
            self.l19.append(cost[6])
        if cost[5]:
            self.l21.append(cost[7])
        self.pairs.append((a, b))
        self.used.add(a)
        self.used.add(b)
        self._count(a, -1)
        self._count(b, -1)
        return cost

    def remove(self, a: int, b: int, cost: tuple) -> None:
        s = self.sums
        for k in range(4):
            s[k] -= cost[k]
        s[4] -= cost[4]
        s[5] -= cost[5]
        if cost[4]:
            self.l19.remove(cost[6])
        if cost[5]:
            self.l21.remove(cost[7])
        self.pairs.pop()
        self.used.discard(a)
        self.used.discard(b)
        self._count(a, 1)
        self._count(b, 1)

    def level_a(self, k: int) -> None:
        """The MDP-pairing: S1 (the chosen MDPs) against S2 (the residents), lexicographic."""
        if k == len(self.S):
            self.level_b()
            return
        ctx = self.ctx
        a = self.S[k]
        for r in self.br.res:
            if r in self.used or not ctx.compatible(a, r):
                continue
            cost = self.add(a, r)
            if not self.pruned():
                self.level_a(k + 1)
            self.remove(a, r, cost)

    def level_b(self) -> None:
        """The remainder: exchanges in order, each followed by its transpositions."""
        rem = [r for r in self.br.res if r not in self.used]
        q = self.q
        s1, s2 = rem[:q], rem[q:]
        self.s2_pool = s2
        self.level_c(s1, s2, 0)
        if q and s2:
            for x, y in _exchanges(len(s1), len(s2), max(1000, self.budget // 4)):
                out = {rem[i] for i in x}
                inn = {rem[i] for i in y}
                n1 = sorted([v for v in s1 if v not in out] + list(inn))
                n2 = sorted([v for v in s2 if v not in inn] + list(out))
                self.s2_pool = n2
                self.level_c(n1, n2, 0)
        self.s2_pool = None

    def transposable(self, s1: list[int], s2: list[int], k: int) -> bool:
        """Can S1[k:] still all get distinct compatible partners of higher BSN in S2? (A greedy
        pass, then augmenting paths for the players it leaves over.)"""
        ctx = self.ctx
        compatible = ctx.compatible
        if self.mode == "reach":
            # The bound is a lower bound, so a hit equals it in every criterion: once a per-pair
            # criterion has reached its bound, a pair costing it more cannot be used.
            full = [k for k, at in enumerate((2, 3, 4, 5, 7, 9)) if self.sums[k] >= self.bound[at]]
            if full:

                def compatible(a, b, full=full):
                    if not ctx.compatible(a, b):
                        return False
                    cost = ctx.pair_cost(a, b)
                    return not any(cost[k] for k in full)

        free = [y for y in s2 if y not in self.used]
        owner: dict[int, int] = {}
        taken = [False] * len(free)
        left = []
        for a in s1[k:]:
            j = bisect.bisect_right(free, a)
            while j < len(free) and (taken[j] or not compatible(a, free[j])):
                j += 1
            if j < len(free):
                taken[j] = True
                owner[free[j]] = a
            else:
                left.append(a)

        def augment(a: int, seen: set) -> bool:
            for b in free:
                if b > a and b not in seen and compatible(a, b):
                    seen.add(b)
                    if b not in owner or augment(owner[b], seen):
                        owner[b] = a
                        return True
            return False

        return all(augment(a, set()) for a in left)

    def dirt(self, y: int) -> tuple[bool, bool]:
        """Would this resident floating count for C14 / C16?"""
        ctx = self.ctx
        resident = ctx.score[y] == self.res_score
        return resident and ctx.down1[y], resident and ctx.down2[y]

    def level_c(self, s1: list[int], s2: list[int], k: int) -> None:
        ctx = self.ctx
        if k == 0:
            free = [y for y in s2 if y not in self.used]
            self.s2_free = len(free)
            self.s2_dirty = [sum(self.dirt(y)[0] for y in free), sum(self.dirt(y)[1] for y in free)]
        if k == len(s1):
            self.leaf([y for y in s2 if y not in self.used])
            return
        if (k == 0 or self.small or self.strict) and not self.transposable(s1, s2, k):
            return
        a = s1[k]
        for b in s2:
            if b < a or b in self.used or not ctx.compatible(a, b):
                continue
            d1, d2 = self.dirt(b)
            self.s2_free -= 1
            self.s2_dirty[0] -= d1
            self.s2_dirty[1] -= d2
            cost = self.add(a, b)
            if not self.pruned():
                self.level_c(s1, s2, k + 1)
            self.remove(a, b, cost)
            self.s2_free += 1
            self.s2_dirty[0] += d1
            self.s2_dirty[1] += d2

    def leaf(self, free: list[int]) -> None:
        floaters = sorted(self.limbo + free)
        if len(floaters) != self.d:
            return
        self.nodes += 1
        if not self.br.floaters_ok(floaters):
            return
        vec = self.leaf_vector(floaters)
        if self.mode == "reach":
            if vec <= self.bound:
                self.found = (vec, list(self.pairs), floaters)
                raise _Stop
            return
        if self.bound is None or vec < self.bound:
            self.found = (vec, list(self.pairs), floaters)
            self.bound = vec
            if vec <= self.lb:
                raise _Stop


# --------------------------------------------------------------------------------------------
# The round.


def pair_round(
    players: Sequence[SwissPlayer],
    *,
    round_number: int,
    total_rounds: int,
    node_budget: int | None = None,
) -> SwissRound:
    """Pair one round. ``players`` are the active players (withdrawn players left out)."""
    ranked = sorted(players, key=lambda p: (-p.points2, p.tpn))
    if len({p.id for p in ranked}) != len(ranked):
        raise PairingError("duplicate players")
    if len(ranked) < 2:
        return SwissRound((), ranked[0].id if ranked else None)
    ctx = _Ctx(ranked, round_number=round_number, total_rounds=total_rounds)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 4 * len(ranked) + 1000))
    try:
        for relax in (False, True):
            ctx.relax = relax
            ctx._complete.clear()
            result = _pair(ctx, node_budget or 250000)
            if result is not None:
                pairs, bye = result
                out = tuple(
                    (ranked[w].id, ranked[b].id)
                    for w, b in sorted(
                        (ctx.allocate(a, b) for a, b in pairs),
                        key=lambda wb: (
                            -max(ctx.score[wb[0]], ctx.score[wb[1]]),
                            -(ctx.score[wb[0]] + ctx.score[wb[1]]),
                            min(wb),
                        ),
                    )
                )
                return SwissRound(
                    out, ranked[bye].id if bye is not None else None, relax, ctx.approximate
                )
    finally:
        sys.setrecursionlimit(old_limit)
    raise PairingError("no pairing avoids a rematch")


def pab_score_limit(ctx: _Ctx) -> int | None:
    """C5: the lowest score a PAB assignee can have in a complete pairing (odd fields)."""
    everyone = list(range(ctx.n))
    for s in sorted(set(ctx.score)):
        ctx.bye_ok = [ctx.eligible[i] and ctx.score[i] <= s for i in everyone]
        ctx._complete.clear()
        if ctx.completable(everyone):
            return s
    return None


def _pair(ctx: _Ctx, budget: int):
    n = ctx.n
    everyone = list(range(n))
    if n % 2:
        if pab_score_limit(ctx) is None:
            return None
    elif not ctx.completable(everyone):
        return None
    groups: list[list[int]] = []
    for i in everyone:
        if groups and ctx.score[groups[-1][0]] == ctx.score[i]:
            groups[-1].append(i)
        else:
            groups.append([i])
    pairs: list[tuple[int, int]] = []
    carry: list[int] = []
    bye = None
    for g, group in enumerate(groups):
        lower = [i for grp in groups[g + 1 :] for i in grp]
        next_res = groups[g + 1] if g + 1 < len(groups) else []
        br = _Bracket(ctx, carry, group, lower, next_res, budget)
        chosen = solve_bracket(br)
        if chosen is None:
            return None
        bracket_pairs, floaters = chosen
        pairs.extend(bracket_pairs)
        carry = floaters
    if len(carry) > 1:
        return None
    if carry:
        bye = carry[0]
    return pairs, bye


def solve_bracket(br: _Bracket):
    """(pairs, downfloaters) of the bracket, or None if it cannot be paired."""
    opt = br.optimum()
    if opt is None:
        if not br.is_last:
            return None
        # Collapsed last bracket: everyone as residents of one homogeneous bracket.
        br.collapsed = True
        br.res = sorted(br.mdps + br.res)
        br.mdps = []
        opt = br.optimum()
        if opt is None:
            return None
    p, _profile, sets = opt
    lb = root_lower_bound(br, p, sets)
    # Phase 1: the first candidate in generation order reaching the lower bound (a short try
    # with the cheap bound, then a full one with the matching bound).
    found = _reach(br, p, sets, lb, br.budget // 10)
    if found is None:
        tight = tighten_bound(br, p, lb)
        if br.size <= 64:
            tight = floater_set_bound(br, p, sets, tight)
        found = _reach(br, p, sets, tight, br.budget)
        lb = tight
    if found is not None:
        return found[1], found[2]
    # Phase 2: branch and bound for the true optimum (first in generation order among equals).
    best = None
    for chosen in sets:
        got, hit = br.search(
            chosen, p - len(chosen), mode="best", bound=best[0] if best else None, lb=lb
        )
        if hit:
            br.ctx.approximate = True
        if got is not None and (best is None or got[0] < best[0]):
            best = got
    if best is None:
        return None
    return best[1], best[2]


def _reach(br: _Bracket, p: int, sets, lb: tuple, budget: int):
    for chosen in sets:
        found, _hit = br.search(
            chosen, p - len(chosen), mode="reach", bound=lb, lb=lb, budget=budget
        )
        if found is not None:
            return found
    return None


def tighten_bound(br: _Bracket, p: int, lb: tuple) -> tuple:
    """C12 >= pairs - (most pairs without a colour conflict); the same for C13."""
    ctx = br.ctx
    members = br.mdps + br.res
    residents = set(br.res)

    def allowed(a, b):
        return ctx.compatible(a, b) and (a in residents or b in residents)

    def no_conflict(a, b):
        return allowed(a, b) and not ctx.pair_cost(a, b)[2]

    def no_strong_conflict(a, b):
        return allowed(a, b) and not ctx.pair_cost(a, b)[3]

    x12 = max(lb[4], p - len(max_matching(members, no_conflict)) // 2)
    x13 = max(lb[5], p - len(max_matching(members, no_strong_conflict)) // 2)
    return lb[:4] + (x12, x13) + lb[6:]


def root_lower_bound(br: _Bracket, p: int, sets) -> tuple:
    """A componentwise lower bound of the criteria vector over the bracket's candidates."""
    ctx = br.ctx
    d = br.size - 2 * p
    if br.is_last:
        c8 = (0, ())
    else:
        nsize = d + len(br.next_res)
        npairs = min(nsize // 2, len(br.next_res))
        nd = nsize - 2 * npairs
        if br._next_group_len() == 0 and nd > 1:
            npairs = nsize // 2
            nd = nsize - 2 * npairs
        s_next = ctx.score[br.next_res[0]] if br.next_res else 0
        c8 = (-npairs, (s_next,) * nd)
        options = []
        for chosen in sets:
            limbo = [br.mdps[k] for k in range(len(br.mdps)) if k not in chosen]
            f = d - len(limbo)
            if len(options) > 40 or math.comb(len(br.res), f) > 40:
                options = None
                break
            for picked in itertools.combinations(br.res, f):
                options.append(limbo + list(picked))
        if options:
            c8 = min(br.next_eval(sorted(o)) for o in options)
    c9 = 0
    if br.c9_possible and d == 1:
        pool = [x for x in br.mdps + br.res if ctx.bye_ok[x]]
        c9 = min((ctx.unplayed[x] for x in pool), default=0)
    # C12/C13 bound over the players of the bracket
    cnt = {WHITE: 0, BLACK: 0, 0: 0}
    mild = {WHITE: 0, BLACK: 0}
    ab = {WHITE: 0, BLACK: 0}
    members = br.mdps + br.res
    for x in members:
        pr = ctx.pref[x]
        cnt[pr] += 1
        if pr and ctx.strength[x] == 1:
            mild[pr] += 1
        elif pr and ctx.strength[x] == 3:
            ab[pr] += 1
    w, b, z = cnt[WHITE], cnt[BLACK], cnt[0]
    big, small, side = (w, b, WHITE) if w >= b else (b, w, BLACK)
    x12 = max(0, -((d + small + z - big) // 2))
    allow_aa = any(ctx.top[x] for x in members)
    x13 = max(0, x12 - mild[side] - (ab[side] // 2 if allow_aa else 0))
    # Limbo players are common to every set only if there is one set; keep the bound valid.
    return (c8, c9, 0, 0, x12, x13, 0, 0, 0, 0, (-1,) * d, (0,) * p, (-1,) * d, (0,) * p)


def floater_set_bound(br: _Bracket, p: int, sets, lb: tuple) -> tuple:
    """A tighter bound when the downfloater sets are few: the smallest, over the sets F for
    which a candidate exists, of F's own criteria (C8, C9, C14, C16, C18, C20) with the colour
    criteria bounded by maximum matchings of the players left to pair (C10-C13: at least one
    per pair that cannot be made free of that cost)."""
    ctx = br.ctx
    d = br.size - 2 * p
    options = []
    for chosen in sets:
        S = [br.mdps[k] for k in chosen]
        limbo = [br.mdps[k] for k in range(len(br.mdps)) if k not in chosen]
        f = d - len(limbo)
        if f < 0 or len(options) + math.comb(len(br.res), f) > 64:
            return lb
        for picked in itertools.combinations(br.res, f):
            options.append((S, limbo + list(picked)))
    res_score = ctx.score[br.res[0]] if br.res else None
    best = None
    for S, floaters in options:
        if not br.floaters_ok(floaters):
            continue
        out = set(floaters)
        mdp_set = set(S)
        rest = [x for x in br.mdps + br.res if x not in out]

        def allowed(a, b, mdp_set=mdp_set):
            return ctx.compatible(a, b) and not (a in mdp_set and b in mdp_set)

        if len(max_matching(rest, allowed)) != len(rest):
            continue
        x = []
        for k in range(4):  # C10..C13

            def free(a, b, k=k):
                return allowed(a, b) and not ctx.pair_cost(a, b)[k]

            x.append(max(lb[2 + k], p - len(max_matching(rest, free)) // 2))
        floaters = sorted(floaters)
        c9 = 0
        if br.c9_possible and len(floaters) == 1:
            c9 = ctx.unplayed[floaters[0]]
        c14 = sum(1 for y in floaters if ctx.down1[y] and ctx.score[y] == res_score)
        c16 = sum(1 for y in floaters if ctx.down2[y] and ctx.score[y] == res_score)
        vec = (
            br.next_eval(floaters),
            c9,
            *x,
            c14,
            0,
            c16,
            0,
            _pad([ctx.score[y] for y in floaters if ctx.down1[y]], d, -1),
            (0,) * p,
            _pad([ctx.score[y] for y in floaters if ctx.down2[y]], d, -1),
            (0,) * p,
        )
        if best is None or vec < best:
            best = vec
    return lb if best is None else max(lb, best)
