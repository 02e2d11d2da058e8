from django.contrib import admin

from ratings.models import Crown, Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "variant", "category", "rating", "results", "wins", "losses", "draws")
    list_filter = ("variant", "category", "is_computer")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("game_set", "user", "opponent", "result", "rating_before", "rating_after")
    search_fields = ("user__username", "opponent__username")
    raw_id_fields = ("game_set", "user", "rating", "opponent")


@admin.register(Crown)
class CrownAdmin(admin.ModelAdmin):
    list_display = ("user", "tournament_name", "variant", "won_at")
    search_fields = ("user__username", "tournament_name")
    raw_id_fields = ("user",)
