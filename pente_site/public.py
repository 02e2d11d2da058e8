"""The address of the site as its users reach it, for links that leave it (e-mails)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def site_url(request: HttpRequest) -> str:
    """``PUBLIC_URL`` when set, else the scheme and host of ``request`` (``http://host:port``),
    without a trailing slash."""
    return settings.PUBLIC_URL or f"{request.scheme}://{request.get_host()}"
