from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registers the OpenAPI description of the API-token authentication class.
        from games.accounts import schema  # noqa: F401
        from games.bots import services as bots
        from games.play.signals import turn_started

        turn_started.connect(bots.on_turn_started, dispatch_uid="games.bots.turn_started")
