from django.apps import AppConfig


class WebConfig(AppConfig):
    """The pages a person opens in a browser (server-rendered templates, small scripts)."""

    name = "web"
    label = "web"
