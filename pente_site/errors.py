"""Domain errors: the one family of refusals that services raise (no HTTP, no Django).

Every refusal has a machine-readable ``code``, a ``detail`` sentence a person can act on, and a
``kind`` saying what went wrong in terms of the domain; ``pente_site.api.exception_handler`` is
the one place that maps a kind to an HTTP status:

=============  =====  ====================================================
kind           HTTP   meaning
=============  =====  ====================================================
``INVALID``    400    the request itself is wrong (a bad value, an illegal stone)
``UNAUTHENTICATED`` 401 the credentials given are not right
``FORBIDDEN``  403    the user may not do this (not a participant, not the organiser)
``NOT_FOUND``  404    the thing named does not exist
``CONFLICT``   409    the request is fine, but the state it meets refuses it now
``TOO_LARGE``  413    the request is more than the server takes at once
``TOO_MANY``   429    the user holds as many of something as allowed (streams)
``UNAVAILABLE`` 503   this server process cannot serve it (a stream under WSGI)
=============  =====  ====================================================

``extra`` is merged into the body (for example the current game state with ``stale_ply``).
Raise the subclass that names the kind: ``Invalid``, ``Unauthenticated``, ``Forbidden``,
``NotFound``, ``Conflict``, ``TooLarge``, ``TooMany``, ``Unavailable``.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, ClassVar


class ErrorKind(Enum):
    INVALID = 400
    UNAUTHENTICATED = 401
    FORBIDDEN = 403
    NOT_FOUND = 404
    CONFLICT = 409
    TOO_LARGE = 413
    TOO_MANY = 429
    UNAVAILABLE = 503

    @property
    def http_status(self) -> int:
        return self.value


class DomainError(Exception):
    """A refusal with a machine-readable code, a sentence, and a kind (see the module doc)."""

    kind: ClassVar[ErrorKind] = ErrorKind.INVALID

    def __init__(self, code: str, detail: str, *, extra: dict[str, Any] | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = dict(extra or {})

    def __reduce__(self):
        return (_rebuild, (type(self), self.code, self.detail, self.extra))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.detail!r})"


def _rebuild(cls: type[DomainError], code: str, detail: str, extra: dict) -> DomainError:
    return cls(code, detail, extra=extra)


class Invalid(DomainError):
    kind = ErrorKind.INVALID


class Unauthenticated(DomainError):
    kind = ErrorKind.UNAUTHENTICATED


class Forbidden(DomainError):
    kind = ErrorKind.FORBIDDEN


class NotFound(DomainError):
    kind = ErrorKind.NOT_FOUND


class Conflict(DomainError):
    kind = ErrorKind.CONFLICT


class TooLarge(DomainError):
    kind = ErrorKind.TOO_LARGE


class TooMany(DomainError):
    kind = ErrorKind.TOO_MANY


class Unavailable(DomainError):
    kind = ErrorKind.UNAVAILABLE
