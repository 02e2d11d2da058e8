"""The computer opponent's Go: Monte Carlo tree search (pure Python, no framework).

``go_action(game, level=1..8, budget_s=...)`` returns a ``GoAction`` for the seat expected to
act: a stone or a pass, the proposed dead stones, or the answer to a proposal. Playouts, the
tree, ownership, passing and marking: docs/computer-opponents.md, "Go: Monte Carlo tree search".
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from games.bots import go_kernel as _kernel
from games.bots.go_fast import KERNEL as _FAST
from games.bots.go_fast import array as _fast_array
from games.bots.go_fast import zeros as _fast_zeros
from games.engine.go import GoGame, go_tables

_log = logging.getLogger(__name__)

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
_MARK_CAP = 1_000  # playouts to judge dead stones: more are not needed
_MARK_SHARE = 0.9  # of the budget, to mark or to answer a marking, at every level
_MIN_DEAD = 24  # playouts below which no stone is judged dead
_LONE_STONES = 2  # stones alone in the other colour's closed region: dead when ...
_LONE_ROOM = 40  # ... the region (their stones included) is at most this many points
_DEAD_OWNED = 0.2  # a dead chain's points belong to the other colour at least this much more
_PASS_PROBE = 0.25  # of the think time, for playouts as after its pass (before it passes)
_PASS_PROBES = 200  # those playouts, at least (or a quarter of the search's)
_PASS_MARGIN = 0.07  # how much better the best move must do than passing to be played
#: The tree's capacity in nodes (a node is 72 bytes compiled): when full it stops growing.
_TREE_NODES_FAST = 1_000_000
_TREE_NODES_PURE = 150_000
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


def _lists(values: list, *, floats: bool = False) -> list:
    """``values`` as the pure kernel wants them: a list."""
    return [float(v) for v in values] if floats else list(values)


def _list_zeros(length: int, *, floats: bool = False) -> list:
    return [0.0] * length if floats else [0] * length


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


# ---------------------------------------------------------------------------- the search


def warm() -> bool:
    """Compile the numba kernel (or load it from its on-disk cache) with a short search, so
    that the first move is not slowed by it; whether the compiled path is there."""
    global _FAST
    if _FAST is None:
        return False
    try:
        game = GoGame(9)
        game.play(40)
        _play(game, 2, 8, 20 * _NODE_S, random.Random(0), _NodeClock(), compiled=True)
        # the playouts without a tree too (dead stones, the probe before a pass)
        search = _Search(game, 20 * _NODE_S, 2, random.Random(0), clock=_NodeClock())
        search.sample(1)
    except Exception:  # pragma: no cover - numba failing to compile: the pure path plays
        _log.exception("The compiled Go kernel failed; the pure one plays")
        _FAST = None
        return False
    return True


def playout_rates(size: int = 9, *, seconds: float = 1.0, seed: int = 1) -> dict[str, float]:
    """Playouts a second of the tree search on an empty board of ``size`` (after one stone), by
    path: ``pure`` and, when numba is there, ``compiled`` (for ``bench/bots.py``)."""
    game = GoGame(size)
    game.play(size * size // 2)
    rates = {}
    for name, compiled in (("pure", False), ("compiled", True)):
        if compiled and _FAST is None:
            continue
        start = time.perf_counter()
        search = _Search(game, start + seconds, 10**9, random.Random(seed), compiled=compiled)
        search.search(2, -1)
        rates[name] = search.playouts / max(1e-9, time.perf_counter() - start)
    return rates


def compiled_available() -> bool:
    """Whether the numba kernel imported (``go_fast``)."""
    return _FAST is not None


@dataclass(slots=True)
class _Child:
    move: int  # a framed point
    visits: int
    value: float  # the mover's share of the games through it, prior included


@dataclass(slots=True)
class _Tree:
    """A search's tree, kept for the next move of the same game (``_TREES``)."""

    actions: tuple[int | str, ...]
    hash: int  # the position of the game when the tree was searched (its superko history)
    size: int
    komi: float
    compiled: bool
    ti: object
    tf: object
    root: int
    used: int


#: The trees of the last searches, by the game's actions (a few games at once: a worker, a
#: match). A search whose game is one of these plus one or two stones starts from that subtree.
_TREES: list[_Tree] = []
_TREES_KEPT = 4


