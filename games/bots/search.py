"""The computer opponent's brain for the Pente family (pure Python, no framework).

``choose_move(game, level=1..8, budget_s=...)`` returns a ``Choice``: the stones to play (one,
or two for a Connect6 turn) or the word of a pending opening decision, with the evaluation (for
the side to move, about 100 per open three, ``WIN`` for a won game) and the depth reached.

How a stone is chosen, in order:

1. an immediate win (a line, or the capture that reaches the target), checked on the engine;
2. when the opponent threatens to win at once (a four, a capture reaching the target), only the
   moves after which it no longer does (blocking the point, or capturing a stone of the four);
3. a VCF search (sequences of fours that force a win; level >= 3);
4. alpha-beta (negamax) with iterative deepening under the time budget, moves ordered by
   ``Mirror.move_score`` and a transposition table keyed on the Zobrist hash.

Levels 1 and 2 make deliberate mistakes: they pick among the top few one-ply moves with noise
(and so sometimes miss the block of an open three), but always take a win and block a four.
Multi-player games (3 or more colours) get tactics plus a one-ply evaluation. Opening stones of
the D and Swap2 protocols are placed to keep the position balanced; decisions are judged by a
shallow search of each choice.

The engine is the referee: every stone is tried on a copy of the game before it is chosen.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from games.engine import Game, IllegalMove

from .board import Mirror

__all__ = ["WIN", "Choice", "choose_move"]

WIN = 1_000_000

#: Seconds of thought a move at each level, the server's default budget (level 1 under 0.1 s,
#: level 8 at most 5 s); a live clock can make it shorter (``games.bots.services``).
BUDGETS = {1: 0.05, 2: 0.1, 3: 0.25, 4: 0.5, 5: 1.0, 6: 2.0, 7: 3.5, 8: 5.0}
_LOST_SOON = 30_000  # the opponent has two separate winning points and we have none
_OPEN_THREE_TO_MOVE = 1_500  # the side to move can make an open four (or a double four)

# per level: (alpha-beta depth, share of the budget used, moves searched per node, VCF depth)
_LEVELS = {
    1: (1, 0.2, 6, 0),
    2: (1, 0.3, 8, 0),
    3: (2, 0.5, 8, 2),
    4: (3, 0.6, 10, 3),
    5: (4, 0.7, 10, 4),
    6: (5, 0.8, 12, 5),
    7: (6, 0.9, 12, 6),
    8: (8, 1.0, 14, 8),
}
_BLUNDER = {1: 0.35, 2: 0.15}  # chance of a noisy one-ply move


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
    game: Game, *, level: int, budget_s: float, rng: random.Random | None = None
) -> Choice:
    """The bot's action for the side to move in ``game`` (not changed)."""
    if game.outcome is not None:
        raise ValueError("The game is over")
    level = min(8, max(1, int(level)))
    rng = rng or random.Random()
    deadline = time.perf_counter() + max(0.001, budget_s) * _LEVELS[level][1]
    if game.pending_decision is not None:
        return _decide(game, level, deadline)
    due = game.stones_this_turn()
    if due == 2:
        g = game.copy()
        half = time.perf_counter() + (deadline - time.perf_counter()) / 2
        first = _Bot(g, level, half, rng).choose()
        g.play(first.points[0])
        if g.outcome is not None:
            second = min(q for q in g.legal_points() if q != first.points[0])
            return Choice((first.points[0], second), None, WIN, first.depth)
        second = _Bot(g, level, deadline, rng).choose()
        return Choice(first.points + second.points, None, second.score, second.depth)
    return _Bot(game.copy(), level, deadline, rng).choose()


# ---------------------------------------------------------------------- decisions


