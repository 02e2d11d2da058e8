"""Challenge routes, relative to ``/api/``. Trailing slashes are optional."""

from django.urls import re_path

from games.challenges import views

_ID = r"(?P<challenge_id>[0-9]+)"

urlpatterns = [
    re_path(r"^challenges/?$", views.ChallengeListCreateView.as_view(), name="challenge-list"),
    re_path(r"^challenges/open/?$", views.ChallengeOpenView.as_view(), name="challenge-open"),
    re_path(
        r"^challenges/incoming/?$",
        views.ChallengeIncomingView.as_view(),
        name="challenge-incoming",
    ),
    re_path(
        r"^challenges/outgoing/?$",
        views.ChallengeOutgoingView.as_view(),
        name="challenge-outgoing",
    ),
    re_path(rf"^challenges/{_ID}/?$", views.ChallengeDetailView.as_view(), name="challenge-detail"),
    re_path(
        rf"^challenges/{_ID}/accept/?$",
        views.ChallengeAcceptView.as_view(),
        name="challenge-accept",
    ),
    re_path(
        rf"^challenges/{_ID}/join/?$", views.ChallengeJoinView.as_view(), name="challenge-join"
    ),
    re_path(
        rf"^challenges/{_ID}/leave/?$", views.ChallengeLeaveView.as_view(), name="challenge-leave"
    ),
    re_path(
        rf"^challenges/{_ID}/decline/?$",
        views.ChallengeDeclineView.as_view(),
        name="challenge-decline",
    ),
    re_path(
        rf"^challenges/{_ID}/cancel/?$",
        views.ChallengeCancelView.as_view(),
        name="challenge-cancel",
    ),
    re_path(
        r"^games/(?P<pk>[0-9]+)/rematch/?$", views.GameRematchView.as_view(), name="game-rematch"
    ),
]