class _Search:
    """One think: the kernel's arrays (the compiled ones, or lists for the pure path), the tree,
    the ownership of the playouts, the clock."""

    def __init__(
        self,
        game: GoGame,
        deadline: float,
        cap: int,
        rng: random.Random,
        board: _Board | None = None,
        *,
        clock: Callable[[], float] = time.perf_counter,
        compiled: bool | None = None,
    ) -> None:
        del board  # the kernel keeps a board of its own
        self.game = game
        self.clock = clock
        self.geo = geo = _geometry(game.size)
        self.compiled = (_FAST is not None) if compiled is None else compiled
        if self.compiled and _FAST is None:
            raise RuntimeError("numba is not there: no compiled path")
        k = self.k = _FAST if self.compiled else _kernel
        self.arr: Callable[..., object] = _fast_array if self.compiled else _lists
        self.zeros: Callable[..., object] = _fast_zeros if self.compiled else _list_zeros
        self.w = w = geo.width
        self.deadline = deadline
        self.cap = cap
        base = self.arr([0] * k.board_len(w))
        k.clear(base, w)
        for p, c in enumerate(game.board):
            if c:  # a legal position: placing its stones one by one never captures
                k.play(base, w, geo.inner[p], c)
        base[8 * geo.cells] = -1  # no ko on the light board: the engine judges the root
        self.base = base
        self.b = self.arr([0] * len(base))
        self.st = self.arr([rng.getrandbits(31) | 1, 0, 0, 0, 0, 0, 0, 0])
        self.max_moves = 3 * game.size * game.size
        self.owned = self.arr([0] * geo.cells)
        self.komi2 = 2 * game.komi
        self.rec = self.arr([0] * (4 * geo.cells + self.max_moves + 2))
        self.path = self.arr([0] * (4 * geo.cells))
        self.first = self.arr([0] * geo.cells)
        self.bonus = self.arr([0.0] * geo.cells, floats=True)
        self.line = self.arr(list(geo.line))
        near = []
        for q in range(geo.cells):
            near += [*geo.near[q], *[-1] * (12 - len(geo.near[q]))]
        self.near = self.arr(near)
        self.batch = 1

    @property
    def playouts(self) -> int:
        return int(self.st[_kernel.S_PLAYOUTS])

    @property
    def black_wins(self) -> float:
        return int(self.st[_kernel.S_BLACK2]) / 2

    def _loop(self, step: Callable[[int, int], None]) -> None:
        """Run ``step(playouts, moves)`` until the cap or the clock: with the node clock, one
        call whose playout moves the budget bounds (the same stop on either path); with the
        real clock, batches that grow to some milliseconds each."""
        clock = self.clock
        if isinstance(clock, _NodeClock):
            left = self.deadline - clock.now
            moves = max(0, int(left / _NODE_S * _CLOCK_EVERY))
            if moves and self.playouts < self.cap:
                before = int(self.st[_kernel.S_MOVES])
                step(self.cap - self.playouts, moves)
                clock.now += (int(self.st[_kernel.S_MOVES]) - before) / _CLOCK_EVERY * _NODE_S
            return
        while self.playouts < self.cap:
            start = clock()
            if start > self.deadline:
                return
            step(min(self.batch, self.cap - self.playouts), 1 << 60)
            took = clock() - start
            if took < 0.004:
                self.batch *= 2
            elif took > 0.02 and self.batch > 1:
                self.batch //= 2

    # -------------------------------------------------------------- playouts

    def sample(self, c: int, *, alternate: bool = True) -> None:
        """Playouts without a tree (for the ownership), until the cap or the clock; the side
        to start alternates (or is always ``c``)."""
        k = self.k

        def step(playouts: int, moves: int) -> None:
            k.sample(
                self.base, self.b, self.w, self.st, c, self.rec, self.owned, self.max_moves,
                self.komi2, playouts, moves, alternate,
            )  # fmt: skip

        self._loop(step)

    # -------------------------------------------------------------- the tree

    def _tree(
        self, me: int, allowed: list[int] | None, legal: list[int]
    ) -> tuple[object, object, int]:
        """The tree's arrays and root: the subtree of a kept search of this game when its
        moves since lead there (and no moves are filtered), else a new tree."""
        k, game = self.k, self.game
        actions = tuple(game.actions)
        if allowed is None:
            for tree in _TREES:
                extra = actions[len(tree.actions) :]
                if (
                    tree.compiled != self.compiled
                    or (tree.size, tree.komi) != (game.size, game.komi)
                    or not 0 < len(extra) <= 2
                    or actions[: len(tree.actions)] != tree.actions
                    or tree.hash not in game.positions
                ):
                    continue
                node = tree.root
                for action in extra:
                    node = self._child(tree.ti, node, action)
                    if node < 0:
                        break
                if (
                    node >= 0
                    and int(tree.ti[node * k.TI + k.I_FIRST]) >= 0
                    and int(tree.ti[node * k.TI + k.I_COL]) == 3 - me
                ):
                    _TREES.remove(tree)
                    self.st[k.S_USED] = tree.used
                    return tree.ti, tree.tf, node
        capacity = _TREE_NODES_FAST if self.compiled else _TREE_NODES_PURE
        ti = self.zeros(capacity * k.TI)
        tf = self.zeros(capacity * k.TF, floats=True)
        self.st[k.S_USED] = 0
        root = k.new_node(ti, tf, self.st, -1, 3 - me, 0.0, 0.0)
        mask = self.arr(legal)
        k.expand(
            self.base, self.w, ti, tf, self.st, capacity, root, me, -1, self.line, self.near,
            mask, self.bonus,
        )  # fmt: skip
        return ti, tf, root

    def _child(self, ti: object, node: int, action: int | str) -> int:
        """The child of ``node`` for the engine's ``action``, or -1."""
        k = self.k
        if not isinstance(action, int):
            return -1
        move = self.geo.inner[action]
        first = int(ti[node * k.TI + k.I_FIRST])
        for ch in range(first, first + int(ti[node * k.TI + k.I_COUNT])):
            if int(ti[ch * k.TI + k.I_MOVE]) == move:
                return ch
        return -1

    def search(self, me: int, last: int, allowed: list[int] | None = None) -> list[_Child]:
        """The root's moves, the most visited first. The root's moves are those the engine
        accepts (and ``allowed`` when given, 1 per framed point allowed)."""
        k, game, geo = self.k, self.game, self.geo
        if allowed is None:
            legal = [0] * geo.cells
            for p in game.legal_points():
                legal[geo.inner[p]] = 1
        else:
            legal = allowed
        ti, tf, root = self._tree(me, allowed, legal)
        capacity = len(ti) // k.TI
        self.ti, self.tf, self.root = ti, tf, root

        def step(playouts: int, moves: int) -> None:
            k.run(
                self.base, self.b, self.w, ti, tf, self.st, capacity, root, me, last, self.line,
                self.near, self.bonus, self.rec, self.path, self.first, self.owned,
                self.max_moves, self.komi2, playouts, moves,
            )  # fmt: skip

        if int(ti[root * k.TI + k.I_COUNT]) > 0:
            self._loop(step)
        children = []
        first = int(ti[root * k.TI + k.I_FIRST])
        for ch in range(first, first + int(ti[root * k.TI + k.I_COUNT])):
            move = int(ti[ch * k.TI + k.I_MOVE])
            if not legal[move]:
                continue
            n = float(tf[ch * k.TF + k.F_N])
            children.append(
                _Child(move, int(ti[ch * k.TI + k.I_VISITS]), float(tf[ch * k.TF + k.F_W]) / n)
            )
        children.sort(key=lambda ch: (ch.visits, ch.value), reverse=True)
        return children

    def keep(self, chosen: int | None) -> None:
        """Keep this search's tree for the game's next moves (the subtree after ``chosen``,
        an engine point) unless it is nearly full."""
        k = self.k
        capacity = len(self.ti) // k.TI
        if chosen is None or int(self.st[k.S_USED]) > capacity * 0.6:
            return
        node = self._child(self.ti, self.root, chosen)
        if node < 0:
            return
        game = self.game
        actions = (*game.actions, chosen)
        tree = _Tree(
            actions, game.position_hash, game.size, game.komi, self.compiled, self.ti, self.tf,
            node, int(self.st[k.S_USED]),
        )  # fmt: skip
        _TREES.insert(0, tree)
        del _TREES[_TREES_KEPT:]

    # -------------------------------------------------------------- ownership

    def mean(self, p: int) -> float:
        """Mean ownership of engine point ``p``: +1 black every time, -1 white every time."""
        n = self.playouts
        return int(self.owned[self.geo.inner[p]]) / n if n else 0.0

    def dead(self) -> frozenset[int]:
        """The stones (engine points) of the chains the other colour owns, with their
        liberties, by a clear margin: the mean ownership (from -1 to 1, one's own colour
        positive) must be below minus one standard error of a mean of ``playouts``, so that a
        few noisy playouts do not judge a healthy lone stone dead, and below ``-_DEAD_OWNED``,
        so that the stones of a seki (which the playouts break now for one side, now for the
        other) count as alive, as GNU Go counts them."""
        if self.playouts < _MIN_DEAD:
            return frozenset()
        board, nbrs = self.game.board, go_tables(self.game.size).neighbours
        out: list[int] = []
        margin = max(_DEAD_OWNED, 1 / math.sqrt(self.playouts))
        for chain in _chains(self.game):
            sign = 1 if board[chain[0]] == 1 else -1
            points = set(chain) | {q for p in chain for q in nbrs[p] if not board[q]}
            if sum(self.mean(p) for p in points) * sign < -margin * len(points):
                out.extend(chain)
        return _enclosed_dead(self.game, frozenset(out), self.mean)


