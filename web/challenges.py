"""The challenge rows of the home and play pages: what a challenge is (its seats, partners, who
has joined it and how many seats are filled, rated or not, the rules and restriction chosen,
who moves first when its creator chose) and what the viewer may do with it, as the challenges API allows
(``games.challenges.services``): accept or decline a two-player one, join or leave a
multi-player one, cancel one's own."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from accounts.models import User
from games.challenges.models import Challenge
from games.challenges.selectors import restriction_words


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    challenge: Challenge
    #: Who has joined a multi-player or partners challenge, in seat order (the creator first).
    players: tuple[str, ...]
    #: What the viewer may do: "cancel", "accept", "decline", "join", "leave".
    actions: tuple[str, ...]

    @property
    def multi(self) -> bool:
        return self.challenge.seats > 2

    @property
    def first_mover(self) -> str | None:
        """The name of who moves first (a rated set: in its first game) when the creator chose
        their seat (``seat_wanted``) and that player is known; None otherwise."""
        c = self.challenge
        if c.seat_wanted == 1:
            return c.created_by.username
        if c.seat_wanted == 2 and c.invitee is not None:
            return c.invitee.username
        return None

    @property
    def options(self) -> list[str]:
        """The rules and the restriction the creator chose, as the row says them."""
        c = self.challenge
        said = ["tournament rule"] if c.tournament_rule else []
        if c.adjacent_only:
            said.append("adjacent only")
        who = restriction_words(c)
        if who:
            said.append(f"for {who}")
        return said

    @property
    def taker_moves_first(self) -> bool:
        """An open challenge whose creator chose to move second."""
        return self.challenge.seat_wanted == 2 and self.challenge.invitee is None

    @property
    def mine(self) -> bool:
        """The viewer made it or sits in it: the page waits for it to become a game."""
        return "cancel" in self.actions or "leave" in self.actions


def _actions(challenge: Challenge, players: list[User], viewer: User | None) -> tuple[str, ...]:
    if viewer is None:
        return ()
    if challenge.created_by_id == viewer.pk:
        return ("cancel",)
    if challenge.seats > 2:
        if any(user.pk == viewer.pk for user in players):
            return ("leave",)
        return ("join",) if len(players) < challenge.seats else ()
    if challenge.invitee_id == viewer.pk:
        return ("accept", "decline")
    return ("accept",)


def challenge_rows(challenges: Iterable[Challenge], viewer: User | None) -> list[ChallengeRow]:
    """The rows of ``challenges`` (their entries prefetched, as the challenge selectors do) as
    ``viewer`` (None: signed out) sees them."""
    rows = []
    for challenge in challenges:
        players = [entry.user for entry in challenge.entries.all()] if challenge.seats > 2 else []
        rows.append(
            ChallengeRow(
                challenge=challenge,
                players=tuple(user.username for user in players),
                actions=_actions(challenge, players, viewer),
            )
        )
    return rows
