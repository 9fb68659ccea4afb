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


#: The longest a models_lib function may be: 60 statements (every ``ast.stmt`` in its body,
#: nested ones included, without its docstring); a call spread over several lines is one statement.
MAX_FUNCTION_STATEMENTS = 60


def _statements(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    body = node.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        body = body[1:]
    return sum(1 for stmt in body for sub in ast.walk(stmt) if isinstance(sub, ast.stmt))


@pytest.mark.parametrize("path", sorted((REPO / "models_lib").rglob("*.py")), ids=lambda p: p.name)
def test_models_lib_functions_are_short(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    long = {
        f"{node.name} (line {node.lineno})": n
        for node in ast.walk(ast.parse(source, filename=str(path)))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (n := _statements(node)) > MAX_FUNCTION_STATEMENTS
    }
    assert long == {}, f"{path.relative_to(REPO)}: split these into named steps: {long}"


def test_function_length_check_counts_statements_not_docstrings() -> None:
    # The check itself: a docstring, comments and a call over three lines do not count; the
    # ``if`` and the statement inside it count 2, so this function counts 5.
    source = (
        'def f():\n    """Doc.\n\n    More.\n    """\n    # why\n    a = 1\n\n    b = g(\n        a,\n    )\n'
        "    if a:\n        a = 2\n    return a + b\n"
    )
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.FunctionDef)
    assert _statements(node) == 5


#: models_lib/sizing.py was split into steps that say what they do; none of its modules is long.
SIZING_STEP_MODULES = (
    "sizing", "prepared", "prepare_inputs", "decision", "answer", "answer_build", "checks", "choice",
    "cost_basis", "cost_bounds", "evaluation", "native_cost", "payload_step", "response_step",
    "saturation_ranges", "scope", "answer_parts", "answer_curves", "workload",
)  # fmt: skip


@pytest.mark.parametrize("name", SIZING_STEP_MODULES)
def test_sizing_step_modules_are_at_most_about_400_lines(name: str) -> None:
    lines = (REPO / "models_lib" / f"{name}.py").read_text(encoding="utf-8").count("\n")
    assert lines <= 420, f"models_lib/{name}.py has {lines} lines"


# -- layers of the app: api/views/tasks -> jobs -> services/selectors -> models_lib ------------

#: What the business layer must not import: the HTTP layer and the Celery tasks that call it.
UPPER_LAYERS = ("sizing.api", "sizing.views", "sizing.tasks")


def _sizing_imports(path: Path) -> list[str]:
    """Every module ``path`` imports, at the top or inside a function, ``from sizing import x``
    counted as ``sizing.x``."""
    names = _imports(path)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module == "sizing" and node.level == 0:
            names.extend(f"sizing.{alias.name}" for alias in node.names)
    return names


BUSINESS_MODULES = sorted(
    p for layer in ("services", "selectors", "jobs") for p in (REPO / "sizing" / layer).rglob("*.py")
)


@pytest.mark.parametrize("path", BUSINESS_MODULES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_services_selectors_and_jobs_import_no_api_views_or_tasks(path: Path) -> None:
    # Job kinds call services (not API serializers); services do not import the tasks that call them.
    bad = [n for n in _sizing_imports(path) if any(n == u or n.startswith(f"{u}.") for u in UPPER_LAYERS)]
    assert bad == [], f"{path.relative_to(REPO)} imports {bad}"


def test_layer_check_sees_lazy_and_from_package_imports(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from sizing.tasks import run_job\n    from sizing import api\n")
    assert _sizing_imports(module) == ["sizing.tasks", "sizing", "sizing.api"]
