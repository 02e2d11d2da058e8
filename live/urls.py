"""Event stream routes, relative to ``/api/``. Trailing slashes are optional."""

from django.urls import re_path

from live import views

urlpatterns = [
    re_path(r"^games/(?P<game_id>[0-9]+)/events/?$", views.game_events, name="game-events"),
    re_path(r"^me/events/?$", views.my_events, name="my-events"),
]
