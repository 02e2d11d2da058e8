"""The address of the site as its users reach it, for links that leave it (e-mails)."""

from __future__ import annotations

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


def site_url_or_none(request: HttpRequest) -> str | None:
    """``site_url``, or None when no link may be sent from this request (see there)."""
    try:
        return site_url(request)
    except Unavailable:
        return None
