"""A computer opponent plays as its level, calibrated mistakes included, wherever it plays: in
the server's games (the bots' task) and through the GTP engine. Analysis and hints search
without them (their own tests)."""

from __future__ import annotations

import pytest

from games.bots import gtp, services
from games.bots.search import choose_move as real_choose_move
from games.play.models import Game
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db


def _spy(monkeypatch, module) -> list[dict]:
    calls: list[dict] = []

    def spy(game, **kwargs):
        calls.append(kwargs)
        return real_choose_move(game, **kwargs)

    monkeypatch.setattr(module, "choose_move", spy)
    return calls


def test_the_computer_opponent_plays_with_its_levels_mistakes(monkeypatch):
    human = UserFactory()
    bot = UserFactory(username="computer4", is_computer=True, bot_level=4)
    game = make_game(players=[human, bot])  # the centre stone is seat 1's: the computer's turn
    calls = _spy(monkeypatch, services)
    assert services.bot_play(game_id=game.pk, ply=1) == "played"
    assert len(calls) == 1 and calls[0]["level"] == 4 and calls[0]["mistakes"] is True
    assert Game.objects.get(pk=game.pk).ply == 2


def test_the_gtp_engine_plays_with_its_levels_mistakes(monkeypatch):
    calls = _spy(monkeypatch, gtp)
    engine = gtp.GtpEngine("Pente", 5, 0.05)
    assert engine.handle("genmove w").startswith("= ")
    assert calls and calls[0]["level"] == 5 and calls[0]["mistakes"] is True
