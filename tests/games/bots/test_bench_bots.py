"""``bench/bots.py``: a match between two levels prints each result, the score with its 95%
interval and the think times, and judges the level above against its target."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from games.engine import Game

ROOT = Path(__file__).resolve().parents[3]


def test_the_wilson_interval_holds_the_score_and_narrows_with_games(bench):
    low, high = bench.wilson(0.7, 10)
    assert low < 0.7 < high
    low_many, high_many = bench.wilson(0.7, 400)
    assert high_many - low_many < high - low


def test_a_short_match_prints_every_game_and_the_score(bench, capsys):
    status = bench.main(["2", "1", "Gomoku", "2", "--budget-scale", "0.05"])
    out = capsys.readouterr().out
    assert out.count("game ") == 2 and "level 2 scores" in out and "95% interval" in out
    assert status == (0 if "target: the level above scores >= 65%: OK" in out else 1)


def test_a_level_against_itself_prints_each_sides_think_times_apart(bench, capsys):
    assert bench.main(["1", "1", "Gomoku", "2", "--nodes", "50"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if " moves, mean " in line]
    assert [line.split(",")[0] for line in lines] == ["A", "B"], lines
    moves = [int(line.split(": ")[1].split(" moves")[0]) for line in lines]
    assert min(moves) > 0 and abs(moves[0] - moves[1]) <= 2, lines  # each side its own stones


def test_go_is_played_to_its_count_by_the_simple_policy(bench, capsys):
    assert bench.main(["1", "1", "go-9", "1", "--budget-scale", "0.05"]) == 0
    assert "go-9: level 1 v level 1, 1 games" in capsys.readouterr().out


def test_level_0_is_a_random_player_near_the_stones_for_every_kind_of_turn(bench):
    import random

    from games.engine import Game

    rng = random.Random(3)
    for variant in ("Pente", "Connect6", "Swap2-Pente"):
        game = Game(variant)
        for _ in range(12):
            if game.outcome is not None:
                break
            before = [p for p, c in enumerate(game.board) if c]
            due = game.stones_this_turn()
            bench.random_near(game, rng)  # the engine refuses an illegal stone or decision
            after = [p for p, c in enumerate(game.board) if c]
            if before and due:
                new = set(after) - set(before)
                assert new
                for p in new:  # within 2 of a stone already there (or of the turn's other)
                    others = [1 if q in (set(after) - {p}) else 0 for q in range(19 * 19)]
                    assert bench._near(others, p)


def test_level_8_against_the_random_player_is_judged_on_winning_every_game(bench, capsys):
    status = bench.main(["8", "0", "Pente", "1", "--budget-scale", "0.02"])
    out = capsys.readouterr().out
    assert "level 8 wins every game against the random player" in out
    assert status == (0 if out.rstrip().endswith("OK") else 1)


def test_the_games_of_a_pair_share_a_random_opening_and_pairs_differ(bench):
    seeds = [bench.opening_seed(1, i) for i in range(6)]
    assert seeds[0] == seeds[1] and seeds[2] == seeds[3] and len(set(seeds)) == 3
    for variant, stones in (("Pente", 1 + bench.OPENING_TURNS), ("Connect6", 1 + 4)):
        boards = [bench.start(variant, seed).board for seed in seeds]
        assert boards[0] == boards[1] and len({boards[0], boards[2], boards[4]}) == 3
        assert all(sum(1 for c in board if c) == stones for board in boards)
    assert sum(1 for c in bench.start("Pente", 0).board if c) == 1  # --no-openings


def test_the_random_player_plays_go_to_the_end_without_filling_its_own_eyes(bench):
    import random

    from games.engine import GoGame

    rng = random.Random(5)
    game = GoGame(size=9)
    for _ in range(bench.MAX_ACTIONS):
        if game.outcome is not None:
            break
        me, board = game.to_move_colour, game.board
        bench.random_near(game, rng)  # the engine refuses an illegal stone, mark or answer
        last = game.last_action
        if isinstance(last, int) and game.plies and board[last] == 0:
            x, y = last % 9, last // 9
            around = [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            assert any(board[i + 9 * j] != me for i, j in around if 0 <= i < 9 and 0 <= j < 9), (
                f"{game.point_name(last)} filled an eye of its own"
            )
    assert game.outcome is not None  # both pass at last; the marking (none) is accepted


def test_level_8_against_the_random_player_in_go(bench, capsys):
    status = bench.main(["8", "0", "go-9", "1", "--budget-scale", "0.01"])
    out = capsys.readouterr().out
    assert "level 8 wins every game against the random player" in out
    assert status == (0 if out.rstrip().endswith("OK") else 1)


def _our_gtp(game: str) -> str:
    """This server's own GTP engine as the outside program (the test needs no other)."""
    return f"{sys.executable} {ROOT / 'manage.py'} gtp --game '{game}' --level 1 --budget 0.05"


