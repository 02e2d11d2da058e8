"""Ratings routes, relative to ``/api/``. Trailing slashes are optional."""

from django.urls import re_path

from ratings import views

PLAYER = r"^players/(?P<username>[\w.@+-]+)"

urlpatterns = [
    re_path(r"^leaderboards/?$", views.LeaderboardView.as_view(), name="leaderboard"),
    re_path(
        r"^leaderboards/computers/?$",
        views.ComputerLeaderboardView.as_view(),
        name="computer-leaderboard",
    ),
    re_path(r"^leaderboards/rank/?$", views.LeaderboardRankView.as_view(), name="leaderboard-rank"),
    re_path(PLAYER + r"/ratings/?$", views.PlayerRatingsView.as_view(), name="player-ratings"),
    re_path(
        PLAYER + r"/ratings/history\.svg$", views.rating_history_svg, name="player-rating-chart"
    ),
    re_path(
        PLAYER + r"/ratings/history/?$",
        views.RatingHistoryView.as_view(),
        name="player-rating-history",
    ),
    re_path(PLAYER + r"/stats/?$", views.PlayerStatsView.as_view(), name="player-stats"),
]
