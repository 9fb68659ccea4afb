"""``manage.py load_benchmarks``: load published reference data from benchmarks/."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from sizing.reference_format import ReferenceDataError
from sizing.services.reference_data import benchmarks_load


class Command(BaseCommand):
    help = "Validate and load the reference data files in benchmarks/ (idempotent, all or nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dir", default=str(settings.BENCHMARKS_DIR), help="Directory with the reference data files."
        )

    def handle(self, *args: object, **options: object) -> None:
        directory = Path(str(options["dir"]))
        if not directory.is_dir():
            raise CommandError(f"{directory} is not a directory.")
        try:
            report = benchmarks_load(directory=directory)
        except ReferenceDataError as exc:
            raise CommandError(f"Nothing was loaded. {exc}") from None
        if int(str(options.get("verbosity", 1))) >= 1:
            self.stdout.write(report.summary())
        self.stdout.write(self.style.SUCCESS(f"Loaded benchmarks from {directory}: {report.changed} row(s) changed."))
