"""Playing games: creating games and sets, moves and decisions, requests, finishing.

- ``create``: ``game_create``, ``set_create``;
- ``actions``: ``move_play``, ``game_decide``, ``game_resign`` (one locked transaction each);
- ``requests``: cancel and undo requests between the players;
- ``finish``: ending a game with an engine ``Outcome`` and closing its set;
- ``access``: the guards those services share (lock the row, participant, in progress);
- ``positions``: read helpers (the engine position of a game row, sides, cancel checks);
- ``selectors``: the game state, summaries, sets; ``views``/``serializers``/``filters``/``urls``:
  the API; ``signals``: ``game_finished`` and ``set_finished``.
"""
