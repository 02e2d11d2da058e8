from django.contrib import admin

from tournaments.models import Entry, Match, MatchSet, Round, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    raw_id_fields = ("user",)
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "format", "variant", "status", "start_at", "current_round")
    list_filter = ("format", "status", "variant")
    search_fields = ("name",)
    raw_id_fields = ("organiser", "winner")
    inlines = [EntryInline]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("tournament", "key", "player1", "player2", "status", "result")
    list_filter = ("status",)
    raw_id_fields = ("tournament", "round", "player1", "player2", "winner")


admin.site.register(Round)
admin.site.register(MatchSet)
