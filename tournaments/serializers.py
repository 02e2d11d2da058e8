"""Request and response shapes of the tournaments API."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.play.serializers import UserBriefSerializer
from pente_site.errors import Invalid
from pente_site.fields import StrictCharField, StrictModelSerializer, StrictURLField
from tournaments import selectors
from tournaments.models import MAX_ROUNDS, Tournament


class PairingDecisionSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    code = StrictCharField()
    detail = StrictCharField()


class TournamentSerializer(StrictModelSerializer):
    organiser = UserBriefSerializer(read_only=True)
    winner = UserBriefSerializer(read_only=True, allow_null=True)
    players = serializers.IntegerField(read_only=True, default=0)
    initial_colour = serializers.ChoiceField(
        choices=["white", "black"],
        allow_blank=True,
        read_only=True,
        help_text="Swiss: the colour of the top seed in round 1 (FIDE Art. 5.2.5); empty until "
        "drawn by lot at the start when the organiser chose none.",
    )
    pairing_decision = serializers.SerializerMethodField(
        help_text="A Swiss round waiting for the organiser: no pairing meets the colour "
        "criteria (POST pairing-decision); null when nothing waits."
    )

    pairing_pending = serializers.BooleanField(
        read_only=True,
        help_text="A pairing the organiser asked for (start, next-round, pairing-decision) is "
        "being made: the answer to those is 202, and the round appears here (and as "
        "match_started events in the tournament's room) within moments.",
    )

    @extend_schema_field(PairingDecisionSerializer(allow_null=True))
    def get_pairing_decision(self, obj) -> dict | None:
        return selectors.pairing_decision(obj)

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "organiser",
            "variant",
            "rated",
            "format",
            "time_control",
            "initial_minutes",
            "increment_seconds",
            "days_per_move",
            "games_per_match",
            "registration_opens_at",
            "registration_closes_at",
            "start_at",
            "rating_above",
            "rating_below",
            "min_rated_results",
            "max_players",
            "vacation_allowed",
            "spectator_delay",
            "initial_colour",
            "late_entries",
            "late_entry_points",
            "imported",
            "pairing_decision",
            "pairing_pending",
            "rounds",
            "cycles",
            "status",
            "current_round",
            "players",
            "winner",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields
        extra_kwargs = {
            "current_round": {
                "help_text": (
                    "0 before the start. Swiss and round robin: the number of the latest round "
                    "paired. Elimination: the latest bracket stage with a match in play or "
                    "played, where a match's stage is one more than the latest stage of the "
                    "matches its players come from (the first round is 1). Single elimination: "
                    "the bracket round. Double elimination: the count of waves of matches, "
                    "winners' and losers' rounds and the grand final numbered in one sequence "
                    "(8 players: winners' rounds 1-3 are stages 1-3, losers' rounds 1-4 stages "
                    "2-5, the grand final 6, its reset 7)."
                )
            },
            "days_per_move": {"help_text": "Turn-based only; 0 for a live tournament."},
            "late_entries": {
                "help_text": "Swiss: players may join until the last round is paired; each "
                "round paired before they joined counts as unplayed, with late_entry_points."
            },
            "late_entry_points": {"help_text": "0, 0.5 or 1 per round a late entry missed."},
            "imported": {
                "help_text": "Created from a TRF (POST tournaments/import-trf): played "
                "elsewhere, unrated; the organiser pairs its rounds (POST next-round) and enters "
                "their results (POST matches/{match_id}/result). Its players' username is the "
                "report's name."
            },
            "initial_minutes": {"help_text": "Live only; 0 for a turn-based tournament."},
            "increment_seconds": {"help_text": "Live only; 0 for a turn-based tournament."},
        }


class TimeControlField(serializers.ChoiceField):
    """``live`` or ``turn``; anything else is refused as 400 ``bad_time_control`` (as the
    service does), not as a generic validation error."""

    def __init__(self, **kwargs):
        super().__init__(choices=["live", "turn"], **kwargs)

    def to_internal_value(self, data):
        if data not in ("live", "turn"):
            raise Invalid(
                "bad_time_control",
                f"A tournament's time control is live or turn-based, not {data!r}.",
            )
        return data


class TournamentCreateSerializer(serializers.Serializer):
    name = StrictCharField(max_length=200)
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    variant = StrictCharField(max_length=32, default="Pente")
    rated = serializers.BooleanField(default=True)
    time_control = TimeControlField(
        default="turn",
        help_text="live or turn: a tournament's games always have a clock (no untimed ones).",
    )
    initial_minutes = serializers.IntegerField(
        min_value=0,
        max_value=999,
        default=None,
        allow_null=True,
        help_text="Live only (0 if omitted); initial time and increment cannot both be 0.",
    )
    increment_seconds = serializers.IntegerField(
        min_value=0, max_value=59, default=None, allow_null=True, help_text="Live only."
    )
    days_per_move = serializers.IntegerField(
        min_value=0,
        max_value=30,
        default=None,
        allow_null=True,
        help_text="Turn-based only (3 if omitted).",
    )
    games_per_match = serializers.IntegerField(min_value=1, max_value=2, required=False)
    registration_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    registration_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    start_at = serializers.DateTimeField()
    rating_above = serializers.IntegerField(required=False, allow_null=True)
    rating_below = serializers.IntegerField(required=False, allow_null=True)
    min_rated_results = serializers.IntegerField(min_value=0, default=0)
    max_players = serializers.IntegerField(min_value=2, required=False, allow_null=True)
    vacation_allowed = serializers.BooleanField(default=True)
    spectator_delay = serializers.IntegerField(
        min_value=0,
        max_value=20,
        default=0,
        help_text="Plies of each game hidden from spectators while it is played (0: none).",
    )
    rounds = serializers.IntegerField(
        min_value=1, max_value=MAX_ROUNDS, required=False, allow_null=True
    )
    cycles = serializers.IntegerField(min_value=1, max_value=2, default=1)
    initial_colour = serializers.ChoiceField(
        choices=["white", "black", ""],
        default="",
        help_text="Swiss: the colour of the top seed in round 1 (FIDE Art. 5.2.5); empty: drawn "
        "by lot at the start.",
    )
    late_entries = serializers.BooleanField(
        default=False,
        help_text="Swiss only: players may join while it runs, until its last round is paired.",
    )
    late_entry_points = serializers.ChoiceField(
        choices=[0, 0.5, 1],
        default=0,
        help_text="The points of each round paired before a late entry joined (unplayed).",
    )


class EntrySerializer(serializers.Serializer):
    user = UserBriefSerializer()
    seed = serializers.IntegerField(allow_null=True)
    rating = serializers.FloatField(allow_null=True)
    status = StrictCharField()
    joined_at = serializers.DateTimeField()


class TournamentDetailSerializer(TournamentSerializer):
    """A tournament with the viewer's own entry (the entries themselves are a list of their
    own, ``tournaments/{id}/entries``: a large event has a thousand)."""

    entry = serializers.SerializerMethodField(
        help_text="Your entry (signed in and entered, withdrawn included); null otherwise."
    )

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "entry"]
        read_only_fields = fields

    @extend_schema_field(EntrySerializer(allow_null=True))
    def get_entry(self, obj) -> dict | None:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        mine = selectors.entry_of(obj, user_id=user.pk if user and user.is_authenticated else None)
        return None if mine is None else EntrySerializer(mine).data


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True)
    user_id = serializers.IntegerField()
    username = StrictCharField()
    points = serializers.FloatField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    tiebreaks = serializers.DictField()
    withdrawn = serializers.BooleanField()


class MatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    key = StrictCharField()
    round = serializers.IntegerField(allow_null=True)
    bracket = StrictCharField(allow_null=True)
    bracket_round = serializers.IntegerField(allow_null=True)
    board = serializers.IntegerField()
    player1 = UserBriefSerializer(allow_null=True)
    player2 = UserBriefSerializer(allow_null=True)
    status = StrictCharField()
    result = StrictCharField(
        allow_null=True,
        help_text="player1, player2, draw, double_forfeit (neither player came: no winner, "
        "both score 0), or a bye: bye, full_point_bye, half_point_bye, zero_point_bye",
    )
    winner = UserBriefSerializer(allow_null=True)
    forfeit = serializers.BooleanField()
    sets = serializers.ListField(child=serializers.DictField())


class RoundSerializer(serializers.Serializer):
    bracket = StrictCharField(allow_null=True)
    number = serializers.IntegerField()
    relaxed = serializers.BooleanField(
        help_text="Paired with the colour criteria relaxed, as the organiser chose."
    )
    matches = MatchSerializer(many=True)


class StandingsPageSerializer(serializers.Serializer):
    """A page of the standings (the project's pagination) with the ``final`` flag."""

    count = serializers.IntegerField()
    next = StrictURLField(allow_null=True)
    previous = StrictURLField(allow_null=True)
    final = serializers.BooleanField(help_text="True once the tournament is over.")
    results = StandingSerializer(many=True)


class BracketMatchSerializer(serializers.Serializer):
    key = StrictCharField()
    bracket = StrictCharField()
    round = serializers.IntegerField()
    index = serializers.IntegerField()
    player1 = serializers.JSONField(help_text='{"id", "username"}, "bye" or null while unknown')
    player2 = serializers.JSONField(help_text='{"id", "username"}, "bye" or null while unknown')
    status = StrictCharField(
        help_text="pending, ready, done, walkover, void or double_forfeit (nobody turned up)"
    )
    winner = serializers.JSONField(allow_null=True)
    match_id = serializers.IntegerField(allow_null=True)


class BracketSerializer(serializers.Serializer):
    format = StrictCharField()
    champion = UserBriefSerializer(allow_null=True)
    matches = BracketMatchSerializer(many=True)


class TrfImportIn(serializers.Serializer):
    trf = StrictCharField(
        trim_whitespace=False,
        help_text="The report: FIDE TRF (001 player lines; 012 name, 042 start date, 142 or XXR "
        "rounds, 152 or XXC initial colour).",
    )
    variant = StrictCharField(max_length=32, default="Pente")
    accounts = serializers.DictField(
        child=StrictCharField(max_length=150),
        default=dict,
        help_text='Starting rank -> username of this server, e.g. {"3": "alice"}: these '
        "players' entries are their accounts; the others get placeholder accounts.",
    )

    def validate_accounts(self, value: dict) -> dict[int, str]:
        if not all(str(key).isdigit() for key in value):
            raise Invalid("bad_trf", "accounts are keyed by starting ranks (whole numbers).")
        return {int(key): username for key, username in value.items()}


class MatchResultIn(serializers.Serializer):
    result = serializers.ChoiceField(
        choices=["player1", "player2", "draw"],
        help_text="player1 (white, the first player of the pairing) won, player2 won, or a draw.",
    )
    forfeit = serializers.BooleanField(
        default=False, help_text="Not played: the winner scores without a game."
    )


class PairingDecisionIn(serializers.Serializer):
    relax = serializers.BooleanField(
        help_text="true: pair the waiting round with the colour criteria relaxed; false: pair "
        "it again from the entries as they are now (after a withdrawal, say)."
    )


class PlannedByeSerializer(serializers.Serializer):
    user = UserBriefSerializer()
    round = serializers.IntegerField()
    result = serializers.ChoiceField(choices=["full_point_bye", "half_point_bye", "zero_point_bye"])


class ByeRequestIn(serializers.Serializer):
    round = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ROUNDS,
        help_text="The round to sit out: one not paired yet (after current_round), at most the "
        "tournament's rounds.",
    )
