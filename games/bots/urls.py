"""Computer opponent routes, relative to ``/api/``. Trailing slashes are optional."""

from django.urls import re_path

from games.bots import views

urlpatterns = [
    re_path(r"^bots/?$", views.BotListView.as_view(), name="bot-list"),
    re_path(
        r"^games/(?P<pk>[0-9]+)/analysis/?$",
        views.GameAnalysisView.as_view(),
        name="game-analysis",
    ),
    re_path(r"^games/(?P<pk>[0-9]+)/hint/?$", views.GameHintView.as_view(), name="game-hint"),
]
