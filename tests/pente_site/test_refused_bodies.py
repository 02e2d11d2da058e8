"""A body refused as too large is read to its end before the 413 goes (``pente_site.bodies``),
so that a WSGI server closing the connection does not reset it under the front server."""

from __future__ import annotations

import io

from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponse
from django.test import RequestFactory

from pente_site import bodies
from pente_site.bodies import StrictBodyEncodingMiddleware


def _request(size: int) -> tuple:
    """A WSGI request whose body of ``size`` bytes is still unread, and its input stream."""
    environ = RequestFactory().generic("POST", "/api/auth/token/", data=b"").environ
    stream = io.BytesIO(b" " * size)  # its position: how much was read
    environ.update({"wsgi.input": stream, "CONTENT_LENGTH": str(size)})
    return WSGIRequest(environ), stream


def _middleware(status: int) -> StrictBodyEncodingMiddleware:
    return StrictBodyEncodingMiddleware(lambda request: HttpResponse(status=status))


def test_a_413_reads_the_rest_of_the_body_before_it_goes():
    request, stream = _request(3 * 1024 * 1024)
    assert _middleware(413)(request).status_code == 413
    assert stream.tell() == 3 * 1024 * 1024


def test_other_answers_leave_the_body_to_the_view():
    request, stream = _request(1000)
    assert _middleware(200)(request).status_code == 200
    assert stream.tell() == 0


def test_no_more_than_the_drain_limit_is_read(monkeypatch):
    monkeypatch.setattr(bodies, "DRAIN_LIMIT", 100_000)
    request, stream = _request(1_000_000)
    _middleware(413)(request)
    assert stream.tell() == 100_000


def test_a_body_the_view_read_already_is_not_read_again():
    request, stream = _request(1000)
    assert request.body == b" " * 1000
    _middleware(413)(request)
    assert stream.tell() == 1000
