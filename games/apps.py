from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_save

        from accounts.selectors import PLAYER_PAGE_EXTRAS
        from accounts.signals import account_deleted
        from games.accounts import selectors as accounts_selectors
        from games.accounts import services as accounts_services
        from games.bots import services as bots
        from games.challenges import services as challenges
        from games.notifications import services as notifications
        from games.play.signals import turn_due, turn_started
        from games.records import fingerprints

        account_deleted.connect(
            accounts_services.on_account_deleted, dispatch_uid="games.accounts.account_deleted"
        )
        if accounts_selectors.player_page_games not in PLAYER_PAGE_EXTRAS:
            PLAYER_PAGE_EXTRAS.insert(0, accounts_selectors.player_page_games)
        turn_started.connect(bots.on_turn_started, dispatch_uid="games.bots.turn_started")
        turn_due.connect(bots.on_turn_due, dispatch_uid="games.bots.turn_due")
        fingerprints.connect()
        notifications.connect()  # the e-mails of turns, challenges and ended games
        post_save.connect(
            challenges.on_user_saved,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="games.challenges.user_saved",
        )
