"""What people do in the live rooms: open a room, say a line in a room or a game, ignore a
user, report a line, and the presence of the streams (entering, leaving, the sweeper).

Every change is published on the live streams after its transaction commits: ``chat``,
``chat_removed``, ``enter`` and ``leave`` on a room's channel (``room:<name>``), ``chat`` and
``spectators`` on a game's.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.guests import refuse_guest
from accounts.models import User
from accounts.selectors import player_get
from games.challenges.services import challenges_between_close
from games.play.models import Game
from live.bus import publish, publish_many
from live.channels import (
    delayed_channel,
    game_channel,
    game_of_channel,
    room_channel,
    room_of_channel,
)
from live.models import CHAT_MAX, ChatLine, Ignore, Presence, Report, Room
from live.selectors import (
    last_line_of,
    line_data,
    no_such_room,
    people_brief,
    room_may_exist,
    seated_ids,
    spectators_count,
)
from pente_site.errors import Conflict, Forbidden, Invalid, NotFound

#: The same line again within this time is refused (``chat_repeated``).
REPEAT_WINDOW = timedelta(seconds=30)


def room_open(*, name: str) -> Room:
    """The room of ``name``: the main room, or a tournament's room (opened on first use)."""
    found = room_may_exist(name=name)
    if found is True:
        return Room.objects.get(name=name)
    if found is False:
        raise no_such_room(name)
    try:
        with transaction.atomic():
            return Room.objects.create(name=name, title=found.name, tournament=found)
    except IntegrityError:  # opened meanwhile
        return Room.objects.get(name=name)


def clean_text(text: str) -> str:
    """A chat line as kept: no control characters, spaces collapsed at the ends."""
    kept = "".join(
        " " if ch in "\t\r\n" else ch
        for ch in str(text)
        if ch in "\t\r\n" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co")
    )
    kept = kept.strip()
    if not kept:
        raise Invalid("chat_empty", "Say something: the line is empty.")
    if len(kept) > CHAT_MAX:
        raise Invalid("chat_too_long", f"A chat line holds at most {CHAT_MAX} characters.")
    return kept


def _refuse_repeat(*, author: User, room: Room | None, game: Game | None, text: str) -> None:
    last = last_line_of(author=author, room=room, game=game)
    if last and last.text == text and timezone.now() - last.created_at < REPEAT_WINDOW:
        raise Conflict(
            "chat_repeated",
            f"You said that line a moment ago: wait {int(REPEAT_WINDOW.total_seconds())} s "
            "before saying it again.",
        )


def _refuse_computer(author: User) -> None:
    if author.bot_level is not None or author.is_computer:
        raise Forbidden("computers_do_not_chat", "The server's computers do not chat.")


def chat_say_room(*, author: User, room: Room, text: str) -> ChatLine:
    """Say a line in a room (not a guest: 403 ``guest_not_allowed``)."""
    _refuse_computer(author)
    refuse_guest(author, what="chat in rooms")
    text = clean_text(text)
    _refuse_repeat(author=author, room=room, game=None, text=text)
    with transaction.atomic():
        line = ChatLine.objects.create(room=room, author=author, text=text)
        publish(channel=room_channel(room.name), kind="chat", data=line_data(line))
    return line


def chat_say_game(*, author: User, game: Game, text: str) -> ChatLine:
    """Say a line in a game, as a player or a spectator. A spectator's line in a rated game in
    progress is hidden from its players until the game ends."""
    _refuse_computer(author)
    if game.imported:
        raise Forbidden("game_imported", "An imported game has no chat.")
    text = clean_text(text)
    _refuse_repeat(author=author, room=None, game=game, text=text)
    spectator = author.pk not in seated_ids(game)
    hidden = spectator and game.rated and game.status == Game.Status.IN_PROGRESS
    with transaction.atomic():
        line = ChatLine.objects.create(
            game=game, author=author, text=text, spectator=spectator, hidden_from_players=hidden
        )
        data = line_data(line)
        publish_many([(channel, "chat", data) for channel in _game_channels(game)])
    return line


def _game_channels(game: Game) -> list[str]:
    """A game's channel, and its spectators' when they see it late."""
    if game.spectator_delay:
        return [game_channel(game.pk), delayed_channel(game.pk)]
    return [game_channel(game.pk)]


def chat_remove(*, line: ChatLine, by: User) -> ChatLine:
    """Take a line down (the staff): it is kept, shown to nobody, and its readers are told."""
    if not by.is_staff:
        raise Forbidden("staff_only", "Only the staff may take chat lines down.")
    with transaction.atomic():
        ChatLine.objects.filter(pk=line.pk).update(removed=True)
        line.removed = True
        channels = [room_channel(line.room.name)] if line.room_id else _game_channels(line.game)
        publish_many([(channel, "chat_removed", {"id": line.pk}) for channel in channels])
        Report.objects.filter(line=line).update(handled=True)
    return line


