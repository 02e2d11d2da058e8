"""What the page tests read from a page's HTML (no browser): the data its scripts start from."""

from __future__ import annotations

import json
import re


def embedded_state(response) -> dict:
    match = re.search(
        rb'<script id="game-state" type="application/json">(.*?)</script>', response.content, re.S
    )
    assert match, "the page embeds the game's state"
    return json.loads(match.group(1))


def page_data(client, game) -> dict:
    """The page's own data beside the state (``game-page``)."""
    html = client.get(f"/games/{game.pk}/").content.decode()
    match = re.search(r'<script id="game-page" type="application/json">(.*?)</script>', html, re.S)
    assert match, "the page embeds its data"
    return json.loads(match.group(1))
