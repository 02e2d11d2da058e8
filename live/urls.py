"""Live routes, relative to ``/api/``: the event streams (asynchronous views, ``live.streams``)
and the rooms, chat, presence, ignore and report endpoints (``live.views``). Trailing slashes
are optional."""

from django.urls import re_path

from live import streams, views

ROOM = r"(?P<name>[A-Za-z0-9_-]{1,40})"

urlpatterns = [
    re_path(r"^games/(?P<game_id>[0-9]+)/events/?$", streams.game_events, name="game-events"),
    re_path(r"^me/events/?$", streams.my_events, name="my-events"),
    re_path(rf"^rooms/{ROOM}/events/?$", streams.room_events, name="room-events"),
    re_path(r"^rooms/?$", views.RoomListView.as_view(), name="rooms"),
    re_path(rf"^rooms/{ROOM}/?$", views.RoomDetailView.as_view(), name="room-detail"),
    re_path(rf"^rooms/{ROOM}/chat/?$", views.RoomChatView.as_view(), name="room-chat"),
    re_path(r"^games/(?P<pk>[0-9]+)/chat/?$", views.GameChatView.as_view(), name="game-chat"),
    re_path(
        r"^games/(?P<pk>[0-9]+)/spectators/?$",
        views.GameSpectatorsView.as_view(),
        name="game-spectators",
    ),
    re_path(r"^online/?$", views.OnlineView.as_view(), name="online"),
    re_path(r"^health/?$", views.HealthView.as_view(), name="health"),
    re_path(r"^me/ignores/?$", views.IgnoreListView.as_view(), name="ignores"),
    re_path(
        r"^me/ignores/(?P<username>[^/]{1,150})/?$",
        views.IgnoreDetailView.as_view(),
        name="ignore-detail",
    ),
    re_path(r"^chat/(?P<pk>[0-9]+)/report/?$", views.ChatReportView.as_view(), name="chat-report"),
    re_path(r"^chat/(?P<pk>[0-9]+)/?$", views.ChatLineView.as_view(), name="chat-line"),
]
