from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.challenges.signals import ignore_asked, ignores_asked
        from games.clocks.signals import presence_asked
        from live import publishers, selectors

        publishers.connect()
        # The games' questions about ignore lists and who has a game open.
        ignore_asked.connect(selectors.on_ignore_asked, dispatch_uid="live.ignore_asked")
        ignores_asked.connect(selectors.on_ignores_asked, dispatch_uid="live.ignores_asked")
        presence_asked.connect(selectors.on_presence_asked, dispatch_uid="live.presence_asked")
