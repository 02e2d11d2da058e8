"""The computer opponent's Go: Monte Carlo tree search (pure Python, no framework).

``go_action(game, level=1..8, budget_s=...)`` returns a ``GoAction`` for the seat expected to
act: a stone or a pass, the proposed dead stones, or the answer to a proposal. Playouts, the
tree, ownership, passing and marking: docs/computer-opponents.md, "Go: Monte Carlo tree search".
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from games.engine.go import GoGame

__all__ = ["GoAction", "go_action"]

# per level: (share of the budget, playout cap, chance of a noisy pick, moves it picks among)
_LEVELS = {
    1: (0.5, 40, 0.5, 6),
    2: (0.5, 150, 0.2, 3),
    3: (0.5, 600, 0.0, 1),
    4: (0.5, 1_500, 0.0, 1),
    5: (0.5, 4_000, 0.0, 1),
    6: (0.45, 10_000, 0.0, 1),
    7: (0.6, 30_000, 0.0, 1),
    8: (0.95, 1_000_000, 0.0, 1),
}
_MARK_CAP = 400  # playouts to judge dead stones: more are not needed
_MARK_SHARE = 0.9  # of the budget, to mark or to answer a marking, at every level
_MIN_DEAD = 24  # playouts below which no stone is judged dead
_RAVE_EQ = 600.0  # visits at which the RAVE and the real statistics weigh the same
_EXPLORE = 0.2
_LOCAL = 0.5  # chance that a playout move answers next to the last one (when no tactic)
_EXPAND_AFTER = 1  # real visits of a leaf before it grows its children
_CLOCK_EVERY = 2  # playout moves between two looks at the clock
#: With ``max_nodes`` each look at the clock counts as this much time, about the cost of
#: ``_CLOCK_EVERY`` playout moves, so that the levels' shares keep their meaning.
_NODE_S = 2.5e-4


class _NodeClock:
    """A clock that moves on ``_NODE_S`` at each look: a search timed by it depends on the
    playout moves it makes, never on the machine's speed (tests)."""

    __slots__ = ("now",)

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += _NODE_S
        return self.now


@dataclass(frozen=True, slots=True)
class GoAction:
    """What the bot does: ``play`` ``point``, ``pass``, ``mark`` the ``dead`` stones, ``accept``
    or ``reject`` a proposal (naming the ``disputed`` stones); ``winrate`` is the mover's
    estimated chance to win."""

    kind: str
    point: int | None = None
    dead: frozenset[int] = frozenset()
    winrate: float = 0.5
    disputed: frozenset[int] = frozenset()


class _Timeout(Exception):
    pass


# ---------------------------------------------------------------------------- geometry


@dataclass(frozen=True, slots=True)
class _Geometry:
    size: int
    width: int  # size + 2: a frame of border points all around
    cells: int
    inner: tuple[int, ...]  # the framed index of every board point, in engine order
    outer: tuple[int, ...]  # framed index -> engine point (-1 on the frame)
    dirs: tuple[int, int, int, int]
    diags: tuple[int, int, int, int]
    line: tuple[int, ...]  # 1 on the edge, 2 next to it, ... (0 on the frame)
    near: tuple[tuple[int, ...], ...]  # points at Manhattan distance 1..2 (on the board)


@cache
def _geometry(size: int) -> _Geometry:
    w = size + 2
    cells = w * w
    inner = tuple((y + 1) * w + x + 1 for y in range(size) for x in range(size))
    outer = [-1] * cells
    line = [0] * cells
    for p, q in enumerate(inner):
        outer[q] = p
        y, x = divmod(p, size)
        line[q] = 1 + min(x, y, size - 1 - x, size - 1 - y)
    near: list[tuple[int, ...]] = [() for _ in range(cells)]
    for q in inner:
        around = []
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                if 0 < abs(dx) + abs(dy) <= 2:
                    r = q + dy * w + dx
                    if 0 <= r < cells and outer[r] >= 0:
                        around.append(r)
        near[q] = tuple(around)
    return _Geometry(
        size=size,
        width=w,
        cells=cells,
        inner=inner,
        outer=tuple(outer),
        dirs=(-w, -1, 1, w),
        diags=(-w - 1, -w + 1, w - 1, w + 1),
        line=tuple(line),
        near=tuple(near),
    )


