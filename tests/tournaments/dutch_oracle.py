"""A brute-force reference for the FIDE (Dutch) system, 2026 edition, for small fields.

It shares nothing with ``tournaments.pairing.dutch`` but the input cards (SwissPlayer): it
re-derives colour preferences, enumerates EVERY legal pairing of each bracket (the "sieve"
method the rules' commentary describes), evaluates the criteria as one lexicographic vector,
and breaks ties by each candidate's position in the rules' generation order, computed from the
candidate itself (not by generating candidates in that order):

- Valid MDP set (lexicographic on BSNs), then the MDPs' partners (transposition of S2:
  lexicographic on BSNs), then the remainder's exchange (fewest players exchanged, smallest
  sum(S2->S1) - sum(S1->S2), largest differing BSN moved S1->S2, smallest differing BSN moved
  S2->S1; a pairing is generated first by the exchange that puts the lower BSN of each pair in
  S1), then the remainder's transposition.

Vector (smaller is better), per bracket: C6 (-pairs), C7 (downfloater scores, descending),
C8 (next bracket's best C6, C7 with these downfloaters), C9, C10, C11, C12, C13, C14, C15, C16,
C17, C18, C19, C20, C21 -- the definitions are in the docstring of ``tournaments/pairing/dutch``
(and, field by field, in its ``criteria`` module).
C1-C3 are checked per pair, C4 + C5 (complete the rest of the round, PAB to an eligible player
of the lowest possible score) by exhaustive search. When no pairing meets C1-C3, the round
is paired again with C3 lifted (``relaxed``), as the engine's driver does.
"""

from __future__ import annotations

from functools import cache

W, B = "w", "b"


def _pref(colours):
    games = [c for c in colours if c]
    if not games:
        return None, 0, 0
    cd = sum(1 if c == W else -1 for c in games)
    if cd >= 2:
        return B, 3, cd
    if cd <= -2:
        return W, 3, cd
    if len(games) >= 2 and games[-1] == games[-2]:
        return (B if games[-1] == W else W), 3, cd
    if cd == 1:
        return B, 2, cd
    if cd == -1:
        return W, 2, cd
    return (B if games[-1] == W else W), 1, cd


