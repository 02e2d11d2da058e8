"""Engine speed: moves applied per second and full random games per second.

Run: ``.venv/bin/python bench/engine.py`` (stdlib only). Uses a fixed set of seeded random Pente
and Keryo-Pente games: each game's moves are drawn first, then replayed through ``Game.play``
(legality check, captures and win test included) under the timer.
"""

from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import Game, IllegalMove  # noqa: E402

GAMES_PER_VARIANT = 200
SEED = 20240601


def random_game(variant: str, rng: random.Random) -> list[int]:
    """A random game played to its end; returns the stones after the automatic centre stone."""
    g = Game(variant)
    empties = [p for p in range(361) if not g._board[p]]
    moves = []
    while g.status == "in_progress":
        i = rng.randrange(len(empties))
        p = empties[i]
        if g._board[p]:
            empties[i] = empties[-1]
            empties.pop()
            continue
        try:
            r = g.play(p)
        except IllegalMove:
            continue
        empties[i] = empties[-1]
        empties.pop()
        empties.extend(r.captured)
        moves.append(p)
    return moves


def play_random_games(variant: str, n: int, seed: int) -> int:
    rng = random.Random(seed)
    total = 0
    for _ in range(n):
        total += len(random_game(variant, rng))
    return total


def replay_all(variant: str, games: list[list[int]]) -> float:
    t0 = time.perf_counter()
    for moves in games:
        g = Game(variant)
        play = g.play
        for p in moves:
            play(p)
    return time.perf_counter() - t0


def cost_by_stones(variant: str, games: list[list[int]], stones: int, window: int = 10):
    """Mean seconds per move over ``window`` moves played once ``stones`` stones are on the board."""
    elapsed = 0.0
    count = 0
    for moves in games:
        g = Game(variant)
        i = 0
        while i < len(moves) and (361 - g._empty) < stones:
            g.play(moves[i])
            i += 1
        chunk = moves[i : i + window]
        if (361 - g._empty) < stones or len(chunk) < window:
            continue
        play = g.play
        t0 = time.perf_counter()
        for p in chunk:
            play(p)
        elapsed += time.perf_counter() - t0
        count += len(chunk)
    return (elapsed / count if count else float("nan")), count


def main() -> None:
    print(f"Python {sys.version.split()[0]}, {GAMES_PER_VARIANT} seeded random games per variant")
    for variant in ("Pente", "Keryo-Pente"):
        rng = random.Random(SEED)
        games = [random_game(variant, rng) for _ in range(GAMES_PER_VARIANT)]
        moves = sum(len(m) for m in games)
        best = min(replay_all(variant, games) for _ in range(3))
        for moves_of_game in games:  # sanity: every replayed game really ends (untimed)
            g = Game(variant)
            for p in moves_of_game:
                g.play(p)
            assert g.status != "in_progress", "a benchmark game did not finish"
        print(
            f"{variant:12s} replay: {moves} moves in {best:.3f}s = {moves / best:,.0f} moves/s "
            f"({best / moves * 1e6:.2f} us/move, mean game {moves / len(games):.0f} moves)"
        )
        for stones in (10, 150):
            per, n = cost_by_stones(variant, games, stones)
            print(f"{'':12s} per-move cost at ~{stones:3d} stones: {per * 1e6:.2f} us ({n} moves)")
        t0 = time.perf_counter()
        n_moves = play_random_games(variant, GAMES_PER_VARIANT, SEED + 1)
        dt = time.perf_counter() - t0
        print(
            f"{'':12s} full random games (move choice included): "
            f"{GAMES_PER_VARIANT / dt:,.1f} games/s, {n_moves / dt:,.0f} moves/s"
        )


if __name__ == "__main__":
    main()
