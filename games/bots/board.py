"""The bot's own view of a Pente-family board, kept up to date stone by stone.

The engine stays the referee: every stone is played on a ``games.engine.Game`` and then mirrored
here from its ``MoveResult`` (stone, captures, poofs), so that the line patterns, the candidate
points and the position's hash are updated around the changed points only, never rescanned.

Patterns are counted in *windows*: every run of ``line`` consecutive points (5, Connect6: 6) in
the four directions. A window that holds stones of one colour only is that colour's: with k of
them it is worth ``WEIGHTS[k]`` (an open four is two windows of four, a closed four one, an open
three three windows of three...). A window of ``line - 1`` stones and one empty point is a
*four*: its empty point wins at once (Gomoku's overlines are checked with ``makes_line``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from games.engine.captures import capture_rays, captured_by
from games.engine.lines import lines_through
from games.engine.tables import tables

SIZE = 19
N = SIZE * SIZE
_AXES = ((1, 0), (0, 1), (1, 1), (1, -1))

# weight of a window holding k stones of one colour only (index k), per line length
WEIGHTS = {
    5: (0, 1, 8, 60, 450, 20000),
    6: (0, 1, 4, 20, 120, 700, 20000),
}
#: The tuned evaluation of the games with captures (five in a row, level 8): the windows of
#: the side to move and of the side waiting for its turn weigh differently (docs: "The
#: evaluation"); ``WEIGHTS[5]`` stays the weight of the move order.
CAPTURE_WEIGHTS = ((0, 2, 13, 60, 450, 20000), (0, 1, 5, 48, 450, 20000))


def window_weights(line: int, tuned: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The weights of the windows of the side to move and of the waiting side: the tuned ones
    (``tuned``: a game with captures and five in a row) or ``WEIGHTS`` for both."""
    if tuned and line == 5:
        return CAPTURE_WEIGHTS
    return WEIGHTS[line], WEIGHTS[line]


