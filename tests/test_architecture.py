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
    "saturation_ranges", "scope", "answer_parts", "answer_curves", "answer_json", "workload", "decision_group",
    "answer_basis", "fastinit",
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


# -- no import cycle between services, selectors, jobs and reports --------------------------------

CYCLE_LAYERS = ("services", "selectors", "jobs", "reports")


def _module_name(path: Path) -> str:
    name = ".".join(path.relative_to(REPO).with_suffix("").parts)
    return name.removesuffix(".__init__")


def _import_graph(paths: list[Path]) -> dict[str, set[str]]:
    """Module -> the modules of ``paths`` it imports (at the top or lazily, ``from sizing.x import y``
    counted as the longest known module of the name)."""
    names = {_module_name(p): p for p in paths}
    graph: dict[str, set[str]] = {m: set() for m in names}
    for module, path in names.items():
        for name in _sizing_imports(path):
            while name and name not in names:
                name = name.rpartition(".")[0]
            if name and name != module:
                graph[module].add(name)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan 1972), iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_services_selectors_jobs_and_reports_import_no_cycle() -> None:
    paths = sorted(p for layer in CYCLE_LAYERS for p in (REPO / "sizing" / layer).rglob("*.py"))
    assert _cycles(_import_graph(paths)) == []


def test_cycle_check_finds_a_lazy_cycle(tmp_path: Path) -> None:
    # The check itself: a.py imports b at the top, b.py imports a inside a function.
    (tmp_path / "sizing").mkdir()
    a, b, c = (tmp_path / "sizing" / f"{n}.py" for n in "abc")
    a.write_text("from sizing.b import f\n")
    b.write_text("def f():\n    from sizing import a\n")
    c.write_text("import sizing.a\n")
    names = {p: f"sizing.{p.stem}" for p in (a, b, c)}
    graph = {names[p]: set() for p in names}
    for p, module in names.items():
        for name in _sizing_imports(p):
            if name in graph and name != module:
                graph[module].add(name)
    assert _cycles(graph) == [["sizing.a", "sizing.b"]]


# -- no queueing or sampling numerics under sizing/ ----------------------------------------------

#: What only models_lib computes with: queues (Erlang C, MVA), the pool split, sampling, SciPy
#: (a module, or a name imported from anywhere in models_lib).
NUMERICS = ("models_lib.queueing", "scipy", "numpy.random")
NUMERIC_NAMES = ("erlang_c", "erlang_c_array", "mva", "split_pools", "split_pools_array", "specialty_engines")


def _numeric_imports(path: Path) -> list[str]:
    bad = [n for n in _imports(path) if any(n == m or n.startswith(f"{m}.") for m in NUMERICS)]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            bad.extend(f"{node.module}.{a.name}" for a in node.names if a.name in NUMERIC_NAMES)
        elif isinstance(node, ast.Attribute) and node.attr == "random" and getattr(node.value, "id", "") == "np":
            bad.append("np.random")
    return bad


@pytest.mark.parametrize(
    "path", sorted(p for p in (REPO / "sizing").rglob("*.py") if "migrations" not in p.parts), ids=lambda p: p.name
)
def test_sizing_holds_no_queueing_or_sampling_numerics(path: Path) -> None:
    # The job kinds, services and selectors call models_lib (models_lib.curve, .closed,
    # .montecarlo, .mix, .optimize, the workload model); they queue and sample nothing themselves.
    allowed = {"np.random"} if path.name == "montecarlo.py" else set()  # a job draws its seed
    bad = [n for n in _numeric_imports(path) if n not in allowed]
    assert bad == [], f"{path.relative_to(REPO)} imports {bad}"


def test_numerics_check_sees_a_queue(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import numpy as np\nfrom models_lib.response import erlang_c_array\nx = np.random.default_rng()\n"
    )
    assert _numeric_imports(module) == ["models_lib.response.erlang_c_array", "np.random"]


# -- one place calls the engine ------------------------------------------------------------------

