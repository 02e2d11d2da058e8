from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The OpenAPI description of the API-token authentication class.
        from accounts import schema  # noqa: F401
