"""The evaluation of the games with captures fitted to the outcomes of self-play (Texel's method).

    python bench/tune.py games Pente 1000 games.jsonl [--seed 1] [--nodes 1500] [--procs 2]
    python bench/tune.py fit Pente games.jsonl [--shapes]

``games`` plays games of level 7 against itself, with its mistakes, on ``--nodes`` nodes a stone,
each from two random turns after the centre (as ``bench/bots.py`` opens its matches), and
appends one JSON line a game: its actions and its winners. ``fit`` replays them and takes every
position from the sixth stone on where neither side has a four (a quiet one); for each it reads
the parts of the evaluation (each side's windows of one, two and three stones, the cube of each
side's share of the capture target, whether the side to move can capture, the points where the
side waiting can, an open three of the side to move) and fits the game's outcome for the side to
move to them by logistic regression; with ``--shapes`` each side's windows of one to three
stones are counted by their shape (``SHAPES``) instead of by their count. It prints the log loss
on the games held out (every fifth) of the evaluation of levels 1 to 7, of level 8's, and of the
fit, and the fit's weights in the evaluation's units (a window of three of the side to move = 60;
with ``--shapes``, the side to move's average shape of three = 60). A better fit is a hint, not a
verdict: the weights level 8 reads were chosen from it by matches (docs/computer-opponents.md,
"The evaluation").
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots import start  # noqa: E402

from games.bots.search import _Bot, _NodeClock, choose_move  # noqa: E402
from games.engine import Game  # noqa: E402

HELD_OUT = 5  # every fifth game is kept out of the fit
FIRST_PLY = 5  # positions from the sixth stone on
PARTS = ("c1", "c2", "c3", "w1", "w2", "w3", "near_target", "ready", "exposed", "open_three")


def _mirror(mask: int) -> int:
    return int(f"{mask:05b}"[::-1], 2)


#: The shapes of a window of five holding one to three stones of one colour (the bit ``i``: its
#: ``i``-th point holds one), each the lesser of itself and its mirror image, by count of stones
SHAPES = tuple(
    sorted(
        {min(m, _mirror(m)) for m in range(32) if 1 <= m.bit_count() <= 3},
        key=lambda m: (m.bit_count(), m),
    )
)
_SHAPE_INDEX = {m: SHAPES.index(min(m, _mirror(m))) for m in range(32) if 1 <= m.bit_count() <= 3}


def _shape(board, points, colour: int) -> int:
    """The index in ``SHAPES`` of a window's shape (the points of ``colour`` in it)."""
    return _SHAPE_INDEX[sum(1 << i for i, q in enumerate(points) if board[q] == colour)]


def _one_game(job: tuple[str, int, int, int]) -> dict:
    variant, seed, index, nodes = job
    rng = random.Random(seed * 7919 + index)
    game = start(variant, seed * 100_003 + index + 1)
    while game.outcome is None:
        choice = choose_move(game, level=7, max_nodes=nodes, rng=rng, mistakes=True)
        if choice.decision is not None:
            game.decide(choice.decision)
        else:
            game.play_turn(list(choice.points))
    return {"actions": game.actions, "winners": list(game.outcome.winners)}


def games(args) -> int:
    jobs = [(args.variant, args.seed, i, args.nodes) for i in range(args.n)]
    with open(args.out, "a") as out:
        if args.procs == 1:
            _write(map(_one_game, jobs), out, args.n)
        else:
            with Pool(args.procs) as pool:
                _write(pool.imap_unordered(_one_game, jobs), out, args.n)
    return 0


def _write(records, out, n: int) -> None:
    for k, record in enumerate(records, 1):
        out.write(json.dumps(record) + "\n")
        if k % 50 == 0 or k == n:
            print(f"{k} games", flush=True)


def _bot(game: Game, level: int) -> _Bot:
    return _Bot(game, level, math.inf, random.Random(0), clock=_NodeClock())


def parts(game: Game, bot: _Bot | None = None, shapes: bool = False) -> list[float] | None:
    """The evaluation's parts for the side to move (side waiting: ``w``), None when either side
    has a four; ``bot``, a level-7 bot on ``game`` already made (one is made without it). With
    ``shapes``, each side's windows of one to three stones by shape (``SHAPES``), not count."""
    m = (bot or _bot(game, 7)).mirror
    c = game.to_move_colour
    o = 3 - c
    if m.line_points(c) or m.line_points(o):
        return None
    windows: dict[int, list[int]] = {c: [0] * len(SHAPES), o: [0] * len(SHAPES)}
    for w, owner in enumerate(m.owner):
        if owner > 0 and m.cnt[owner][w] <= 3:
            k = _shape(m.board, m.geo.windows[w], owner) if shapes else m.cnt[owner][w] - 1
            windows[owner][k] += 1
    n = len(SHAPES) if shapes else 3
    target = game.variant.capture_target
    share = [min(1.0, game.captures[k - 1] / target) ** 3 for k in (c, o)]
    return [
        *windows[c][:n],
        *windows[o][:n],
        share[0] - share[1],
        1.0 if m.capture_points(c) else 0.0,
        float(len(m.capture_points(o))),
        1.0 if m.open_threes(c) else 0.0,
    ]


