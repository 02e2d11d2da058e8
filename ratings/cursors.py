"""The leaderboards' keyset cursors: the last line of a page (its rating, id, rank and position)
as an opaque URL-safe text, read back by the API and the site's leaderboard page."""

from __future__ import annotations

import base64
import binascii
import json

from pente_site.errors import Invalid


def encode_cursor(*, rating: float, row_id: int, rank: int, position: int) -> str:
    raw = json.dumps([rating, row_id, rank, position], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(text: str) -> tuple[float, int, int, int]:
    """``(rating, id, rank, position)``; 400 ``bad_cursor`` for a text this server did not give."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        rating, row_id, rank, position = json.loads(raw)
        if not all(isinstance(v, int) for v in (row_id, rank, position)):
            raise ValueError
        return float(rating), row_id, rank, position
    except (ValueError, TypeError, binascii.Error):
        raise Invalid("bad_cursor", "The cursor is not one this server gave out.") from None
