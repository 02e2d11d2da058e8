from django.contrib import admin

from games.bots.models import Analysis
from games.challenges.models import Challenge, ChallengeEntry
from games.play.models import Game, GameSet, Move, Seat
from games.records.models import ImportJob


class ChallengeEntryInline(admin.TabularInline):
    model = ChallengeEntry
    extra = 0


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "created_by",
        "kind",
        "invitee",
        "variant",
        "rated",
        "status",
        "created_at",
    )
    list_filter = ("status", "kind", "variant", "rated", "time_control")
    search_fields = ("created_by__username", "invitee__username")
    raw_id_fields = ("created_by", "invitee", "game_set", "game")
    inlines = [ChallengeEntryInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("user",)


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    readonly_fields = ("ply", "seat", "kind", "point", "choice", "message", "created_at")
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "variant",
        "status",
        "end_reason",
        "rated",
        "imported",
        "ply",
        "created_at",
    )
    list_filter = ("status", "variant", "rated", "imported", "end_reason", "time_control")
    search_fields = ("seat_rows__user__username", "seat_rows__name")
    raw_id_fields = ("game_set",)
    inlines = [SeatInline, MoveInline]


class GameInline(admin.TabularInline):
    model = Game
    fields = ("set_index", "status", "end_reason", "winner_seats", "ply")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(GameSet)
class GameSetAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "variant",
        "player1",
        "player2",
        "rated",
        "status",
        "result",
        "created_at",
    )
    list_filter = ("status", "result", "variant", "rated", "category")
    search_fields = ("player1__username", "player2__username")
    raw_id_fields = ("player1", "player2", "winner")
    inlines = [GameInline]


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    """Record imports, to look at (the worker writes them; the upload itself is not shown)."""

    list_display = (
        "id",
        "owner",
        "status",
        "records_total",
        "records_processed",
        "imported_count",
        "refused_count",
        "attempt",
        "created_at",
        "finished_at",
    )
    list_filter = ("status",)
    search_fields = ("owner__username",)
    exclude = ("text",)
    readonly_fields = [
        f.name for f in ImportJob._meta.get_fields() if f.concrete and f.name not in ("id", "text")
    ]

    def has_add_permission(self, request) -> bool:
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).defer("text")


@admin.register(Analysis)
class AnalysisAdmin(admin.ModelAdmin):
    """The computer's analyses of games, to look at (the worker writes them; the plies and
    searched positions are not shown)."""

    list_display = (
        "id",
        "game",
        "requested_by",
        "status",
        "plies_total",
        "plies_processed",
        "attempt",
        "interruptions",
        "created_at",
        "finished_at",
    )
    list_filter = ("status",)
    search_fields = ("requested_by__username",)
    raw_id_fields = ("game", "requested_by")
    exclude = ("plies", "positions")
    readonly_fields = [
        f.name
        for f in Analysis._meta.get_fields()
        if f.concrete and f.name not in ("id", "plies", "positions")
    ]

    def has_add_permission(self, request) -> bool:
        return False
