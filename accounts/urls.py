"""Accounts routes, relative to ``/api/``. Trailing slashes are optional."""

from django.urls import re_path

from accounts import views

urlpatterns = [
    re_path(r"^auth/register/?$", views.RegisterView.as_view(), name="auth-register"),
    re_path(r"^auth/login/?$", views.LoginView.as_view(), name="auth-login"),
    re_path(r"^auth/logout/?$", views.LogoutView.as_view(), name="auth-logout"),
    re_path(r"^auth/token/?$", views.TokenObtainView.as_view(), name="auth-token"),
    re_path(
        r"^auth/password-reset/?$", views.PasswordResetView.as_view(), name="auth-password-reset"
    ),
    re_path(
        r"^auth/password-reset/confirm/?$",
        views.PasswordResetConfirmView.as_view(),
        name="auth-password-reset-confirm",
    ),
    re_path(r"^auth/email-confirm/?$", views.EmailConfirmView.as_view(), name="auth-email-confirm"),
    re_path(r"^me/?$", views.MeView.as_view(), name="me"),
    re_path(
        r"^me/email-confirmation/?$",
        views.EmailConfirmationView.as_view(),
        name="me-email-confirmation",
    ),
    re_path(r"^me/delete/?$", views.AccountDeleteView.as_view(), name="me-delete"),
    re_path(r"^me/tokens/?$", views.TokenListCreateView.as_view(), name="me-tokens"),
    re_path(
        r"^me/tokens/(?P<token_id>[0-9]+)/?$",
        views.TokenDetailView.as_view(),
        name="me-token-detail",
    ),
    re_path(r"^players/?$", views.PlayerListView.as_view(), name="player-list"),
    re_path(
        r"^players/(?P<username>[\w.@+-]+)/?$",
        views.PlayerDetailView.as_view(),
        name="player-detail",
    ),
]
