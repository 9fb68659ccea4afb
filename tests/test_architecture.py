"""models_lib is pure numerics: it must never import Django, DRF, Celery or the app."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FORBIDDEN = ("django", "rest_framework", "celery", "sizing", "config", "drf_spectacular")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", sorted((REPO / "models_lib").rglob("*.py")), ids=lambda p: p.name)
def test_models_lib_module_imports_no_framework(path: Path) -> None:
    bad = [name for name in _imports(path) if name.split(".")[0] in FORBIDDEN]
    assert bad == [], f"{path.relative_to(REPO)} imports {bad}"


def test_importing_models_lib_loads_no_framework() -> None:
    code = (
        "import sys, importlib, pkgutil, models_lib\n"
        "for m in pkgutil.walk_packages(models_lib.__path__, 'models_lib.'): importlib.import_module(m.name)\n"
        f"bad = sorted(n for n in sys.modules if n.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