def _enclosed_dead(
    game: GoGame, dead: frozenset[int], mean: Callable[[int], float]
) -> frozenset[int]:
    """``dead`` and the lone stones without room to live: a few stones (at most
    ``_LONE_STONES``) alone in a region of at most ``_LONE_ROOM`` points that the other colour
    closes all around with chains of two liberties or more, none of them in ``dead``, and
    whose points the other colour owns on the whole (``mean``, the ownership, at least
    ``_DEAD_OWNED``). The playouts let such a stone live now and then in a wide territory
    (neither side plays well in them), or kill the wall around it, and judge it alive; no one
    would."""
    board, nbrs = game.board, go_tables(game.size).neighbours
    chain_of: dict[int, int] = {}
    libs: list[int] = []
    for i, chain in enumerate(_chains(game)):
        around = {q for p in chain for q in nbrs[p] if not board[q]}
        libs.append(len(around))
        for p in chain:
            chain_of[p] = i
    dead_chains = {chain_of[p] for p in dead}
    seen: set[tuple[int, int]] = set()
    out = set(dead)
    for p, c in enumerate(board):
        if not c or p in dead or (c, p) in seen:
            continue
        region, stones, walls = [p], 0, set()
        seen.add((c, p))
        i = 0
        while i < len(region):
            q = region[i]
            i += 1
            stones += board[q] == c
            for r in nbrs[q]:
                if board[r] == 3 - c:
                    walls.add(chain_of[r])
                elif (c, r) not in seen:
                    seen.add((c, r))
                    region.append(r)
        if (
            stones <= _LONE_STONES
            and len(region) <= _LONE_ROOM
            and walls
            and all(libs[g] >= 2 for g in walls)
            and walls.isdisjoint(dead_chains)
            and sum(mean(q) for q in region) * (1 if c == 2 else -1) >= _DEAD_OWNED * len(region)
        ):
            out.update(q for q in region if board[q] == c)
    return frozenset(out)


