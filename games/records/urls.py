"""URLs of game records, mounted under ``/api/``."""

from django.urls import re_path

from games.records import views

urlpatterns = [
    re_path(r"^games/records/?$", views.GameRecordsExportView.as_view(), name="game-records"),
    re_path(r"^games/import/?$", views.GameImportView.as_view(), name="game-import"),
    re_path(r"^games/imports/?$", views.ImportJobListView.as_view(), name="game-import-jobs"),
    re_path(
        r"^games/imports/(?P<pk>[0-9]+)/?$", views.ImportJobView.as_view(), name="game-import-job"
    ),
    re_path(r"^games/(?P<pk>[0-9]+)/record/?$", views.GameRecordView.as_view(), name="game-record"),
    re_path(r"^games/(?P<pk>[0-9]+)/record\.sgf$", views.GameSgfView.as_view(), name="game-sgf"),
    re_path(
        r"^games/(?P<pk>[0-9]+)/position/?$",
        views.GamePositionView.as_view(),
        name="game-position",
    ),
    re_path(
        r"^games/(?P<pk>[0-9]+)/board\.svg$",
        views.GameBoardSvgView.as_view(),
        name="game-board-svg",
    ),
]
