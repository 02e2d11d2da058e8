"""Pure pairing algorithms for tournaments. Nothing in this package imports Django.

- :mod:`.berger` -- FIDE Berger tables for round robins (C.05 Annex 1).
- :mod:`.elimination` -- seeded single-elimination brackets and a generic bracket resolver.
- :mod:`.double_elimination` -- winners and losers brackets, grand final and reset.
- :mod:`.dutch` -- the FIDE (Dutch) Swiss system (C.04.3).
- :mod:`.standings` -- points and tie-breaks.
- :mod:`.trf` -- FIDE Tournament Report File export (and a small reader for checks).
"""


class PairingError(Exception):
    """No legal pairing exists (or the input is inconsistent)."""
