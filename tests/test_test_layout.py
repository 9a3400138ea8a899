"""Any combination of test folders collects in one pytest call: helpers are imported from ``tests/helpers/``
under names of their own, never ``from conftest import`` (every folder's conftest is a module called
``conftest``, so such an import gets whichever folder's was loaded last)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_test_module_imports_from_a_conftest():
    bad = []
    for path in TESTS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.module]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            if "conftest" in names:
                bad.append(f"{path.relative_to(TESTS)}:{node.lineno}")
    assert bad == []


def test_folders_with_a_conftest_collect_together():
    folders = sorted(str(p.parent.relative_to(TESTS.parent)) for p in TESTS.glob("*/conftest.py"))
    assert folders == ["tests/cache", "tests/scoring"]
    for order in (folders + ["tests/errors"], ["tests/errors", *reversed(folders)]):
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *order],
            capture_output=True,
            text=True,
            cwd=TESTS.parent,
            timeout=300,
        )
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
        assert " error" not in result.stdout.splitlines()[-1]
