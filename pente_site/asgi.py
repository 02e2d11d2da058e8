"""The ASGI application (``manage.py serve``; uvicorn in production): the event streams as
asynchronous views, everything else through the WSGI application in a thread pool.

Why not Django's ASGI handler for everything: it runs synchronous views (the whole REST API)
one at a time per process, on one thread. Through ``a2wsgi`` the API keeps the concurrency it
has under gunicorn's threads (``WEB_THREADS``, 16), while a stream holds no thread while it waits.
The static files (the API docs', the admin's) are served by WhiteNoise's middleware.
"""

from __future__ import annotations

import os
import re

from a2wsgi import WSGIMiddleware
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

from pente_site.asgiserver import json_refusals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pente_site.settings")
# uvicorn's own refusals (a malformed request, beyond --limit-concurrency) as JSON.
json_refusals()

streams = get_asgi_application()
_wsgi = get_wsgi_application()
api = WSGIMiddleware(_wsgi, workers=int(os.environ.get("WEB_THREADS", "16")))

#: The paths served by the asynchronous stream views (``live.urls``).
STREAM_PATH = re.compile(r"^/api/(?:games/[0-9]+|me|rooms/[A-Za-z0-9_-]{1,40})/events/?$")


async def application(scope, receive, send) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    elif scope["type"] == "http" and STREAM_PATH.match(scope["path"]):
        await streams(scope, receive, send)
    else:
        await api(scope, receive, send)
