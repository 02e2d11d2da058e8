"""URLs of the games app, mounted under ``/api/``: each part of the app brings its own."""

from django.urls import include, path

urlpatterns = [
    # records first: "games/records" and "games/import" are not game ids
    path("", include("games.records.urls")),
    path("", include("games.play.urls")),
    path("", include("games.clocks.urls")),
    path("", include("accounts.urls")),
    path("", include("games.challenges.urls")),
    path("", include("games.bots.urls")),
]
