"""URLs of the tournaments app, mounted under ``/api/`` (trailing slash optional on actions)."""

from django.urls import path, re_path

from tournaments import views

urlpatterns = [
    path("tournaments/", views.TournamentListView.as_view(), name="tournament-list"),
    re_path(
        r"^tournaments/import-trf/?$",
        views.TournamentImportTrfView.as_view(),
        name="tournament-import-trf",
    ),
    path("tournaments/<int:pk>/", views.TournamentDetailView.as_view(), name="tournament-detail"),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/next-round/?$",
        views.TournamentNextRoundView.as_view(),
        name="tournament-next-round",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/matches/(?P<match_id>[0-9]+)/result/?$",
        views.MatchResultView.as_view(),
        name="tournament-match-result",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/join/?$",
        views.TournamentJoinView.as_view(),
        name="tournament-join",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/withdraw/?$",
        views.TournamentWithdrawView.as_view(),
        name="tournament-withdraw",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/pairing-decision/?$",
        views.TournamentPairingDecisionView.as_view(),
        name="tournament-pairing-decision",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/start/?$",
        views.TournamentStartView.as_view(),
        name="tournament-start",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/cancel/?$",
        views.TournamentCancelView.as_view(),
        name="tournament-cancel",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/byes/?$",
        views.TournamentByesView.as_view(),
        name="tournament-byes",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/byes/(?P<round_number>[0-9]+)/?$",
        views.TournamentByeView.as_view(),
        name="tournament-bye",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/rounds/?$",
        views.TournamentRoundsView.as_view(),
        name="tournament-rounds",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/entries/?$",
        views.TournamentEntriesView.as_view(),
        name="tournament-entries",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/standings/?$",
        views.TournamentStandingsView.as_view(),
        name="tournament-standings",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/players/(?P<user_id>[0-9]+)/matches/?$",
        views.TournamentPlayerMatchesView.as_view(),
        name="tournament-player-matches",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/bracket/?$",
        views.TournamentBracketView.as_view(),
        name="tournament-bracket",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/bracket\.svg$",
        views.TournamentBracketSvgView.as_view(),
        name="tournament-bracket-svg",
    ),
    re_path(
        r"^tournaments/(?P<pk>[0-9]+)/trf/?$",
        views.TournamentTrfView.as_view(),
        name="tournament-trf",
    ),
]
