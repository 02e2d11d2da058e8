"""The reference FIDE Dutch engine's (bbpPairings) recorded answers: a Swiss in progress as this
server exports it (TRF) and the next round the engine paired from it. ``data/record_reference.py``
records them; ``test_trf_reference_recorded.py`` (through the server) and
``pairing/test_reference_pure.py`` (the pure pairing) replay them."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

REFERENCE_PAIRINGS = Path(__file__).with_name("data") / "reference_pairings.jsonl.gz"


def recorded_cases() -> list[dict]:
    """Each case: ``case`` (its name), ``trf`` and ``pairs`` (``[white, black]`` by starting
    rank and the PAB as ``[player, 0]``, sorted); none when the file is missing."""
    if not REFERENCE_PAIRINGS.exists():  # test_the_recorded_cases_are_there says so
        return []
    with gzip.open(REFERENCE_PAIRINGS, "rt") as lines:
        return [json.loads(line) for line in lines]