#: The engine's entry points: ``size()`` and ``prepare()`` (``size`` is ``prepare(...).answer(...)``).
ENGINE_MODULES = ("models_lib.sizing", "models_lib.prepared")
ENGINE_NAMES = ("size", "prepare")

#: The one module of the app that evaluates a scenario (``sizing.selectors.scenario`` prepares
#: it); every estimate, fit, upgrade, batch row, job, chart, page and PDF goes through it.
ENGINE_CALLERS = ("sizing/services/scenario.py",)


def _engine_calls(path: Path) -> list[str]:
    """The engine entry points ``path`` can call: ``size``/``prepare`` imported from an engine
    module, an engine module imported whole (``import models_lib.sizing``, ``from models_lib
    import sizing``), at the top or inside a function."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.extend(a.name for a in node.names if a.name in ENGINE_MODULES)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            if node.module in ENGINE_MODULES:
                found.extend(f"{node.module}.{a.name}" for a in node.names if a.name in ENGINE_NAMES)
            elif node.module == "models_lib":
                found.extend(f"models_lib.{a.name}" for a in node.names if f"models_lib.{a.name}" in ENGINE_MODULES)
    return found


@pytest.mark.parametrize(
    "path",
    sorted(p for p in (REPO / "sizing").rglob("*.py") if "migrations" not in p.parts),
    ids=lambda p: str(p.relative_to(REPO / "sizing")),
)
def test_only_the_scenario_service_calls_the_engine(path: Path) -> None:
    # A second caller would repeat the set-up (the fits, the other component's cost, the target)
    # and compute the answer a second time; it asks sizing.services.scenario instead.
    if path.relative_to(REPO).as_posix() in ENGINE_CALLERS:
        assert _engine_calls(path) != []  # the check still sees the one caller
        return
    assert _engine_calls(path) == [], f"{path.relative_to(REPO)} calls the engine itself"


def test_engine_call_check_sees_every_import_form(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import models_lib.sizing\nfrom models_lib import sizing\nfrom models_lib.sizing import WARNING_CODES\n"
        "def f():\n    from models_lib.prepared import prepare\n    from models_lib.sizing import size\n"
    )
    assert _engine_calls(module) == [
        "models_lib.sizing",
        "models_lib.sizing",
        "models_lib.prepared.prepare",
        "models_lib.sizing.size",
    ]


# -- one typed record: no string-key read of a served answer outside its boundary -------------

#: Where an answer may be a dict read by key: the JSON, storage and cache boundary.  The record
#: reads stored JSON (``EstimateRecord.from_dict``); the API's serializers and schema describe the
#: JSON; the scenario service and the reference caches keep the served answer; the models store it.
ANSWER_BOUNDARY = (
    "sizing/records.py",
    "sizing/api/estimate_serializers.py",
    "sizing/api/result_schema.py",
    "sizing/api/job_serializers.py",
    "sizing/services/scenario.py",
    "sizing/selectors/fitted.py",
    "sizing/models.py",
)
#: The surfaces that receive an answer (an estimate, a job's or a plan's result) and turn it into
#: what a person or a spreadsheet reads.  Each reads attributes of the typed records
#: (``sizing.records``: the estimate, its chart data, a fit answer, a job's result per kind, a
#: plan's answer), never the served JSON by key.
ANSWER_SURFACES = (
    "sizing/api/estimate_views.py",
    "sizing/api/formats.py",
    "sizing/api/renderers.py",
    "sizing/jobs/batch.py",
    "sizing/presentation.py",
    "sizing/reports/estimate.py",
    "sizing/reports/jobs.py",
    "sizing/reports/plan.py",
    "sizing/reports/plan_cec.py",
    "sizing/reports/document.py",
    "sizing/reports/plots.py",
    "sizing/selectors/report_basis.py",
    "sizing/services/charts.py",
    "sizing/services/estimate_csv.py",
    "sizing/services/estimates.py",
    "sizing/services/fit.py",
    "sizing/services/reports.py",
    "sizing/views.py",
)


def _answer_keys() -> frozenset[str]:
    """The keys of a served answer: the record's top-level keys and its blocks' field names."""
    import dataclasses

    from sizing import records

    keys = set(records.ANSWER_KEYS) | {"inputs", "model_version"}
    for block in (records.CpuPerTranRecord, records.BusyRecord, records.ResponseRecord, records.FeasibilityRecord,
                  records.BindingRecord, records.BasisRecord, records.ShareRecord, records.ProjectionRecord,
                  records.FitRecord, records.WarningRecord):  # fmt: skip
        keys |= {f.name for f in dataclasses.fields(block) if f.name != "json"}
    # field names that are also ordinary words of other dicts (a fit's "n", a warning's "code")
    return frozenset(keys - {"json", "n", "code", "message", "level"})


def _string_key_reads(source: str, keys: frozenset[str]) -> list[str]:
    """``x.get("key")`` and ``x["key"]`` (read, not written) with ``key`` an answer's key."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value in keys
        ):
            found.append(f"line {node.lineno}: .get({node.args[0].value!r})")
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Load)
            and isinstance(node.slice, ast.Constant)
            and node.slice.value in keys
        ):
            found.append(f"line {node.lineno}: [{node.slice.value!r}]")
    return found


