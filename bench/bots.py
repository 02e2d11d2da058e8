"""Computer opponents against each other: the score of one level against another.

    .venv/bin/python bench/bots.py LEVEL_A LEVEL_B GAME N [--budget-scale S] [--seed K]
        [--no-openings]

Plays N games of GAME (a name or slug: ``Pente``, ``keryo-pente``, ``Gomoku``, ``Connect6``,
``go-9``, ...) between level A and level B through the pure engine (no server), colours
alternated (A moves first in the odd games), the tournament rule on where the game has it (as in
rated games). In the Pente family the games come in pairs: each pair starts from its own
opening, two random turns near the stones after the centre stone, played once with each level
moving first. Without that level 8, which makes no deliberate mistakes, and the levels whose
mistakes are rare would play the same few games over and over and the 95% interval would not be
one (it assumes games that do not depend on each other); ``--no-openings`` starts every game
from the centre stone alone. Each level plays with its calibrated mistakes
(``choose_move(..., mistakes=True)``, as a computer opponent) and its think time
(``games.bots.search.BUDGETS``) times ``--budget-scale``. Prints every result, A's score (a
win 1, a draw 0.5) with a 95% interval
(Wilson), and the mean and worst think time of each level, beside the targets: A scores at least
65% when A is the level above B, and every game when B is 0. Exit status 1 when the target is
missed.

Level 0 is a random player: a random legal stone within 2 points of a stone on the board, a
random decision (in Go: never in one of its own eyes, a pass when nothing else is left, no dead
stones proposed, every marking accepted); ``bots.py 8 0 Pente 10`` checks that level 8 wins
every game.

Go is played by the Monte Carlo tree search of ``games.bots.go_search`` at each level and its
think time, the marking of dead stones and the answer to it included. A Go run first prints the
search's playouts a second, pure Python and compiled by numba, side by side.

Against another program: ``--opponent "COMMAND"`` plays level A against any engine that speaks
GTP on its standard input and output (GNU Go: ``--opponent "gnugo --mode gtp --level 1"``;
LEVEL_B is then only a label; in the Pente family ``--nodes`` and ``--node-rate`` give level A
its node budget, as below, so that a loaded machine slows our side without weakening it). This
engine is the referee: a move it refuses loses the game for the opponent. The opponent is told ``boardsize``, ``clear_board``, ``komi`` and, in the Pente
family, ``tournament_rule on`` (ignored if it does not know it), then each move by ``play`` and
asked for its own by ``genmove``; ``resign`` ends the game. A game in which the program ends
(or stops answering) is void, counted for neither side, and the program is started again for
the next game; the score is over the games played to their end. In Go, after two passes in a row the
board is counted both ways: by the opponent's ``final_score`` (which decides the game) and by
this engine's (its dead-stone estimate), and the report says in how many games they named the
same winner. ``--moves`` prints each game's moves (GTP vertices, a turn's stones joined by
``-``), to replay a loss.

Fixed node budgets, the same games on a loaded machine or a fast one (Pente family):
``--nodes N`` gives each stone of both levels N nodes (the search's looks at its clock) instead
of seconds, ``--nodes-b M`` gives level B its own; ``--pure-b`` makes level B search with the
pure-Python mirror (the search as it was before it was compiled), so ``bots.py 8 8 Pente 20
--nodes 6000 --nodes-b 2000 --pure-b`` plays the compiled level 8 against the pure one at the
node budgets each reaches in the same time (``--speed`` measures the ratio). ``--node-rate R``
gives each level its think time's worth of nodes at R nodes a second (``BUDGETS`` times
``--budget-scale`` times R), its node clock ticking 1/R s a node (so the search's fixed times,
such as the least time a mistake's check gets, are worth the nodes they are at that rate): the
ladder on fixed node budgets.

    .venv/bin/python bench/bots.py --speed [--nodes N]

prints the search's nodes per second on a fixed set of positions of Pente, Keryo-Pente and
Gomoku, pure Python and compiled side by side in one run (level 8, N nodes a position, 3000 by
default), and whether both chose the same moves (they must).
"""

from __future__ import annotations

