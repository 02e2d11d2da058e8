"""What the games do for the accounts: a player's game counts, the games of a guest swept with
it, the games in progress of a deleted account resigned. The ``accounts`` app sits below
``games`` and knows nothing of games; this package calls it."""
