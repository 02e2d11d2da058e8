"""API token keys: only their sha256 is stored (pure)."""

from __future__ import annotations

import hashlib


def hash_key(key: str) -> str:
    """The stored form of a token key."""
    return hashlib.sha256(key.encode()).hexdigest()
