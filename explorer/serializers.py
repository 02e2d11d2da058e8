"""The explorer's query parameters and its answer (for validation and the OpenAPI schema)."""

from __future__ import annotations

from rest_framework import serializers

from games.choices import Category
from games.play.serializers import GameSummarySerializer
from pente_site.errors import Invalid
from pente_site.fields import QueryBooleanField, QuerySerializer, StrictCharField

#: Games listed per page (``page_size``: at most ``MAX_PAGE_SIZE``).
PAGE_SIZE = 20
MAX_PAGE_SIZE = 100


class ExplorerQueryIn(QuerySerializer):
    game = StrictCharField(help_text="The game: a name or slug (Pente, keryo-pente, Go 9x9).")
    moves = StrictCharField(
        required=False,
        allow_blank=True,
        help_text="The moves from the start, separated by commas or spaces (K10,L11,...): the "
        "centre stone may be left out; decisions (d_swap, ...) and Go's pass in their place. "
        "Empty: the opening position. Not with position: both are a 400 bad_request.",
    )
    position = StrictCharField(
        required=False,
        help_text="Instead of moves (both are a 400 bad_request): the stones of each colour, "
        "colour 1 first, the colours separated by '/' (K10,L9/K11,M12).",
    )
    captures = StrictCharField(
        required=False,
        allow_blank=True,
        help_text="With position only (without it, a 400 bad_request): the stones each colour "
        "has captured, colour 1 first (2,0). "
        "Only counts a game of that kind has with a colour to move: whole numbers from 0; none "
        "in Gomoku and Connect6; below the capture target (10 in Pente, 15 in Keryo-Pente), "
        "which ends the game; sums of captured runs (even where captures are pairs); in Go at "
        "most the board's points. Any other is a 400 bad_captures saying why.",
    )
    to_move = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=6,
        help_text="With position only (without it, a 400 bad_request): the colour to play (1).",
    )
    seats = serializers.IntegerField(
        required=False, min_value=2, max_value=6, default=2, help_text="Players at the table."
    )
    partners = serializers.BooleanField(required=False, default=False, help_text="Partners Pente.")
    player = StrictCharField(
        required=False, help_text="Only games of this player (username or recorded name)."
    )
    opponent = StrictCharField(
        required=False,
        help_text="With player only (without it, a 400 missing_parameter): only games between "
        "the two.",
    )
    # allow_null and default None: a query string that leaves a boolean out means "any", not
    # false (DRF reads a missing boolean of form data as false).
    rated = QueryBooleanField(
        help_text="Rated games only (true) or unrated (false); an imported record is rated when "
        "its Rated header says so.",
    )
    imported = QueryBooleanField(
        help_text="Imported archives only (true) or games played here (false).",
    )
    category = serializers.ChoiceField(choices=Category.choices, required=False)
    rating_min = serializers.IntegerField(
        required=False, min_value=0, max_value=32767, help_text="Every player rated at least this."
    )
    rating_max = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=32767,
        help_text="Every player rated at most this (not below rating_min: a 400 bad_request).",
    )
    date_after = serializers.DateField(required=False, help_text="Played on or after (YYYY-MM-DD).")
    date_before = serializers.DateField(
        required=False, help_text="Played on or before (YYYY-MM-DD)."
    )
    tournament = serializers.IntegerField(
        required=False, min_value=1, help_text="Only the games of this tournament (its id)."
    )
    event = StrictCharField(
        required=False,
        help_text="Only the games of this event: an imported record's Event, or a tournament's "
        "name.",
    )
    before = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="The games' page: those with ids below this (the next link gives it).",
    )
    page_size = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_PAGE_SIZE,
        default=PAGE_SIZE,
        help_text=f"Games listed per page (at most {MAX_PAGE_SIZE}).",
    )

    def validate(self, attrs):
        if "position" in attrs and "moves" in attrs:
            raise Invalid("bad_request", "Give either moves or position, not both.")
        if "position" not in attrs and ("captures" in attrs or "to_move" in attrs):
            raise Invalid("bad_request", "captures and to_move go with position.")
        if "opponent" in attrs and "player" not in attrs:
            raise Invalid(
                "missing_parameter", "opponent needs a player, e.g. ?player=a&opponent=b."
            )
        low, high = attrs.get("rating_min"), attrs.get("rating_max")
        if low is not None and high is not None and low > high:
            raise Invalid("bad_request", "rating_min is above rating_max.")
        return attrs


class MoveStatOut(serializers.Serializer):
    move = StrictCharField(help_text="The next move on your board (K11; in Go, pass).")
    point = serializers.IntegerField(allow_null=True, help_text="Its point (null for a pass).")
    games = serializers.IntegerField()
    wins = serializers.ListField(
        child=serializers.IntegerField(), help_text="Games won by each colour, colour 1 first."
    )
    draws = serializers.IntegerField()
    average_rating = serializers.FloatField(
        allow_null=True, help_text="The average rating of the players who chose this move."
    )
    latest_game = serializers.IntegerField(help_text="The id of the latest game with this move.")


class GameAtOut(GameSummarySerializer):
    at_ply = serializers.IntegerField(
        help_text="The actions played (the centre stone included) when the game reached the "
        "position."
    )


class GamesPageOut(serializers.Serializer):
    next = StrictCharField(allow_null=True)
    results = GameAtOut(many=True)


class ExplorerOut(serializers.Serializer):
    game = StrictCharField()
    key = StrictCharField(help_text="The position's key (hex): the same in all 8 symmetries.")
    symmetry = serializers.IntegerField(
        help_text="The symmetry from your board to the position's canonical orientation (0-7)."
    )
    games = serializers.IntegerField(help_text="Games that reached the position.")
    wins = serializers.ListField(child=serializers.IntegerField())
    draws = serializers.IntegerField()
    moves = MoveStatOut(many=True)
    game_list = GamesPageOut()
