"""Engine speed: moves applied per second, the cost of a move on an empty and on a crowded
board, and full random games per second; with a verdict against the targets. Go (19x19) too.

Run: ``.venv/bin/python bench/engine.py`` (stdlib only; ``--quick`` for a smaller run). Exit
status 1 when a target is missed:

- **speed**: replaying Pente games through ``Game.play`` (legality check, captures and win test
  included) runs at >= 100,000 moves/s;
- **flat**: a move played on a board of ~150 stones costs at most 2x one played on a board of
  ~10 stones (per variant);
- **Go speed**: Go moves on 19x19 (``GoGame.play``: captures, suicide and superko checks
  included) run at >= 100,000 moves/s after 200 moves;
- **Go flat**: a Go move after 200 moves costs at most 2x one at the start of a game, the same
  target as the Pente family's (moves/s ratio >= 0.5): the superko history is a set of hashes and
  the work is local to the groups next to the stone, so a move's cost does not grow with the
  stones played (a whole-board pass per move would cost ~100x here); what remains is that most
  moves on a crowded board touch groups and some capture. The same boards rebuilt without their
  history are timed too, to show the history itself costs nothing.

Replay: a fixed set of seeded random games, each played to its end; the moves are drawn first,
then replayed under the timer (best of several repeats).

Per-move cost: random games that refuse every move that would end them (a win, a capture win)
fill the board past 150 stones; in each, the position where the board first holds ~10 stones,
and the one where it first holds ~150, is followed by the game's next ``WINDOW`` moves. Every
repeat times those moves from a fresh copy of each position (thousands of moves per figure);
the figure is the best repeat, so that a noisy neighbour on the machine does not make it.

Go: seeded random games of 19x19 fought in contact, so that groups get captured and kos come
up: each move takes a stone next to the last few moves when that captures (tried by play and
pop), else goes near the last stone (mostly) or anywhere; no passes. The moves after ply 0 and
after ply 200 are timed the same way, ``WINDOW`` moves from a fresh copy of each position, the
two in turn within each repeat (their ratio sees one state of the machine). Beside them, for
reading a miss: how many timed moves touch a stone or capture, and the ply-200 boards rebuilt
without their history (``GoGame.from_position``): what the moves played cost by themselves.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import Game, GoGame, IllegalMove, MoveResult  # noqa: E402
from games.engine.go import go_tables  # noqa: E402

SEED = 20240601
VARIANTS = ("Pente", "Keryo-Pente")
TARGET_MOVES_PER_S = 100_000  # Pente replay
FLAT_MAX_RATIO = 2.0  # cost at ~150 stones / cost at ~10 stones
STONE_COUNTS = (10, 150)
WINDOW = 10  # moves timed after each position
GO_SIZE = 19
GO_TARGET_MOVES_PER_S = 100_000  # Go moves after 200 moves
GO_FLAT_MIN_RATIO = 0.5  # Go moves/s after 200 moves / moves/s at the start (cost <= 2x)
GO_PLIES = (0, 200)  # where the Go moves are timed
GO_NEAR = 0.8  # how often a Go move (not a capture) goes near the last stone
GO_RECENT = 8  # a capture is looked for next to the last moves


@dataclass(frozen=True)
class Sizes:
    games: int  # replayed games per variant
    positions: int  # positions per stone count (one per long game)
    repeats: int  # timed repeats; the best one counts
    go_games: int  # Go games (one position per game and timed ply)


FULL = Sizes(games=200, positions=600, repeats=9, go_games=300)
QUICK = Sizes(games=20, positions=40, repeats=3, go_games=20)


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
    game: Game | GoGame  # the position, never played on (each timing plays on a copy)
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
    return per_move_costs([positions], repeats)[0]


def per_move_costs(groups: list[list[Position]], repeats: int) -> list[float]:
    """``per_move_cost`` of each group of positions, the groups timed in turn within each
    repeat, so that figures to compare see the same state of the machine."""
    best = [float("inf")] * len(groups)
    clock = time.perf_counter
    for _ in range(repeats):
        for i, positions in enumerate(groups):
            elapsed = 0.0
            for position in positions:
                play = position.game.copy().play
                window = position.window
                t0 = clock()
                for p in window:
                    play(p)
                elapsed += clock() - t0
            best[i] = min(best[i], elapsed)
    return [b / (len(positions) * WINDOW) for b, positions in zip(best, groups, strict=True)]


def replay_all(variant: str, games: list[list[int]]) -> float:
    t0 = time.perf_counter()
    for moves in games:
        g = Game(variant)
        play = g.play
        for p in moves:
            play(p)
    return time.perf_counter() - t0


def go_random_game(rng: random.Random, length: int) -> tuple[list[int], int]:
    """A random 19x19 game of ``length`` stones (no pass) fought in contact; returns its moves
    and how many tries its drawing had refused for superko."""
    g = GoGame(GO_SIZE)
    n = GO_SIZE * GO_SIZE
    neighbours = go_tables(GO_SIZE).neighbours
    board = [0] * n  # kept equal to the game's board
    moves: list[int] = []
    superko = 0
    while len(moves) < length:
        # a capture next to the last moves, when there is one: an empty point that touches the
        # opponent's stones
        them = 3 - (g.to_move_colour or 1)
        near = sorted(
            {
                q
                for m in moves[-GO_RECENT:]
                for q in neighbours[m]
                if not board[q] and any(board[r] == them for r in neighbours[q])
            }
        )
        rng.shuffle(near)
        r = None
        for p in near:
            try:
                trial = g.play(p)
            except IllegalMove as e:
                superko += e.code == "superko"
                continue
            if trial.captured:
                r = trial
                break
            g.pop()
        if r is None:
            if moves and rng.random() < GO_NEAR:
                y, x = divmod(moves[-1], GO_SIZE)
                x = min(GO_SIZE - 1, max(0, x + rng.randint(-2, 2)))
                y = min(GO_SIZE - 1, max(0, y + rng.randint(-2, 2)))
                p = x + GO_SIZE * y
            else:
                p = rng.randrange(n)
            try:
                r = g.play(p)
            except IllegalMove as e:
                superko += e.code == "superko"
                continue
        assert r.point is not None
        board[r.point] = r.colour
        for q in r.captured:
            board[q] = 0
        moves.append(r.point)
    return moves, superko


def go_positions_at(games: list[list[int]], ply: int) -> list[Position]:
    """For each game, the position after its first ``ply`` moves and the ``WINDOW`` after."""
    found = []
    for moves in games:
        g = GoGame.replay(moves[:ply], size=GO_SIZE)
        found.append(Position(g, tuple(moves[ply : ply + WINDOW])))
    return found


def without_history(position: Position) -> Position:
    """The same board and window in a game that starts there: no superko history, no log."""
    g = position.game
    stones = {c: [p for p, v in enumerate(g.board) if v == c] for c in (1, 2)}
    rebuilt = GoGame.from_position(GO_SIZE, stones, to_move=g.to_move_colour or 1)
    return Position(rebuilt, position.window)


def window_moves(positions: list[Position]) -> tuple[int, int, int]:
    """In the windows of ``positions`` (untimed): the moves next to a stone, the moves that
    capture, the stones captured."""
    touching = capturing = taken = 0
    neighbours = go_tables(GO_SIZE).neighbours
    for position in positions:
        g = position.game.copy()
        for p in position.window:
            touching += any(g.board[q] for q in neighbours[p])
            n = len(g.play(p).captured)
            capturing += bool(n)
            taken += n
    return touching, capturing, taken


def go_replay_all(games: list[list[int]]) -> float:
    t0 = time.perf_counter()
    for moves in games:
        play = GoGame(GO_SIZE).play
        for p in moves:
            play(p)
    return time.perf_counter() - t0


def go_verdicts(start: float, later: float) -> list[tuple[str, bool]]:
    """Go's two verdicts from the moves/s at ply 0 and at ply 200."""
    fast = later >= GO_TARGET_MOVES_PER_S
    ratio = later / start
    flat = ratio >= GO_FLAT_MIN_RATIO
    return [
        (
            f"Go 19x19 {later:,.0f} moves/s after {GO_PLIES[1]} moves, target >= "
            f"{GO_TARGET_MOVES_PER_S:,} moves/s: {'OK' if fast else 'MISSED'}",
            fast,
        ),
        (
            f"Go 19x19 {start:,.0f} moves/s at the start, {later:,.0f} after {GO_PLIES[1]} moves, "
            f"ratio {ratio:.2f} (target >= {GO_FLAT_MIN_RATIO:g}): flat: "
            f"{'OK' if flat else 'MISSED'}",
            flat,
        ),
    ]


