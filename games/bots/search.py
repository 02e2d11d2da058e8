"""The computer opponent's search for the Pente family (pure Python, no framework).

``choose_move(game, level=1..8, budget_s=...)`` returns a ``Choice``: the stones to play or the
word of a pending opening decision, with its evaluation and the depth reached. How it chooses
(tactics, book, threat search, alpha-beta, the calibrated mistakes) and the strength ladder of
``_LEVELS`` with its measurements: docs/computer-opponents.md, "Inside the computer opponents".
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from games.engine import Game, IllegalMove

from .book import book_move
from .connect6 import attack_points, blockers_needed, blocking_pairs
from .fastboard import FastMirror, new_mirror

__all__ = ["WIN", "Choice", "choose_move"]

WIN = 1_000_000

#: Seconds of thought a move at each level, the server's default budget (level 1 under 0.1 s,
#: level 8 at most 5 s); a live clock can make it shorter (``games.bots.services``).
BUDGETS = {1: 0.05, 2: 0.1, 3: 0.25, 4: 0.5, 5: 1.0, 6: 2.0, 7: 3.5, 8: 5.0}
_LOST_SOON = 30_000  # the opponent has two separate winning points and we have none
_MARGIN_S = 0.002  # kept back from the budget for the answer's own overhead
#: With ``max_nodes`` each look at the clock (one a node) counts as this much time, about a
#: node's cost, so that the levels' shares and margins keep their meaning.
_NODE_S = 1e-3


class _NodeClock:
    """A clock that moves on ``_NODE_S`` at each look: a search timed by it depends on the
    nodes it visits, never on the machine's speed (tests)."""

    __slots__ = ("now",)

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += _NODE_S
        return self.now


_GUARD_SHARE = 0.1  # of the search's time, kept for the guard against the opponent's VCF
_GUARD_TRIES = 8  # root moves the guard tries, best first
_SIX_SHARE = 0.4  # Connect6: of the turn's time, the most the threat search takes
_SLIP_SHARE = 0.15  # of the search's time, kept to check a mistake against the opponent's VCF
_SLIP_CHECK_S = 0.01  # the least time the check of a mistake gets (levels 3-7)
#: What ``_Bot._try`` made of a stone: the game goes on, the stone won, or it was refused
#: (illegal, or it ended the game without winning it).
_GOES_ON, _WON, _REFUSED = range(3)


@dataclass(frozen=True, slots=True)
class _Terms:
    """What ``_Bot.evaluate`` adds to the windows (``board.window_weights``), for the side to
    move: captured stones, the captures each side can make next, and an open three."""

    stone: int  # each captured stone (either side: ours count for us, theirs against)
    near_target: int  # times the cube of the share of the capture target reached
    ready: int  # the side to move can capture now: this, plus
    ready_share: float  # this share of what that capture gains
    exposed: int  # against, for each point where the waiting side can capture now
    second_share: float  # two or more such points: this share of the second one's gain
    open_three: int  # the side to move can make an open four (or a double four), no four stands


#: Before tuning: every game's terms. Level 8 of the games with captures has its own, tuned
#: with the window weights on positions of self-play (docs: "The evaluation"); the levels
#: below keep these, which their mistakes were calibrated with.
_TERMS = _Terms(40, 1500, 20, 0.75, 0, 1 / 3, 1500)
_CAPTURE_TERMS = _Terms(40, 1500, 20, 0.75, 89, 1 / 3, 1500)


@dataclass(frozen=True, slots=True)
class _Level:
    depth: int  # alpha-beta depth (iterative deepening stops there or at the deadline)
    share: float  # share of the budget used
    width: int  # moves searched per node
    vcf: int  # VCF depth (our fours)
    vct: int  # VCT depth (our threes and fours), 0: none
    slip: float = 0.0  # chance of a plausible mistake: another of the search's moves
    slack: int = 0  # how much worse than the best (search score) a mistake may be
    six: int = 0  # Connect6: turns of ours the threat search looks ahead (0: none)
    guard: int = 0  # the opponent's VCF depth checked after our stone (0: none)
    check: int = 0  # the opponent's VCF depth a mistake is checked against (0: no check)
    pool: int = 8  # the next best root moves a mistake is chosen among
    blunder: float = 0.0  # without the calibrated mistakes: chance of a noisy one-ply move
    tuned: bool = False  # the games with captures: the tuned evaluation (``_CAPTURE_TERMS``)


