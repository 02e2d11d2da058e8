"""Challenges through the API, for the challenge tests."""

from __future__ import annotations

from games.play.models import Game
from tests.clients import client_for


def create(user, **body):
    body.setdefault("variant", "Pente")
    return client_for(user).post("/api/challenges/", body)


def act(user, challenge_id, action):
    return client_for(user).post(f"/api/challenges/{challenge_id}/{action}/")


def seat_users(game: Game) -> list[str]:
    return [s.user.username for s in game.seat_rows.order_by("seat")]
