"""URLs of playing, mounted under ``/api/``. Action endpoints accept an optional trailing slash
(``/api/games/1/moves`` and ``/api/games/1/moves/``)."""

from django.urls import path, re_path

from games.play import views

urlpatterns = [
    path("games/", views.GameListView.as_view(), name="game-list"),
    path("games/<int:pk>/", views.GameDetailView.as_view(), name="game-detail"),
    re_path(r"^games/(?P<pk>[0-9]+)/moves/?$", views.GameMovesView.as_view(), name="game-moves"),
    re_path(
        r"^games/(?P<pk>[0-9]+)/decision/?$",
        views.GameDecisionView.as_view(),
        name="game-decision",
    ),
    re_path(r"^games/(?P<pk>[0-9]+)/dead/?$", views.GameDeadView.as_view(), name="game-dead"),
    re_path(r"^games/(?P<pk>[0-9]+)/count/?$", views.GameCountView.as_view(), name="game-count"),
    re_path(r"^games/(?P<pk>[0-9]+)/resign/?$", views.GameResignView.as_view(), name="game-resign"),
    re_path(r"^games/(?P<pk>[0-9]+)/cancel/?$", views.GameCancelView.as_view(), name="game-cancel"),
    re_path(r"^games/(?P<pk>[0-9]+)/undo/?$", views.GameUndoView.as_view(), name="game-undo"),
    re_path(r"^me/games/?$", views.MyGamesView.as_view(), name="my-games"),
    path("sets/<int:pk>/", views.SetDetailView.as_view(), name="set-detail"),
    re_path(r"^sets/(?P<pk>[0-9]+)/ready/?$", views.SetReadyView.as_view(), name="set-ready"),
]