def ignore_add(*, user: User, username: str) -> Ignore:
    """Stop seeing ``username``'s chat lines (in the lists and, within a heartbeat, the
    streams), and stop taking challenges from them: their direct challenges are refused
    (``not_accepting``), and so are their acceptances of yours; the open direct challenges
    between the two are closed now."""
    other = player_get(username=username)
    if other is None:
        raise NotFound("no_such_player", f"There is no player {username[:60]!r}.")
    if other.pk == user.pk:
        raise Invalid("ignore_self", "You cannot ignore yourself.")
    found, _ = Ignore.objects.get_or_create(user=user, ignored=other)
    challenges_between_close(user=user, other=other)
    return found


def ignore_remove(*, user: User, username: str) -> None:
    other = player_get(username=username)
    deleted = 0
    if other is not None:
        deleted, _ = Ignore.objects.filter(user=user, ignored=other).delete()
    if not deleted:
        raise NotFound("not_ignored", f"You are not ignoring {username[:60]!r}.")


def report_create(*, reporter: User, line: ChatLine, reason: str = "") -> Report:
    """Report a chat line to the staff, once per line and reporter."""
    if line.author_id == reporter.pk:
        raise Invalid("report_self", "You cannot report your own line.")
    try:
        with transaction.atomic():
            return Report.objects.create(line=line, reporter=reporter, reason=reason[:200])
    except IntegrityError:
        raise Conflict("already_reported", "You have already reported this line.") from None


# --- presence ------------------------------------------------------------------------------


def presence_enter(*, place: str, user: User | None, spectator: bool) -> int:
    """A stream of ``place`` opened: its presence row's id. The room is told who entered (the
    first stream of a user there). A game's new spectator count is the caller's to announce
    (``spectators_announce``): the streams do it at most once a second per game, so that a
    crowd arriving costs one event per second, not one per person to every person."""
    with transaction.atomic():
        row = Presence.objects.create(
            place=place, user=user, spectator=spectator, seen_at=timezone.now()
        )
        if room_of_channel(place) is not None and user is not None:
            others = Presence.objects.filter(place=place, user=user).exclude(pk=row.pk)
            if not others.exists():
                data = people_brief([user])[0]
                publish(channel=place, kind="enter", data=data)
    return row.pk


def presence_leave(*, presence_id: int) -> None:
    """A stream closed: the room is told who left (their last stream there); a game's new
    spectator count is the caller's to announce, as for ``presence_enter``."""
    with transaction.atomic():
        row = Presence.objects.filter(pk=presence_id).first()
        if row is None:
            return
        row.delete()
        _announce_left([row])


def _announce_left(rows: list[Presence]) -> None:
    """Tell the rooms who left: the people whose last stream there these rows were."""
    events = []
    for place, user_id in {(r.place, r.user_id) for r in rows if r.user_id is not None}:
        if room_of_channel(place) is None:
            continue
        if not Presence.objects.filter(place=place, user_id=user_id).exists():
            events.append((place, "leave", {"id": user_id}))
    publish_many(events)


def spectators_announce(*, game_ids: list[int]) -> None:
    """Publish the spectator count of each game (on its spectators' channel too when they see
    it late)."""
    if not game_ids:
        return
    events = []
    for game in Game.objects.filter(pk__in=game_ids).only("pk", "spectator_delay").order_by("pk"):
        data = {"count": spectators_count(game_id=game.pk)}
        events += [(channel, "spectators", data) for channel in _game_channels(game)]
    publish_many(events)


def presence_refresh(*, presence_ids: list[int]) -> int:
    """The streams of one web process are still open (one UPDATE for all of them)."""
    if not presence_ids:
        return 0
    return Presence.objects.filter(pk__in=presence_ids).update(seen_at=timezone.now())


def presence_sweep() -> int:
    """Delete the rows a web process that died left behind (not refreshed for three refresh
    periods) and tell their rooms and games."""
    cutoff = timezone.now() - timedelta(seconds=3 * settings.LIVE_PRESENCE_SECONDS)
    with transaction.atomic():
        rows = list(Presence.objects.select_for_update().filter(seen_at__lt=cutoff)[:5000])
        if not rows:
            return 0
        Presence.objects.filter(pk__in=[r.pk for r in rows]).delete()
        _announce_left(rows)
        spectated = {game_of_channel(r.place) for r in rows if r.spectator}
        spectators_announce(game_ids=sorted(g for g in spectated if g is not None))
    return len(rows)
