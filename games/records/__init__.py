"""Game records: Pente.org records of games (export and import) and board pictures.

- ``imports``: importing records as archived games; ``selectors``: a game's record, headers and
  positions to draw; ``pictures``: the SVG board; ``views``/``urls``: the API.
"""