# ---------------------------------------------------------------------------- the light board

_EMPTY, _EDGE = 0, 3


class _Board:
    """A board for playouts: ``colour`` 0 empty, 1 black, 2 white, 3 the frame; a chain is a
    circular list (``nxt``) named by its root (``root``), with a stone count and a
    pseudo-liberty count (empty neighbours counted once per stone touching them)."""

    __slots__ = ("geo", "colour", "root", "nxt", "libs", "stones", "ko", "empties", "where")

    def __init__(self, geo: _Geometry) -> None:
        self.geo = geo
        n = geo.cells
        self.colour = [_EDGE] * n
        for q in geo.inner:
            self.colour[q] = _EMPTY
        self.root = list(range(n))
        self.nxt = list(range(n))
        self.libs = [0] * n
        self.stones = [0] * n
        self.ko = -1
        self.empties = list(geo.inner)
        self.where = [-1] * n
        for i, q in enumerate(self.empties):
            self.where[q] = i

    @classmethod
    def of(cls, game: GoGame) -> _Board:
        board = cls(_geometry(game.size))
        inner = board.geo.inner
        for p, c in enumerate(game.board):
            if c:  # a legal position: placing its stones one by one never captures
                board.play(inner[p], c)
        board.ko = -1
        return board

    def copy(self) -> _Board:
        b = _Board.__new__(_Board)
        b.geo = self.geo
        b.colour = self.colour[:]
        b.root = self.root[:]
        b.nxt = self.nxt[:]
        b.libs = self.libs[:]
        b.stones = self.stones[:]
        b.ko = self.ko
        b.empties = self.empties[:]
        b.where = self.where[:]
        return b

    # -------------------------------------------------------------- reading

    def liberties(self, g: int, limit: int) -> set[int]:
        """The empty points next to chain ``g``, stopping once there are more than ``limit``."""
        colour, nxt, dirs = self.colour, self.nxt, self.geo.dirs
        found: set[int] = set()
        s = g
        while True:
            for d in dirs:
                q = s + d
                if colour[q] == _EMPTY:
                    found.add(q)
            if len(found) > limit:
                return found
            s = nxt[s]
            if s == g:
                return found

    def is_legal(self, p: int, c: int) -> bool:
        colour = self.colour
        if colour[p] != _EMPTY or p == self.ko:
            return False
        root, libs = self.root, self.libs
        nbrs = [p + d for d in self.geo.dirs]
        for q in nbrs:
            if colour[q] == _EMPTY:
                return True
        for q in nbrs:
            v = colour[q]
            if v == _EDGE:
                continue
            g = root[q]
            touching = sum(1 for r in nbrs if colour[r] == v and root[r] == g)
            if v == c:
                if libs[g] > touching:
                    return True
            elif libs[g] == touching:
                return True  # it captures
        return False

    def is_eye(self, p: int, c: int) -> bool:
        """Whether ``p`` is an eye-like point of ``c``: ``c`` (or the edge) all around, and at
        most one (none on the edge) of the diagonal points the opponent's."""
        colour = self.colour
        for d in self.geo.dirs:
            v = colour[p + d]
            if v != c and v != _EDGE:
                return False
        bad = 0
        edge = False
        o = 3 - c
        for d in self.geo.diags:
            v = colour[p + d]
            if v == o:
                bad += 1
            elif v == _EDGE:
                edge = True
        return bad + edge < 2

    def captures(self, p: int, c: int) -> int:
        """How many stones ``c`` playing the empty point ``p`` takes."""
        colour, root, libs, stones = self.colour, self.root, self.libs, self.stones
        o = 3 - c
        nbrs = [p + d for d in self.geo.dirs]
        taken = 0
        seen: list[int] = []
        for q in nbrs:
            if colour[q] == o:
                g = root[q]
                if g in seen:
                    continue
                seen.append(g)
                if libs[g] == sum(1 for r in nbrs if colour[r] == o and root[r] == g):
                    taken += stones[g]
        return taken

    def after(self, p: int, c: int) -> tuple[int, int]:
        """(liberties, stones) of ``c``'s chain at ``p`` once it is played there, captures
        left aside (liberties counted up to 3)."""
        colour, root, stones = self.colour, self.root, self.stones
        found: set[int] = set()
        size = 1
        seen: list[int] = []
        for d in self.geo.dirs:
            q = p + d
            v = colour[q]
            if v == _EMPTY:
                found.add(q)
            elif v == c:
                g = root[q]
                if g not in seen:
                    seen.append(g)
                    size += stones[g]
                    found |= self.liberties(g, 3)
        found.discard(p)
        return len(found), size

    # -------------------------------------------------------------- moving

    def play(self, p: int, c: int) -> None:
        """Put a stone of ``c`` on the empty point ``p`` (the move must be legal)."""
        colour, root, nxt, libs, stones = self.colour, self.root, self.nxt, self.libs, self.stones
        colour[p] = c
        root[p] = p
        nxt[p] = p
        stones[p] = 1
        own = 0
        friends: list[int] = []
        foes: list[int] = []
        for d in self.geo.dirs:
            q = p + d
            v = colour[q]
            if v == _EMPTY:
                own += 1
            elif v != _EDGE:
                g = root[q]
                libs[g] -= 1
                if v == c:
                    if g not in friends:
                        friends.append(g)
                elif g not in foes:
                    foes.append(g)
        libs[p] = own
        # the point is no longer empty
        empties, where = self.empties, self.where
        i = where[p]
        last = empties.pop()
        if last != p:
            empties[i] = last
            where[last] = i
        where[p] = -1
        taken = 0
        taken_at = -1
        for g in foes:
            if libs[g] == 0:
                taken += stones[g]
                taken_at = g
                self._remove(g)
        g = p
        for f in friends:
            g = self._merge(g, f)
        if taken == 1 and stones[g] == 1 and libs[g] == 1:
            self.ko = taken_at
        else:
            self.ko = -1

    def _merge(self, a: int, b: int) -> int:
        root, nxt, libs, stones = self.root, self.nxt, self.libs, self.stones
        if stones[a] < stones[b]:
            a, b = b, a
        s = b
        while True:
            root[s] = a
            s = nxt[s]
            if s == b:
                break
        nxt[a], nxt[b] = nxt[b], nxt[a]
        libs[a] += libs[b]
        stones[a] += stones[b]
        return a

    def _remove(self, g: int) -> None:
        colour, root, nxt, libs, dirs = self.colour, self.root, self.nxt, self.libs, self.geo.dirs
        empties, where = self.empties, self.where
        s = g
        while True:
            colour[s] = _EMPTY
            where[s] = len(empties)
            empties.append(s)
            s = nxt[s]
            if s == g:
                break
        s = g
        while True:
            for d in dirs:
                v = colour[s + d]
                if v == 1 or v == 2:
                    libs[root[s + d]] += 1
            s2 = nxt[s]
            nxt[s] = s
            root[s] = s
            s = s2
            if s == g:
                break

    # -------------------------------------------------------------- the playout policy

    def tactical(self, last: int, c: int, rng: random.Random) -> int:
        """A reply of ``c`` to the stone at ``last``: take a chain left in atari, or save one's
        own; -1 when there is none."""
        colour, root = self.colour, self.root
        if last < 0 or colour[last] not in (1, 2):
            return -1
        o = 3 - c
        moves: list[int] = []
        chains = [root[last]] if colour[last] == o else []
        for d in self.geo.dirs:
            q = last + d
            if colour[q] == c and root[q] not in chains:
                chains.append(root[q])
        for g in chains:
            libs = self.liberties(g, 1)
            if len(libs) != 1:
                continue
            (lib,) = libs
            if colour[g] == o:
                moves.append(lib)
                continue
            if self.after(lib, c)[0] >= 2 or self.captures(lib, c):
                moves.append(lib)
            moves.extend(self._rescues(g))
        moves = [m for m in moves if self.is_legal(m, c)]
        return rng.choice(moves) if moves else -1

    def _rescues(self, g: int) -> list[int]:
        """The liberties of the opponent's chains in atari next to chain ``g``."""
        colour, root, nxt, dirs = self.colour, self.root, self.nxt, self.geo.dirs
        o = 3 - colour[g]
        seen: list[int] = []
        out: list[int] = []
        s = g
        while True:
            for d in dirs:
                q = s + d
                if colour[q] == o and root[q] not in seen:
                    seen.append(root[q])
                    libs = self.liberties(root[q], 1)
                    if len(libs) == 1:
                        out.extend(libs)
            s = nxt[s]
            if s == g:
                return out

    def local_move(self, last: int, c: int, rng: random.Random) -> int:
        """A random legal move of ``c`` on one of the 8 points around ``last`` that fills no
        eye of its own and puts no two stones of its own in atari; -1 when there is none."""
        colour = self.colour
        around = [last + d for d in self.geo.dirs + self.geo.diags]
        rng.shuffle(around)
        for p in around:
            if colour[p] != _EMPTY or not self.is_legal(p, c) or self.is_eye(p, c):
                continue
            libs, size = self.after(p, c)
            if libs < 2 and size > 1 and not self.captures(p, c):
                continue
            return p
        return -1

    def random_move(self, c: int, rng: random.Random) -> int:
        """A random legal move of ``c`` that fills no eye of its own and seldom puts two or more
        of its stones in atari; -1 (a pass) when there is none."""
        empties = self.empties
        n = len(empties)
        if not n:
            return -1
        colour, dirs = self.colour, self.geo.dirs
        start = rng.randrange(n)
        for k in range(n):
            p = empties[(start + k) % n]
            if not self.is_legal(p, c) or self.is_eye(p, c):
                continue
            space = 0
            for d in dirs:
                if colour[p + d] == _EMPTY:
                    space += 1
            if space < 2 and rng.random() < 0.9:
                libs, size = self.after(p, c)
                if libs < 2 and size > 1 and not self.captures(p, c):
                    continue
            return p
        return -1

    def area(self, komi: float) -> tuple[float, list[int]]:
        """(black minus white minus komi, the owner of every framed point): stones, and the
        empty regions that touch one colour only."""
        colour, dirs = self.colour, self.geo.dirs
        owner = [0] * len(colour)
        seen = [False] * len(colour)
        diff = -komi
        for q in self.geo.inner:
            v = colour[q]
            if v == 1:
                owner[q] = 1
                diff += 1
            elif v == 2:
                owner[q] = 2
                diff -= 1
            elif not seen[q]:
                seen[q] = True
                region = [q]
                border = 0
                i = 0
                while i < len(region):
                    r = region[i]
                    i += 1
                    for d in dirs:
                        t = r + d
                        w = colour[t]
                        if w == _EMPTY:
                            if not seen[t]:
                                seen[t] = True
                                region.append(t)
                        elif w != _EDGE:
                            border |= w
                if border == 1:
                    for r in region:
                        owner[r] = 1
                    diff += len(region)
                elif border == 2:
                    for r in region:
                        owner[r] = 2
                    diff -= len(region)
        return diff, owner