@pytest.mark.parametrize("name", ANSWER_SURFACES)
def test_surfaces_read_the_typed_record_not_the_answers_json(name: str) -> None:
    assert name not in ANSWER_BOUNDARY
    reads = _string_key_reads((REPO / name).read_text(encoding="utf-8"), _answer_keys())
    assert reads == [], f"{name} reads the served answer by key: {reads}"


def test_the_boundary_modules_exist() -> None:
    for name in (*ANSWER_BOUNDARY, *ANSWER_SURFACES):
        assert (REPO / name).is_file(), name


def test_string_key_check_sees_get_and_subscript_reads_not_writes() -> None:
    source = 'a = d.get("cps_required")\nb = d["feasibility"]["max_tps"]\nd["cps"] = 1\nc = d.get("other")\n'
    reads = _string_key_reads(source, frozenset({"cps_required", "feasibility", "max_tps", "cps"}))
    assert reads == ["line 1: .get('cps_required')", "line 2: ['max_tps']", "line 2: ['feasibility']"]


def test_mypy_strict_covers_the_records() -> None:
    import tomllib

    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True and "sizing" in config["files"]
    overrides = config.get("overrides", [])
    assert not any("sizing.records" in str(o.get("module")) for o in overrides)


# -- one registry of output formats ---------------------------------------------------------------

#: Names of the output formats (sizing/api/formats.py FORMATS) besides JSON.
FORMAT_NAMES = frozenset({"csv", "xlsx", "pdf"})


def _format_comparisons(source: str) -> list[str]:
    """``x == "csv"``, ``x != "pdf"``, ``x in ("csv", ...)``: a view choosing a format by its name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        for operand in (node.left, *node.comparators):
            names = [operand] if isinstance(operand, ast.Constant) else getattr(operand, "elts", [])
            for const in names:
                if isinstance(const, ast.Constant) and const.value in FORMAT_NAMES:
                    found.append(f"line {node.lineno}: {const.value!r}")
    return found


@pytest.mark.parametrize(
    "path",
    sorted(p for p in (REPO / "sizing" / "api").glob("*.py") if p.name != "formats.py")
    + [REPO / "sizing" / "views.py"],
    ids=lambda p: p.name,
)
def test_views_choose_output_formats_through_the_registry(path: Path) -> None:
    assert _format_comparisons(path.read_text(encoding="utf-8")) == [], path.relative_to(REPO)


def test_format_check_sees_equality_and_membership() -> None:
    source = 'a = f == "csv"\nb = f in ("json", "pdf")\nc = f == "other"\n'
    assert _format_comparisons(source) == ["line 1: 'csv'", "line 2: 'pdf'"]
