"""Domain errors: the one family of refusals that services raise (no HTTP, no Django).

Every refusal has a machine-readable ``code``, a ``detail`` sentence a person can act on, a
``kind`` and optional ``extra`` merged into the body; raise the subclass that names the kind.
``pente_site.api.exception_handler`` is the one place that maps a kind to an HTTP status:
``Invalid`` 400, ``Unauthenticated`` 401, ``Forbidden`` 403, ``NotFound`` 404, ``Conflict`` 409
(the request is fine, the state refuses it now), ``TooLarge`` 413, ``TooMany`` 429,
``Unavailable`` 503.
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
