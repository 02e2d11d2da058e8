"""The compiled twin of ``board.Mirror``: the same window counts, patterns, candidate points and
captures, its inner loops compiled by numba (when it imports; see ``COMPILED``).

``FastMirror`` answers every question of ``Mirror`` with exactly the same values (the search
then chooses exactly the same moves at a fixed node budget: tests/games/bots/
test_compiled.py), keeping its counts in arrays that the compiled functions below update and
read a whole loop at a time. It serves two-colour games of five in a row (Pente, Keryo-Pente,
Gomoku and their kin); Connect6 and the multi-player games keep the pure ``Mirror``.

The compiled code is kept on disk by numba (``cache=True``) and loaded, or compiled the first
time, by ``warm()`` (a fraction of a second from the cache, some seconds the very first time).
Without numba, or with ``PENTE_BOTS_PURE=1`` in the environment, ``COMPILED`` is False and the
search uses the pure ``Mirror``: nothing else changes.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from typing import Any

from games.engine.captures import capture_rays

from .board import SIZE, Mirror, N, geometry

try:  # numba (and numpy, which it brings) are optional: the pure Mirror is the fallback
    if os.environ.get("PENTE_BOTS_PURE"):
        raise ImportError("pure Python asked for")
    import numba
    import numpy as np
except Exception:  # noqa: BLE001 - any failure to import means: no compiled search
    numba = None
    np = None

__all__ = ["COMPILED", "FastMirror", "new_mirror", "use_compiled", "warm"]

COMPILED = numba is not None


def _jit(fn):
    if numba is None:
        return fn
    try:
        return numba.njit(cache=True, nogil=True)(fn)
    except Exception:  # noqa: BLE001 - a cache that cannot be written: compile each run
        return numba.njit(nogil=True)(fn)


# ---------------------------------------------------------------------- compiled loops


@_jit
def _change(p, c, d, board, cnt, occ, owner, pattern, nearby, th, thn, near, nearn, weights):
    """``Mirror._change`` for two colours: a stone of ``c`` on ``p`` in (d=1) or out (d=-1);
    ``pattern[0]`` weighs the windows by ``weights[0]`` (the side to move's), ``pattern[1]`` by
    ``weights[1]`` (the waiting side's)."""
    board[p] = c if d > 0 else 0
    for i in range(thn[p]):
        w = th[p, i]
        was = owner[w]
        if was > 0:
            k = cnt[was, w]
            pattern[0, was] -= weights[0, k]
            pattern[1, was] -= weights[1, k]
        cnt[c, w] += d
        n = occ[w] + d
        occ[w] = n
        if n == 0:
            now = 0
        elif d > 0:
            now = c if (n == 1 or was == c) else -1
        elif was == -1:
            now = -1
            for k in range(1, 3):
                if cnt[k, w] == n:
                    now = k
                    break
        else:
            now = was
        owner[w] = now
        if now > 0:
            k = cnt[now, w]
            pattern[0, now] += weights[0, k]
            pattern[1, now] += weights[1, k]
    for i in range(nearn[p]):
        nearby[near[p, i]] += d


@_jit
def _move_scores(moves, c, cnt, occ, owner, th, thn, weights, out):
    """``Mirror.move_score`` of each of ``moves`` for colour ``c``, into ``out``."""
    for j in range(moves.shape[0]):
        p = moves[j]
        score = 0
        for i in range(thn[p]):
            w = th[p, i]
            mine = cnt[c, w]
            theirs = occ[w] - mine
            if theirs == 0:
                score += weights[mine + 1] - weights[mine]
            elif mine == 0 and owner[w] > 0:
                score += weights[theirs + 1] - weights[theirs]
        out[j] = score


@_jit
def _candidates(board, nearby, out):
    """Empty points within 2 of a stone, ascending, into ``out``; how many."""
    k = 0
    for p in range(board.shape[0]):
        if nearby[p] and not board[p]:
            out[k] = p
            k += 1
    return k


@_jit
def _line_points(c, need, cnt, owner, windows, board, mark, out):
    """Empty points of colour ``c``'s windows holding at least ``need`` stones, ascending, into
    ``out``; how many (``mark``: scratch, left zeroed)."""
    hits = 0
    for w in range(windows.shape[0]):
        if owner[w] == c and cnt[c, w] >= need:
            for i in range(windows.shape[1]):
                q = windows[w, i]
                if board[q] == 0 and mark[q] == 0:
                    mark[q] = 1
                    hits += 1
    k = 0
    if hits:
        for q in range(mark.shape[0]):
            if mark[q]:
                mark[q] = 0
                out[k] = q
                k += 1
    return k


@_jit
def _open_threes(c, need, cnt, owner, windows, board, mark):
    """Empty points lying in two or more of colour ``c``'s windows of exactly ``need`` stones
    (``mark``: scratch, left zeroed)."""
    touched = 0
    for w in range(windows.shape[0]):
        if owner[w] == c and cnt[c, w] == need:
            for i in range(windows.shape[1]):
                q = windows[w, i]
                if board[q] == 0:
                    mark[q] += 1
                    touched += 1
    k = 0
    if touched:
        for q in range(mark.shape[0]):
            if mark[q] >= 2:
                k += 1
            mark[q] = 0
    return k


@_jit
def _five(c, full, cnt, owner):
    for w in range(owner.shape[0]):
        if owner[w] == c and cnt[c, w] >= full:
            return True
    return False


@_jit
def _gains(c, board, caps, pairs, triples, gain):
    """The stones colour ``c`` captures now at each point, added into ``gain`` (by point);
    ``caps``: the capture rays of each point, their lengths and their number."""
    rays, raylen, rayn = caps
    o = 3 - c
    for s in range(board.shape[0]):
        if board[s] != c:
            continue
        for j in range(rayn[s]):
            n = raylen[s, j]
            if n < 3 or board[rays[s, j, 0]] != o or board[rays[s, j, 1]] != o:
                continue
            q = rays[s, j, 2]
            if pairs and board[q] == 0:
                gain[q] += 2
            elif triples and board[q] == o and n > 3 and board[rays[s, j, 3]] == 0:
                gain[rays[s, j, 3]] += 3


@_jit
def _capture_points(c, board, caps, pairs, triples, gain, out):
    """``Mirror.capture_points``: the points where colour ``c`` captures now, ascending, into
    ``out`` (how many), and the stones each takes in ``gain`` (by point; the caller zeroes)."""
    _gains(c, board, caps, pairs, triples, gain)
    k = 0
    for q in range(board.shape[0]):
        if gain[q]:
            out[k] = q
            k += 1
    return k


@_jit
def _wins(
    c,
    need_line,
    need_caps,
    cnt,
    owner,
    windows,
    board,
    caps,
    pairs,
    triples,
    mark,
    gain,
    out,
):
    """Empty points of colour ``c``'s windows of ``need_line`` stones or more and, with
    ``need_caps``, the points where it captures that many stones or more: ascending, into
    ``out``; how many (``mark``, ``gain``: scratch, left zeroed)."""
    for w in range(windows.shape[0]):
        if owner[w] == c and cnt[c, w] >= need_line:
            for i in range(windows.shape[1]):
                q = windows[w, i]
                if board[q] == 0:
                    mark[q] = 1
    if need_caps:
        _gains(c, board, caps, pairs, triples, gain)
    k = 0
    for q in range(mark.shape[0]):
        if mark[q] or (need_caps and gain[q] >= need_caps):
            out[k] = q
            k += 1
        mark[q] = 0
        gain[q] = 0
    return k


@_jit
def _eval_parts(c, line, cnt, owner, windows, board, caps, pairs, triples, mark, gain):
    """What ``_Bot.evaluate`` reads besides the patterns, for colour ``c`` to move: the most
    stones one capture of ``c`` takes (0: none), the number of the opponent's capture points
    and the second most stones among them, the opponent's winning points (its windows one
    short) and ``c``'s open threes."""
    o = 3 - c
    best = 0
    if pairs or triples:
        _gains(c, board, caps, pairs, triples, gain)
        for q in range(gain.shape[0]):
            if gain[q] > best:
                best = gain[q]
            gain[q] = 0
        _gains(o, board, caps, pairs, triples, gain)
    points = 0
    first = 0
    second = 0
    if pairs or triples:
        for q in range(gain.shape[0]):
            g = gain[q]
            if g:
                points += 1
                if g > first:
                    second = first
                    first = g
                elif g > second:
                    second = g
                gain[q] = 0
    wins = 0
    for w in range(windows.shape[0]):
        if owner[w] == o and cnt[o, w] >= line - 1:
            for i in range(windows.shape[1]):
                q = windows[w, i]
                if board[q] == 0 and mark[q] == 0:
                    mark[q] = 1
                    wins += 1
    if wins:
        for q in range(mark.shape[0]):
            mark[q] = 0
    threes = 0
    if wins == 0:
        threes = _open_threes(c, line - 2, cnt, owner, windows, board, mark)
    return best, points, second, wins, threes


@_jit
def _order(
    moves,
    c,
    cnt,
    occ,
    owner,
    th,
    thn,
    weights,
    board,
    caps,
    pairs,
    triples,
    capval,
    ours,
    mine,
    theirs,
    keys,
):
    """``_Bot._ordered``: ``moves`` sorted in place by promise, best first (ties: the higher
    point first). With ``capval`` (the worth of each count of captured stones, empty without
    captures) a capture adds 60 and what it gains, a point where the opponent captures 40 and
    30 a stone (``mine``, ``theirs``: scratch, left zeroed)."""
    n = moves.shape[0]
    _move_scores(moves, c, cnt, occ, owner, th, thn, weights, keys)
    if capval.shape[0]:
        _gains(c, board, caps, pairs, triples, mine)
        _gains(3 - c, board, caps, pairs, triples, theirs)
        for j in range(n):
            p = moves[j]
            k = mine[p]
            if k:
                keys[j] += 60 + capval[ours + k] - capval[ours]
            if theirs[p]:
                keys[j] += 40 + 30 * theirs[p]
        mine[:] = 0
        theirs[:] = 0
    for j in range(n):
        keys[j] = keys[j] * 512 + moves[j]
    keys[:n].sort()
    for j in range(n):
        moves[j] = keys[n - 1 - j] % 512


# ---------------------------------------------------------------------- tables


class _Tables:
    """``board.Geometry`` and the capture rays as padded arrays."""

    def __init__(self, line: int, capture_lengths: tuple[int, ...]) -> None:
        geo = geometry(line)
        self.windows = np.array(geo.windows, dtype=np.int32)
        self.th, self.thn = _padded(geo.through)
        self.near, self.nearn = _padded(geo.near)
        rays = (
            capture_rays(SIZE, capture_lengths) if capture_lengths else tuple(() for _ in range(N))
        )
        width = max((len(r) for per in rays for r in per), default=1)
        self.rays = np.zeros((N, 8, max(1, width)), dtype=np.int32)
        self.raylen = np.zeros((N, 8), dtype=np.int32)
        self.rayn = np.zeros(N, dtype=np.int32)
        for p, per in enumerate(rays):
            self.rayn[p] = len(per)
            for j, r in enumerate(per):
                self.raylen[p, j] = len(r)
                self.rays[p, j, : len(r)] = r
        self.caps = (self.rays, self.raylen, self.rayn)


def _padded(rows: Sequence[Sequence[int]]):
    width = max(len(r) for r in rows)
    arr = np.zeros((len(rows), width), dtype=np.int32)
    lens = np.zeros(len(rows), dtype=np.int32)
    for i, r in enumerate(rows):
        arr[i, : len(r)] = r
        lens[i] = len(r)
    return arr, lens


@cache
def _tables(line: int, capture_lengths: tuple[int, ...]) -> _Tables:
    return _Tables(line, capture_lengths)


# ---------------------------------------------------------------------- the mirror


class FastMirror(Mirror):
    """``Mirror`` for two colours, its counts in arrays updated by the compiled loops; the board
    (a list), the stones per colour, the hash and the undo stack as in ``Mirror``."""

    def _counts(self, nw: int) -> None:
        assert COMPILED and self.colours == 2
        self._weights = np.array(self.weights, dtype=np.int64)  # the move order's
        both = (self.to_move_weights, self.waiting_weights)
        self._eval_weights = np.array(both, dtype=np.int64)
        self.t = _tables(self.line, tuple(sorted(self.lengths)))
        self.arr = np.zeros(N, dtype=np.int32)  # the board, for the compiled loops
        self.cnt = np.zeros((3, nw), dtype=np.int32)
        self.occ = np.zeros(nw, dtype=np.int32)
        self.owner = np.zeros(nw, dtype=np.int32)
        self._pattern = np.zeros((2, 3), dtype=np.int64)
        self.nearby = np.zeros(N, dtype=np.int32)
        self._mark = np.zeros(N, dtype=np.int32)  # scratch of the compiled loops, kept zeroed
        self._gain = np.zeros(N, dtype=np.int32)
        self._out = np.zeros(N, dtype=np.int32)
        self._pairs = 2 in self.lengths
        self._triples = 3 in self.lengths
        t = self.t
        self._state = (self.arr, self.cnt, self.occ, self.owner, self._pattern, self.nearby)
        self._state += (t.th, t.thn, t.near, t.nearn, self._eval_weights)

    @property
    def pattern(self) -> list[int]:
        return self._pattern[0].tolist()

    @property
    def waiting(self) -> list[int]:
        return self._pattern[1].tolist()

    def balance(self, c: int) -> int:
        p = self._pattern
        return int(p[0, c] - p[1, 3 - c])

    @property
    def hot(self) -> list[set[int]]:
        """The windows of ``line - 2`` stones or more of each colour (read rarely)."""
        need = self.line - 2
        out: list[set[int]] = [set() for _ in range(self.colours + 1)]
        for c in (1, 2):
            sel = (self.owner == c) & (self.cnt[c] >= need)
            out[c] = set(np.flatnonzero(sel).tolist())
        return out

    def _change(self, p: int, c: int, d: int) -> None:
        self.stones += d
        self.hash ^= self.geo.zobrist[c][p]
        _change(p, c, d, *self._state)

    def candidates(self) -> list[int]:
        k = _candidates(self.arr, self.nearby, self._out)
        return self._out[:k].tolist() or [N // 2]

    def line_points(self, c: int, due: int = 1) -> set[int]:
        k = _line_points(
            c,
            self.line - due,
            self.cnt,
            self.owner,
            self.t.windows,
            self.arr,
            self._mark,
            self._out,
        )
        out = set(self._out[:k].tolist())
        if due == 1 and self.exact:
            out = {q for q in out if self.makes_line(q, c)}
        return out

    def open_threes(self, c: int) -> int:
        return int(
            _open_threes(
                c, self.line - 2, self.cnt, self.owner, self.t.windows, self.arr, self._mark
            )
        )

    def capture_points(self, c: int) -> dict[int, int]:
        if not self.cap_rays:
            return {}
        t = self.t
        gain = self._mark
        k = _capture_points(c, self.arr, t.caps, self._pairs, self._triples, gain, self._out)
        if not k:
            return {}
        points = self._out[:k].tolist()
        values = gain[points].tolist()
        gain[points] = 0
        return dict(zip(points, values, strict=True))

    def wins_points(self, c: int, due: int, need: int) -> set[int]:
        """``line_points(c, due)`` and, with ``need``, the points where ``c`` captures at least
        ``need`` stones (``_Bot._wins_now``), in one compiled loop (not for exact lines)."""
        t = self.t
        k = _wins(
            c, self.line - due, need if self.cap_rays else 0, self.cnt, self.owner, t.windows,
            self.arr, t.caps, self._pairs, self._triples, self._mark,
            self._gain, self._out,
        )  # fmt: skip
        return set(self._out[:k].tolist())

    def eval_parts(self, c: int) -> tuple[int, int, int, int, int]:
        """``_eval_parts``: the reads of ``_Bot.evaluate`` beyond the patterns, at once."""
        t = self.t
        return _eval_parts(
            c, self.line, self.cnt, self.owner, t.windows, self.arr, t.caps,
            self._pairs, self._triples, self._mark, self._gain,
        )  # fmt: skip

    def ordered(self, moves: list[int], c: int, capval: tuple[int, ...], ours: int) -> list[int]:
        """The moves by promise, best first (``_Bot._ordered``, one compiled loop)."""
        t = self.t
        arr = np.array(moves, dtype=np.int32)
        keys = np.empty(len(moves), dtype=np.int64)
        vals = np.array(capval, dtype=np.int64)
        _order(
            arr,
            c,
            self.cnt,
            self.occ,
            self.owner,
            t.th,
            t.thn,
            self._weights,
            self.arr,
            t.caps,
            self._pairs,
            self._triples,
            vals,
            ours,
            self._mark,
            self._gain,
            keys,
        )
        return arr.tolist()

    def five_on_board(self, c: int) -> bool:
        return bool(_five(c, self.line, self.cnt, self.owner))

    def move_score(self, p: int, c: int) -> int:
        return self.move_scores([p], c)[0]

    def move_scores(self, moves: list[int], c: int) -> list[int]:
        t = self.t
        arr = np.array(moves, dtype=np.int32)
        out = np.empty(len(moves), dtype=np.int64)
        _move_scores(arr, c, self.cnt, self.occ, self.owner, t.th, t.thn, self._weights, out)
        return out.tolist()


def warm() -> bool:
    """Load (or compile, the first time) the compiled loops by running each once; whether the
    compiled search is on."""
    if not COMPILED:
        return False
    for lengths in ((2,), (2, 3), ()):
        m = FastMirror([0] * N, line=5, exact=False, colours=2, capture_lengths=lengths)
        for p, c in ((180, 1), (181, 2), (182, 2), (179, 1)):
            m.add(p, c)
        m.candidates()
        m.line_points(1, 2)
        m.open_threes(1)
        m.capture_points(1)
        m.five_on_board(1)
        m.move_scores(m.candidates(), 1)
        m.remove(179)
    return True


_ON = [COMPILED]  # whether new mirrors are compiled ones (``use_compiled``)


def use_compiled(on: bool) -> bool:
    """Switch the compiled mirror on or off for the searches that start from now (benchmarks
    and tests compare the two); returns the previous setting. On only when numba imports."""
    before = _ON[0]
    _ON[0] = bool(on) and COMPILED
    return before


def new_mirror(board: Sequence[int], **options: Any) -> Mirror:
    """The compiled mirror where it serves (two colours, five in a row) and is on, else the
    pure one; ``options``: ``Mirror``'s keywords (``tuned``: the windows weighed by
    ``board.CAPTURE_WEIGHTS``)."""
    compiled = _ON[0] and options["colours"] == 2 and options["line"] == 5
    return (FastMirror if compiled else Mirror)(board, **options)
