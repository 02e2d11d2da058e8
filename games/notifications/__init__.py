"""E-mails to players: their turns in turn-based games, challenges to them, their games' ends."""