def _chains(game: GoGame) -> list[list[int]]:
    """The chains of stones of the engine's board (engine points)."""
    board, nbrs = game.board, go_tables(game.size).neighbours
    seen = [False] * len(board)
    out = []
    for p, c in enumerate(board):
        if not c or seen[p]:
            continue
        seen[p] = True
        chain = [p]
        for here in chain:  # the list grows as the chain is walked
            for q in nbrs[here]:
                if not seen[q] and board[q] == c:
                    seen[q] = True
                    chain.append(q)
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
    compiled: bool | None = None,
) -> GoAction:
    """The action of the seat expected to act in ``game`` (which is not changed).
    ``max_nodes``, in place of ``budget_s``: a budget of looks at the clock (one every
    ``_CLOCK_EVERY`` playout moves), the same answer on any machine. ``compiled``: the numba
    kernel (True), the pure one (False), or the compiled one when numba is there (None); at a
    budget of nodes both choose the same action."""
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
        search = _Search(game, deadline, _MARK_CAP, rng, clock=clock, compiled=compiled)
        search.sample(me)
        mine = search.dead()
        winrate = _winrate(search, me)
        proposal = game.proposed_dead
        if proposal is None:
            return GoAction("mark", dead=mine, winrate=winrate)
        if _answer(game, search, me, proposal, mine) == "accept":
            return GoAction("accept", winrate=winrate)
        return GoAction("reject", winrate=winrate, disputed=proposal ^ mine)
    return _play(game, me, level, deadline, rng, clock, compiled=compiled)


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
    *,
    compiled: bool | None = None,
) -> GoAction:
    share, cap, noise, top = _LEVELS[level]
    begun = clock()
    fast = _Board.of(game)
    geo = fast.geo
    allowed: list[int] | None = None
    if game.passes:  # the opponent passed: would passing too leave it behind?
        start = clock()
        first = _Search(
            game, start + (deadline - start) * 0.4, max(cap, _MARK_CAP), rng, clock=clock,
            compiled=compiled,
        )  # fmt: skip
        first.sample(me)
        dead = first.dead()
        if _lead(game, me, dead) >= 0:
            finish = _urgent(game, fast, me, dead)
            if finish is None:
                return GoAction("pass", winrate=max(0.5, _winrate(first, me)))
            return GoAction("play", point=finish, winrate=_winrate(first, me))
        # behind: play on, but never inside its own territory (that only loses points)
        score = game.score(dead=dead)
        own = score.black_territory if me == 1 else score.white_territory
        allowed = [0] * geo.cells
        for p in game.legal_points():
            if p not in own:
                allowed[geo.inner[p]] = 1
        if not any(allowed):
            return GoAction("pass", winrate=_winrate(first, me))
    search = _Search(game, deadline, cap, rng, clock=clock, compiled=compiled)
    last_point = game.last_point
    last = geo.inner[last_point] if last_point is not None else -1
    if game.last_action != last_point:  # the last move was a pass
        last = -1
    children = search.search(me, last, allowed)
    # The mover's chances: the share of all the playouts won. Not the chosen move's value, whose
    # prior (virtual wins for a good shape) leans it towards the mover: both sides would then
    # look ahead at every ply, and an analysis would flip from one side to the other.
    winrate = _winrate(search, me)
    if not children:
        return GoAction("pass", winrate=winrate)
    dead = search.dead()
    if _finished(game, fast, children, me, dead) and not _pass_loses(
        game, me, search, children[0], (deadline - begun) * _PASS_PROBE, rng, clock, compiled
    ):
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
            search.keep(point)
            return GoAction("play", point=point, winrate=winrate)
    return GoAction("pass", winrate=winrate)


