"""``@idempotent``: the decorator of the API's views that create something (challenges,
games against the computer, tournaments), and the header's OpenAPI parameter."""

from __future__ import annotations

import functools
import json
from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from games.idempotency import services

HEADER = "Idempotency-Key"

#: The header as the OpenAPI schema declares it (add it to the operation's ``extend_schema``).
IDEMPOTENCY_KEY_PARAM = OpenApiParameter(
    HEADER,
    str,
    location=OpenApiParameter.HEADER,
    required=False,
    description=(
        "A key of your choice (1 to 255 printable ASCII characters, a UUID for instance) that "
        "makes the request safe to send again: the same request sent again with the same key "
        "within 24 hours gets the first successful answer (same status and body, with the "
        "header `Idempotent-Replayed: true`) and creates nothing more. A request sent with a "
        "key still being handled waits for the first one's answer. 409 "
        "`idempotency_key_reused`: the key was used for another request (another operation or "
        "body); 400 `bad_idempotency_key`: not a key. A refused request keeps no answer: its "
        "key may be sent again."
    ),
)


def _plain(data: Any) -> Any:
    """The request's body as JSON values (a form's fields as lists of values)."""
    if hasattr(data, "lists"):
        return {name: values for name, values in data.lists()}
    return data


def _jsonable(data: Any) -> Any:
    return json.loads(json.dumps(data, cls=JSONEncoder))


def idempotent(method):
    """Decorate a view's ``post``: with an ``Idempotency-Key`` header from a signed-in user,
    its work is done once per key (``services.answer_once``). Without one, nothing changes."""

    @functools.wraps(method)
    def wrapped(self, request, *args, **kwargs):
        key = request.headers.get(HEADER)
        if key is None or not request.user.is_authenticated:
            return method(self, request, *args, **kwargs)
        view = type(self)
        operation = (
            f"{request.method} {view.__module__}.{view.__qualname__} {sorted(kwargs.items())}"
        )
        fingerprint = services.request_fingerprint(operation=operation, body=_plain(request.data))
        done: list[Response] = []

        def work() -> services.Answer:
            response = method(self, request, *args, **kwargs)
            done.append(response)
            return services.Answer(response.status_code, _jsonable(response.data))

        answer, replayed = services.answer_once(
            user=request.user, key=key, fingerprint=fingerprint, work=work
        )
        if not replayed:
            return done[0]
        response = Response(answer.body, status=answer.status_code)
        response["Idempotent-Replayed"] = "true"
        return response

    return wrapped
