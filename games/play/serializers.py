"""Request and response serializers of the games API.

Responses are built by ``games.selectors`` as plain dicts; the response serializers here describe
them for the OpenAPI schema (and render ``game_summary`` for lists).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.play.selectors import game_summary
from pente_site.errors import Invalid
from pente_site.fields import StrictCharField


@extend_schema_field(
    {"oneOf": [{"type": "string", "example": "K10"}, {"type": "integer", "example": 180}]}
)
class PointField(serializers.Field):
    """A point as ``"K10"`` or its integer form (``180``); kept as given, parsed by the view
    with the game's board size."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, str | int):
            raise Invalid("bad_coordinate", f"{data!r} is not a point; write e.g. K10.")
        return data

    def to_representation(self, value):
        return value


class MoveRequestSerializer(serializers.Serializer):
    ply = serializers.IntegerField(min_value=0, help_text="The game's ply the client saw.")
    point = PointField(required=False, help_text='"K10" or the integer form 180.')
    points = serializers.ListField(
        child=PointField(),
        required=False,
        min_length=1,
        max_length=2,
        help_text="Connect6: the turn's two stones.",
    )
    message = StrictCharField(
        required=False, allow_blank=True, max_length=255, default="", trim_whitespace=True
    )

    def validate(self, attrs):
        has_point = "point" in attrs
        has_points = "points" in attrs
        if has_point == has_points:
            raise Invalid("bad_request", 'Send either "point" or "points".')
        attrs["points"] = [attrs.pop("point")] if has_point else attrs["points"]
        return attrs


class DecisionRequestSerializer(serializers.Serializer):
    ply = serializers.IntegerField(min_value=0)
    choice = serializers.ChoiceField(
        choices=["keep", "swap", "place_two", "colour1", "colour2", "accept", "reject"],
        help_text='D-Pente: "keep" or "swap"; Swap2: "swap", "keep", "place_two", then '
        '"colour1" or "colour2"; Go: "accept" or "reject" the marking of dead stones.',
    )
    disputed = serializers.ListField(
        child=PointField(),
        max_length=361,
        required=False,
        default=list,
        help_text='Go, with "reject": the stones you judge otherwise than the marking (shown as '
        "the state's go.disputed until the next marking); none by default.",
    )


class DeadRequestSerializer(serializers.Serializer):
    ply = serializers.IntegerField(min_value=0, help_text="The game's ply the client saw.")
    points = serializers.ListField(
        child=PointField(),
        max_length=361,
        help_text='The stones proposed dead ("C3" or integers); [] proposes none.',
    )


class ImportRequestSerializer(serializers.Serializer):
    text = StrictCharField(
        help_text="One or more Pente.org game records, or an SGF file (a JSON string)."
    )


class UserBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = StrictCharField()


class PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = StrictCharField()
    user = UserBriefSerializer(allow_null=True)