def _finished(
    game: GoGame, fast: _Board, children: list[_Child], me: int, dead: frozenset[int]
) -> bool:
    """Whether no move of the root is worth playing: with ``dead`` off the board, both sides
    still have stones and each move is in a region of one colour (territory) or would put two
    or more of its stones in atari (a point of seki)."""
    score = game.score(dead=dead)
    if not score.black_stones or not score.white_stones:
        return False  # the opening, or one side judged all dead: far from finished
    geo = fast.geo
    for ch in children:
        p = geo.outer[ch.move]
        if p in score.black_territory or p in score.white_territory:
            continue
        libs, size = fast.after(ch.move, me)
        if libs < 2 and size > 1 and not fast.captures(ch.move, me):
            continue
        return False
    return True


def _pass_loses(
    game: GoGame, me: int, search: _Search, best: _Child, seconds: float, rng: random.Random,
    clock: Callable[[], float], compiled: bool | None,
) -> bool:  # fmt: skip
    """Whether passing now would cost clearly more than the search's best move: playouts with
    the opponent to move (as after a pass) win less often by ``_PASS_MARGIN`` (an eye space
    whose vital point is still open, which the territory's look does not see)."""
    probe = _Search(
        game, clock() + seconds, max(_PASS_PROBES, search.playouts // 4), rng, clock=clock,
        compiled=compiled,
    )  # fmt: skip
    probe.sample(3 - me, alternate=False)
    if probe.playouts < _PASS_PROBES // 4:
        return False
    return best.value > _winrate(probe, me) + _PASS_MARGIN


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
