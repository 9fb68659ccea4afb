"""``manage.py local_account``: the first-run account of ``make run`` (embedded default only)."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from sizing.services.local_account import local_account_ensure


class Command(BaseCommand):
    help = "On the embedded default, create a local account if there is none and print how to sign in."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000/", help="Where the server will answer.")

    def handle(self, *args: object, **options: object) -> None:
        url = str(options["url"])
        if not settings.ZSIZER_LOCAL_ACCOUNT:
            self.stdout.write(f"zsizer on {url}  (no local account: not the embedded default; see `make user`)")
            return
        account = local_account_ensure(path=Path(settings.ZSIZER_LOCAL_ACCOUNT_FILE))
        lines = ["", f"  zsizer is starting on {url}"]
        if account.username and account.password:
            lines.append(f"  Sign in with  user: {account.username}  password: {account.password}")
        elif account.username:
            lines.append(f"  Sign in as {account.username}: {account.note}")
        else:
            lines.append(f"  Sign in: {account.note}")
        if account.password:
            lines.append(f"  (local account {account.note}; printed again on each start)")
        self.stdout.write("\n".join([*lines, ""]))
