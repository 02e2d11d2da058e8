from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.play import positions
        from games.play.signals import sets_finished
        from tournaments import services, tasks

        sets_finished.connect(tasks.on_sets_finished, dispatch_uid="tournaments.sets_finished")
        if services.cancel_forbidden not in positions.CANCEL_FORBIDDEN_CHECKS:
            positions.CANCEL_FORBIDDEN_CHECKS.append(services.cancel_forbidden)