def _decide(game: Game, level: int, deadline: float) -> Choice:
    """Judge each choice by a shallow search of the position it leads to, for this seat."""
    seat = game.to_move_seat
    assert seat is not None
    best: tuple[int, str] | None = None
    for choice in game.decisions_available():
        g = game.copy()
        g.decide(choice)
        if g.pending_decision is not None or _in_protocol(g):
            value = -50  # more stones to place (Swap2's place_two): not judged in v1
        else:
            bot = _Bot(g, min(level, 3), deadline, random.Random(0))
            score = bot.evaluate_shallow()
            mine = g.seat_colour(seat) == g.to_move_colour
            value = score if mine else -score
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
    def __init__(self, game: Game, level: int, deadline: float, rng: random.Random) -> None:
        v = game.variant
        self.game = game
        self.level = level
        self.deadline = deadline
        self.rng = rng
        self.colours = max(2, len(set(game.seat_colour(s) for s in range(1, game.seats + 1))))
        self.target = v.capture_target or 0
        self.connect6 = v.opening == "connect6"
        self.mirror = Mirror(
            game.board,
            line=v.line_length,
            exact=v.exact_line,
            colours=self.colours,
            capture_lengths=v.capture_lengths if self.colours == 2 else (),
        )
        self.depth, _, self.width, self.vcf_depth = _LEVELS[level]
        self.nodes = 0
        self.tt: dict[tuple, tuple[int, int, int, int]] = {}

    # ------------------------------------------------------------------ helpers

    def _tick(self) -> None:
        self.nodes += 1
        if not self.nodes & 63 and time.perf_counter() > self.deadline:
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

    def _wins_now(self, c: int, due: int) -> set[int]:
        """Points where colour ``c`` (with ``due`` stones this turn) wins: a line, or (two
        colours, captures) the capture that reaches the target."""
        m = self.mirror
        out = m.line_points(c, due)
        if self.target and self.colours == 2:
            need = self.target - self.game.captures[c - 1]
            if need <= 2 * max(m.lengths):
                out |= {p for p, k in m.capture_points(c).items() if k >= need}
        return out

    def _capture_value(self, c: int) -> int:
        if not self.target:
            return 0
        s = self.game.captures[c - 1]
        frac = s / self.target
        return int(25 * s + 900 * frac**3)

    def evaluate(self) -> int:
        """The position for the side to move (two colours)."""
        g = self.game
        m = self.mirror
        c = g.to_move_colour
        o = 3 - c
        score = m.pattern[c] - m.pattern[o] + self._capture_value(c) - self._capture_value(o)
        if self.target:
            caps = m.capture_points(c)
            if caps:
                score += 30 + 10 * max(caps.values()) * (1 + g.captures[c - 1] // 4)
        if not self.connect6:
            theirs = m.line_points(o)
            if len(theirs) >= 2 and not (self.target and m.capture_points(c)):
                score -= _LOST_SOON
            elif not theirs and m.open_threes(c):
                score += _OPEN_THREE_TO_MOVE
        return score

    def evaluate_shallow(self) -> int:
        g = self.game
        if g.to_move_colour is None:
            return 0
        c = g.to_move_colour
        if self._wins_now(c, g.stones_this_turn()):
            return WIN
        return self.evaluate() + 40  # the move in hand

    def _ordered(self, moves: list[int], c: int) -> list[int]:
        m = self.mirror
        scored = []
        for p in moves:
            s = m.move_score(p, c)
            if self.target:
                s += 120 * m.capture_gain(p, c)
            scored.append((s, p))
        scored.sort(reverse=True)
        return [p for _, p in scored]

    def _safe_moves(self, moves: list[int], c: int) -> list[int]:
        """The moves after which the opponent has no immediate win (the whole turn done)."""
        o = 3 - c if self.colours == 2 else None
        safe = []
        for p in moves:
            if not self._play(p):
                continue
            g = self.game
            if g.outcome is not None:
                ok = g.winner_colour == c
            elif g.to_move_colour == c:  # Connect6: a stone still due this turn
                ok = True
            elif o is None:
                ok = not self._any_threat(c)
            else:
                ok = not self._wins_now(o, self._opponent_due())
            self._pop()
            if ok:
                safe.append(p)
        return safe

    def _any_threat(self, c: int) -> bool:
        return any(self.mirror.line_points(k) for k in range(1, self.colours + 1) if k != c)

    # ------------------------------------------------------------------ the root

    def choose(self) -> Choice:
        g = self.game
        c = g.to_move_colour
        assert c is not None
        legal = set(g.legal_points())
        m = self.mirror
        cands = [p for p in m.candidates() if p in legal] or sorted(legal)
        due = g.stones_this_turn()
        # 1. an immediate win, checked on the engine
        for p in self._ordered(sorted(set(cands) | (self._wins_now(c, due) & legal)), c):
            if self._play(p):
                won = g.outcome is not None and g.winner_colour == c
                self._pop()
                if won:
                    return Choice((p,), None, WIN, 1)
        if _in_protocol(g):
            return self._balanced(cands)
        # 2. the opponent's immediate wins
        if self.colours == 2:
            threats = self._wins_now(3 - c, self._opponent_due())
        else:
            threats = set().union(*(m.line_points(k) for k in range(1, self.colours + 1) if k != c))
        moves = sorted(set(cands) | (threats & legal))
        if threats:
            safe = self._safe_moves(moves, c)
            if not safe:  # lost anyway: block what can be blocked
                block = self._ordered(sorted(threats & legal) or moves, c)
                return Choice((block[0],), None, -WIN, 1)
            moves = safe
        moves = self._ordered(moves, c)
        if len(moves) == 1:
            return Choice((moves[0],), None, 0, 1)
        if self.colours > 2:
            return self._one_ply(moves, c)
        # 3. deliberate mistakes at the lowest levels
        if self.level in _BLUNDER and self.rng.random() < _BLUNDER[self.level]:
            return self._noisy(moves, c)
        # 4. VCF
        if self.vcf_depth and not self.connect6 and not threats:
            try:
                found = self._vcf(self.vcf_depth)
            except _Timeout:
                found = None
                self._resync()
            if found is not None:
                return Choice((found,), None, WIN // 2, self.vcf_depth)
        # 5. alpha-beta with iterative deepening
        return self._iterate(moves)

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
        top = moves[: 3 if self.level == 1 else 2]
        noisy = [(m.move_score(p, c) * self.rng.uniform(0.3, 1.0), p) for p in top]
        noisy.sort(reverse=True)
        return Choice((noisy[0][1],), None, 0, 1)

    def _iterate(self, moves: list[int]) -> Choice:
        best_move, best_score, reached = moves[0], 0, 0
        root = list(moves[: max(self.width, 12)])
        for depth in range(1, self.depth + 1):
            try:
                score, move = self._root(root, depth)
            except _Timeout:
                self._resync()
                break
            best_move, best_score, reached = move, score, depth
            root.remove(move)
            root.insert(0, move)
            if abs(score) >= WIN // 2:
                break
            if time.perf_counter() > self.deadline:
                break
        return Choice((best_move,), None, best_score, reached)

    def _root(self, moves: list[int], depth: int) -> tuple[int, int]:
        alpha, beta = -WIN - 1, WIN + 1
        best = (-WIN - 1, moves[0])
        c = self.game.to_move_colour
        for p in moves:
            if not self._play(p):
                continue
            value = self._child(c, depth - 1, -beta, -alpha, 1, beta, alpha)
            self._pop()
            if value > best[0]:
                best = (value, p)
            alpha = max(alpha, value)
        return best

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
        threats = self._wins_now(3 - c, self._opponent_due())
        moves = m.candidates()
        if threats:
            moves = sorted(set(moves) | threats)
            moves = self._safe_moves(moves, c) or [min(threats)]
        moves = self._ordered(moves, c)[: self.width]
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        alpha0 = alpha
        best, best_move = -WIN - 1, moves[0]
        for p in moves:
            if not self._play(p):
                continue
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

    # ------------------------------------------------------------------ VCF

    def _four_moves(self, c: int) -> list[int]:
        """Points where a stone of ``c`` makes a four (a window one stone short)."""
        m = self.mirror
        return self._ordered(sorted(m.line_points(c, 2) - m.line_points(c)), c)

    def _vcf(self, depth: int) -> int | None:
        """A first stone of a sequence of fours that wins whatever the defence, or None."""
        self._tick()
        g = self.game
        c = g.to_move_colour
        o = 3 - c
        m = self.mirror
        mine = self._wins_now(c, 1)
        if mine:
            return min(mine)
        if depth <= 0 or self._wins_now(o, 1):
            return None
        for p in self._four_moves(c):
            if not self._play(p):
                continue
            if g.outcome is not None:
                won = g.winner_colour == c
                self._pop()
                if won:
                    return p
                continue
            if not m.line_points(c) or self._wins_now(o, 1):
                self._pop()
                continue
            ok = self._refuted_by_none(c, depth)
            self._pop()
            if ok:
                return p
        return None

    def _refuted_by_none(self, c: int, depth: int) -> bool:
        """After our four: whether every defence (a stone on a winning point, or a capture)
        still loses to a further four, or to the line that is left."""
        g = self.game
        m = self.mirror
        o = 3 - c
        defences = set(m.line_points(c))
        if self.target:
            defences |= set(m.capture_points(o))
        for d in sorted(defences):
            if not self._play(d):
                continue
            if g.outcome is not None:
                self._pop()
                return False
            ok = bool(self._wins_now(c, 1)) or self._vcf(depth - 1) is not None
            self._pop()
            if not ok:
                return False
        return True
