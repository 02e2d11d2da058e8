"""Playing games: creating them, the move pipeline, requests between players, finishing.

- ``create``: ``game_create``, ``set_create``;
- ``actions``: ``move_play``, ``game_decide``, ``game_mark_dead``, ``game_resign`` (the move
  pipeline, ``docs/move-pipeline.md``); ``claim``: a turn's one write; ``events``: what
  follows an action, sent from one place;
- ``requests``: cancel and undo requests between the players;
- ``finish``: ending a game and closing its set; ``sets``: a live set's next game;
- ``access``: the guards the services share (lock the row, participant, in progress);
- ``positions``: the cached moves and position of a game, its sides;
- ``selectors``: the game state, summaries, sets; ``views``/``serializers``/``filters``/``urls``:
  the API; ``signals``: what other apps hear.
"""
