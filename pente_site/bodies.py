"""Request bodies are text in UTF-8 (or the charset their ``Content-Type`` names), read strictly.

Django reads a form body that is not UTF-8 as Latin-1, and a percent-escaped byte that is not
UTF-8 as U+FFFD; its multipart parser does the same for the fields of a multipart body; a JSON
body that is not UTF-8 is a parse error. ``StrictBodyEncodingMiddleware`` refuses all of them
alike, before any view reads them: a 400 ``bad_encoding`` (JSON under ``/api/``) with a
sentence that says where the body stops being text, so that no ``badÿþutf`` is ever stored.

A body refused as too large (413) is read to its end (up to ``DRAIN_LIMIT``) before the answer
goes: a WSGI server that closes a connection with bytes still unread resets it, and the reset
can reach the front server (nginx) before the 413 does, which it then reports as the app being
away (a 503).
"""

from __future__ import annotations

import re
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponseBadRequest, UnreadablePostError

from pente_site.api import domain_error_response
from pente_site.errors import Invalid

#: Bodies read as text whole (a form, JSON, a record in plain text).
_TEXT_TYPES = frozenset({"application/x-www-form-urlencoded", "application/json", "text/plain"})
_FORM = "application/x-www-form-urlencoded"
_MULTIPART = "multipart/form-data"
_FORM_SEPARATORS = re.compile(r"[&;]")
#: What Django's decoders put in place of bytes that are not text in the body's charset.
_REPLACED = "\ufffd"
#: The most of a refused body read and dropped (the front server's own limit is below it).
DRAIN_LIMIT = 8 * 1024 * 1024
_CHUNK = 64 * 1024


class BadEncoding(Exception):
    """The body is not text in its charset; the message says where."""


def check_text(raw: bytes, encoding: str, *, what: str = "The request body") -> str:
    """``raw`` decoded strictly, or ``BadEncoding`` saying where it stops being text."""
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        byte = exc.object[exc.start : exc.start + 1].hex().upper()
        raise BadEncoding(
            f"{what} is not valid {encoding.upper()} (byte 0x{byte} at offset {exc.start}): "
            "send text in UTF-8, or name its charset in the Content-Type header."
        ) from None
    except LookupError:
        raise BadEncoding(f"The charset {encoding!r} of the Content-Type is unknown.") from None


def check_form(raw: bytes, encoding: str) -> None:
    """A form body (``a=1&b=%C3%A9``): the body itself and every percent-escaped name and value
    decode strictly."""
    text = check_text(raw, encoding)
    for pair in _FORM_SEPARATORS.split(text):
        for piece in pair.split("=", 1):
            if "%" in piece:
                check_text(
                    unquote_to_bytes(piece.replace("+", " ")),
                    encoding,
                    what=f"The form field {piece[:40]!r}",
                )


def check_multipart(fields) -> None:
    """The fields (and file names) of a parsed multipart body: Django decoded them with
    replacement, so a U+FFFD marks bytes that were not text."""
    for name, values in fields.lists():
        if _REPLACED in name or any(_REPLACED in value for value in values):
            raise BadEncoding(
                f"The form field {name[:40]!r} is not valid UTF-8: send text in UTF-8, or name "
                "its charset in the part's Content-Type."
            )


def drain(request) -> None:
    """Read and drop what is left of the body of a WSGI request (at most ``DRAIN_LIMIT``
    bytes, through the request's own stream, which stops at the body's end), so that the
    server closing the connection does not reset it (see the module doc). An ASGI request's
    body was read whole before the view ran."""
    if "wsgi.input" not in request.META:
        return
    left = DRAIN_LIMIT
    try:
        while left > 0:
            chunk = request.read(min(_CHUNK, left))
            if not chunk:
                return
            left -= len(chunk)
    except (OSError, UnreadablePostError):
        return  # the client went away: nothing is left to reset


def _refusal(request, detail: str):
    if request.path.startswith("/api/"):
        return domain_error_response(Invalid("bad_encoding", detail))
    return HttpResponseBadRequest(detail, content_type="text/plain; charset=utf-8")


class StrictBodyEncodingMiddleware:
    """A body that is not text in its charset is a 400 ``bad_encoding`` (see the module doc)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            self.check(request)
        except BadEncoding as exc:
            return _refusal(request, str(exc))
        response = self.get_response(request)
        if response.status_code == 413:
            drain(request)
        return response

    @staticmethod
    def check(request) -> None:
        content_type = request.content_type
        if content_type not in _TEXT_TYPES and content_type != _MULTIPART:
            return
        encoding = request.encoding or settings.DEFAULT_CHARSET
        if content_type == _MULTIPART:
            if request.method == "POST":  # Django parses no other method's multipart body
                try:
                    fields = request.POST
                    files = request.FILES
                except RequestDataTooBig:
                    return  # the view answers 413
                check_multipart(fields)
                for uploads in files.lists():
                    check_multipart_names(uploads)
            return
        try:
            raw = request.body
        except RequestDataTooBig:
            return  # the view answers 413
        if content_type == _FORM:
            check_form(raw, encoding)
        else:
            check_text(raw, encoding)


def check_multipart_names(uploads: tuple[str, list]) -> None:
    name, files = uploads
    for upload in files:
        if _REPLACED in name or _REPLACED in (upload.name or ""):
            raise BadEncoding(
                f"The name of the file sent as {name[:40]!r} is not valid UTF-8: send it in UTF-8."
            )
