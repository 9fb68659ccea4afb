"""Words explained (issue 28 item 6): one glossary for docs/glossary.md and the pages; `make user`
asks or says why it cannot; signing in lands on the sizing page; the public login page names no
server path."""

from __future__ import annotations

import builtins
import getpass
import html
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from sizing import glossary

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db

#: The words issue 28 names a newcomer meeting unexplained.
NAMED = ("ETR", "GCP", "CP", "zIIP", "zAAP", "MIPS", "MSU", "LSPR", "knee", "software station", "binding resource")
NAMED += ("LPAR", "CEC", "ICF", "sub-capacity", "peak-to-average")


def test_docs_glossary_is_the_pages_glossary() -> None:
    assert (REPO / "docs" / "glossary.md").read_text(encoding="utf-8") == glossary.markdown()
    for name in NAMED:
        assert glossary.term(name).definition.endswith(".")


def _tips(page: str) -> dict[str, tuple[str, str]]:
    """word -> (its tooltip's id, its definition) for every glossary word on a page."""
    found = {}
    pattern = r'<span class="term" tabindex="0" data-term="([^"]+)" aria-describedby="([^"]+)">[^<]*'
    pattern += r'<span class="term-tip" role="tooltip" id="([^"]+)">([^<]*)</span></span>'
    for name, described_by, tip_id, text in re.findall(pattern, page):
        assert described_by == tip_id
        found[name] = (tip_id, html.unescape(text))
    return found


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("workbench", {"ETR", "GCP", "zIIP", "MIPS", "MSU", "LSPR", "LPAR", "knee", "saturation"}),
        ("lspr", {"LSPR", "sub-capacity", "CP", "MIPS"}),
        ("plans", {"peak-to-average", "LPAR", "MSU"}),
    ],
)
def test_pages_define_their_words_from_the_glossary(client: Any, user: Any, url: str, words: set[str]) -> None:
    client.force_login(user)
    page = client.get(reverse(url)).content.decode()
    tips = _tips(page)
    assert words <= set(tips), words - set(tips)
    for name, (_, text) in tips.items():
        assert text == glossary.term(name).sentence
    ids = [tip_id for tip_id, _ in tips.values()]
    assert len(ids) == len(set(ids)) and len(re.findall(r'id="term-tip-', page)) == len(
        set(re.findall(r'id="(term-tip-\d+)"', page))
    )
    assert "zsizer/glossary.js" in page  # the tap (touch screens) and Escape


# -- sign in -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("asked", "lands"), [("/", "workbench"), ("", "workbench"), ("/plans/", "plans")])
def test_sign_in_lands_on_the_sizing_page_unless_another_page_was_asked(
    client: Any, user: Any, asked: str, lands: str
) -> None:
    login = reverse("login") + (f"?next={asked}" if asked else "")
    response = client.post(login, {"username": "engineer", "password": "sizing-pass-1", "next": asked})
    assert response.status_code == 302 and response["Location"] == reverse(lands)


def test_an_anonymous_visit_to_the_site_signs_in_to_the_sizing_page(client: Any, user: Any) -> None:
    first = client.get("/")
    assert first.status_code == 302
    assert first["Location"] == reverse("login") + "?next=/"
    form = client.get(first["Location"]).content.decode()
    next_value = re.search(r'name="next" value="([^"]*)"', form)
    assert next_value is not None
    fields = {"username": "engineer", "password": "sizing-pass-1", "next": next_value.group(1)}
    response = client.post(first["Location"], fields)
    assert response["Location"] == reverse("workbench")


@override_settings(ZSIZER_LOCAL_ACCOUNT=True)
def test_the_public_login_page_names_no_server_path(client: Any) -> None:
    page = client.get(reverse("login")).content.decode()
    assert 'id="local-account-hint"' in page  # still says where the first-run password was printed
    for secret in {str(settings.BASE_DIR), str(settings.ZSIZER_LOCAL_ACCOUNT_FILE), str(REPO), "local-account.json"}:
        assert secret not in page


# -- make user -----------------------------------------------------------------------------------


def test_make_user_without_a_terminal_says_so_and_fails() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "add_user"], cwd=REPO, stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    assert result.returncode == 1
    assert "asks for a name and a password on a terminal" in result.stderr and "Nothing was created" in result.stderr


@pytest.mark.parametrize(("flag", "admin"), [((), False), (("--admin",), True)])
def test_make_user_asks_and_makes_an_engineer_unless_an_admin_is_asked(
    monkeypatch: pytest.MonkeyPatch, flag: tuple[str, ...], admin: bool
) -> None:
    """At a terminal (stdin a tty), the name read by input() and the password twice by getpass()."""
    answers = iter(["", "alice"])  # an empty name is asked again
    passwords = iter(["short", "short", "Tr0ub4dor-and-3", "Tr0ub4dor-and-3"])  # too short: asked again
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(answers))
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": next(passwords))
    call_command("add_user", *flag)
    alice = User.objects.get(username="alice")
    assert alice.check_password("Tr0ub4dor-and-3")
    assert (alice.is_staff, alice.is_superuser) == (admin, admin)
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert "manage.py add_user $(if $(ADMIN),--admin,)" in makefile and "createsuperuser" not in makefile
