from django.apps import AppConfig


class SizingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "sizing"
    verbose_name = "Sizing"

    def ready(self) -> None:
        # Registers run_job with the Celery app in every process (web and worker): the job
        # service sends it by name rather than importing sizing.tasks, which imports the service.
        from sizing import login_throttle, tasks  # noqa: F401 (login_throttle: its signal receivers)
        from sizing.selectors import price_books  # noqa: F401 (its signal receivers keep the cached books right)