class StatePlayerSerializer(PlayerSerializer):
    colour = serializers.IntegerField()
    team = serializers.ListField(child=serializers.IntegerField())
    captures = serializers.IntegerField()


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    variant = StrictCharField()
    status = StrictCharField()
    end_reason = StrictCharField()
    winner_seats = serializers.ListField(child=serializers.IntegerField())
    ply = serializers.IntegerField()
    rated = serializers.BooleanField()
    imported = serializers.BooleanField()
    category = StrictCharField()
    set_id = serializers.IntegerField(allow_null=True)
    set_index = serializers.IntegerField()
    players = PlayerSerializer(many=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    def to_representation(self, instance):
        if not isinstance(instance, dict):
            request = self.context.get("request")
            instance = game_summary(instance, getattr(request, "user", None))
        return super().to_representation(instance)


class ToMoveBriefSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = StrictCharField()


class MyGameSerializer(GameSummarySerializer):
    """One of the player's games in progress, with whose turn it is and the time left."""

    to_move = ToMoveBriefSerializer(allow_null=True)
    my_turn = serializers.BooleanField(help_text="Whether it is the signed-in player's turn.")
    time_control = StrictCharField(help_text="live, turn or none.")
    time_left_ms = serializers.IntegerField(
        allow_null=True,
        help_text="The time the player to move has left: their clock (live), the time to the "
        "deadline (turn-based); null untimed.",
    )
    clock_running = serializers.BooleanField(
        help_text="Whether time_left_ms is a live clock running down now."
    )
    deadline = serializers.DateTimeField(allow_null=True)


class StoneSerializer(serializers.Serializer):
    point = serializers.IntegerField()
    name = StrictCharField()
    colour = serializers.IntegerField()


class BoardSerializer(serializers.Serializer):
    size = serializers.IntegerField()
    rows = serializers.ListField(child=StrictCharField())
    stones = StoneSerializer(many=True)
    last_point = serializers.IntegerField(allow_null=True)
    last_name = StrictCharField(allow_null=True)


class ToMoveSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    colour = serializers.IntegerField()
    user = UserBriefSerializer(allow_null=True)
    name = StrictCharField()
    stones = serializers.IntegerField(help_text="Stones to place this turn (Connect6: 2).")


class ClockSerializer(serializers.Serializer):
    time_control = StrictCharField()
    category = StrictCharField()
    initial_minutes = serializers.IntegerField()
    increment_seconds = serializers.IntegerField()
    days_per_move = serializers.IntegerField()
    clocks_ms = serializers.ListField(child=serializers.IntegerField())
    remaining_ms = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Per seat; the seat to move has the time since its turn began taken off.",
    )
    turn_started_at = serializers.DateTimeField(allow_null=True)
    deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="When the seat to move runs out of time, or, while it has not made its first "
        "action, when its start window closes (whichever is first).",
    )
    as_of = serializers.DateTimeField(
        help_text="The server's time when remaining_ms was computed (ISO 8601, to the "
        "millisecond): the seat to move has remaining_ms minus the time since."
    )
    vacation_allowed = serializers.BooleanField()
    running = serializers.BooleanField(
        help_text="Whether the seat to move's clock runs: false while the timer rule waits for "
        "every seat's first stone (games that begin with the centre stone), and whenever no "
        "clock runs (untimed, turn-based, over)."
    )
    start_deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="The time by which the seat to move must make its first action of its own or "
        "the start window closes (the game's on_absence then says what happens); null when no "
        "window applies.",
    )


class MoveSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    kind = StrictCharField()
    point = serializers.IntegerField(allow_null=True)
    name = StrictCharField(allow_null=True)
    choice = StrictCharField(
        help_text="A decision's word; a marking's stones (Go, space-separated); empty otherwise."
    )
    disputed = serializers.ListField(
        child=StrictCharField(),
        required=False,
        help_text="Go, a rejection that names the stones it disputes (the computer's do): "
        "their names (only then present).",
    )
    message = StrictCharField(
        allow_null=True, help_text="null when hidden (unfinished game, not a participant)."
    )
    message_visible = serializers.BooleanField(
        help_text="Whether this viewer sees the game's messages (the same on every move, so a "
        "hidden message leaves no trace)."
    )
    created_at = serializers.DateTimeField()


class GoScoreSerializer(serializers.Serializer):
    black = serializers.FloatField()
    white = serializers.FloatField(help_text="Komi included.")
    black_territory = serializers.ListField(child=StrictCharField())
    white_territory = serializers.ListField(child=StrictCharField())
    black_dead = serializers.ListField(
        child=StrictCharField(),
        help_text="The black stones this count takes off as dead: the proposal while marking "
        "(still on the board), the agreed ones once counted (off it).",
    )
    white_dead = serializers.ListField(
        child=StrictCharField(), help_text="The same for the white stones."
    )


class GoStateSerializer(serializers.Serializer):
    phase = serializers.ChoiceField(choices=["playing", "marking", "over"])
    komi = serializers.FloatField()
    marking_seat = serializers.IntegerField(
        allow_null=True, help_text="Marking: the seat that passed first, who proposes."
    )
    proposed_dead = serializers.ListField(
        child=StrictCharField(), allow_null=True, help_text="The marking to answer."
    )
    dead = serializers.ListField(
        child=StrictCharField(), help_text="The stones agreed dead (once counted)."
    )
    disputed = serializers.ListField(
        child=StrictCharField(),
        help_text="While play resumes after a rejected marking (until the next two passes): the "
        "stones the rejection disputed, marked dead but judged alive or judged dead but not "
        "marked; [] otherwise.",
    )
    score = GoScoreSerializer(
        allow_null=True, help_text="Area count: once counted, and while playing, as it stands."
    )


