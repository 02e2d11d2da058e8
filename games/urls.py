"""URLs of the games app, mounted under ``/api/``. Action endpoints accept an optional trailing
slash (``/api/games/1/moves`` and ``/api/games/1/moves/``)."""

from django.urls import include, path, re_path

from games import timeouts_views, views

urlpatterns = [
    path("games/", views.GameListView.as_view(), name="game-list"),
    re_path(r"^games/records/?$", views.GameRecordsExportView.as_view(), name="game-records"),
    re_path(r"^games/import/?$", views.GameImportView.as_view(), name="game-import"),
    path("games/<int:pk>/", views.GameDetailView.as_view(), name="game-detail"),
    re_path(r"^games/(?P<pk>[0-9]+)/moves/?$", views.GameMovesView.as_view(), name="game-moves"),
    re_path(
        r"^games/(?P<pk>[0-9]+)/decision/?$",
        views.GameDecisionView.as_view(),
        name="game-decision",
    ),
    re_path(r"^games/(?P<pk>[0-9]+)/resign/?$", views.GameResignView.as_view(), name="game-resign"),
    re_path(r"^games/(?P<pk>[0-9]+)/cancel/?$", views.GameCancelView.as_view(), name="game-cancel"),
    re_path(r"^games/(?P<pk>[0-9]+)/undo/?$", views.GameUndoView.as_view(), name="game-undo"),
    re_path(r"^games/(?P<pk>[0-9]+)/record/?$", views.GameRecordView.as_view(), name="game-record"),
    re_path(
        r"^games/(?P<pk>[0-9]+)/board\.svg$",
        views.GameBoardSvgView.as_view(),
        name="game-board-svg",
    ),
    path("sets/<int:pk>/", views.SetDetailView.as_view(), name="set-detail"),
    re_path(r"^me/vacation/?$", timeouts_views.VacationView.as_view(), name="me-vacation"),
]

urlpatterns += [
    path("", include("games.accounts.urls")),
    path("", include("games.challenges.urls")),
]
