"""The house rules of the layout (README, "For contributors"), checked on the tree itself.

import-linter (``make imports``) keeps the layers and forbids cycles inside halgate; these
tests keep what it cannot see: sizes, unique public names, every folder under a contract,
and the dashboard (a separate folder) importing only the public API.
"""

from __future__ import annotations

import ast
import importlib
import tomllib
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORE = REPO / "core"
DASHBOARD = REPO / "dashboard"
MAX_TOP_FILES = 12
MAX_MODULES_PER_FOLDER = 15
MAX_LINES = 400


def _modules(*roots: Path) -> list[Path]:
    return sorted(p for root in roots for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def test_core_top_level_is_small():
    files = [p.name for p in CORE.iterdir() if p.is_file() and p.suffix == ".py"]
    assert len(files) <= MAX_TOP_FILES, sorted(files)


def test_no_folder_holds_more_than_15_modules():
    by_folder: dict[Path, list[str]] = defaultdict(list)
    for p in _modules(CORE, DASHBOARD, REPO / "tests"):
        if p.name != "__init__.py":
            by_folder[p.parent].append(p.name)
    crowded = {str(k.relative_to(REPO)): len(v) for k, v in by_folder.items()}
    crowded = {k: n for k, n in crowded.items() if n > MAX_MODULES_PER_FOLDER}
    assert crowded == {}


def test_no_module_over_400_lines():
    lines = {
        str(p.relative_to(REPO)): len(p.read_text(encoding="utf-8").splitlines())
        for p in _modules(CORE, DASHBOARD, REPO / "tests")
    }
    assert {name: n for name, n in lines.items() if n > MAX_LINES} == {}


def test_no_two_public_functions_or_classes_share_a_name():
    where: dict[str, list[str]] = defaultdict(list)
    for p in _modules(CORE, DASHBOARD):
        for node in ast.parse(p.read_text(encoding="utf-8")).body:
            defines = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
            if isinstance(node, defines) and not node.name.startswith("_"):
                where[node.name].append(str(p.relative_to(REPO)))
    assert {name: files for name, files in where.items() if len(files) > 1} == {}


def test_every_part_of_halgate_is_in_the_layers_contract():
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")
    named = {
        part.strip() for layer in layers["layers"] for part in layer.replace(":", "|").split("|")
    }
    parts = {p.name for p in CORE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    parts |= {p.stem for p in CORE.glob("*.py") if p.name != "__init__.py"}
    assert parts == named
    assert any(c["type"] == "acyclic_siblings" and c["ancestors"] == ["halgate"] for c in contracts)


def _public(module: str) -> set[str]:
    return set(getattr(importlib.import_module(module), "__all__", ()))


def test_dashboard_imports_only_the_public_api():
    """`from halgate import X` or from a package's __init__ listing X in __all__."""
    private = []
    for p in _modules(DASHBOARD):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                mods = [(a.name, None) for a in node.names if a.name.startswith("halgate")]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("halgate"):
                mods = [(node.module, a.name) for a in node.names]
            else:
                continue
            for module, name in mods:
                if module.startswith("halgate.dashboard"):
                    continue
                spec_is_package = hasattr(importlib.import_module(module), "__path__")
                if name is None or not spec_is_package or name not in _public(module):
                    private.append(f"{p.relative_to(REPO)}: {module}.{name}")
    assert private == []