class SetProgressSerializer(serializers.Serializer):
    games_count = serializers.IntegerField()
    status = StrictCharField()
    result = StrictCharField(allow_null=True)
    player1 = UserBriefSerializer()
    player2 = UserBriefSerializer()
    score = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The games each player won so far: [player1's, player2's].",
    )
    next_game_at = serializers.DateTimeField(
        allow_null=True,
        help_text="A live set is played one game at a time: when its game is over, the next "
        "one starts at this time (or as soon as both players are ready: POST sets/{id}/ready); "
        "null while no countdown runs.",
    )
    ready = serializers.ListField(
        child=serializers.BooleanField(),
        help_text="While the countdown runs, whether [player1, player2] said they are ready.",
    )


class GameSetOfGameSerializer(SetProgressSerializer):
    id = serializers.IntegerField()
    index = serializers.IntegerField(help_text="This game's place in the set (1 or 2).")
    other_game = serializers.IntegerField(
        allow_null=True,
        help_text="The set's other game, or null while it has none (a live set's game 2 is "
        "created when game 1 is over).",
    )


class GameStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    variant = StrictCharField()
    status = StrictCharField()
    end_reason = StrictCharField()
    winner_seats = serializers.ListField(child=serializers.IntegerField())
    winners = StatePlayerSerializer(many=True)
    ply = serializers.IntegerField(help_text="Number of actions so far: send it back with a move.")
    seats = serializers.IntegerField()
    partners = serializers.BooleanField()
    rated = serializers.BooleanField()
    tournament_rule = serializers.BooleanField()
    adjacent_only = serializers.BooleanField()
    imported = serializers.BooleanField()
    headers = serializers.DictField(child=StrictCharField())
    set_id = serializers.IntegerField(allow_null=True)
    set_index = serializers.IntegerField()
    players = StatePlayerSerializer(many=True)
    board = BoardSerializer()
    captures = serializers.ListField(
        child=serializers.IntegerField(), help_text="Stones captured BY each colour."
    )
    to_move = ToMoveSerializer(allow_null=True)
    pending_decision = StrictCharField(allow_null=True)
    decisions_available = serializers.ListField(child=StrictCharField())
    clock = ClockSerializer()
    on_absence = serializers.ChoiceField(
        choices=["abort", "forfeit", "none"],
        help_text="What closing a live game's start window does: abort the game (status "
        "cancelled, end_reason aborted), the absent seats forfeit, or none (no window).",
    )
    absent_seats = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The seats the start window closed on (aborted or forfeited games); else [].",
    )
    go = GoStateSerializer(allow_null=True, help_text="Go only (null for other games).")
    moves = MoveSerializer(many=True)
    undo_requested_by = serializers.IntegerField(allow_null=True)
    takeback_seat = serializers.IntegerField(
        allow_null=True,
        help_text="The seat that may ask to take its last move back now (the player who just "
        "moved, past the opening: POST undo), or null.",
    )
    cancel_requested_by = serializers.IntegerField(allow_null=True)
    cancellable = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    updated_at = serializers.DateTimeField()
    spectator_delay = serializers.IntegerField(
        help_text="Plies hidden from spectators while the game is played (tournament games): a "
        "spectator sees the game as of ``ply``, that many plies behind."
    )
    set = GameSetOfGameSerializer(allow_null=True, help_text="The game's set, or null.")


class SetSerializer(SetProgressSerializer):
    id = serializers.IntegerField()
    variant = StrictCharField()
    rated = serializers.BooleanField()
    category = StrictCharField()
    winner = UserBriefSerializer(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    games = GameSummarySerializer(many=True)


class ErrorSerializer(serializers.Serializer):
    code = StrictCharField()
    detail = StrictCharField()


class StaleErrorSerializer(ErrorSerializer):
    """A 409 of a game action. ``stale_ply``, ``already_played``, ``time_over`` and
    ``start_window_over`` carry the game as it is now."""

    game = GameStateSerializer(required=False)


TEXT_RESPONSE = OpenApiTypes.STR