_LEVELS = {
    1: _Level(1, 0.3, 6, 0, 0, 1.0, 4500, blunder=0.8, pool=24),
    2: _Level(2, 0.4, 8, 2, 0, 0.95, 3400, six=1, blunder=0.1, pool=20),
    3: _Level(2, 0.45, 8, 3, 0, 0.9, 2400, six=2, check=2, pool=18),
    # levels 4 to 6 make no mistakes, as Pente.org's levels make none: each reads one ply
    # deeper than the one below (4 to 6), with a light threat search (VCT 1, the guard at 6);
    # level 7 has level 8's search and a mistake in twenty stones (docs: "The strength
    # ladder", "Against Pente.org's computer opponent")
    4: _Level(4, 0.95, 14, 14, 1, six=2, guard=6),
    5: _Level(5, 0.95, 14, 14, 1, six=3, guard=6),
    6: _Level(6, 0.95, 14, 14, 1, six=4, guard=6),
    7: _Level(8, 0.95, 14, 14, 3, 0.05, 250, six=5, guard=10, check=10),
    8: _Level(8, 0.95, 14, 14, 3, six=5, guard=10, tuned=True),
}
#: Keryo-Pente's rules (captures of three too): levels 4 to 6 keep the calibration before the
#: table above, with level 8's search and mistakes (read one ply a level, level 7 fell short of
#: 65% against level 6 there)
_KERYO_LEVELS = {
    **_LEVELS,
    4: _Level(8, 0.95, 14, 14, 3, 0.2, 500, six=2, guard=10, check=10, pool=12),
    5: _Level(8, 0.95, 14, 14, 3, 0.1, 500, six=3, guard=10, check=10, pool=10),
    6: _Level(8, 0.95, 14, 14, 3, 0.1, 400, six=4, guard=10, check=10),
}
#: The games without captures (Gomoku, Connect6: no namesake at Pente.org to equal) keep the
#: ladder measured for them: levels 4 to 7 differ by their depth and by more mistakes (with
#: Keryo-Pente's table above, Gomoku's level 8 scored only 50% against level 7)
_NO_CAPTURE_LEVELS = {
    **_LEVELS,
    4: _Level(3, 0.7, 10, 6, 0, 0.8, 1500, six=2, check=3, pool=16),
    5: _Level(4, 0.9, 12, 8, 1, 0.6, 850, six=3, check=6, pool=10),
    6: _Level(5, 0.85, 12, 10, 2, 0.45, 400, six=4, check=8),
    7: _Level(6, 0.9, 12, 12, 2, 0.35, 250, six=5, check=10),
}


def level_spec(game: Game, level: int) -> _Level:
    """The search and mistakes of ``level`` (1..8) in ``game``'s rules."""
    v = game.variant
    if not v.capture_target:
        return _NO_CAPTURE_LEVELS[level]
    return (_KERYO_LEVELS if 3 in v.capture_lengths else _LEVELS)[level]


@dataclass(frozen=True, slots=True)
class Choice:
    """What the bot does: ``points`` to play (``game.play_turn``), or a ``decision`` word
    (``game.decide``); ``score`` for the side to move; ``depth`` reached by the search."""

    points: tuple[int, ...] = ()
    decision: str | None = None
    score: int = 0
    depth: int = 0


class _Timeout(Exception):
    pass


def choose_move(
    game: Game,
    *,
    level: int,
    budget_s: float = 0.0,
    rng: random.Random | None = None,
    mistakes: bool = False,
    max_nodes: int | None = None,
) -> Choice:
    """The bot's action for the side to move in ``game`` (not changed). ``mistakes``: the
    level's calibrated mistakes (``_Level.slip``), for a computer opponent's own games; off,
    the level's search gives its best (analysis, hints). ``max_nodes``, in place of
    ``budget_s``: a budget of nodes (looks at the clock), the same answer on any machine."""
    if game.outcome is not None:
        raise ValueError("The game is over")
    clock: Callable[[], float] = time.perf_counter
    if max_nodes is not None:
        clock, budget_s = _NodeClock(), max_nodes * _NODE_S
    start = clock()
    level = min(8, max(1, int(level)))
    rng = rng or random.Random()
    budget = max(0.001, budget_s)
    deadline = start + max(budget * 0.2, budget * level_spec(game, level).share - _MARGIN_S)
    if game.pending_decision is not None:
        return _decide(game, level, deadline, clock)
    due = game.stones_this_turn()
    if due == 2:
        return _two_stones(game, level, deadline, rng, mistakes, clock)
    book = _book(game, level, rng)
    if book is not None:
        return Choice((book,), None, 0, 0)
    return _Bot(game.copy(), level, deadline, rng, mistakes, clock=clock).choose()


def _book(game: Game, level: int, rng: random.Random) -> int | None:
    if level < 3:
        return None
    return book_move(game, rng)


def _two_stones(
    game: Game,
    level: int,
    deadline: float,
    rng: random.Random,
    mistakes: bool,
    clock: Callable[[], float],
) -> Choice:
    """Connect6's turn: a line completed by both stones, else the first stone (blocking when
    the opponent threatens to complete a line with its two), then the second on that board."""
    g = game.copy()
    bot = _Bot(g, level, deadline, rng, mistakes, clock=clock)
    c = g.to_move_colour
    legal = set(g.legal_points())
    win = bot.two_stone_win(c, legal)
    if win is not None:
        return Choice(win, None, WIN, 1)
    found = bot.six_threats()
    if found is not None:
        return found
    half = clock() + (deadline - clock()) / 2
    bot.deadline = half
    first = bot.choose()
    g.play(first.points[0])
    if g.outcome is not None:
        second = min(q for q in legal if q != first.points[0])
        return Choice((first.points[0], second), None, WIN, first.depth)
    second = _Bot(g, level, deadline, rng, mistakes, clock=clock).choose()
    return Choice(first.points + second.points, None, second.score, second.depth)


# ---------------------------------------------------------------------- decisions


