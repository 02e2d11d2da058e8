"""Engine speed: moves applied per second, the cost of a move on an empty and on a crowded
board, and full random games per second; with a verdict against the targets.

Run: ``.venv/bin/python bench/engine.py`` (stdlib only; ``--quick`` for a smaller run). Exit
status 1 when a target is missed:

- **speed**: replaying Pente games through ``Game.play`` (legality check, captures and win test
  included) runs at >= 100,000 moves/s;
- **flat**: a move played on a board of ~150 stones costs at most 2x one played on a board of
  ~10 stones (per variant).

Replay: a fixed set of seeded random games, each played to its end; the moves are drawn first,
then replayed under the timer (best of several repeats).

Per-move cost: random games that refuse every move that would end them (a win, a capture win)
fill the board past 150 stones; in each, the position where the board first holds ~10 stones,
and the one where it first holds ~150, is followed by the game's next ``WINDOW`` moves. Every
repeat times those moves from a fresh copy of each position (thousands of moves per figure);
the figure is the best repeat, so that a noisy neighbour on the machine does not make it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import Game, IllegalMove, MoveResult  # noqa: E402

SEED = 20240601
VARIANTS = ("Pente", "Keryo-Pente")
TARGET_MOVES_PER_S = 100_000  # Pente replay
FLAT_MAX_RATIO = 2.0  # cost at ~150 stones / cost at ~10 stones
STONE_COUNTS = (10, 150)
WINDOW = 10  # moves timed after each position


@dataclass(frozen=True)
class Sizes:
    games: int  # replayed games per variant
    positions: int  # positions per stone count (one per long game)
    repeats: int  # timed repeats; the best one counts


FULL = Sizes(games=200, positions=600, repeats=9)
QUICK = Sizes(games=20, positions=40, repeats=3)


def stones_on(g: Game) -> int:
    """The stones on the board: those placed less those taken off (``captures`` counts every
    stone taken off, poofed ones included)."""
    return g.plies - sum(g.captures)


def added(r: MoveResult) -> int:
    """The stones a move added to the board: its own, less those it took off."""
    return 1 - len(r.captured) - len(r.poofed)


def random_game(variant: str, rng: random.Random) -> list[int]:
    """A random game played to its end; returns the stones after the automatic centre stone."""
    g = Game(variant)
    # kept equal to the empty points (VARIANTS capture but never poof)
    empties = [p for p, c in enumerate(g.board) if not c]
    moves = []
    while g.outcome is None:
        i = rng.randrange(len(empties))
        p = empties[i]
        try:
            r = g.play(p)
        except IllegalMove:
            continue
        empties[i] = empties[-1]
        empties.pop()
        empties.extend(r.captured)
        moves.append(p)
    return moves


def long_game(variant: str, rng: random.Random, stones: int) -> list[int]:
    """A random game that refuses every move that would end it, played until the board holds
    ``stones`` stones and then ``WINDOW`` more moves (all of them legal, none ending it)."""
    g = Game(variant)
    n = g.size * g.size
    board = list(g.board)  # kept equal to the game's board
    on = stones_on(g)
    moves: list[int] = []
    reached = False
    after_target = 0
    while after_target < WINDOW:
        p = rng.randrange(n)
        if board[p]:
            continue
        trial = g.copy()
        try:
            r = trial.play(p)
        except IllegalMove:
            continue
        if trial.outcome is not None:
            continue
        g = trial
        board[p] = r.colour
        for q in r.captured + r.poofed:
            board[q] = 0
        on += added(r)
        moves.append(p)
        if reached:
            after_target += 1
        reached = reached or on >= stones
    return moves


@dataclass(frozen=True)
class Position:
    game: Game  # the position, never played on (each timing plays on a copy)
    window: tuple[int, ...]  # the next moves of its game


def positions_at(variant: str, games: list[list[int]], stones: int) -> list[Position]:
    """For each game, the first position with >= ``stones`` stones and the ``WINDOW`` moves
    after it (games too short for that are skipped)."""
    found = []
    for moves in games:
        g = Game(variant)
        on = stones_on(g)
        i = 0
        while i < len(moves) and on < stones:
            on += added(g.play(moves[i]))
            i += 1
        window = tuple(moves[i : i + WINDOW])
        if on >= stones and len(window) == WINDOW:
            found.append(Position(g, window))
    return found


def per_move_cost(positions: list[Position], repeats: int) -> float:
    """Seconds per move over the windows of ``positions``: the best of ``repeats`` passes, each
    playing every window once from a fresh copy of its position (copies are not timed)."""
    moves = len(positions) * WINDOW
    best = float("inf")
    clock = time.perf_counter
    for _ in range(repeats):
        elapsed = 0.0
        for position in positions:
            play = position.game.copy().play
            window = position.window
            t0 = clock()
            for p in window:
                play(p)
            elapsed += clock() - t0
        best = min(best, elapsed)
    return best / moves


def replay_all(variant: str, games: list[list[int]]) -> float:
    t0 = time.perf_counter()
    for moves in games:
        g = Game(variant)
        play = g.play
        for p in moves:
            play(p)
    return time.perf_counter() - t0


def speed_verdict(moves_per_s: float) -> tuple[str, bool]:
    ok = moves_per_s >= TARGET_MOVES_PER_S
    return (
        f"Pente replay {moves_per_s:,.0f} moves/s, target >= {TARGET_MOVES_PER_S:,} moves/s "
        f"for Pente: {'OK' if ok else 'MISSED'}",
        ok,
    )


def flat_verdict(variant: str, cost_10: float, cost_150: float) -> tuple[str, bool]:
    ratio = cost_150 / cost_10
    ok = ratio <= FLAT_MAX_RATIO
    return (
        f"{variant} per-move cost {cost_10 * 1e6:.2f} us at ~10 stones, "
        f"{cost_150 * 1e6:.2f} us at ~150 stones, ratio {ratio:.2f} "
        f"(target <= {FLAT_MAX_RATIO:g}): flat: {'OK' if ok else 'MISSED'}",
        ok,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small run (a smoke test)")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    print(
        f"Python {sys.version.split()[0]}; per variant: {sizes.games} seeded random games "
        f"replayed, {sizes.positions} positions x {WINDOW} moves per stone count, "
        f"best of {sizes.repeats} repeats"
    )
    verdicts: list[tuple[str, bool]] = []
    for variant in VARIANTS:
        rng = random.Random(SEED)
        games = [random_game(variant, rng) for _ in range(sizes.games)]
        moves = sum(len(m) for m in games)
        best = min(replay_all(variant, games) for _ in range(sizes.repeats))
        for moves_of_game in games:  # sanity: every replayed game really ends (untimed)
            g = Game(variant)
            for p in moves_of_game:
                g.play(p)
            assert g.outcome is not None, "a benchmark game did not finish"
        print(
            f"{variant:12s} replay: {moves} moves in {best:.3f}s = {moves / best:,.0f} moves/s "
            f"({best / moves * 1e6:.2f} us/move, mean game {moves / len(games):.0f} moves)"
        )
        if variant == "Pente":
            verdicts.append(speed_verdict(moves / best))

        rng = random.Random(SEED + 2)
        fills = [long_game(variant, rng, max(STONE_COUNTS)) for _ in range(sizes.positions)]
        costs = {}
        for stones in STONE_COUNTS:
            positions = positions_at(variant, fills, stones)
            assert positions, f"no position with {stones} stones"
            costs[stones] = per_move_cost(positions, sizes.repeats)
            print(
                f"{'':12s} per-move cost at ~{stones:3d} stones: {costs[stones] * 1e6:.2f} us "
                f"({len(positions) * WINDOW} moves x {sizes.repeats} repeats, best)"
            )
        verdicts.append(flat_verdict(variant, costs[10], costs[150]))

        t0 = time.perf_counter()
        rng = random.Random(SEED + 1)
        n_moves = sum(len(random_game(variant, rng)) for _ in range(sizes.games))
        dt = time.perf_counter() - t0
        print(
            f"{'':12s} full random games (move choice included): "
            f"{sizes.games / dt:,.1f} games/s, {n_moves / dt:,.0f} moves/s"
        )
    print()
    for line, _ok in verdicts:
        print(f"Verdict: {line}")
    return 0 if all(ok for _, ok in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