# ---------------------------------------------------------------------------- the search


class _Node:
    __slots__ = ("move", "colour", "children", "n", "w", "rn", "rw", "visits")

    def __init__(self, move: int, colour: int, n: float, w: float) -> None:
        self.move = move  # a framed point
        self.colour = colour  # who played it
        self.children: list[_Node] | None = None
        self.n = n  # games through it (virtual ones of the prior included)
        self.w = w  # of them won by ``colour``
        self.rn = 0.0  # RAVE: games where ``colour`` played ``move`` later on
        self.rw = 0.0
        self.visits = 0  # real games through it

    @property
    def value(self) -> float:
        return self.w / self.n if self.n else 0.5


class _Search:
    """One think: the tree, the ownership of the playouts, the clock."""

    def __init__(
        self,
        game: GoGame,
        deadline: float,
        cap: int,
        rng: random.Random,
        board: _Board | None = None,
        *,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.game = game
        self.clock = clock
        self.geo = _geometry(game.size)
        self.board = board or _Board.of(game)
        self.komi = game.komi
        self.deadline = deadline
        self.cap = cap
        self.rng = rng
        self.owned = [0] * self.geo.cells  # playouts won by black minus by white, per point
        self.playouts = 0
        self.black_wins = 0.0
        self.max_moves = 3 * game.size * game.size

    # -------------------------------------------------------------- playouts

    def playout(self, board: _Board, c: int, last: int, record: list[int]) -> float:
        """Play ``board`` out with ``c`` to move; the black result (1 won, 0 lost, 0.5 equal).
        Each move is appended to ``record`` (as ``point * 4 + colour``)."""
        rng = self.rng
        passes = 0
        clock = self.clock
        deadline = self.deadline
        for k in range(self.max_moves):
            if k % _CLOCK_EVERY == 0 and clock() > deadline:
                raise _Timeout
            p = -1
            if last >= 0 and rng.random() < 0.9:
                p = board.tactical(last, c, rng)
                if p < 0 and rng.random() < _LOCAL:
                    p = board.local_move(last, c, rng)
            if p < 0:
                p = board.random_move(c, rng)
            if p < 0:
                passes += 1
                if passes == 2:
                    break
                board.ko = -1
            else:
                passes = 0
                board.play(p, c)
                record.append(p * 4 + c)
            last = p
            c = 3 - c
        diff, owner = board.area(self.komi)
        owned = self.owned
        for q in self.geo.inner:
            v = owner[q]
            if v == 1:
                owned[q] += 1
            elif v == 2:
                owned[q] -= 1
        self.playouts += 1
        result = 1.0 if diff > 0 else (0.0 if diff < 0 else 0.5)
        self.black_wins += result
        return result

    def sample(self, c: int) -> None:
        """Playouts without a tree (for the ownership), until the cap or the clock; the side
        to start alternates."""
        try:
            while self.playouts < self.cap:
                self.playout(self.board.copy(), c, -1, [])
                c = 3 - c
        except _Timeout:
            pass

    # -------------------------------------------------------------- the tree

    def expand(self, node: _Node, board: _Board, c: int, last: int, root: bool) -> None:
        geo = self.geo
        colour = board.colour
        children: list[_Node] = []
        game = self.game
        outer = geo.outer
        # chains short of liberties: their liberties get a prior
        bonus: dict[int, float] = {}
        seen: set[int] = set()
        for q in geo.inner:
            v = colour[q]
            if v == _EMPTY or v == _EDGE:
                continue
            g = board.root[q]
            if g in seen:
                continue
            seen.add(g)
            libs = board.liberties(g, 2)
            if len(libs) > 2:
                continue
            size = board.stones[g]
            if len(libs) == 1:
                (lib,) = libs
                if v != c:  # take it
                    bonus[lib] = bonus.get(lib, 0.0) + 6 + 3 * size
                else:  # save it: extend, or take a neighbour in atari
                    if board.after(lib, c)[0] >= 2:
                        bonus[lib] = bonus.get(lib, 0.0) + 5 + 3 * size
                    for r in board._rescues(g):
                        bonus[r] = bonus.get(r, 0.0) + 5 + 3 * size
            elif v != c:  # an atari
                for lib in libs:
                    bonus[lib] = bonus.get(lib, 0.0) + 1.5
        stones_near_last = geo.near[last] if last >= 0 else ()
        for q in board.empties:
            if not board.is_legal(q, c) or board.is_eye(q, c):
                continue
            if root and not game.is_legal(outer[q]):
                continue
            n, w = 10.0, 5.0
            extra = bonus.get(q, 0.0)
            if extra:
                n += extra
                w += extra
            line = geo.line[q]
            crowd = any(colour[r] == 1 or colour[r] == 2 for r in geo.near[q])
            if not crowd:
                if line == 1:
                    n += 6  # the first line in an empty area
                elif line == 2:
                    n += 2
                elif line in (3, 4):
                    n += 2
                    w += 2
            if q in stones_near_last:
                n += 2
                w += 2
            space = 0
            for d in geo.dirs:
                if colour[q + d] == _EMPTY:
                    space += 1
            if space < 2 and not extra:
                libs, size = board.after(q, c)
                if libs < 2 and not board.captures(q, c):
                    n += 4 + 4 * size  # self-atari
            children.append(_Node(q, c, n, w))
        node.children = children

    def select(self, node: _Node) -> _Node:
        children = node.children
        assert children
        log_n = math.log(node.visits + 1)
        best = children[0]
        best_score = -1.0
        for ch in children:
            n = ch.n
            rn = ch.rn
            value = ch.w / n
            if rn:
                beta = rn / (rn + n + rn * n / _RAVE_EQ)
                value = (1 - beta) * value + beta * ch.rw / rn
            score = value + _EXPLORE * math.sqrt(log_n / (ch.visits + 1))
            if score > best_score:
                best_score = score
                best = ch
        return best

    def simulate(self, root: _Node, me: int, last: int) -> None:
        board = self.board.copy()
        node = root
        path = [root]
        c = me
        record: list[int] = []
        while node.children:
            node = self.select(node)
            board.play(node.move, c)
            record.append(node.move * 4 + c)
            last = node.move
            path.append(node)
            c = 3 - c
            if node.children is None:
                if node.visits >= _EXPAND_AFTER:
                    self.expand(node, board, c, last, root=False)
                break
        depth = len(record)
        black = self.playout(board, c, last, record)
        # RAVE: who played each point first from each node of the path on
        first = [0] * self.geo.cells
        for item in reversed(record[depth:]):
            first[item >> 2] = item & 3
        for i in range(len(path) - 1, -1, -1):
            nd = path[i]
            if i < depth:
                item = record[i]
                first[item >> 2] = item & 3
            nd.visits += 1
            if i > 0:
                nd.n += 1
                nd.w += black if nd.colour == 1 else 1 - black
            if nd.children:
                for ch in nd.children:
                    if first[ch.move] == ch.colour:
                        ch.rn += 1
                        ch.rw += black if ch.colour == 1 else 1 - black

    def search(self, me: int, last: int) -> _Node:
        root = _Node(-1, 3 - me, 0.0, 0.0)
        self.expand(root, self.board, me, last, root=True)
        if not root.children:
            return root
        try:
            while self.playouts < self.cap:
                self.simulate(root, me, last)
        except _Timeout:
            pass
        return root

    # -------------------------------------------------------------- ownership

    def mean(self, p: int) -> float:
        """Mean ownership of engine point ``p``: +1 black every time, -1 white every time."""
        return self.owned[self.geo.inner[p]] / self.playouts if self.playouts else 0.0

    def dead(self) -> frozenset[int]:
        """The stones (engine points) of the chains the other colour owns, with their
        liberties, by a clear margin: the mean ownership (from -1 to 1, one's own colour
        positive) must be below minus one standard error of a mean of ``playouts``, so that a
        few noisy playouts do not judge a healthy lone stone dead."""
        if self.playouts < _MIN_DEAD:
            return frozenset()
        board = self.game.board
        s = self.game.size
        out: list[int] = []
        margin = 1 / math.sqrt(self.playouts)
        for chain in _chains(self.game):
            sign = 1 if board[chain[0]] == 1 else -1
            points = set(chain)
            for p in chain:
                y, x = divmod(p, s)
                for q, ok in (
                    (p - s, y > 0),
                    (p + s, y < s - 1),
                    (p - 1, x > 0),
                    (p + 1, x < s - 1),
                ):
                    if ok and not board[q]:
                        points.add(q)
            if sum(self.mean(p) for p in points) * sign < -margin * len(points):
                out.extend(chain)
        return frozenset(out)


def _chains(game: GoGame) -> list[list[int]]:
    """The chains of stones of the engine's board (engine points)."""
    board = game.board
    s = game.size
    seen = [False] * len(board)
    out = []
    for p, c in enumerate(board):
        if not c or seen[p]:
            continue
        seen[p] = True
        chain = [p]
        i = 0
        while i < len(chain):
            y, x = divmod(chain[i], s)
            for q, ok in ((chain[i] - s, y > 0), (chain[i] + s, y < s - 1)):
                if ok and not seen[q] and board[q] == c:
                    seen[q] = True
                    chain.append(q)
            for q, ok in ((chain[i] - 1, x > 0), (chain[i] + 1, x < s - 1)):
                if ok and not seen[q] and board[q] == c:
                    seen[q] = True
                    chain.append(q)
            i += 1
        out.append(chain)
    return out


def _lead(game: GoGame, me: int, dead: frozenset[int]) -> float:
    """``me``'s lead on the engine's count with ``dead`` off the board."""
    score = game.score(dead=dead)
    return score.black - score.white if me == 1 else score.white - score.black


# ---------------------------------------------------------------------------- the actions


def go_action(
    game: GoGame,
    *,
    level: int,
    budget_s: float = 0.0,
    rng: random.Random | None = None,
    max_nodes: int | None = None,
) -> GoAction:
    """The action of the seat expected to act in ``game`` (which is not changed).
    ``max_nodes``, in place of ``budget_s``: a budget of looks at the clock (one every
    ``_CLOCK_EVERY`` playout moves), the same answer on any machine."""
    clock: Callable[[], float] = time.perf_counter
    if max_nodes is not None:
        clock, budget_s = _NodeClock(), max_nodes * _NODE_S
    start = clock()
    phase = game.phase
    me = game.to_move_colour
    if me is None or phase == "over":
        raise ValueError("The game is over")
    level = min(8, max(1, int(level)))
    share, cap, noise, top = _LEVELS[level]
    rng = rng or random.Random()
    deadline = start + max(0.0, budget_s) * share
    if phase == "marking":  # a one-off that every level does as well as its whole budget allows
        deadline = start + max(0.0, budget_s) * _MARK_SHARE
        search = _Search(game, deadline, _MARK_CAP, rng, clock=clock)
        search.sample(me)
        mine = search.dead()
        winrate = _winrate(search, me)
        proposal = game.proposed_dead
        if proposal is None:
            return GoAction("mark", dead=mine, winrate=winrate)
        if _answer(game, search, me, proposal, mine) == "accept":
            return GoAction("accept", winrate=winrate)
        return GoAction("reject", winrate=winrate, disputed=proposal ^ mine)
    return _play(game, me, level, deadline, rng, clock)


def estimate_dead(
    game: GoGame,
    *,
    budget_s: float = 1.0,
    rng: random.Random | None = None,
    max_nodes: int | None = None,
) -> frozenset[int]:
    """The stones of ``game`` its playouts judge dead (as when the computer marks them), for a
    count at any moment: GTP's ``final_score`` and ``final_status_list``."""
    clock: Callable[[], float] = time.perf_counter
    if max_nodes is not None:
        clock, budget_s = _NodeClock(), max_nodes * _NODE_S
    deadline = clock() + max(0.0, budget_s)
    search = _Search(game, deadline, _MARK_CAP, rng or random.Random(), clock=clock)
    search.sample(game.to_move_colour or 1)
    return search.dead()


def _winrate(search: _Search, me: int) -> float:
    if not search.playouts:
        return 0.5
    black = search.black_wins / search.playouts
    return black if me == 1 else 1 - black


def _answer(
    game: GoGame, search: _Search, me: int, proposal: frozenset[int], mine: frozenset[int]
) -> str:
    board = game.board
    if search.playouts >= _MIN_DEAD:
        for p in proposal:  # a stone of its own it judges alive, marked dead: a robbery
            if board[p] == me and p not in mine:
                return "reject"
    theirs = _lead(game, me, proposal)
    ours = _lead(game, me, mine)
    if theirs >= ours or proposal == mine:
        return "accept"
    if theirs > 0 and ours > 0:
        return "accept"  # it wins either way
    return "reject"


def _play(
    game: GoGame,
    me: int,
    level: int,
    deadline: float,
    rng: random.Random,
    clock: Callable[[], float],
) -> GoAction:
    share, cap, noise, top = _LEVELS[level]
    fast = _Board.of(game)
    geo = fast.geo
    if game.passes:  # the opponent passed: would passing too leave it behind?
        start = clock()
        first = _Search(
            game, start + (deadline - start) * 0.4, max(cap, _MARK_CAP), rng, fast, clock=clock
        )
        first.sample(me)
        dead = first.dead()
        if _lead(game, me, dead) >= 0:
            finish = _urgent(game, fast, me, dead)
            if finish is None:
                return GoAction("pass", winrate=max(0.5, _winrate(first, me)))
            return GoAction("play", point=finish, winrate=_winrate(first, me))
    search = _Search(game, deadline, cap, rng, fast, clock=clock)
    last_point = game.last_point
    last = geo.inner[last_point] if last_point is not None else -1
    if game.last_action != last_point:  # the last move was a pass
        last = -1
    root = search.search(me, last)
    children = sorted(root.children or (), key=lambda ch: (ch.visits, ch.value), reverse=True)
    # The mover's chances: the share of all the playouts won. Not the chosen move's value, whose
    # prior (virtual wins for a good shape) leans it towards the mover: both sides would then
    # look ahead at every ply, and an analysis would flip from one side to the other.
    winrate = _winrate(search, me)
    if not children:
        return GoAction("pass", winrate=winrate)
    dead = search.dead()
    if _finished(game, fast, root, me, dead):
        finish = _urgent(game, fast, me, dead)
        if finish is None:
            finish = _cleanup(game, fast, me, dead)
        if finish is None:
            return GoAction("pass", winrate=winrate)
        return GoAction("play", point=finish, winrate=winrate)
    if noise and rng.random() < noise:
        pool = children[:top]
        weights = [(ch.visits + 1) * ch.value for ch in pool]
        children = [rng.choices(pool, weights=weights)[0], *children]
    for ch in children:
        point = geo.outer[ch.move]
        if game.is_legal(point):
            return GoAction("play", point=point, winrate=winrate)
    return GoAction("pass", winrate=winrate)


def _finished(game: GoGame, fast: _Board, root: _Node, me: int, dead: frozenset[int]) -> bool:
    """Whether no move of the root is worth playing: with ``dead`` off the board, both sides
    still have stones and each move is in a region of one colour (territory) or would put two
    or more of its stones in atari (a point of seki)."""
    score = game.score(dead=dead)
    if not score.black_stones or not score.white_stones:
        return False  # the opening, or one side judged all dead: far from finished
    owned = score.black_territory | score.white_territory
    outer = fast.geo.outer
    for ch in root.children or ():
        if outer[ch.move] in owned:
            continue
        libs, size = fast.after(ch.move, me)
        if libs < 2 and size > 1 and not fast.captures(ch.move, me):
            continue
        return False
    return True


def _urgent(game: GoGame, fast: _Board, me: int, dead: frozenset[int]) -> int | None:
    """Rather than pass: the move that takes the biggest chain of the opponent's left in atari
    (so that it cannot be saved after a rejected marking), else one that saves a chain of its
    own in atari it does not judge dead; None when there is none."""
    geo = fast.geo
    moves = {q for q in fast.empties if fast.is_legal(q, me)}
    best, most = None, 0
    for q in moves:
        taken = fast.captures(q, me)
        if taken > most and game.is_legal(geo.outer[q]):
            best, most = geo.outer[q], taken
    if best is not None:
        return best
    seen: set[int] = set()
    for q in geo.inner:
        if fast.colour[q] != me or fast.root[q] in seen or geo.outer[q] in dead:
            continue
        g = fast.root[q]
        seen.add(g)
        libs = fast.liberties(g, 1)
        if len(libs) != 1:
            continue
        (lib,) = libs
        if fast.stones[g] > most and lib in moves and fast.after(lib, me)[0] >= 2:
            if game.is_legal(geo.outer[lib]):
                best, most = geo.outer[lib], fast.stones[g]
    return best


def _cleanup(game: GoGame, fast: _Board, me: int, dead: frozenset[int]) -> int | None:
    """After a rejected marking, a move that takes the opponent's dead stones off by play
    (a liberty of theirs), or None when there is nothing to take or no marking was rejected."""
    board = game.board
    theirs = [p for p in dead if board[p] == 3 - me]
    if not theirs or "REJECT" not in game.actions:
        return None
    geo = fast.geo
    moves = {q for q in fast.empties if fast.is_legal(q, me) and not fast.is_eye(q, me)}
    targets: set[int] = set()
    for p in theirs:
        targets |= fast.liberties(fast.root[geo.inner[p]], 1_000)
    for q in sorted(targets & moves, key=lambda q: -fast.after(q, me)[0]):
        if game.is_legal(geo.outer[q]):
            return geo.outer[q]
    return None
