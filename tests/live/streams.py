"""Clients of a real server's API and event streams, shared by the tests that start one
(``tests/live``, ``tests/resilience``, ``tests/web``): accounts, games, moves, and ``Listener``,
a streaming client in a thread."""

from __future__ import annotations

import json
import os
import threading
import time

import httpx

#: Short heartbeats, a small cap, and room for the many accounts these tests make.
SERVER_SETTINGS = {
    "LIVE_HEARTBEAT_SECONDS": "0.5",
    "LIVE_MAX_STREAMS": "3",
    "LIVE_SPECTATORS_SECONDS": "0.2",
    "THROTTLE_AUTH_RATE": "1000/min",
    "THROTTLE_WRITES_IP_RATE": "5000/min",
}


_names = iter(range(10**6))


def account(base: str) -> tuple[str, str]:
    """A new player: (username, token)."""
    name = f"p{next(_names)}x{os.getpid()}"
    body = {"username": name, "password": "correct-horse-1"}
    assert httpx.post(f"{base}/auth/register", json=body).status_code == 201
    return name, httpx.post(f"{base}/auth/token", json=body).json()["key"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Token {token}"}


def new_game(base: str, first: tuple[str, str], second: tuple[str, str], **options) -> int:
    """A game of Pente from a direct challenge (``options``: rated, time control...)."""
    made = httpx.post(
        f"{base}/challenges/",
        json={"variant": "Pente", "invitee": second[0], "seat_wanted": 1, **options},
        headers=auth(first[1]),
    )
    assert made.status_code == 201, made.text
    made = made.json()
    return httpx.post(f"{base}/challenges/{made['id']}/accept", headers=auth(second[1])).json()[
        "game"
    ]


def move(base: str, game: int, token: str, ply: int, point: str) -> None:
    response = httpx.post(
        f"{base}/games/{game}/moves", json={"ply": ply, "point": point}, headers=auth(token)
    )
    assert response.status_code == 200, response.text


class Listener:
    """A streaming client in a thread: the SSE events it received, in order."""

    def __init__(self, url: str, headers: dict[str, str] | None = None, until: str = "end"):
        self.events: list[dict] = []
        self.ids: list[str] = []
        self.comments = 0
        self.connections = 0  # the "connected" events: the stream follows its channel
        self.status: int | None = None
        self.connected = threading.Event()
        self.done = threading.Event()
        self._stop = False
        self.thread = threading.Thread(
            target=self._run, args=(url, headers or {}, until), daemon=True
        )
        self.thread.start()
        assert self.connected.wait(15), "the stream did not open"

    def _run(self, url: str, headers: dict[str, str], until: str) -> None:
        try:
            with httpx.stream("GET", url, headers=headers, timeout=30) as response:
                self.status = response.status_code
                if response.status_code != 200:
                    return
                event: dict[str, str] = {}
                for line in response.iter_lines():
                    # The stream's first words come once it follows its channel (or say that it
                    # cannot yet): from then on nothing published is missed. Its headers come
                    # before that, so they are not enough.
                    self.connected.set()
                    if self._stop:
                        return
                    if line.startswith(":"):
                        self.comments += 1
                    elif line.startswith(("id:", "event:", "data:")):
                        field, _, value = line.partition(":")
                        event[field] = value.strip()
                    elif not line and "data" in event:
                        data, seen_id = json.loads(event["data"]), event.get("id", "")
                        event = {}
                        if data["type"] == "connected":
                            self.connections += 1
                            continue
                        self.ids.append(seen_id)
                        self.events.append(data)
                        if self.events[-1]["type"] == until:
                            return
        except httpx.HTTPError:  # the server went away (the end of the module)
            pass
        finally:
            self.connected.set()
            self.done.set()

    def kinds(self) -> list[str]:
        return [e["type"] for e in self.events]

    def play(self) -> list[dict]:
        """The events but the spectator counts (which come whenever someone opens a stream)."""
        return [e for e in self.events if e["type"] != "spectators"]

    def wait_for(self, count: int, timeout: float = 15, kinds: tuple[str, ...] = ()) -> None:
        """Wait for ``count`` events (of ``kinds`` only, when given)."""

        def seen() -> int:
            return sum(1 for e in self.events if not kinds or e["type"] in kinds)

        deadline = time.monotonic() + timeout
        while seen() < count and time.monotonic() < deadline:
            time.sleep(0.02)
        assert seen() >= count, self.kinds()

    def close(self) -> None:
        self._stop = True
