"""uvicorn's own refusals as JSON, like every answer of the API (``frontserver`` does the same for
gunicorn's).

uvicorn answers by itself, in plain text, a request it cannot hand to the application (a
malformed request: 400), a request beyond ``--limit-concurrency`` (503), and an application that
failed before it started its answer (500). ``json_refusals()`` (called by ``pente_site/asgi.py``,
so that every uvicorn that serves it, ``manage.py serve``'s included, is changed) has it write
``{"code": ..., "detail": ...}`` instead, with the same status. Refusals of the connection itself
(a request line or headers beyond h11's limit) are written the same way, as 400s.
"""

from __future__ import annotations

import json

from uvicorn.protocols.http import flow_control, h11_impl

try:  # uvicorn uses httptools when it is installed (``uvicorn[standard]``)
    from uvicorn.protocols.http import httptools_impl
except ImportError:  # pragma: no cover - not installed here
    httptools_impl = None

#: The sentence and code of each refusal.
REFUSALS = {
    400: ("bad_request", "The request is not valid HTTP."),
    500: ("server_error", "Something went wrong on the server."),
    503: ("server_busy", "The server is at its limit of connections: try again in a moment."),
}
_JSON = (b"content-type", b"application/json")
_CLOSE = (b"connection", b"close")


def refusal_body(status: int) -> bytes:
    code, detail = REFUSALS[status]
    return json.dumps({"code": code, "detail": detail}).encode()


async def _send_refusal(send, status: int) -> None:
    body = refusal_body(status)
    headers = [_JSON, (b"content-length", str(len(body)).encode()), _CLOSE]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


async def service_unavailable(scope, receive, send) -> None:
    """uvicorn's application for a request beyond ``limit_concurrency``: a JSON 503."""
    await _send_refusal(send, 503)


async def send_500_response(self) -> None:
    """``RequestResponseCycle.send_500_response``: a JSON 500."""
    await _send_refusal(self.send, 500)


def _h11_send_400_response(self, msg: str) -> None:
    """``H11Protocol.send_400_response``: a JSON 400 (uvicorn's sentence is logged, not sent)."""
    body = refusal_body(400)
    headers = [_JSON, (b"content-length", str(len(body)).encode()), _CLOSE]
    event = h11_impl.h11.Response(status_code=400, headers=headers, reason=b"Bad Request")
    self.transport.write(self.conn.send(event))
    self.transport.write(self.conn.send(event=h11_impl.h11.Data(data=body)))
    self.transport.write(self.conn.send(event=h11_impl.h11.EndOfMessage()))
    self.transport.close()


def _httptools_send_400_response(self, msg: str) -> None:
    """``HttpToolsProtocol.send_400_response``: a JSON 400."""
    body = refusal_body(400)
    self.transport.write(
        b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\n"
        + f"content-length: {len(body)}\r\n\r\n".encode()
        + body
    )
    self.transport.close()


def json_refusals() -> None:
    """Have uvicorn write its refusals as JSON (see the module doc)."""
    flow_control.service_unavailable = service_unavailable
    h11_impl.service_unavailable = service_unavailable
    h11_impl.H11Protocol.send_400_response = _h11_send_400_response
    h11_impl.RequestResponseCycle.send_500_response = send_500_response
    if httptools_impl is not None:
        httptools_impl.service_unavailable = service_unavailable
        httptools_impl.HttpToolsProtocol.send_400_response = _httptools_send_400_response
        httptools_impl.RequestResponseCycle.send_500_response = send_500_response