import argparse
import math
import random
import shlex
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import fastboard  # noqa: E402
from games.bots import search as bot_search  # noqa: E402
from games.bots.go_search import estimate_dead, go_action, playout_rates, warm  # noqa: E402
from games.bots.search import BUDGETS, choose_move  # noqa: E402
from games.engine import GoPhase, IllegalMove, get_variant, new_game, point_name  # noqa: E402

TARGET_SCORE = 0.65
MAX_ACTIONS = 400  # a game that runs longer is a draw
OPENING_TURNS = 2  # random turns that open each pair of games (Pente family)


def play_game(
    variant,
    *,
    first_level: int,
    second_level: int,
    scale: float,
    rng,
    opening: int = 0,
    setups: dict[int, tuple[int | None, bool]] | None = None,
) -> tuple:
    """One game from ``start(variant, opening)`` (``opening``: the seed of its random opening,
    0 for none); returns (winning seat or None, {seat: [think seconds]}). ``setups``: per
    seat, (a node budget a stone, or minus a rate of nodes a second of the level's think time,
    or None for seconds; whether the search is compiled)."""
    game = start(variant, opening)
    if game.outcome is not None:  # never seen: a random opening that ends the game
        return None, {1: [], 2: []}
    levels = {1: first_level, 2: second_level}
    times: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(MAX_ACTIONS):
        if game.outcome is not None:
            break
        seat = game.to_move_seat
        level = levels[seat]
        t0 = time.perf_counter()
        if level == 0:
            random_near(game, rng)
        else:
            budget = BUDGETS[level] * scale
            nodes, compiled = (setups or {}).get(seat, (None, fastboard.COMPILED))
            if nodes is not None and nodes < 0:  # a rate: nodes a second of think time
                nodes = max(1, int(-nodes * budget))
            fastboard.use_compiled(compiled)
            bot_turn(game, level=level, budget=budget, rng=rng, max_nodes=nodes)
        times[seat].append(time.perf_counter() - t0)
    fastboard.use_compiled(fastboard.COMPILED)
    outcome = game.outcome
    winner = outcome.winners[0] if outcome is not None and outcome.winners else None
    return winner, times


class GtpRefused(Exception):
    """The opponent answered a command with ``?``."""


class GtpStopped(RuntimeError):
    """The opponent's program ended (or closed its output) in the middle of a game."""


