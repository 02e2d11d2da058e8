"""Redis is a helper, never a single point of failure for writes: a server (uvicorn, PostgreSQL)
whose Redis goes away still signs players up, hands out tokens, takes challenges, moves to the
end of a game and chat lines; its streams answer at once; and when Redis comes back the streams
resume from their last event id with the events written meanwhile (the database outbox)."""

from __future__ import annotations

import os
import subprocess
import time
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
from django.db import connection

from tests.live.streams import SERVER_SETTINGS, Listener, account, auth, move, new_game
from tests.servers import uvicorn_server
from tests.walkthroughs import walkthrough

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def server(tmp_path, switchable_redis):
    relay, db = switchable_redis
    name = connection.settings_dict["NAME"]
    url = urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}"))
    env = os.environ | SERVER_SETTINGS
    env |= {"DATABASE_URL": url, "PENTE_VAR_DIR": str(tmp_path), "REDIS_URL": relay.url(db)}
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    with uvicorn_server(env, tmp_path / "server.log") as base:
        yield base, relay, tmp_path / "server.log"


def first_bytes(url: str, headers: dict[str, str]) -> tuple[int, bytes, float]:
    """Status, first bytes and how long they took, of a stream."""
    started = time.monotonic()
    with httpx.stream("GET", url, headers=headers, timeout=5) as response:
        chunk = next(response.iter_raw())
        return response.status_code, chunk, time.monotonic() - started


def test_with_redis_down_every_write_succeeds_and_streams_resume_when_it_returns(server):
    base, relay, log = server
    # Redis up: a game begins, and a spectator's stream sees its first moves.
    alice, bob = account(base), account(base)
    game = new_game(base, alice, bob)
    move(base, game, bob[1], 1, "A1")
    seen = Listener(f"{base}/games/{game}/events", until="move")
    move(base, game, alice[1], 2, "K11")
    assert seen.done.wait(15), seen.kinds()
    last_id = seen.ids[-1]

    relay.off()

    # Every stream answers within a second: a heartbeat and a retry hint, as SSE and NDJSON.
    for path, headers in (
        (f"games/{game}/events", {"Last-Event-ID": last_id}),
        ("me/events", auth(bob[1])),
        (f"games/{game}/events", {"Accept": "application/x-ndjson"}),
    ):
        status, chunk, took = first_bytes(f"{base}/{path}", headers)
        assert status == 200 and took < 1.0, (path, status, took)
        assert b"retry" in chunk and b"heartbeat" in chunk, chunk

    # The README's walkthrough of a game, as written: sign-up, tokens, a challenge, its
    # acceptance, the moves to five in a row, the record.
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", walkthrough("play")],
        cwd=log.parent,
        env={**os.environ, "BASE": base},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr}\n{log.read_text()[-3000:]}"
    assert "finished five ['alice']" in result.stdout

    # A stream opened during the outage, from the last event its client saw.
    resumed = Listener(f"{base}/games/{game}/events", {"Last-Event-ID": last_id}, until="end")
    # The game begun before goes on to its end, with a chat line.
    for ply, (who, point) in enumerate(
        [(bob, "B1"), (alice, "K12"), (bob, "C1"), (alice, "K13"), (bob, "D1"), (alice, "K14")],
        start=3,
    ):
        move(base, game, who[1], ply, point)
    said = httpx.post(f"{base}/games/{game}/chat", json={"text": "gg"}, headers=auth(bob[1]))
    assert said.status_code == 201, said.text
    state = httpx.get(f"{base}/games/{game}/").json()
    assert state["status"] == "finished" and state["ply"] == 9
    # Nothing can be streamed while Redis is away, but that it is away (the pages poll).
    assert [e["type"] for e in resumed.events] == ["live_unavailable"], resumed.kinds()
    assert resumed.comments >= 1  # heartbeats meanwhile

    relay.on()

    # Back: the stream resumes after the last event its client saw, in order, to the end.
    assert resumed.done.wait(20), (resumed.kinds(), log.read_text()[-3000:])
    plays = [e for e in resumed.play() if e["type"] in ("move", "end", "reset")]
    assert [e["type"] for e in plays] == ["move"] * 6 + ["end"], resumed.kinds()
    assert [e["data"]["state"]["ply"] for e in plays[:-1]] == list(range(4, 10))
    # And the chat line is there for whoever resumes from the same id.
    again = Listener(f"{base}/games/{game}/events", {"Last-Event-ID": last_id}, until="chat")
    assert again.done.wait(15), again.kinds()
    assert "Task was destroyed but it is pending" not in log.read_text()
