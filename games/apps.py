from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_save

        from games.bots import services as bots
        from games.challenges import services as challenges
        from games.notifications import services as notifications
        from games.play.signals import turn_started
        from games.records import fingerprints

        turn_started.connect(bots.on_turn_started, dispatch_uid="games.bots.turn_started")
        fingerprints.connect()
        notifications.connect()  # the e-mails of turns, challenges and ended games
        post_save.connect(
            challenges.on_user_saved,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="games.challenges.user_saved",
        )
