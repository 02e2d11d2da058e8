"""The GTP front end: protocol basics, Pente-family and Go play through GTP commands, and the
``gtp`` management command."""

from __future__ import annotations

import io
import random

import pytest
from django.core.management import call_command

from games.bots.gtp import COMMANDS, GtpEngine
from games.engine import GoGame, new_game

REQUIRED = (
    "protocol_version name version known_command list_commands quit boardsize clear_board"
    " komi play genmove undo showboard final_score"
).split()


def ok(answer: str | None) -> str:
    assert answer is not None and answer.startswith("=") and answer.endswith("\n\n"), answer
    return answer[1:].strip()


def test_protocol_basics():
    e = GtpEngine("Pente", 1, 0.05)
    assert e.handle("12 protocol_version") == "=12 2\n\n"
    assert e.handle("name") == "= pente-server\n\n"
    assert ok(e.handle("version"))
    assert e.handle("3 frobnicate") == "?3 unknown command\n\n"
    assert e.handle("known_command genmove") == "= true\n\n"
    assert e.handle("known_command frobnicate") == "= false\n\n"
    listed = ok(e.handle("list_commands")).split("\n")
    assert set(REQUIRED) <= set(listed) and listed == list(COMMANDS)
    assert e.handle("") == "" and e.handle("# a comment") == ""
    assert "decide WORD" in ok(e.handle("gtp_extensions"))
    assert e.handle("9 quit") == "=9\n\n"
    assert e.handle("name") is None


def test_pente_play_and_genmove_are_legal_and_agree_with_the_engine():
    e = GtpEngine("Pente", 3, 0.1, rng=random.Random(1))
    mirror = new_game("Pente")  # K10 already placed, as in the engine after clear_board
    assert e.game.board == mirror.board
    assert e.handle("play b K12") == "? wrong colour\n\n"
    assert e.handle("play w K10").startswith("? illegal move: ")
    assert e.handle("play w Z99").startswith("? illegal move: ")
    assert ok(e.handle("play w L11")) == ""
    mirror.play("L11")
    for colour in "bwbw":
        vertex = ok(e.handle(f"genmove {colour}"))
        mirror.play(vertex)  # legal for an independent copy of the rules
    assert e.game.board == mirror.board
    assert "? not Go" in e.handle("final_score")


def test_undo_restores_and_never_takes_the_centre_stone():
    e = GtpEngine("Pente", 2, 0.05)
    start = e.game.board
    ok(e.handle("play w K11"))
    ok(e.handle("genmove b"))
    ok(e.handle("undo"))
    ok(e.handle("undo"))
    assert e.game.board == start
    assert e.handle("undo") == "? cannot undo\n\n"
    ok(e.handle("clear_board"))
    assert e.game.board == start


def test_connect6_turn_and_decisions_extensions():
    e = GtpEngine("Connect6", 2, 0.05)
    ok(e.handle("play w K11 L11"))
    two = ok(e.handle("genmove b")).split()
    assert len(two) == 2 and e.game.to_move_colour == 2
    d = GtpEngine("D-Pente", 2, 0.05)
    for colour, vertex in (("b", "K10"), ("w", "K11"), ("b", "L12"), ("w", "M12")):
        ok(d.handle(f"play {colour} {vertex}"))
    assert d.game.pending_decision == "d_swap"
    word = ok(d.handle("genmove w"))
    assert word in ("keep", "swap") and d.game.pending_decision is None
    ok(d.handle("undo"))
    assert d.handle("decide maybe").startswith("? illegal move: ")
    ok(d.handle("decide keep"))


def test_final_score_of_a_won_pente_game():
    e = GtpEngine("Gomoku", 1, 0.05)
    for b, w in (("L10", "A1"), ("M10", "A3"), ("N10", "A5"), ("O10", "A7")):
        ok(e.handle(f"play w {w}"))
        ok(e.handle(f"play b {b}"))
    assert ok(e.handle("final_score")) == "B+five"
    assert e.handle("genmove w") == "? game over\n\n"


def test_boardsize():
    go = GtpEngine("Go", 1, 0.05)
    ok(go.handle("boardsize 9"))
    assert go.game.size == 9 and go.variant.name == "Go (9x9)"
    assert go.handle("boardsize 15") == "? unacceptable size\n\n"
    ok(go.handle("boardsize 13"))
    assert go.game.size == 13
    pente = GtpEngine("Pente", 1, 0.05)
    ok(pente.handle("boardsize 19"))
    assert pente.handle("boardsize 9") == "? unacceptable size\n\n"


def test_showboard_rows():
    pente = ok(GtpEngine("Pente", 1, 0.05).handle("showboard")).split("\n")
    rows = [line for line in pente if line[:2].strip().isdigit()]
    assert len(rows) == 19 and rows[0].startswith("19 ") and " X " in rows[9]
    go = GtpEngine("Go (9x9)", 1, 0.05)
    ok(go.handle("play b E5"))
    lines = ok(go.handle("showboard")).split("\n")
    rows = [line for line in lines if line[:2].strip().isdigit()]
    assert len(rows) == 9 and rows[4].split()[5] == "X"


def test_two_go_engines_play_9x9_to_the_end():
    black = GtpEngine("Go (9x9)", 1, 0.05, rng=random.Random(3))
    white = GtpEngine("Go (9x9)", 1, 0.05, rng=random.Random(4))
    for e in (black, white):
        ok(e.handle("boardsize 9"))
        ok(e.handle("clear_board"))
        ok(e.handle("komi 6.5"))
    referee = GoGame(9, komi=6.5)
    players = {"b": (black, white), "w": (white, black)}
    passes, colour = 0, "b"
    for _ in range(200):
        me, other = players[colour]
        vertex = ok(me.handle(f"genmove {colour}"))
        referee.play(vertex.upper())
        ok(other.handle(f"play {colour} {vertex}"))
        passes = passes + 1 if vertex == "pass" else 0
        if passes == 2:
            break
        colour = "w" if colour == "b" else "b"
    assert black.game.board == white.game.board == referee.board
    for e in (black, white):
        score = ok(e.handle("final_score"))
        assert score == "0" or score[:2] in ("B+", "W+")
        assert float(score[2:] or 0) == referee.score().margin


def test_go_pass_when_ahead_after_opponent_pass():
    e = GtpEngine("Go (9x9)", 1, 0.05)
    ok(e.handle("komi 0.5"))
    ok(e.handle("play b E5"))
    ok(e.handle("play w pass"))
    assert ok(e.handle("genmove b")) == "pass"
    assert ok(e.handle("final_score")) == "B+80.5"


def test_management_command():
    out = io.StringIO()
    stdin = io.StringIO("1 name\n2 play w K11\n3 genmove b\n4 quit\n5 name\n")
    call_command(
        "gtp", "--game", "Pente", "--level", "1", "--budget", "0.05", stdin=stdin, stdout=out
    )
    answers = out.getvalue().split("\n\n")
    assert answers[:2] == ["=1 pente-server", "=2"]
    assert answers[2].startswith("=3 ") and answers[3] == "=4" and "=5" not in out.getvalue()


def test_management_command_unknown_game():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("gtp", "--game", "Chess", stdin=io.StringIO(""), stdout=io.StringIO())
