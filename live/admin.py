"""The staff's view of the rooms: chat lines (take one down with the ``removed`` box) and the
reports to handle."""

from django.contrib import admin

from live.models import ChatLine, Report, Room


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("name", "title", "tournament", "created_at")
    search_fields = ("name", "title")
    raw_id_fields = ("tournament",)


@admin.register(ChatLine)
class ChatLineAdmin(admin.ModelAdmin):
    list_display = ("id", "author", "room", "game", "text", "spectator", "removed", "created_at")
    list_filter = ("removed", "spectator")
    search_fields = ("text", "author__username")
    raw_id_fields = ("author", "room", "game")


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("id", "line", "reporter", "reason", "handled", "created_at")
    list_filter = ("handled",)
    raw_id_fields = ("line", "reporter")
