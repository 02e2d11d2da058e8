"""gunicorn's own refusals as JSON, like every answer of the API.

gunicorn answers a request it cannot hand to the application (a request line longer than
``limit_request_line``: 414; too many or too large headers: 431; a malformed request: 400) with
a small HTML page. ``json_errors()`` (called from ``pente_site/gunicorn.conf.py``) makes it write
``{"code": ..., "detail": ...}`` instead, with the same status, so that a client reads every
refusal the same way.
"""

from __future__ import annotations

import json

from gunicorn import util

#: The code of each status gunicorn answers by itself.
CODES = {
    400: "bad_request",
    403: "forbidden",
    414: "uri_too_long",
    417: "expectation_failed",
    431: "headers_too_large",
    500: "server_error",
    501: "not_implemented",
}


def json_error_bytes(status: int, reason: str, message: str) -> bytes:
    """The whole HTTP answer: status line, headers and the JSON body."""
    detail = f"{reason}: {message}" if message else f"{reason}."
    body = json.dumps({"code": CODES.get(status, "bad_request"), "detail": detail}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def write_json_error(sock, status_int: int, reason: str, mesg: str) -> None:
    util.write_nonblock(sock, json_error_bytes(status_int, reason, mesg))


def json_errors() -> None:
    """Have gunicorn write its refusals with ``write_json_error``."""
    util.write_error = write_json_error