class GtpOpponent:
    """A program that speaks GTP, started from ``command`` (one per match)."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.proc = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def ask(self, line: str) -> str:
        """Send one command; its answer without the ``=``, or ``GtpRefused``."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines: list[str] = []
        while True:
            text = self.proc.stdout.readline()
            if not text:
                raise GtpStopped(f"{self.command!r} stopped answering (after {line!r})")
            if text.strip():
                lines.append(text.rstrip("\n"))
            elif lines:
                break
        answer = "\n".join(lines)
        if answer.startswith("?"):
            raise GtpRefused(answer[1:].strip())
        return answer[1:].strip()

    def close(self) -> None:
        try:
            self.ask("quit")
        except (GtpRefused, RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


_GTP_COLOUR = {1: "black", 2: "white"}


def bot_turn(game, *, level: int, budget: float, rng, max_nodes: int | None = None) -> list[str]:
    """Level ``level`` takes its turn on ``game`` (with its mistakes): what it did, as GTP
    vertices (``pass`` included) or the word of a marking's step or an opening decision."""
    if game.marks_dead:
        act = go_action(game, level=level, budget_s=budget, rng=rng)
        if act.kind == "mark":
            game.mark_dead(sorted(act.dead))
        elif act.kind == "accept":
            game.accept()
        elif act.kind == "reject":
            game.reject()
        elif act.kind == "pass":
            game.pass_turn()
        else:
            game.play(act.point)
            return [point_name(act.point, game.size)]
        return [act.kind]
    choice = choose_move(
        game, level=level, budget_s=budget, rng=rng, mistakes=True, max_nodes=max_nodes
    )
    if choice.decision is not None:
        game.decide(choice.decision)
        return [choice.decision]
    game.play_turn(list(choice.points))
    return [point_name(p, game.size) for p in choice.points]


def _go_count(game, opponent: GtpOpponent, rng) -> tuple[int | None, int | None]:
    """The winning colour by the opponent's count and by this engine's (None: a draw)."""
    theirs = opponent.ask("final_score").upper()
    their_winner = {"B": 1, "W": 2}.get(theirs[:1])
    dead = estimate_dead(game, budget_s=2.0, rng=rng)
    ours = game.score(dead=dead)
    if their_winner != ours.winner:  # what to look at: both counts, the dead stones, the game
        names = " ".join(sorted(point_name(p, game.size) for p in dead))
        print(f"  their count {theirs}, ours B{ours.black - ours.white:+g} (dead: {names or '-'})")
        print(f"  their dead: {opponent.ask('final_status_list dead') or '-'}")
        print(
            f"  moves: {' '.join(str(a) if isinstance(a, str) else point_name(a, game.size) for a in game.actions)}"
        )
    return their_winner, ours.winner


def play_gtp_game(
    variant,
    *,
    level: int,
    our_colour: int,
    opponent: GtpOpponent,
    scale: float,
    rng,
    nodes: int | None = None,
    moves: list[str] | None = None,
) -> tuple:
    """One game of level ``level`` (colour ``our_colour``) against ``opponent``; returns (the
    winning colour or None, {"us": [seconds], "them": [seconds]}, the Go counts' agreement:
    True, False or None when there was no count). ``nodes`` (Pente family): our node budget a
    stone, or minus a rate of nodes a second of the level's think time; None: seconds.
    ``moves``, when given, receives each turn's GTP vertices (the opening's included)."""
    game = start(variant, 0)
    moves = [] if moves is None else moves
    v = get_variant(variant)
    opponent.ask(f"boardsize {v.size}")
    opponent.ask("clear_board")
    if game.marks_dead:
        opponent.ask(f"komi {game.komi:g}")
    elif v.tournament_rule_allowed:
        try:
            opponent.ask("tournament_rule on")
        except GtpRefused:
            pass
    times: dict[str, list[float]] = {"us": [], "them": []}
    budget = BUDGETS[level] * scale
    if nodes is not None and nodes < 0:  # a rate: nodes a second of think time
        nodes = max(1, int(-nodes * budget))
    if not game.marks_dead and game.actions:  # the centre stone the engine placed
        centre = point_name(game.actions[0], v.size)
        moves.append(centre)
        if our_colour == 1:
            opponent.ask(f"play black {centre}")
        elif (first := opponent.ask("genmove black")).upper() != centre:
            print(f"  their first stone {first!r} is not the centre: a forfeit", flush=True)
            return our_colour, times, None
    passes = 0
    for _ in range(MAX_ACTIONS):
        if game.outcome is not None:
            break
        colour = game.to_move_colour
        name = _GTP_COLOUR[colour]
        t0 = time.perf_counter()
        if colour == our_colour:
            vertices = bot_turn(game, level=level, budget=budget, rng=rng, max_nodes=nodes)
            times["us"].append(time.perf_counter() - t0)
            opponent.ask(f"play {name} {' '.join(vertices)}")
        else:
            try:
                answer = opponent.ask(f"genmove {name}")
            except GtpRefused as refused:  # it failed to move (an error of its own): a forfeit
                print(f"  the opponent refused genmove ({refused}): a forfeit", flush=True)
                return our_colour, times, None
            times["them"].append(time.perf_counter() - t0)
            if answer.lower() == "resign":
                return our_colour, times, None
            vertices = answer.upper().split()
            try:
                if vertices == ["PASS"] and game.marks_dead:
                    game.pass_turn()
                else:
                    game.play_turn(vertices)
            except IllegalMove as refused:  # the referee refuses it: a forfeit
                print(f"  the referee refused their {answer!r} ({refused}): a forfeit", flush=True)
                return our_colour, times, None
        moves.append("-".join(vertices))
        passes = passes + 1 if vertices in (["pass"], ["PASS"]) else 0
        if game.marks_dead and (passes >= 2 or game.phase != GoPhase.PLAYING):
            theirs, ours = _go_count(game, opponent, rng)
            return theirs, times, theirs == ours
    outcome = game.outcome
    if outcome is None or not outcome.winners:
        return None, times, None
    return game.seat_colour(outcome.winners[0]), times, None


def go_speed(game: str) -> None:
    """In Go, print the search's playouts a second, pure Python and compiled, side by side."""
    variant = get_variant(game)
    if not new_game(variant).marks_dead:
        return
    warm()
    rates = playout_rates(variant.size)
    pure, compiled = rates["pure"], rates.get("compiled")
    line = f"playouts a second ({variant.size}x{variant.size}): pure {pure:,.0f}"
    if compiled is None:
        line += ", compiled: numba is not installed"
    else:
        line += f", compiled {compiled:,.0f} ({compiled / pure:.0f}x)"
    print(line, flush=True)


def gtp_match(args) -> int:
    """``--opponent``: level A against a GTP program, colours alternated."""
    go_speed(args.game)
    rng = random.Random(args.seed)
    nodes = -args.node_rate if args.node_rate else args.nodes
    if args.node_rate:  # as in a match of two levels: the node clock ticks at that rate
        bot_search._NODE_S = 1.0 / args.node_rate
    opponent = GtpOpponent(args.opponent)
    points = 0.0
    played_games = 0  # the others are void: the opponent's program stopped in them
    times: dict[str, list[float]] = {"us": [], "them": []}
    counts: list[bool] = []
    by_colour = {1: [0.0, 0], 2: [0.0, 0]}  # our points and games with each colour
    distinct: set[tuple[str, ...]] = set()  # the games' moves: a repeated game adds no news
    try:
        for i in range(args.n):
            our_colour = 1 if i % 2 == 0 else 2
            played: list[str] = []
            try:
                winner, spent, agreed = play_gtp_game(
                    args.game,
                    level=args.level_a,
                    our_colour=our_colour,
                    opponent=opponent,
                    scale=args.budget_scale,
                    rng=rng,
                    nodes=nodes,
                    moves=played,
                )
            except GtpStopped as stopped:
                # a crash of the other program is neither side's game: the game is void and
                # the program is started again for the next one
                print(f"game {i + 1:>3}: void ({stopped}); the opponent is started again")
                opponent.close()
                opponent = GtpOpponent(args.opponent)
                continue
            played_games += 1
            for side, values in spent.items():
                times[side].extend(values)
            if agreed is not None:
                counts.append(agreed)
            result = 0.5 if winner is None else (1.0 if winner == our_colour else 0.0)
            points += result
            by_colour[our_colour][0] += result
            by_colour[our_colour][1] += 1
            distinct.add(tuple(played))
            colour = _GTP_COLOUR[our_colour]
            note = "" if agreed is None else f" (counts {'agree' if agreed else 'DIFFER'})"
            print(f"game {i + 1:>3}: level {args.level_a} as {colour}: scores {result:g}{note}")
            if args.moves:
                print(f"  moves: {' '.join(played)}", flush=True)
    finally:
        opponent.close()
    score = points / played_games if played_games else 0.0
    low, high = wilson(score, played_games)
    void = args.n - played_games
    voided = f" ({void} void: the opponent stopped answering)" if void else ""
    print(f"\n{args.game}: level {args.level_a} v {args.opponent!r}, {played_games} games{voided}")
    print(
        f"level {args.level_a} scores {points:g}/{played_games} = {score:.0%} "
        f"(95% interval {low:.0%}..{high:.0%})"
    )
    print(
        ", ".join(f"as {_GTP_COLOUR[c]} {p:g}/{n}" for c, (p, n) in by_colour.items())
        + f"; {len(distinct)} distinct games of {played_games}"
    )
    for side, label in (("us", f"level {args.level_a}"), ("them", "opponent")):
        values = times[side] or [0.0]
        print(
            f"{label}: {len(times[side])} moves, mean {sum(values) / len(values):.3f} s, "
            f"worst {max(values):.3f} s"
        )
    if counts:
        print(
            f"counts: this engine's final_score named the opponent's winner in {sum(counts)}/{len(counts)} games"
        )
    return 0


def opening_seed(seed: int, index: int) -> int:
    """The opening of game ``index`` (from 0) of a match: one per pair of games."""
    return seed * 100_003 + index // 2 + 1


def start(variant, opening: int):
    """A new game of ``variant`` (the tournament rule on where it has it); in the Pente family
    with ``opening`` (a seed, 0: none), its first ``OPENING_TURNS`` turns after the centre
    stone played at random near the stones."""
    v = get_variant(variant)
    game = new_game(v, tournament_rule=True if v.tournament_rule_allowed else None)
    if opening and not game.marks_dead:
        rng = random.Random(opening)
        for _ in range(OPENING_TURNS):
            if game.outcome is None:
                random_near(game, rng)
    return game


def random_near(game, rng) -> None:
    """Level 0, the random player: a decision at random, else a random legal stone within 2
    points of a stone on the board (anywhere legal when there is none), a whole turn of them.
    In Go it fills none of its own eyes (a point whose neighbours are all its stones) and passes
    when no other stone is left; it proposes no dead stones and accepts any marking."""
    if game.marks_dead:
        _random_go(game, rng)
        return
    if game.pending_decision is not None:
        game.decide(rng.choice(game.decisions_available()))
        return
    for _ in range(game.stones_this_turn()):
        legal = game.legal_points()
        board = game.board
        near = [p for p in legal if _near(board, p)] or legal
        game.play(rng.choice(near))
        if game.outcome is not None:
            return


def _random_go(game, rng) -> None:
    if game.phase == GoPhase.MARKING:
        if game.proposed_dead is None:
            game.mark_dead([])
        else:
            game.accept()
        return
    size, board, me = game.size, game.board, game.to_move_colour

    def own_eye(p: int) -> bool:
        x, y = p % size, p // size
        around = [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        return all(board[i + size * j] == me for i, j in around if 0 <= i < size and 0 <= j < size)

    legal = [p for p in game.legal_points() if not own_eye(p)]
    near = [p for p in legal if _near(board, p, size)] or legal
    if near:
        game.play(rng.choice(near))
    else:
        game.pass_turn()


def _near(board, p: int, size: int = 19) -> bool:
    x, y = p % size, p // size
    return any(
        board[(x + dx) + size * (y + dy)]
        for dx in (-2, -1, 0, 1, 2)
        for dy in (-2, -1, 0, 1, 2)
        if 0 <= x + dx < size and 0 <= y + dy < size
    )


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% interval of a proportion ``score`` out of ``n``."""
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


SPEED_GAMES = ("Pente", "Keryo-Pente", "Gomoku")
SPEED_POSITIONS = 4  # per game


def speed_positions(variant: str) -> list:
    """The positions ``--speed`` searches: after a random opening, some turns of level 3 on a
    fixed node budget (the same positions on every machine)."""
    out = []
    for k in range(SPEED_POSITIONS):
        game = start(variant, 7 + k)
        rng = random.Random(k)
        for _ in range(4 + 2 * k):
            choice = choose_move(game, level=3, max_nodes=300, rng=rng)
            game.play_turn(list(choice.points))
            if game.outcome is not None:
                game.pop()
                break
        out.append(game)
    return out


def speed(argv: list[str]) -> int:
    """``--speed``: nodes per second of the pure and the compiled search, side by side."""
    parser = argparse.ArgumentParser(description="nodes per second, pure and compiled")
    parser.add_argument("--nodes", type=int, default=3000)
    args = parser.parse_args(argv)
    print(f"compiled search available: {fastboard.COMPILED} (warm-up {_warm_s():.2f} s)")
    print(
        f"level 8, {args.nodes} nodes a position, {SPEED_POSITIONS} positions a game\n"
        f"{'game':<12} {'pure s':>8} {'pure n/s':>9} {'compiled s':>11} {'compiled n/s':>13}"
        f" {'x':>5}  same moves"
    )
    total = {False: 0.0, True: 0.0}
    same_all = True
    for variant in SPEED_GAMES:
        spent = {False: 0.0, True: 0.0}
        moves: dict[bool, list] = {False: [], True: []}
        for game in speed_positions(variant):
            for on in (False, True) if fastboard.COMPILED else (False,):
                fastboard.use_compiled(on)
                t0 = time.perf_counter()
                choice = choose_move(game, level=8, max_nodes=args.nodes, rng=random.Random(1))
                spent[on] += time.perf_counter() - t0
                moves[on].append(choice.points)
        fastboard.use_compiled(fastboard.COMPILED)
        nodes = args.nodes * SPEED_POSITIONS
        same = moves[False] == moves[True] or not fastboard.COMPILED
        same_all &= same
        fast = spent[True] or float("nan")
        print(
            f"{variant:<12} {spent[False]:>8.2f} {nodes / spent[False]:>9.0f} {fast:>11.2f}"
            f" {nodes / fast:>13.0f} {spent[False] / fast:>5.2f}  {'yes' if same else 'NO'}"
        )
        for on in spent:
            total[on] += spent[on]
    nodes = args.nodes * SPEED_POSITIONS * len(SPEED_GAMES)
    fast = total[True] or float("nan")
    print(
        f"{'all':<12} {total[False]:>8.2f} {nodes / total[False]:>9.0f} {fast:>11.2f}"
        f" {nodes / fast:>13.0f} {total[False] / fast:>5.2f}"
    )
    return 0 if same_all else 1


def _warm_s() -> float:
    t0 = time.perf_counter()
    fastboard.warm()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--speed"]:
        return speed(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("level_a", type=int, choices=range(0, 9))
    parser.add_argument("level_b", type=int, choices=range(0, 9))
    parser.add_argument("game")
    parser.add_argument("n", type=int)
    parser.add_argument("--budget-scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-openings",
        dest="openings",
        action="store_false",
        help="start every game from the server's opening instead of a random one per pair",
    )
    parser.add_argument(
        "--opponent",
        metavar="COMMAND",
        help='play level A against this GTP program (e.g. "gnugo --mode gtp --level 1")',
    )
    parser.add_argument("--nodes", type=int, help="a node budget a stone instead of seconds")
    parser.add_argument(
        "--node-rate",
        type=int,
        help="each level's node budget: its think time (with --budget-scale) times this rate",
    )
    parser.add_argument(
        "--moves", action="store_true", help="with --opponent: print each game's moves"
    )
    parser.add_argument("--nodes-b", type=int, help="level B's node budget (default --nodes)")
    parser.add_argument(
        "--pure-b", action="store_true", help="level B searches in pure Python (not compiled)"
    )
    args = parser.parse_args(argv)
    if args.opponent:
        return gtp_match(args)
    go_speed(args.game)
    nodes_a = -args.node_rate if args.node_rate else args.nodes
    if args.node_rate:  # the node clock ticks a node's worth of seconds at that rate, so that
        bot_search._NODE_S = 1.0 / args.node_rate  # the search's fixed times keep their nodes
    setup_a = (nodes_a, fastboard.COMPILED)
    nodes_b = nodes_a if args.nodes_b is None else args.nodes_b
    setup_b = (nodes_b, fastboard.COMPILED and not args.pure_b)
    rng = random.Random(args.seed)
    a, b = args.level_a, args.level_b
    points = 0.0
    times: dict[str, list[float]] = {"A": [], "B": []}  # apart, also when a == b
    for i in range(args.n):
        a_first = i % 2 == 0
        first, second = (a, b) if a_first else (b, a)
        winner, spent = play_game(
            args.game,
            first_level=first,
            second_level=second,
            scale=args.budget_scale,
            rng=rng,
            opening=opening_seed(args.seed, i) if args.openings else 0,
            setups={1: setup_a, 2: setup_b} if a_first else {1: setup_b, 2: setup_a},
        )
        a_seat = 1 if a_first else 2
        for seat, values in spent.items():
            times["A" if seat == a_seat else "B"].extend(values)
        result = 0.5 if winner is None else (1.0 if winner == a_seat else 0.0)
        points += result
        print(f"game {i + 1:>3}: level {first} (first) v level {second}: A scores {result:g}")
    score = points / args.n if args.n else 0.0
    low, high = wilson(score, args.n)
    print(f"\n{args.game}: level {a} v level {b}, {args.n} games, budget x{args.budget_scale:g}")
    print(
        f"level {a} scores {points:g}/{args.n} = {score:.0%} (95% interval {low:.0%}..{high:.0%})"
    )
    for side, level in (("A", a), ("B", b)):
        values = times[side] or [0.0]
        print(
            f"{side}, level {level}: {len(times[side])} moves, "
            f"mean {sum(values) / len(values):.3f} s, worst {max(values):.3f} s "
            f"(budget {BUDGETS.get(level, 0) * args.budget_scale:g} s)"
        )
    if b == 0 < a:
        ok = points == args.n
        print(
            f"target: level {a} wins every game against the random player: {'OK' if ok else 'MISSED'}"
        )
        return 0 if ok else 1
    if a > b:
        ok = score >= TARGET_SCORE
        print(f"target: the level above scores >= {TARGET_SCORE:.0%}: {'OK' if ok else 'MISSED'}")
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
