from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from live import publishers

        publishers.connect()