class Oracle:
    def __init__(self, players, *, round_number, total_rounds, initial_colour=W, relaxed=False):
        self.relaxed = relaxed  # C3 lifted: two absolute preferences for one colour may meet
        self.initial = initial_colour  # "w" or "b": the colour drawn for the top seed (5.2.5)
        self.players = sorted(players, key=lambda p: (-p.points2, p.tpn))
        self.n = len(self.players)
        self.idx = {p.id: k for k, p in enumerate(self.players)}
        self.final = round_number >= total_rounds
        self.half = round_number - 1  # 50% of the maximum score, in half points
        self.info = [_pref(p.colours) for p in self.players]
        self.games = [[c for c in p.colours if c] for p in self.players]
        self.bye_ok = [False] * self.n

    # --- facts ----------------------------------------------------------------------------------
    def sc(self, k):
        return self.players[k].points2

    def top(self, k):
        return self.final and self.sc(k) > self.half

    def fl(self, k, back):
        f = self.players[k].floats
        return f[-back] if len(f) >= back else None

    def legal(self, a, b):
        pa, pb = self.players[a], self.players[b]
        if pb.id in pa.opponents:
            return False
        (ca, sa, _), (cb, sb, _) = self.info[a], self.info[b]
        if self.relaxed:
            return True
        if sa == 3 and sb == 3 and ca == cb and not self.top(a) and not self.top(b):
            return False
        return True

    # --- completion (C4 with C2/C5) --------------------------------------------------------------
    def complete(self, group) -> bool:
        return self._complete(frozenset(group), tuple(self.bye_ok))

    @cache  # noqa: B019 -- one oracle per round, small fields
    def _complete(self, group: frozenset, bye_ok: tuple) -> bool:
        if not group:
            return True
        if len(group) % 2:
            return any(bye_ok[x] and self._complete(group - {x}, bye_ok) for x in group)
        a = min(group)
        return any(
            self.legal(a, b) and self._complete(group - {a, b}, bye_ok) for b in group if b != a
        )

    # --- colours -------------------------------------------------------------------------------
    def colours(self, a, b):
        """(white, black) per Art. 5.2."""
        hi, lo = (
            (a, b)
            if (-self.sc(a), self.players[a].tpn) < (-self.sc(b), self.players[b].tpn)
            else (b, a)
        )
        (ph, sh, dh), (pl, sl, dl) = self.info[hi], self.info[lo]
        if ph and pl and ph != pl:
            return (hi, lo) if ph == W else (lo, hi)
        if ph and not pl:
            return (hi, lo) if ph == W else (lo, hi)
        if pl and not ph:
            return (lo, hi) if pl == W else (hi, lo)
        if ph:
            if sh != sl:
                win = hi if sh > sl else lo
                other = lo if win == hi else hi
                return (win, other) if self.info[win][0] == W else (other, win)
            if sh == 3 and abs(dh) != abs(dl):
                win = hi if abs(dh) > abs(dl) else lo
                other = lo if win == hi else hi
                return (win, other) if self.info[win][0] == W else (other, win)
        gh, gl = self.games[hi], self.games[lo]
        for t in range(1, min(len(gh), len(gl)) + 1):
            if gh[-t] != gl[-t]:
                return (lo, hi) if gh[-t] == W else (hi, lo)
        if ph:
            return (hi, lo) if ph == W else (lo, hi)
        # odd TPN: the initial colour; even: the other one
        hi_colour = self.initial if self.players[hi].tpn % 2 else (B if self.initial == W else W)
        return (hi, lo) if hi_colour == W else (lo, hi)

    # --- the round -------------------------------------------------------------------------------
    def pair(self):
        n = self.n
        every = list(range(n))
        if n % 2:
            for s in sorted({self.sc(k) for k in every}):
                self.bye_ok = [not self.players[k].had_bye and self.sc(k) <= s for k in every]
                if self.complete(every):
                    break
            else:
                return None
        elif not self.complete(every):
            return None
        groups = []
        for k in every:
            if groups and self.sc(groups[-1][0]) == self.sc(k):
                groups[-1].append(k)
            else:
                groups.append([k])
        self.groups = groups
        carry = []
        pairs = []
        self.trace = []
        for g in range(len(groups)):
            best = self.best(g, carry)
            if best is None:
                return None
            vec, key, bpairs, floaters = best
            self.trace.append((list(carry), groups[g], vec, bpairs, floaters))
            pairs += bpairs
            carry = floaters
        bye = carry[0] if carry else None
        out = [self.colours(a, b) for a, b in pairs]
        ids = self.players
        return (
            {frozenset((ids[a].id, ids[b].id)) for a, b in pairs},
            ids[bye].id if bye is not None else None,
            {(ids[w].id, ids[b].id) for w, b in out},
        )

    def lower_of(self, g):
        return [k for grp in self.groups[g + 1 :] for k in grp]

    def candidates(self, mdps, residents, lower, last, allow_mm=False):
        """All legal candidates (pairs, floaters) with the fewest downfloaters."""
        members = sorted(mdps + residents)
        res = set(residents)
        size = len(members)
        for d in range(size % 2, size + 1, 2):
            if last and d > 1:
                return []
            found = []

            def rec(rest, pairs, floaters, d=d, found=found):
                if len(floaters) > d:
                    return
                if not rest:
                    if len(floaters) != d:
                        return
                    if last:
                        ok = not floaters or self.bye_ok[floaters[0]]
                    else:
                        ok = self.complete(floaters + lower)
                    if ok:
                        found.append((list(pairs), list(floaters)))
                    return
                a = rest[0]
                for b in rest[1:]:
                    if (a in res or b in res or allow_mm) and self.legal(a, b):
                        pairs.append((a, b))
                        rec([x for x in rest[1:] if x != b], pairs, floaters)
                        pairs.pop()
                floaters.append(a)
                rec(rest[1:], pairs, floaters)
                floaters.pop()

            rec(members, [], [])
            if found:
                return found
        return []

    def next_value(self, g, floaters):
        """C8: the best (-pairs, downfloater scores) of bracket g + 1 with these MDPs."""
        if g + 1 >= len(self.groups):
            return (0, ())
        lower = self.lower_of(g + 1)
        cands = self.candidates(sorted(floaters), self.groups[g + 1], lower, not lower)
        if not cands:
            cands = self.candidates(sorted(floaters), self.groups[g + 1], lower, True, True)
            if not cands:
                return (0, ())
        return min(
            (-len(p), tuple(sorted((self.sc(x) for x in f), reverse=True))) for p, f in cands
        )

    def vector(self, g, mdps, residents, pairs, floaters):
        sres = self.sc(residents[0])
        lower = self.lower_of(g)
        p = len(pairs)
        d = len(floaters)
        c7 = tuple(sorted((self.sc(x) for x in floaters), reverse=True))
        c8 = self.next_value(g, floaters)
        c9 = 0
        if self.n % 2 and d == 1 and not any(self.bye_ok[x] for x in lower):
            c9 = sum(1 for c in self.players[floaters[0]].colours if not c)
        c10 = c11 = c12 = c13 = c15 = c17 = 0
        l19, l21 = [], []
        for a, b in pairs:
            w, bl = self.colours(a, b)
            if self.top(a) or self.top(b):
                for x, col, step in ((w, W, 1), (bl, B, -1)):
                    if abs(self.info[x][2] + step) > 2:
                        c10 += 1
                    if self.games[x][-2:] == [col, col]:
                        c11 += 1
            pw, pb = self.info[w][0], self.info[bl][0]
            if pw == B:  # white did not get its preference
                c12 += 1
                c13 += self.info[w][1] == 2
            if pb == W:
                c12 += 1
                c13 += self.info[bl][1] == 2
            if self.sc(a) != self.sc(b):
                hi, lo = (a, b) if self.sc(a) > self.sc(b) else (b, a)
                if self.fl(lo, 1) == "up":
                    c15 += 1
                    l19.append(self.sc(hi) - self.sc(lo))
                if self.fl(lo, 2) == "up":
                    c17 += 1
                    l21.append(self.sc(hi) - self.sc(lo))
        c14 = sum(1 for x in floaters if self.sc(x) == sres and self.fl(x, 1) == "down")
        c16 = sum(1 for x in floaters if self.sc(x) == sres and self.fl(x, 2) == "down")

        def pad(v, n, fill):
            v = sorted(v, reverse=True)
            return tuple(v + [fill] * (n - len(v)))

        c18 = pad([self.sc(x) for x in floaters if self.fl(x, 1) == "down"], d, -1)
        c20 = pad([self.sc(x) for x in floaters if self.fl(x, 2) == "down"], d, -1)
        return (
            -p, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17,
            c18, pad(l19, p, 0), c20, pad(l21, p, 0),
        )  # fmt: skip

    def generation_key(self, mdps, residents, pairs):
        """The candidate's position in the rules' generation order."""
        members = sorted(mdps + residents)
        bsn = {x: k + 1 for k, x in enumerate(members)}
        mdp_set = set(mdps)
        mdp_pairs = sorted(
            ((a, b) if a in mdp_set else (b, a))
            for a, b in pairs
            if (a in mdp_set) != (b in mdp_set)
        )
        key1 = tuple(bsn[m] for m, _ in mdp_pairs)
        key2 = tuple(bsn[r] for _, r in mdp_pairs)
        paired_with_mdp = {r for _, r in mdp_pairs}
        rem = [x for x in residents if x not in paired_with_mdp]
        rb = {x: k + 1 for k, x in enumerate(rem)}
        rpairs = [(a, b) for a, b in pairs if a in rb and b in rb]
        q = len(rpairs)
        low = sorted(min(rb[a], rb[b]) for a, b in rpairs)
        partner = {}
        for a, b in rpairs:
            lo_, hi_ = sorted((rb[a], rb[b]))
            partner[lo_] = hi_
        s1 = set(range(1, q + 1))
        x = s1 - set(low)
        y = set(low) - s1
        key3 = (
            len(x),
            sum(y) - sum(x),
            tuple(-v for v in sorted(x, reverse=True)),
            tuple(sorted(y)),
        )
        key4 = tuple(partner[v] for v in low)
        return (key1, key2, key3, key4)

    def best(self, g, carry):
        residents = self.groups[g]
        lower = self.lower_of(g)
        last = not lower
        mdps = sorted(carry)
        cands = self.candidates(mdps, residents, lower, last)
        homogeneous = False
        if not cands and last:
            cands = self.candidates(mdps, residents, lower, last, allow_mm=True)
            homogeneous = True
        if not cands:
            return None
        scored = []
        for pairs, floaters in cands:
            vec = self.vector(g, mdps, residents, pairs, floaters)
            if homogeneous:
                key = self.generation_key([], sorted(mdps + residents), pairs)
            else:
                key = self.generation_key(mdps, residents, pairs)
            scored.append((vec, key, [tuple(sorted(p)) for p in pairs], sorted(floaters)))
        scored.sort(key=lambda t: (t[0], t[1]))
        return scored[0]

    def evaluate(self, g, carry, pairs, floaters):
        """The vector of an arbitrary candidate of bracket g (for failure messages)."""
        return self.vector(g, sorted(carry), self.groups[g], pairs, floaters)


def reference_pairing(players, **round_facts) -> tuple[Oracle, tuple | None]:
    """The reference's pairing of a round as the engine's driver seeks it: under C1-C3 if one
    exists, else with C3 lifted (``oracle.relaxed`` says which). ``round_facts`` are the
    Oracle's keywords (round_number, total_rounds, initial_colour)."""
    oracle = Oracle(players, **round_facts)
    expected = oracle.pair()
    if expected is None:
        oracle = Oracle(players, relaxed=True, **round_facts)
        expected = oracle.pair()
    return oracle, expected