class Geometry:
    """Windows of one line length on the 19x19 board, and the points within 2 of each point."""

    def __init__(self, line: int) -> None:
        windows: list[tuple[int, ...]] = []
        for dx, dy in _AXES:
            for y in range(SIZE):
                for x in range(SIZE):
                    ex, ey = x + dx * (line - 1), y + dy * (line - 1)
                    if 0 <= ex < SIZE and 0 <= ey < SIZE:
                        windows.append(tuple(x + dx * k + SIZE * (y + dy * k) for k in range(line)))
        through: list[list[int]] = [[] for _ in range(N)]
        for w, pts in enumerate(windows):
            for p in pts:
                through[p].append(w)
        self.line = line
        self.windows = tuple(windows)
        self.through = tuple(tuple(ws) for ws in through)
        self.near = tuple(
            tuple(
                x + SIZE * y
                for y in range(max(0, p // SIZE - 2), min(SIZE, p // SIZE + 3))
                for x in range(max(0, p % SIZE - 2), min(SIZE, p % SIZE + 3))
                if x + SIZE * y != p
            )
            for p in range(N)
        )
        self.axes = tables(SIZE).axes
        rng = random.Random(line)
        self.zobrist = tuple(tuple(rng.getrandbits(64) for _ in range(N)) for _ in range(7))


@cache
def geometry(line: int) -> Geometry:
    return Geometry(line)


class Mirror:
    """Window counts, pattern totals per colour, fours, candidate points and a Zobrist hash."""

    def __init__(
        self,
        board: Sequence[int],
        *,
        line: int,
        exact: bool,
        colours: int,
        capture_lengths: tuple[int, ...],
        tuned: bool = False,
    ) -> None:
        geo = geometry(line)
        self.geo = geo
        self.line = line
        self.exact = exact
        self.colours = colours
        self.weights = WEIGHTS[line]
        self.to_move_weights, self.waiting_weights = window_weights(line, tuned)
        self.lengths = frozenset(capture_lengths)
        self.cap_rays = capture_rays(SIZE, capture_lengths) if capture_lengths else ()
        self.board = [0] * N
        self._counts(len(geo.windows))
        self.stones = 0
        self.of: list[set[int]] = [set() for _ in range(colours + 1)]  # stones per colour
        self.hash = 0
        self.stack: list[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
        for p, c in enumerate(board):
            if c:
                self.add(p, c)

    def _counts(self, nw: int) -> None:
        """The empty counts of ``nw`` windows (the compiled mirror keeps them in arrays)."""
        colours = self.colours
        self.cnt = [[0] * nw for _ in range(colours + 1)]
        self.occ = [0] * nw
        self.owner = [0] * nw  # 0 empty, a colour when only it is there, -1 mixed
        self.pattern = [0] * (colours + 1)  # each colour's windows, weighed as the side to move
        self.waiting = [0] * (colours + 1)  # and as the side waiting for its turn
        self.hot: list[set[int]] = [set() for _ in range(colours + 1)]  # windows of line-2 up
        self.nearby = [0] * N  # stones within 2

    # ------------------------------------------------------------------ updates

    def add(self, p: int, c: int) -> None:
        self.board[p] = c
        self.of[c].add(p)
        self._change(p, c, 1)

    def remove(self, p: int) -> None:
        c = self.board[p]
        self.board[p] = 0
        self.of[c].discard(p)
        self._change(p, c, -1)

    def _change(self, p: int, c: int, d: int) -> None:
        """Count a stone of ``c`` on ``p`` in (``d`` = 1) or out (``d`` = -1).

        A window's worth is taken out of its owner's total, the counts change, and the worth
        (under the possibly new owner) is put back; written out for speed."""
        self.stones += d
        self.hash ^= self.geo.zobrist[c][p]
        cnt = self.cnt[c]
        cnts = self.cnt
        occ = self.occ
        owner = self.owner
        weights = self.to_move_weights
        waits = self.waiting_weights
        pattern = self.pattern
        waiting = self.waiting
        hot = self.hot
        hot_at = self.line - 2
        for w in self.geo.through[p]:
            was = owner[w]
            if was > 0:
                k = cnts[was][w]
                pattern[was] -= weights[k]
                waiting[was] -= waits[k]
                if k >= hot_at:
                    hot[was].discard(w)
            cnt[w] += d
            n = occ[w] + d
            occ[w] = n
            if not n:
                now = 0
            elif d > 0:
                now = c if n == 1 or was == c else -1
            elif was == -1:
                now = next((k for k in range(1, self.colours + 1) if cnts[k][w] == n), -1)
            else:
                now = was
            owner[w] = now
            if now > 0:
                k = cnts[now][w]
                pattern[now] += weights[k]
                waiting[now] += waits[k]
                if k >= hot_at:
                    hot[now].add(w)
        nearby = self.nearby
        for q in self.geo.near[p]:
            nearby[q] += d

    def apply(self, p: int, c: int, captured: tuple[int, ...], poofed: tuple[int, ...]) -> None:
        """Mirror a stone the engine has placed (its ``MoveResult``)."""
        self.add(p, c)
        colours = tuple(self.board[q] for q in captured)
        for q in captured:
            self.remove(q)
        for q in poofed:
            self.remove(q)
        self.stack.append((p, c, captured, colours, poofed))

    def undo(self) -> None:
        p, c, captured, colours, poofed = self.stack.pop()
        for q in poofed:
            self.add(q, c)
        for q, x in zip(captured, colours, strict=True):
            self.add(q, x)
        self.remove(p)

    # ------------------------------------------------------------------ reading

    def candidates(self) -> list[int]:
        """Empty points within 2 of a stone (the centre on an empty board)."""
        board = self.board
        nearby = self.nearby
        out = [p for p in range(N) if nearby[p] and not board[p]]
        return out or [N // 2]

    def makes_line(self, p: int, c: int) -> bool:
        """Whether a stone of colour ``c`` on the empty point ``p`` makes a winning line."""
        runs = lines_through(self.board, SIZE, p, c, self.line)
        return any(len(run) == self.line for run in runs) if self.exact else bool(runs)

    def line_points(self, c: int, due: int = 1) -> set[int]:
        """Empty points of colour ``c``'s windows that ``due`` more stones complete (for
        ``due == 1``: the points where one stone makes a line)."""
        need = self.line - due
        cnt = self.cnt[c]
        board = self.board
        out: set[int] = set()
        for w in self.hot[c]:
            if cnt[w] >= need:
                out.update(q for q in self.geo.windows[w] if not board[q])
        if due == 1 and self.exact:
            out = {q for q in out if self.makes_line(q, c)}
        return out

    def open_threes(self, c: int) -> int:
        """Empty points lying in two or more of colour ``c``'s windows of ``line - 2`` stones:
        where one stone makes an open four (or two fours at once)."""
        need = self.line - 2
        cnt = self.cnt[c]
        board = self.board
        seen: dict[int, int] = {}
        for w in self.hot[c]:
            if cnt[w] == need:
                for q in self.geo.windows[w]:
                    if not board[q]:
                        seen[q] = seen.get(q, 0) + 1
        return sum(1 for k in seen.values() if k >= 2)

    def capture_gain(self, p: int, c: int) -> int:
        """Stones a stone of colour ``c`` on ``p`` would capture (two-colour games)."""
        if not self.cap_rays or self.board[p]:
            return 0
        return len(captured_by(self.board, self.cap_rays[p], c, 3 - c, self.lengths))

    def balance(self, c: int) -> int:
        """Colour ``c``'s windows weighed as the side to move, less the other colour's weighed
        as the side waiting (two colours): the evaluation's line patterns."""
        return self.pattern[c] - self.waiting[3 - c]

    def capture_points(self, c: int) -> dict[int, int]:
        """{point: stones captured} for every capture colour ``c`` can make now (two colours):
        found from ``c``'s own stones, the far end of each bracket."""
        if not self.cap_rays:
            return {}
        out: dict[int, int] = {}
        board = self.board
        o = 3 - c
        pairs = 2 in self.lengths
        triples = 3 in self.lengths
        rays = self.cap_rays
        for s in self.of[c]:
            for r in rays[s]:
                if board[r[0]] != o or len(r) < 3 or board[r[1]] != o:
                    continue
                q = r[2]
                if pairs and not board[q]:
                    out[q] = out.get(q, 0) + 2
                elif triples and board[q] == o and len(r) > 3 and not board[r[3]]:
                    q = r[3]
                    out[q] = out.get(q, 0) + 3
        return out

    def capture_threat_points(self, c: int) -> set[int]:
        """Empty points where a stone of colour ``c`` brackets a run of the other colour whose
        far end is empty: the stone threatens to capture it next (two colours)."""
        if not self.cap_rays:
            return set()
        out: set[int] = set()
        board = self.board
        o = 3 - c
        lengths = self.lengths
        for s in self.of[o]:
            for r in self.cap_rays[s]:
                # r starts next to s: s and the stones after it are a run of o, then empty
                k = 1
                while k < len(r) and board[r[k - 1]] == o:
                    k += 1
                # r[k - 1] is the first point after the run (or the run reached the end)
                if board[r[k - 1]] or k not in lengths:
                    continue
                # the run is s plus r[:k - 1]; its near end, behind s, must be empty too
                back = self._behind(s, r)
                if back is not None and not board[back]:
                    out.add(back)
                    out.add(r[k - 1])
        return out

    def _behind(self, s: int, r: tuple[int, ...]) -> int | None:
        """The point before ``s`` on the ray ``r`` from it (None off the board)."""
        step = r[0] - s
        x, y = s % SIZE, s // SIZE
        dx = (r[0] % SIZE) - x
        dy = (r[0] // SIZE) - y
        bx, by = x - dx, y - dy
        if 0 <= bx < SIZE and 0 <= by < SIZE:
            return s - step
        return None

    def five_on_board(self, c: int) -> bool:
        """Whether colour ``c`` has a full line of ``line`` stones standing (a pending Boat
        five)."""
        full = self.line
        cnt = self.cnt[c]
        return any(cnt[w] >= full for w in self.hot[c])

    def move_scores(self, moves: list[int], c: int) -> list[int]:
        """``move_score`` of each of ``moves`` (one call: the compiled mirror's loop)."""
        return [self.move_score(p, c) for p in moves]

    def move_score(self, p: int, c: int) -> int:
        """How much a stone of ``c`` on ``p`` adds to its windows and takes from the others'."""
        weights = self.weights
        cnt = self.cnt[c]
        occ = self.occ
        score = 0
        for w in self.geo.through[p]:
            mine = cnt[w]
            theirs = occ[w] - mine
            if not theirs:
                score += weights[mine + 1] - weights[mine]
            elif not mine and self.owner[w] > 0:
                score += weights[theirs + 1] - weights[theirs]
        return score
