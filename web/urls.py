from django.urls import path

from web.views import (
    account,
    database,
    explorer,
    home,
    imports,
    leaderboards,
    play,
    players,
    tournaments,
)

app_name = "web"

urlpatterns = [
    path("", home.home, name="home"),
    path("signup/", account.signup, name="signup"),
    path("login/", account.signin, name="login"),
    path("logout/", account.signout, name="logout"),
    path("password-reset/", account.password_reset, name="password-reset"),
    path(
        "reset/<str:uidb64>/<str:token>/",
        account.password_reset_confirm,
        name="password-reset-confirm",
    ),
    path("confirm-email/<str:uidb64>/<str:token>/", account.email_confirm, name="email-confirm"),
    path("settings/", account.settings_page, name="settings"),
    path("unsubscribe/<str:token>/", account.unsubscribe, name="unsubscribe"),
    path("play/", play.new_game, name="play"),
    path("play/guest/", account.play_as_guest, name="play-guest"),
    path("games/<int:pk>/", play.game_page, name="game"),
    path("players/<str:username>/", players.player_page, name="player"),
    path("leaderboards/", leaderboards.leaderboard_page, name="leaderboards"),
    path("tournaments/", tournaments.tournament_list_page, name="tournaments"),
    path("tournaments/new/", tournaments.tournament_new_page, name="tournament-new"),
    path("tournaments/<int:pk>/", tournaments.tournament_page, name="tournament"),
    path("database/", database.database_page, name="database"),
    path("database/explorer/", explorer.explorer_page, name="explorer"),
    path("database/import/", imports.import_page, name="import"),
]
