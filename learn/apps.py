from django.apps import AppConfig


class LearnConfig(AppConfig):
    name = "learn"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.signals import account_deleted
        from learn import services

        account_deleted.connect(services.on_account_deleted, dispatch_uid="learn.account_deleted")
