from django.apps import AppConfig


class ExplorerConfig(AppConfig):
    name = "explorer"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from explorer import indexing

        indexing.connect()