def go_part(sizes: Sizes) -> list[tuple[str, bool]]:
    """Go on 19x19: seeded contact games, replayed and timed at ply 0 and ply 200."""
    rng = random.Random(SEED + 3)
    drawn = [go_random_game(rng, GO_PLIES[1] + WINDOW) for _ in range(sizes.go_games)]
    games = [moves for moves, _ in drawn]
    moves = sum(len(m) for m in games)
    best = min(go_replay_all(games) for _ in range(sizes.repeats))
    print(
        f"{'Go 19x19':12s} replay: {moves} moves in {best:.3f}s = {moves / best:,.0f} moves/s "
        f"({best / moves * 1e6:.2f} us/move, {len(games)} games of {GO_PLIES[1] + WINDOW} "
        f"moves; {sum(k for _, k in drawn)} superko refusals while drawing them)"
    )
    start, later = (go_positions_at(games, ply) for ply in GO_PLIES)
    fresh = [without_history(p) for p in later]
    costs = per_move_costs([start, later, fresh], sizes.repeats)
    timed = f"{len(start) * WINDOW} moves x {sizes.repeats} repeats, best"
    for ply, positions, cost in zip(GO_PLIES, (start, later), costs, strict=False):
        touching, capturing, taken = window_moves(positions)
        stones = sum(sum(1 for c in p.game.board if c) for p in positions) / len(positions)
        print(
            f"{'':12s} after {ply:3d} moves (~{stones:.0f} stones): {cost * 1e6:.2f} us/move = "
            f"{1 / cost:,.0f} moves/s ({timed}; {touching} of them next to a stone, "
            f"{capturing} capture {taken} stones)"
        )
    print(
        f"{'':12s} the same {GO_PLIES[1]}-move boards without their history: {costs[2] * 1e6:.2f} "
        f"us/move = {1 / costs[2]:,.0f} moves/s (history costs x{costs[1] / costs[2]:.2f})"
    )
    return go_verdicts(1 / costs[0], 1 / costs[1])


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
        f"best of {sizes.repeats} repeats; Go: {sizes.go_games} games x {WINDOW} moves per ply"
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
    verdicts.extend(go_part(sizes))
    print()
    for line, _ok in verdicts:
        print(f"Verdict: {line}")
    return 0 if all(ok for _, ok in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