def positions(variant: str, path: str, shapes: bool = False):
    """(parts, outcome for the side to move, held out, level 7's and level 8's evaluation)."""
    for index, line in enumerate(Path(path).read_text().splitlines()):
        record = json.loads(line)
        if not record["winners"]:
            continue
        game = Game(variant, tournament_rule=True)
        for ply, action in enumerate(game.without_automatic(record["actions"])):
            if isinstance(action, str):
                game.decide(action)
            else:
                game.play(action)
            if game.outcome is not None or game.pending_decision is not None or ply < FIRST_PLY:
                continue
            old = _bot(game, 7)  # levels 1-7: the parts and the evaluation before tuning
            x = parts(game, old, shapes)
            if x is None:
                continue
            won = 1.0 if game.to_move_seat in record["winners"] else 0.0
            yield x, won, index % HELD_OUT == 0, old.evaluate(), _bot(game, 8).evaluate()


def _loss(p, y) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


def logistic(x, y, l2: float = 1e-4, steps: int = 60):
    """Weights (one a column of ``x``, no intercept) by Newton's method."""
    scale = x.std(0) + 1e-9
    z = x / scale
    w = np.zeros(z.shape[1])
    for _ in range(steps):
        p = _sigmoid(z @ w)
        grad = z.T @ (p - y) / len(y) + l2 * w
        hess = (z * (p * (1 - p))[:, None]).T @ z / len(y) + l2 * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    return w / scale


def fit(args) -> int:
    rows = list(positions(args.variant, args.games, args.shapes))
    if not rows:
        print("no quiet position in those games")
        return 1
    x = np.array([r[0] for r in rows])
    n = len(SHAPES) if args.shapes else 3  # each side's windows
    x[:, n : 2 * n] *= -1  # the waiting side's windows count against the side to move
    x[:, 2 * n + 2] *= -1  # and so do its capture points
    y = np.array([r[1] for r in rows])
    held = np.array([r[2] for r in rows])
    train = ~held if held.any() and (~held).any() else np.ones(len(y), bool)
    test = held if held.any() and (~held).any() else train
    print(f"{len(y)} quiet positions, {int(test.sum())} of them held out")
    for name, column in (("levels 1-7", 3), ("level 8", 4)):
        value = np.clip(np.array([r[column] for r in rows], float), -30_000, 30_000)
        loss, k = min(
            (_loss(_sigmoid(value[train] / k), y[train]), k) for k in range(100, 2001, 50)
        )
        print(
            f"  {name:10s} evaluation: log loss {_loss(_sigmoid(value[test] / k), y[test]):.4f} ({k} a unit of odds)"
        )
    w = logistic(x[train], y[train])
    print(f"  the fit:              log loss {_loss(_sigmoid(x[test] @ w), y[test]):.4f}")
    if args.shapes:  # in units of the side to move's average shape of three = 60
        three = float(np.mean(w[[k for k, m in enumerate(SHAPES) if m.bit_count() == 3]]))
        unit = 60 / three if three > 0 else 1.0
        names = [f"{side}{m:05b}" for side in "cw" for m in SHAPES] + list(PARTS[6:])
    else:
        unit = 60 / w[2] if w[2] > 0 else 1.0
        names = list(PARTS)
    for name, value in zip(names, w, strict=True):
        print(f"    {name:12s} {value * unit:+9.1f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("games", help="self-play games, one JSON line each")
    g.add_argument("variant")
    g.add_argument("n", type=int)
    g.add_argument("out")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--nodes", type=int, default=1500)
    g.add_argument("--procs", type=int, default=2)
    f = sub.add_parser("fit", help="the evaluation's parts fitted to the games' outcomes")
    f.add_argument("variant")
    f.add_argument("games")
    f.add_argument("--shapes", action="store_true", help="the windows by shape, not count")
    args = parser.parse_args(argv)
    return games(args) if args.command == "games" else fit(args)


if __name__ == "__main__":
    sys.exit(main())