def _decide(game: Game, level: int, deadline: float, clock: Callable[[], float]) -> Choice:
    """Judge each choice by a short search of the position it leads to, for this seat, with
    the same evaluation as play; placing two more stones (Swap2) hands the colour choice to the
    opponent, who takes the better side: worth minus the size of the imbalance we leave."""
    seat = game.to_move_seat
    assert seat is not None
    choices = game.decisions_available()
    now = clock()
    each = max(0.0, deadline - now) / max(1, len(choices))
    best: tuple[int, str] | None = None
    values: dict[str, int] = {}
    for i, choice in enumerate(choices):
        g = game.copy()
        g.decide(choice)
        if g.pending_decision is not None or _in_protocol(g):
            continue
        bot = _Bot(g, min(level, 5), now + each * (i + 1), random.Random(0), clock=clock)
        score = bot.judge()
        mine = g.seat_colour(seat) == g.to_move_colour
        values[choice] = score if mine else -score
    for choice in choices:
        if choice not in values:  # place_two: the opponent will pick the better colour
            values[choice] = -abs(max(values.values(), default=0)) - 25
        value = values[choice]
        if best is None or value > best[0]:
            best = (value, choice)
    assert best is not None
    return Choice((), best[1], best[0], 1)


def _in_protocol(game: Game) -> bool:
    """Whether the stones still being placed belong to a D or Swap2 opening script."""
    opening = game.variant.opening
    if opening not in ("d", "swap2"):
        return False
    decided = [a for a in game.actions if isinstance(a, str)]
    if not decided:
        return True
    return decided[-1] == "place_two"


# ---------------------------------------------------------------------- the search


