"""The curl walkthroughs of the API guide (``docs/api.md``), as blocks its tests run."""

from __future__ import annotations

import re
from pathlib import Path

API_GUIDE = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()


def walkthrough(name: str) -> str:
    """The shell block marked ``<!-- walkthrough:name -->`` in the API guide."""
    match = re.search(rf"<!-- walkthrough:{name} -->\n```sh\n(.*?)\n```", API_GUIDE, re.S)
    assert match, f"docs/api.md has no walkthrough block {name!r}"
    return match.group(1)
