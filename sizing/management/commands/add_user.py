"""``manage.py add_user [--admin]`` (``make user``): a sign-in for one more person.

It asks for the name and the password on a terminal (the password twice, not echoed) and makes
an ordinary user, an engineer who sizes and keeps their own estimates; ``--admin`` (``make user
ADMIN=1``) makes a superuser, who may also edit the reference data in /admin/.  Without a
terminal there is no one to ask: it says so in a sentence and exits non-zero, creating nothing.
"""

from __future__ import annotations

import getpass
import sys
from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

NO_TERMINAL = (
    "make user asks for a name and a password on a terminal, and there is none here (standard input "
    "is not a terminal); run it in a terminal. Nothing was created."
)


class Command(BaseCommand):
    help = "Create a user (asks for a name and a password); --admin makes a superuser."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--admin", action="store_true", help="A superuser, who may edit reference data.")

    def handle(self, *args: Any, **options: Any) -> None:
        if not sys.stdin.isatty():
            raise CommandError(NO_TERMINAL)
        admin = bool(options["admin"])
        username = self._ask_name()
        password = self._ask_password(User(username=username))
        if admin:
            User.objects.create_superuser(username=username, password=password)
        else:
            User.objects.create_user(username=username, password=password)
        kind = "an administrator (may edit reference data in /admin/)" if admin else "an engineer"
        self.stdout.write(f"Created {username}, {kind}. Sign in at /login/.")

    def _ask_name(self) -> str:
        while True:
            username = input("User name: ").strip()
            if not username:
                self.stderr.write("A user name is needed.")
            elif User.objects.filter(username=username).exists():
                self.stderr.write(f"{username} exists already; choose another name.")
            elif len(username) > 150:
                self.stderr.write("At most 150 characters.")
            else:
                return username

    def _ask_password(self, user: User) -> str:
        while True:
            password = getpass.getpass("Password: ")
            if password != getpass.getpass("Password (again): "):
                self.stderr.write("The two passwords differ; type it again.")
                continue
            try:
                validate_password(password, user)
            except ValidationError as exc:
                self.stderr.write(" ".join(exc.messages))
                continue
            return password