@pytest.mark.parametrize("game", ["Pente", "Connect6", "go-9"])
def test_a_match_against_a_gtp_program_prints_every_game_and_the_score(bench, capsys, game):
    status = bench.main(
        ["1", "0", game, "2", "--budget-scale", "0.05", "--opponent", _our_gtp(game)]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert sum(line.startswith("game ") for line in out.splitlines()) == 2
    assert "as black" in out and "as white" in out
    assert "95% interval" in out and "opponent:" in out
    if game == "go-9":
        assert "final_score named the opponent's winner in" in out


def test_a_match_against_a_gtp_program_on_a_node_budget(bench, capsys, monkeypatch):
    budgets = []
    real = bench.bot_turn

    def spy(game, **kwargs):
        budgets.append(kwargs["max_nodes"])
        return real(game, **kwargs)

    monkeypatch.setattr(bench, "bot_turn", spy)
    status = bench.main(["1", "0", "Pente", "1", "--nodes", "40", "--opponent", _our_gtp("Pente")])
    assert status == 0 and "95% interval" in capsys.readouterr().out
    assert budgets and set(budgets) == {40}


def test_moves_prints_each_game_s_moves_replayable_from_the_centre(bench, capsys):
    status = bench.main(
        ["1", "0", "Pente", "2", "--nodes", "40", "--moves", "--opponent", _our_gtp("Pente")]
    )
    lines = [
        line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines() if "moves:" in line
    ]
    assert status == 0 and len(lines) == 2
    for line in lines:
        stones = line.split()
        assert stones[0] == "K10"
        game = Game.replay("Pente", stones)  # every stone legal, in the order played
        assert game.outcome is not None


def _against_fake_gtp(
    bench, tmp_path, *, genmove: str, our_colour: int, refuse: bool = False
) -> tuple:
    """A game of Pente at level 1 against a GTP program that agrees to every command and
    answers ``genmove`` with ``genmove`` (refuses it with that text when ``refuse``):
    ``play_gtp_game``'s answer."""
    fake = tmp_path / "fake_gtp.py"
    mark = "?" if refuse else "="
    fake.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        f"    answer = {genmove!r} if line.startswith('genmove') else ''\n"
        f"    sign = {mark!r} if line.startswith('genmove') else '='\n"
        "    sys.stdout.write(f'{sign} {answer}\\n\\n'); sys.stdout.flush()\n"
        "    if line.startswith('quit'): break\n"
    )
    opponent = bench.GtpOpponent(f"{sys.executable} {fake}")
    try:
        return bench.play_gtp_game(
            "Pente",
            level=1,
            our_colour=our_colour,
            opponent=opponent,
            scale=0.05,
            rng=random.Random(1),
        )
    finally:
        opponent.close()


def test_a_gtp_program_that_refuses_genmove_forfeits_and_the_match_goes_on(bench, tmp_path, capsys):
    winner, _, _ = _against_fake_gtp(
        bench, tmp_path, genmove="index out of bounds", our_colour=1, refuse=True
    )
    assert winner == 1
    assert "refused genmove (index out of bounds): a forfeit" in capsys.readouterr().out


def test_a_gtp_program_that_answers_an_illegal_move_forfeits_and_it_is_said(
    bench, tmp_path, capsys
):
    winner, _, _ = _against_fake_gtp(bench, tmp_path, genmove="K10", our_colour=1)
    assert winner == 1  # its answer K10 is taken: the game is ours
    assert "the referee refused their 'K10' (" in capsys.readouterr().out


def test_a_gtp_program_whose_first_stone_is_not_the_centre_forfeits_as_black(
    bench, tmp_path, capsys
):
    winner, times, _ = _against_fake_gtp(bench, tmp_path, genmove="A1", our_colour=2)
    assert (winner, times["us"]) == (2, [])  # white wins before playing a stone
    assert "their first stone 'A1' is not the centre: a forfeit" in capsys.readouterr().out


def test_a_game_the_gtp_program_stops_in_is_void_and_the_program_is_started_again(
    bench, tmp_path, capsys
):
    # the first run of the program ends at its first genmove; the next ones resign
    crashed = tmp_path / "crashed"
    fake = tmp_path / "fragile_gtp.py"
    fake.write_text(
        "import pathlib, sys\n"
        f"crashed = pathlib.Path({str(crashed)!r})\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('genmove'):\n"
        "        if not crashed.exists():\n"
        "            crashed.touch(); sys.exit(1)\n"
        "        sys.stdout.write('= resign\\n\\n'); sys.stdout.flush(); continue\n"
        "    sys.stdout.write('= \\n\\n'); sys.stdout.flush()\n"
        "    if line.startswith('quit'): break\n"
    )
    status = bench.main(
        ["1", "0", "Pente", "3", "--nodes", "40", "--opponent", f"{sys.executable} {fake}"]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "game   1: void (" in out and "stopped answering" in out
    assert "2 games (1 void: the opponent stopped answering)" in out
    assert "level 1 scores 2/2 = 100%" in out


def test_a_match_prints_the_score_with_each_colour_and_its_distinct_games(
    bench, tmp_path, capsys, monkeypatch
):
    # black wins every game; the two games with our level as black are the same game
    def fake_game(game, *, our_colour, moves, **kwargs):
        moves.extend(["K10", "A1" if our_colour == 1 else "B2"])
        return 1, {"us": [0.1], "them": [0.1]}, None

    monkeypatch.setattr(bench, "play_gtp_game", fake_game)
    status = bench.main(["1", "0", "Pente", "3", "--nodes", "40", "--opponent", _our_gtp("Pente")])
    out = capsys.readouterr().out
    assert status == 0 and "level 1 scores 2/3" in out
    assert "as black 2/2, as white 0/1; 2 distinct games of 3" in out
