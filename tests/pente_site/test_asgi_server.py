"""uvicorn, which serves ``pente_site.asgi`` (the event streams in production, everything under
``manage.py serve``), answers its own refusals in JSON like the rest of the API: a malformed
request (400), a request beyond ``--limit-concurrency`` (503), an application that failed before
it answered (500)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from uvicorn.protocols.http import h11_impl

import pente_site.asgi
from pente_site import asgiserver
from tests.servers import embedded_env, raw_request, server_port, start_server, stop_server

UVICORN = Path(sys.executable).with_name("uvicorn")


@pytest.fixture
def uvicorn_server(tmp_path):
    """Start uvicorn on ``pente_site.asgi`` with the given extra arguments; its port."""
    started = []

    def start(*args: str) -> int:
        port = server_port(len(started))
        env = embedded_env(tmp_path / "var", DEBUG="1")
        argv = [str(UVICORN), "pente_site.asgi:application", "--port", str(port), *args]
        started.append(start_server(argv, env=env, log=tmp_path / "uvicorn.log", ready_port=port))
        return port

    yield start
    for proc in started:
        stop_server(proc)


def _assert_json_refusal(answer, status: int, code: str) -> None:
    got, headers, body = answer
    assert got == status, body
    assert headers["content-type"] == "application/json"
    parsed = json.loads(body)
    assert parsed["code"] == code and parsed["detail"]


@pytest.mark.slow
def test_uvicorn_answers_a_malformed_request_and_one_over_its_limit_in_json(uvicorn_server):
    port = uvicorn_server()
    _assert_json_refusal(raw_request(port, b"NOT A REQUEST\r\n\r\n"), 400, "bad_request")
    # --limit-concurrency 1: the request's own connection is the one allowed, so every request
    # is beyond it.
    busy = uvicorn_server("--limit-concurrency", "1")
    answer = raw_request(
        busy, b"GET /api/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    _assert_json_refusal(answer, 503, "server_busy")


def test_serving_pente_site_asgi_makes_uvicorns_refusals_json():
    assert pente_site.asgi.application is not None  # importing it installed the refusals
    assert h11_impl.service_unavailable is asgiserver.service_unavailable
    assert h11_impl.RequestResponseCycle.send_500_response is asgiserver.send_500_response


def test_uvicorns_500_before_an_answer_is_json():
    sent = []

    class Cycle:
        async def send(self, message):
            sent.append(message)

    asyncio.run(asgiserver.send_500_response(Cycle()))
    start, body = sent
    assert start["status"] == 500 and (b"content-type", b"application/json") in start["headers"]
    assert json.loads(body["body"])["code"] == "server_error"
