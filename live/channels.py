"""The names of the live channels (who listens to an event)."""

from __future__ import annotations


def game_channel(game_id: int) -> str:
    """A game's players and spectators."""
    return f"game:{game_id}"


def user_channel(user_id: int) -> str:
    """One player's own events."""
    return f"user:{user_id}"


def room_channel(name: str) -> str:
    """The people in a room (``main``, ``tournament-<id>``)."""
    return f"room:{name}"


def game_of_channel(channel: str) -> int | None:
    """The game of a game's channel (``game:<id>``), or None."""
    head, _, tail = channel.partition(":")
    return int(tail) if head == "game" and tail.isdigit() else None


def room_of_channel(channel: str) -> str | None:
    """The room's name of a room's channel (``room:<name>``), or None."""
    return channel.removeprefix("room:") if channel.startswith("room:") else None


def delayed_channel(game_id: int) -> str:
    """The spectators of a game with a spectator delay: its moves, that many plies late."""
    return f"game:{game_id}:delayed"