class _Bot:
    def __init__(
        self,
        game: Game,
        level: int,
        deadline: float,
        rng: random.Random,
        mistakes: bool = False,
        *,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        v = game.variant
        self.game = game
        self.clock = clock
        self.level = level
        self.deadline = deadline
        self.rng = rng
        self.colours = max(2, len(set(game.seat_colour(s) for s in range(1, game.seats + 1))))
        self.target = v.capture_target or 0 if self.colours == 2 else 0
        self.connect6 = v.opening == "connect6"
        spec = level_spec(game, level)
        tuned = spec.tuned and bool(self.target) and v.line_length == 5
        self.terms = _CAPTURE_TERMS if tuned else _TERMS
        self.boat = v.boat
        self.tricky = v.poof or v.boat or self.colours > 2  # rules the mirror does not foresee
        self.mirror = new_mirror(
            game.board,
            line=v.line_length,
            exact=v.exact_line,
            colours=self.colours,
            capture_lengths=v.capture_lengths if self.colours == 2 else (),
            tuned=tuned,
        )
        self.fast = isinstance(self.mirror, FastMirror)
        # the compiled mirror's fused loops (wins, evaluation): not for Gomoku's exact lines,
        # which are checked stone by stone, nor Connect6
        self.fused = self.fast and not v.exact_line and not self.connect6
        # what each count of captured stones is worth, for the compiled move order
        # (up to 3 stones in each of 8 directions at once)
        self.capvals = (
            tuple(self._capture_value(1, k) for k in range(self.target + 25)) if self.target else ()
        )
        self.spec = spec
        self.mistakes = mistakes
        self.depth, self.width = spec.depth, spec.width
        self.vcf_depth, self.vct_depth = spec.vcf, spec.vct
        self.nodes = 0
        self.tt: dict[tuple, tuple[int, int, int, int]] = {}

    # ------------------------------------------------------------------ helpers

    def _tick(self) -> None:
        self.nodes += 1
        if self.clock() > self.deadline:
            raise _Timeout

    def _play(self, p: int) -> bool:
        """Play ``p`` on the engine and the mirror; False (nothing played) if illegal."""
        g = self.game
        c = g.to_move_colour
        try:
            r = g.play(p)
        except IllegalMove:
            return False
        self.mirror.apply(p, c, r.captured, r.poofed)
        return True

    def _pop(self) -> None:
        self.game.pop()
        self.mirror.undo()

    def _opponent_due(self) -> int:
        return 2 if self.connect6 else 1

    def _need(self, c: int) -> int:
        """Captured stones colour ``c`` still needs to win by captures (0: no capture win)."""
        if not self.target:
            return 0
        return max(1, self.target - self.game.captures[c - 1])

    def _wins_now(self, c: int, due: int) -> set[int]:
        """Points where colour ``c`` (with ``due`` stones this turn) wins: a line, or (two
        colours, captures) the capture that reaches the target."""
        m = self.mirror
        need = self._need(c)
        if self.fused:
            return m.wins_points(c, due, need if need <= 6 else 0)
        out = m.line_points(c, due)
        if need and need <= 6:
            out |= {p for p, k in m.capture_points(c).items() if k >= need}
        return out

    def _capture_value(self, c: int, stones: int | None = None) -> int:
        """What ``stones`` captured stones (default: colour ``c``'s count) are worth."""
        if not self.target:
            return 0
        s = self.game.captures[c - 1] if stones is None else stones
        frac = min(1.0, s / self.target)
        return int(self.terms.stone * s + self.terms.near_target * frac**3)

    def evaluate(self) -> int:
        """The position for the side to move (two colours): line patterns, captured stones,
        and the captures each side can make next (the side to move takes one; the other's
        count only when there are two to parry)."""
        g = self.game
        m = self.mirror
        c = g.to_move_colour
        o = 3 - c
        score = m.balance(c)
        if self.fused:
            return score + self._fused_rest(c)
        caps = m.capture_points(c) if self.target else {}
        if self.target:
            against = m.capture_points(o)
            best = max(caps.values(), default=0)
            second = sorted(against.values())[-2] if len(against) >= 2 else 0
            score += self._capture_terms(c, best, len(against), second)
        if self.connect6:
            # more of the opponent's threats than our stones this turn can block: lost
            if m.hot[o] and blockers_needed(m, o) > g.stones_this_turn():
                score -= _LOST_SOON
        else:
            theirs_win = m.line_points(o)
            if len(theirs_win) >= 2 and not caps:
                score -= _LOST_SOON
            elif not theirs_win and m.open_threes(c):
                score += self.terms.open_three
        return score

    def _capture_terms(self, c: int, best: int, points: int, second: int) -> int:
        """The captures' share of ``evaluate`` for ``c`` to move: the stones each side has
        taken; ``best``, the most stones ``c`` can take now; ``points``, where the side waiting
        can capture now, and ``second``, the stones of its second best such capture."""
        o = 3 - c
        t = self.terms
        mine, theirs = self.game.captures[c - 1], self.game.captures[o - 1]
        score = self._capture_value(c, mine) - self._capture_value(o, theirs)
        if best:
            gain = self._capture_value(c, mine + best) - self._capture_value(c, mine)
            score += t.ready + int(gain * t.ready_share)
        score -= t.exposed * points
        if points >= 2:
            gain = self._capture_value(o, theirs + second) - self._capture_value(o, theirs)
            score -= int(gain * t.second_share)
        return score

    def _fused_rest(self, c: int) -> int:
        """``evaluate`` beyond the patterns from the compiled mirror's one loop: the same terms,
        the same value."""
        best, points, second, wins, threes = self.mirror.eval_parts(c)
        score = self._capture_terms(c, best, points, second) if self.target else 0
        if wins >= 2 and not (self.target and best):
            score -= _LOST_SOON
        elif not wins and threes:
            score += self.terms.open_three
        return score

    def judge(self) -> int:
        """A short search of the position for the side to move (decisions)."""
        g = self.game
        c = g.to_move_colour
        if c is None:
            return 0
        if self._wins_now(c, g.stones_this_turn()):
            return WIN
        legal = set(g.legal_points())
        moves = [p for p in self.mirror.candidates() if p in legal] or sorted(legal)
        moves = self._ordered(moves, c)
        if self.colours > 2 or self.connect6:
            return self.evaluate() + 40
        self.depth = min(self.depth, 2)
        return self._iterate(moves).score

    def _ordered(self, moves: list[int], c: int) -> list[int]:
        """Moves by promise: line patterns made and blocked, captures (more when they near the
        target), and the capture threats the move meets."""
        m = self.mirror
        if self.fast:
            return m.ordered(
                moves, c, self.capvals, self.game.captures[c - 1] if self.target else 0
            )
        if self.target:
            mine = m.capture_points(c)
            theirs = m.capture_points(3 - c)
            ours = self.game.captures[c - 1]
            scored = []
            for p, s in zip(moves, m.move_scores(moves, c), strict=True):
                k = mine.get(p)
                if k:
                    s += 60 + self._capture_value(c, ours + k) - self._capture_value(c, ours)
                if p in theirs:
                    s += 40 + 30 * theirs[p]
                scored.append((s, p))
        else:
            scored = list(zip(m.move_scores(moves, c), moves, strict=True))
        scored.sort(reverse=True)
        return [p for _, p in scored]

    def _after_ok(self, c: int) -> bool:
        """After colour ``c``'s stone (already played): whether the opponent has no win at
        once (Connect6, first stone of a turn: whether one more stone can stop every line)."""
        g = self.game
        if g.outcome is not None:
            return g.winner_colour == c
        if self.colours > 2:
            if g.to_move_colour == c:
                return True
            return not self._any_threat(c)
        o = 3 - c
        if g.to_move_colour == c:  # Connect6: our second stone is still due
            return self._one_stone_stops(o)
        if self.boat and self.mirror.five_on_board(o):
            return False
        return not self._wins_now(o, self._opponent_due())

    def _one_stone_stops(self, o: int) -> bool:
        """Connect6: whether a single stone lies in every window colour ``o`` could complete
        with its two stones."""
        m = self.mirror
        need = m.line - 2
        cnt = m.cnt[o]
        common: set[int] | None = None
        for w in m.hot[o]:
            if cnt[w] >= need:
                empty = {q for q in m.geo.windows[w] if not m.board[q]}
                common = empty if common is None else common & empty
                if not common:
                    return False
        return True

    def _safe_moves(self, moves: list[int], c: int) -> list[int]:
        """The moves after which the opponent has no immediate win (the whole turn done)."""
        safe = []
        for p in moves:
            if not self._play(p):
                continue
            ok = self._after_ok(c)
            self._pop()
            if ok:
                safe.append(p)
        return safe

    def _defences(self, c: int, threats: set[int], legal: set[int] | None = None) -> list[int]:
        """The moves of ``c`` that parry the opponent's immediate wins ``threats``: tried on
        the points that can (a winning point, a capture of ours), and on every candidate when
        the rules are subtler (poof, boat, several colours, Connect6) or none of those works."""
        m = self.mirror
        cands = m.candidates()
        if self.tricky or self.connect6:
            first = sorted(set(cands) | threats)
        else:
            first = sorted(threats | set(m.capture_points(c)))
        if legal is not None:
            first = [p for p in first if p in legal]
        safe = self._safe_moves(first, c)
        if not safe and not (self.tricky or self.connect6):
            rest = [p for p in cands if p not in set(first) and (legal is None or p in legal)]
            safe = self._safe_moves(rest, c)
        return safe

    def _any_threat(self, c: int) -> bool:
        return any(self.mirror.line_points(k) for k in range(1, self.colours + 1) if k != c)

    def two_stone_win(self, c: int, legal: set[int]) -> tuple[int, int] | None:
        """Connect6: two stones that complete a line, checked on the engine."""
        m = self.mirror
        need = m.line - 2
        cnt = m.cnt[c]
        for w in sorted(m.hot[c]):
            if cnt[w] < need:
                continue
            empty = [q for q in m.geo.windows[w] if not m.board[q]]
            if len(empty) == 1:
                other = [q for q in sorted(legal) if q != empty[0]]
                empty += other[:1]
            if len(empty) != 2 or not all(q in legal for q in empty):
                continue
            g = self.game.copy()
            try:
                g.play_turn(empty)
            except IllegalMove:
                continue
            if g.winner_colour == c:
                return (empty[0], empty[1])
        return None

    # ------------------------------------------------------------------ the root

    def choose(self) -> Choice:
        g = self.game
        c = g.to_move_colour
        assert c is not None
        legal = set(g.legal_points())
        m = self.mirror
        cands = [p for p in m.candidates() if p in legal] or sorted(legal)
        # 1. an immediate win, checked on the engine
        if self.colours == 2:
            tries = self._wins_now(c, 1) & legal
        else:
            tries = set(cands)
        for p in self._ordered(sorted(tries), c):
            if self._play(p):
                won = g.outcome is not None and g.winner_colour == c
                self._pop()
                if won:
                    return Choice((p,), None, WIN, 1)
        if _in_protocol(g):
            return self._balanced(cands)
        # 2. the opponent's immediate wins (or a Boat five that stands unless we break it)
        if self.colours == 2:
            threats = self._wins_now(3 - c, self._opponent_due()) & legal
            if self.boat and m.five_on_board(3 - c):
                threats |= set(m.capture_points(c)) & legal or {cands[0]}
        else:
            threats = set().union(*(m.line_points(k) for k in range(1, self.colours + 1) if k != c))
            threats &= legal
        moves = cands
        if threats:
            safe = self._defences(c, threats, legal)
            if not safe:  # lost anyway: block what can be blocked
                block = self._ordered(sorted(threats) or cands, c)
                return Choice((block[0],), None, -WIN, 1)
            moves = safe
        moves = self._ordered(moves, c)
        if len(moves) == 1:
            return Choice((moves[0],), None, 0, 1)
        if self.colours > 2:
            return self._one_ply(moves, c)
        # 3. without the calibrated mistakes, the beginner's mistakes of levels 1 and 2
        if self.spec.blunder and not self.mistakes and self.rng.random() < self.spec.blunder:
            return self._noisy(moves, c)
        # 4. threat-space search: fours (VCF), then threes and fours (VCT)
        if not self.connect6 and not threats:
            found = self._forced_win()
            if found is not None:
                return found
        # 5. alpha-beta with iterative deepening
        return self._iterate(moves)

    def _forced_win(self) -> Choice | None:
        """VCF, then VCT, each deepened step by step within its share of the time left (a
        third, then a quarter), so that alpha-beta keeps the rest."""
        for depth_max, share, search in (
            (self.vcf_depth, 0.33, self._vcf),
            (self.vct_depth, 0.25, self._vct),
        ):
            if not depth_max:
                continue
            saved = self._narrow(share)
            found = None
            depth = min(2, depth_max)
            try:
                while found is None:
                    found = search(depth)
                    if depth >= depth_max:
                        break
                    depth = min(depth_max, depth + 2)
            except _Timeout:
                self._resync()
            finally:
                self.deadline = saved
            if found is not None:
                return Choice((found,), None, WIN // 2, depth)
        return None

    def six_threats(self) -> Choice | None:
        """Connect6, a whole turn to play: two stones that win by threats whatever the
        defence (``_six_threats``), deepened turn by turn within a share of the time, or None."""
        depth_max = self.spec.six
        if not depth_max or blockers_needed(self.mirror, 3 - self.game.to_move_colour):
            return None
        saved = self._narrow(_SIX_SHARE)
        try:
            for depth in range(1, depth_max + 1):
                found = self._six_threats(depth)
                if found is not None:
                    return Choice(found, None, WIN // 2, depth)
        except _Timeout:
            self._resync()
        finally:
            self.deadline = saved
        return None

    def _six_threats(self, depth: int) -> tuple[int, int] | None:
        """Connect6, our turn, the opponent without threats: two stones after which the
        opponent needs three or more to block ours (a win), or exactly two and every pair that
        blocks them still loses to a further such turn (``depth`` turns of ours at most)."""
        self._tick()
        g = self.game
        c = g.to_move_colour
        m = self.mirror
        if blockers_needed(m, 3 - c):
            return None
        width = 10 if depth == 1 else 8
        tried: set[tuple[int, int]] = set()
        for a in attack_points(m, c, width):
            if not self._play(a):
                continue
            try:
                for b in attack_points(m, c, width):
                    pair = (min(a, b), max(a, b))
                    if pair in tried or not self._play(b):
                        continue
                    tried.add(pair)
                    try:
                        if g.outcome is not None:
                            if g.winner_colour == c:
                                return (a, b)
                            continue
                        needed = blockers_needed(m, c)
                        if needed >= 3:
                            return (a, b)
                        if needed == 2 and depth > 1 and self._six_blocks_lose(c, depth):
                            return (a, b)
                    finally:
                        self._pop()
            finally:
                self._pop()
        return None

    def _six_blocks_lose(self, c: int, depth: int) -> bool:
        """After our turn left threats that take exactly two stones to block: whether every
        such pair of blocks still loses to a further winning turn of ours."""
        g = self.game
        for p, q in blocking_pairs(self.mirror, c):
            if not self._play(p):
                return False
            try:
                if not self._play(q):
                    return False
                try:
                    if g.outcome is not None or self._six_threats(depth - 1) is None:
                        return False
                finally:
                    self._pop()
            finally:
                self._pop()
        return True

    def _narrow(self, share: float) -> float:
        """Bring the deadline in to ``share`` of the time left; returns the deadline it had, for
        the caller to put back."""
        saved = self.deadline
        now = self.clock()
        self.deadline = now + max(0.0, saved - now) * share
        return saved

    def _resync(self) -> None:
        """After a timeout unwound the search: back to the root position."""
        while self.mirror.stack:
            self._pop()

    def _balanced(self, cands: list[int]) -> Choice:
        """An opening stone of a D or Swap2 script: keep the position even, near the centre."""
        best = None
        for p in cands[:60]:
            if not self._play(p):
                continue
            if self.game.to_move_colour is None:
                value = WIN
            else:
                value = abs(self.evaluate())
            self._pop()
            key = (value, self.rng.random())
            if best is None or key < best[0]:
                best = (key, p)
        assert best is not None
        return Choice((best[1],), None, 0, 1)

    def _one_ply(self, moves: list[int], c: int) -> Choice:
        """Multi-player: the move that is best for us minus the best of the others."""
        best = None
        for p in moves[: self.width * 2]:
            if not self._play(p):
                continue
            m = self.mirror
            others = max(m.pattern[k] for k in range(1, self.colours + 1) if k != c)
            value = m.pattern[c] - others + 40 * self.game.captures[c - 1]
            self._pop()
            if best is None or value > best[0]:
                best = (value, p)
        assert best is not None
        return Choice((best[1],), None, best[0], 1)

    def _noisy(self, moves: list[int], c: int) -> Choice:
        m = self.mirror
        top = moves[: 4 if self.level == 1 else 2]
        noisy = [(m.move_score(p, c) * self.rng.uniform(0.3, 1.0), p) for p in top]
        noisy.sort(reverse=True)
        return Choice((noisy[0][1],), None, 0, 1)

    def _iterate(self, moves: list[int]) -> Choice:
        best_move, best_score, reached = moves[0], 0, 0
        scores: dict[int, int] = {}
        guard = self.spec.guard and not self.connect6 and self.colours == 2
        slack = self._slip_slack()
        # an erring stone's root holds the level's pool of next best moves
        root = list(moves[: max(self.width, 12, self.spec.pool + 1 if slack else 0)])
        # a share of the time kept for the guard, or for the check of a mistake
        keep = _GUARD_SHARE if guard else (_SLIP_SHARE if slack else 0.0)
        saved = self._narrow(1 - keep) if keep else self.deadline
        for depth in range(1, self.depth + 1):
            keep = self.deadline
            if depth == 1:  # an evaluation per move: always finished, so that even a level
                self.deadline = math.inf  # short of time has the scores it errs among
            try:
                score, move, found = self._root(root, depth, slack)
            except _Timeout:
                self._resync()
                break
            finally:
                self.deadline = keep
            best_move, best_score, reached, scores = move, score, depth, found
            root.sort(key=lambda p: -scores.get(p, -WIN - 2))
            if abs(score) >= WIN // 2:
                break
            if self.clock() > self.deadline:
                break
        self.deadline = saved
        if abs(best_score) < WIN // 2:  # a forced win or loss is neither spoilt nor guarded
            slip = self._slip(best_move, best_score, scores, slack) if slack else None
            if slip is not None:
                return Choice((slip,), None, scores[slip], reached)
            if guard:
                best_move = self._guarded([best_move, *(p for p in root if p != best_move)])
        return Choice((best_move,), None, best_score, reached)

    def _slip_slack(self) -> int:
        """The slack of this stone's mistake (``_Level.slip``, ``_Level.slack``), 0 for none:
        rolled before the search, which then scores exactly every root move within the slack
        of the best (``_root``)."""
        spec = self.spec
        if not self.mistakes or not spec.slip or self.colours != 2:
            return 0
        if self.rng.random() >= spec.slip:
            return 0
        return spec.slack

    def _slip(self, best: int, best_score: int, scores: dict[int, int], slack: int) -> int | None:
        """A plausible mistake: of the ``_Level.pool`` next best root moves whose score is
        within ``slack`` of the best and not a loss, the one whose cost (its score below the
        best) is nearest a share of the slack drawn at random; from level 3 only a move after
        which the opponent has no forced win the level sees (``_they_win``: an open three left
        unblocked is a VCF). None (play the best) when no move qualifies or the time
        runs out."""
        careful = self.spec.check > 0
        floor = max(best_score - slack, -WIN // 2)
        near = sorted((p for p, v in scores.items() if p != best and v > floor), key=scores.get)
        near = near[::-1][: self.spec.pool]
        # the mistake's cost: a share of the slack drawn at random, whatever the number of
        # moves about as good as the best (many in quiet positions, where a pick by rank
        # would cost next to nothing)
        cost = self.rng.uniform(0, slack)
        near.sort(key=lambda p: abs(best_score - scores[p] - cost))
        if not careful:
            return near[0] if near else None
        c = self.game.to_move_colour
        # at least _SLIP_CHECK_S for the check: without it a level short of time erred less
        # than the level above, whose check finished more often
        self.deadline = max(self.deadline, self.clock() + _SLIP_CHECK_S)
        return self._first_safe(near, lambda: self._they_win(c))

    def _they_win(self, c: int) -> bool:
        """After colour ``c``'s stone (played): whether the opponent has a forced win ``c``'s
        level sees, a VCF within its VCF depth, or in Connect6, once ``c``'s turn is over, a
        turn that leaves more threats than two stones can block (``_six_threats`` one turn
        deep; after the first stone of the turn, the second still follows: False)."""
        if self.connect6:
            if self.game.to_move_colour == c:
                return False
            return self._six_threats(1) is not None
        return self._vcf(self.spec.check) is not None

    def _guarded(self, ranked: list[int]) -> int:
        """The first of ``ranked`` (the search's order) after which the opponent has no VCF
        within the level's guard depth, nor a VCT of one three; when every move tried leaves
        one, the first; when the time runs out, the first not proven lost."""

        def theirs() -> bool:
            found = self._vcf(self.spec.guard)
            if found is None and self.vct_depth:
                found = self._vct(1)
            return found is not None

        tries = ranked[:_GUARD_TRIES]
        proven: set[int] = set()
        safe = self._first_safe(tries, theirs, proven)
        if safe is not None:
            return safe
        # out of time (or every one lost): the first stone not proven lost, rather than a
        # stone the guard has just seen lose
        return next((p for p in tries if p not in proven), ranked[0])

    def _first_safe(
        self, candidates: list[int], lost, proven: set[int] | None = None
    ) -> int | None:
        """The first of ``candidates`` after which ``lost()`` (asked with the stone played) is
        False; None when every one is lost or the time runs out. ``proven`` collects the
        stones found lost."""
        try:
            for p in candidates:
                if not self._play(p):
                    continue
                try:
                    bad = lost()
                finally:
                    self._pop()
                if not bad:
                    return p
                if proven is not None:
                    proven.add(p)
        except _Timeout:
            self._resync()
        return None

    def _root(
        self, moves: list[int], depth: int, slack: int = 0
    ) -> tuple[int, int, dict[int, int]]:
        """The best score and move at ``depth``, and each move's score: exact for the best and,
        with ``slack``, for every move within ``slack`` of it (their window's floor is the best
        so far minus the slack); an upper bound for the others."""
        alpha, beta = -WIN - 1, WIN + 1
        best = (-WIN - 1, moves[0])
        c = self.game.to_move_colour
        scores: dict[int, int] = {}
        for i, p in enumerate(moves):
            if not self._play(p):
                continue
            floor = alpha - slack
            if i == 0 or depth == 1:
                value = self._child(c, depth - 1, -beta, -floor, 1, beta, floor)
            else:
                value = self._child(c, depth - 1, -floor - 1, -floor, 1, floor + 1, floor)
                if value > floor:
                    value = self._child(c, depth - 1, -beta, -floor, 1, beta, floor)
            self._pop()
            scores[p] = value
            if value > best[0]:
                best = (value, p)
            alpha = max(alpha, value)
        return best[0], best[1], scores

    def _child(
        self, c: int, depth: int, nalpha: int, nbeta: int, ply: int, beta: int, alpha: int
    ) -> int:
        """The value for ``c`` of the position after its stone: negated when the turn passed,
        searched with the same window when ``c`` still has a stone to place (Connect6)."""
        if self.game.to_move_colour == c:
            return self._negamax(depth, alpha, beta, ply)
        return -self._negamax(depth, nalpha, nbeta, ply)

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        g = self.game
        if g.outcome is not None:
            w = g.winner_colour
            if w is None:
                return 0
            # the value is for the side that did not place the last stone
            return -(WIN - ply) if w == self._mover_before() else WIN - ply
        c = g.to_move_colour
        m = self.mirror
        if self._wins_now(c, g.stones_this_turn()):
            return WIN - ply
        if depth <= 0:
            return self.evaluate()
        key = (m.hash, c, g.captures, g.stones_this_turn())
        hit = self.tt.get(key)
        first = None
        if hit is not None:
            hdepth, hvalue, hflag, first = hit
            if hdepth >= depth:
                if hflag == 0 or (hflag > 0 and hvalue >= beta) or (hflag < 0 and hvalue <= alpha):
                    return hvalue
        o = 3 - c
        threats = self._wins_now(o, self._opponent_due())
        if self.boat and m.five_on_board(o):
            threats |= set(m.capture_points(c)) or {m.candidates()[0]}
        if threats:
            moves = self._defences(c, threats)
            if not moves:
                if not self.connect6:  # nothing parries: the opponent wins next
                    return -(WIN - ply - 1)
                moves = [min(threats)]
        else:
            moves = m.candidates()
        moves = self._ordered(moves, c)
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        moves = moves[: max(4, self.width - 2 * (ply // 2))]
        alpha0 = alpha
        best, best_move = -WIN - 1, moves[0]
        for i, p in enumerate(moves):
            if not self._play(p):
                continue
            if i == 0 or depth == 1:
                value = self._child(c, depth - 1, -beta, -alpha, ply + 1, beta, alpha)
            else:
                value = self._child(c, depth - 1, -alpha - 1, -alpha, ply + 1, alpha + 1, alpha)
                if alpha < value < beta:
                    value = self._child(c, depth - 1, -beta, -alpha, ply + 1, beta, alpha)
            self._pop()
            if value > best:
                best, best_move = value, p
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
        if best == -WIN - 1:
            return self.evaluate()
        flag = 1 if best >= beta else (-1 if best <= alpha0 else 0)
        self.tt[key] = (depth, best, flag, best_move)
        return best

    def _mover_before(self) -> int:
        return self.mirror.stack[-1][1] if self.mirror.stack else 0

    # ------------------------------------------------------------------ VCF and VCT

    def _four_moves(self, c: int) -> list[int]:
        """Points where a stone of ``c`` may threaten to win at once: a four (a window one stone
        short); when one more capture wins, a stone that brackets a run to capture; when two
        captures can win, a capture (it forces when it leaves another capture that wins, or a
        line it opened: the caller keeps only the stones after which ``c`` wins at once)."""
        m = self.mirror
        moves = m.line_points(c, 2) - m.line_points(c)
        need = self._need(c)
        if need and need <= max(m.lengths):
            moves |= m.capture_threat_points(c)
        if need and need <= 2 * max(m.lengths):
            moves |= set(m.capture_points(c))
        return self._ordered(sorted(moves), c)

    def _vcf(self, depth: int) -> int | None:
        """A first stone of a sequence of fours that wins whatever the defence, or None.
        In the capture games a four counts only if the answer that captures out of it (or
        captures toward the target) still loses, and a capture that wins is a move too."""
        self._tick()
        c = self.game.to_move_colour
        o = 3 - c
        mine = self._win_at_once(c)
        if mine is not None:
            return mine
        if depth <= 0 or self._stopped(c):
            return None
        for p in self._four_moves(c):
            step = self._try(p, c)
            if step != _GOES_ON:
                if step == _WON:
                    return p
                continue
            if not self._wins_now(c, 1) or self._wins_now(o, 1):
                self._pop()
                continue
            ok = self._refuted_by_none(c, depth, self._vcf)
            self._pop()
            if ok:
                return p
        return None

    def _stopped(self, c: int) -> bool:
        """Whether the opponent of ``c`` ends a threat search of ``c`` before it starts: it has
        a stone that wins at once, or (Boat-Pente) a five on the board that ``c`` must break."""
        o = 3 - c
        return bool(self._wins_now(o, 1)) or (self.boat and self.mirror.five_on_board(o))

    def _try(self, p: int, c: int) -> int:
        """Play ``p`` for ``c`` (to move): ``_GOES_ON`` with the stone left on the board, or,
        the board as it was, ``_WON`` (the stone wins the game) or ``_REFUSED`` (an illegal
        stone, or one that ends the game otherwise)."""
        if not self._play(p):
            return _REFUSED
        if self.game.outcome is None:
            return _GOES_ON
        won = self.game.winner_colour == c
        self._pop()
        return _WON if won else _REFUSED

    def _refuted_by_none(self, c: int, depth: int, search) -> bool:
        """After our threat: whether every defence still loses to a further threat sequence
        (``search``), or to the line that is left. The defences tried: every point of our
        windows one or two stones short, the opponent's fours, and its captures."""
        g = self.game
        m = self.mirror
        o = 3 - c
        defences = self._wins_now(c, 1)
        if search is not self._vcf:
            defences |= m.line_points(c, 2) | m.line_points(o, 2)
            if self.target:
                defences |= m.capture_threat_points(o)
        if self.target:
            defences |= set(m.capture_points(o))
        if self.boat:  # a stone that will capture across the five: any point near a stone
            defences |= set(m.candidates())
        for d in sorted(defences):
            if not self._play(d):
                continue
            if g.outcome is not None:
                self._pop()
                return False
            ok = self._win_at_once(c) is not None or search(depth - 1) is not None
            self._pop()
            if not ok:
                return False
        return True

    def _win_at_once(self, c: int) -> int | None:
        """A stone that wins now for ``c`` (to move): exact from the mirror in the plain
        rules, tried on the engine where poofs and boats make lines uncertain."""
        wins = self._wins_now(c, 1)
        if not wins:
            return None
        if not self.tricky:
            return min(wins)
        g = self.game
        for p in sorted(wins):
            if self._play(p):
                won = g.winner_colour == c
                self._pop()
                if won:
                    return p
        return None

    def _vct(self, depth: int) -> int | None:
        """A first stone of a sequence of fours and threes (threats to make an open four) that
        wins whatever the defence, or None. Sound but not complete: a defence by a counter-four
        makes it give up."""
        self._tick()
        c = self.game.to_move_colour
        o = 3 - c
        m = self.mirror
        mine = self._win_at_once(c)
        if mine is not None:
            return mine
        if self._stopped(c):
            return None  # the opponent has a four: not ours (its fours are among defences)
        found = self._vcf(min(self.vcf_depth, 2 * depth + 2, 6))
        if found is not None or depth <= 0:
            return found
        before = m.open_threes(c)
        tries = [p for p in self._ordered(m.candidates(), c)[:10] if m.move_score(p, c) >= 40]
        for p in tries:
            step = self._try(p, c)
            if step != _GOES_ON:
                if step == _WON:
                    return p
                continue
            ok = (
                m.open_threes(c) > before
                and not self._wins_now(o, 1)
                and self._refuted_by_none(c, depth, self._vct)
            )
            self._pop()
            if ok:
                return p
        return None
