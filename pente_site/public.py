"""The address of the site as its users reach it, for links that leave it (e-mails)."""

from __future__ import annotations

from contextvars import ContextVar

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import HttpRequest

from pente_site.errors import Unavailable

#: Hosts a request may name for its links when ``PUBLIC_URL`` is not set and ``ALLOWED_HOSTS``
#: admits any host: this machine's own names (the embedded default run on one's computer).
_LOOPBACK = ("127.0.0.1", "localhost", "[::1]")


def site_url(request: HttpRequest) -> str:
    """``PUBLIC_URL`` when set, else the scheme and host of ``request`` (``http://host:port``),
    without a trailing slash. A host is only taken from the request when ``ALLOWED_HOSTS``
    names it (or it is this machine's, or ``DEBUG`` is on): with ``ALLOWED_HOSTS=*`` anyone
    could choose it and have the server e-mail links to their own site (503
    ``public_url_unset``: the operator sets ``PUBLIC_URL``)."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL
    host = request.get_host()
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    if "*" in settings.ALLOWED_HOSTS and not settings.DEBUG and name not in _LOOPBACK:
        raise Unavailable(
            "public_url_unset",
            "This server cannot send links by e-mail until its operator sets PUBLIC_URL "
            "(the address people reach it at).",
        )
    return f"{request.scheme}://{host}"


def site_name(site_url: str) -> str:
    """The site's address without its scheme, as messages name it (``pente.example.org``)."""
    return site_url.partition("://")[2] or site_url


def site_url_or_none(request: HttpRequest) -> str | None:
    """``site_url``, or None when no link may be sent from this request (see there)."""
    try:
        return site_url(request)
    except Unavailable:
        return None


#: The request being served (``RequestSiteMiddleware``), None outside one (a job).
_serving: ContextVar[HttpRequest | None] = ContextVar("pente_site.public.serving", default=None)


class RequestSiteMiddleware:
    """Keeps the request being served at hand for ``current_site_url``: a receiver of a signal
    sent while a request is served (a move, a challenge) has no request of its own to take the
    links of its e-mails from."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request):
        if iscoroutinefunction(self):
            return self._serve_async(request)
        token = _serving.set(request)
        try:
            return self.get_response(request)
        finally:
            _serving.reset(token)

    async def _serve_async(self, request):
        token = _serving.set(request)
        try:
            return await self.get_response(request)
        finally:
            _serving.reset(token)


def current_site_url() -> str | None:
    """``PUBLIC_URL`` when set, else the address of the request being served (``site_url``'s
    rules; None when it may not name one), else None: work done by a job has no request."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL
    request = _serving.get()
    return None if request is None else site_url_or_none(request)
