"""The cache key covers the code the rows are made by: a benchmark's row modules and every module of ours they
import, read from their imports. Editing ``chronological``, a validate rule or the catalogue keeps every cache;
editing a records module gives its benchmark a new key, and only its."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from himga.cache import row_files
from himga.catalog import CATALOG

ROOT = Path(__file__).resolve().parents[2]

#: Run in a copy of the sources: prints {edited file: {benchmark: code_hash}} for each edit in argv.
_HASHES = """
import json, sys
from pathlib import Path
from himga.cache import code_hash
from himga.catalog import CATALOG
out = {}
for edit in [None, *sys.argv[1:]]:
    if edit is not None:
        with open(edit, "a", encoding="utf-8") as f:
            f.write("\\n# an edit\\n")
    code_hash.cache_clear()
    out[edit or ""] = {name: code_hash(entry) for name, entry in CATALOG.items()}
print(json.dumps(out))
"""


def _hashes_after_edits(tmp_path: Path, edits: list[str]) -> dict[str, dict[str, str]]:
    copy = tmp_path / "copy"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "README.md")
    shutil.copytree(ROOT / "src", copy / "src", ignore=ignore)
    for package in sorted(ROOT.glob("himga_*/__init__.py")):
        shutil.copytree(package.parent, copy / package.parent.name, ignore=ignore)
    env = {**os.environ, "PYTHONPATH": f"{copy / 'src'}{os.pathsep}{copy}"}
    script = [sys.executable, "-c", _HASHES, *[str(copy / e) for e in edits]]
    result = subprocess.run(script, env=env, cwd=copy, capture_output=True, text=True, check=True)
    hashes = json.loads(result.stdout)
    return {edit.removeprefix(str(copy) + os.sep): keys for edit, keys in hashes.items()}


def test_editing_a_helper_or_a_rule_keeps_every_key_and_a_records_module_changes_its_own(tmp_path):
    edits = [
        "src/himga/schema/helpers.py",  # chronological
        "himga_locomo/validate_rules.py",
        "himga_longmemeval/validate_rules.py",
        "src/himga/validate.py",
        "src/himga/catalog/__init__.py",
        "src/himga/scoring/report/_official.py",
        "himga_locomo/source_record.py",  # rebuilds the source record from a Sample: shapes no row
        "himga_locomo/gold_report.py",
        "himga_locomo_plus/judge.py",  # the scorer
        "himga_realtalk/validate_rules.py",
        "himga_longmemeval/records.py",
        "himga_locomo/records.py",
        "himga_locomo/qa_records.py",
    ]
    hashes = _hashes_after_edits(tmp_path, edits)
    before = hashes[""]
    for unchanged in edits[:10]:
        assert hashes[unchanged] == before, unchanged
    assert hashes["himga_longmemeval/records.py"]["locomo"] == before["locomo"]
    assert hashes["himga_longmemeval/records.py"]["longmemeval"] != before["longmemeval"]
    assert (
        hashes["himga_locomo/records.py"]["locomo"] != before["locomo"]
    )  # edits accumulate: LongMemEval's changed above
    for family in ("locomo_plus", "realtalk"):  # LoCoMo's record rules are theirs: one edit, three new keys
        assert hashes["himga_locomo/records.py"][family] != before[family]
    assert (
        hashes["himga_locomo/qa_records.py"]["locomo"] != hashes["himga_locomo/records.py"]["locomo"]
    )  # the QA rules shape rows too


def test_the_key_covers_the_row_modules_and_what_they_import():
    names = {name: {p.relative_to(ROOT).as_posix() for p in row_files(entry)} for name, entry in CATALOG.items()}
    locomo = {
        "himga_locomo/locomo.py",
        "himga_locomo/records.py",
        "himga_locomo/qa_records.py",
        "himga_locomo/gold.py",
        "himga_locomo/pins.py",
        "himga_locomo/options.py",
    }  # the pins and the options the builder's config derives from
    own = {
        "locomo": locomo,
        "longmemeval": {
            "himga_longmemeval/longmemeval.py",
            "himga_longmemeval/records.py",
            "himga_longmemeval/folder.py",
            "himga_longmemeval/pins.py",
        },
        "beam": {
            "himga_beam/beam.py",
            "himga_beam/records.py",
            "himga_beam/layout.py",
            "himga_beam/manifest.py",
            "himga_beam/pins.py",
        },
        "locomo_plus": locomo
        | {
            "himga_locomo_plus/locomo_plus.py",
            "himga_locomo_plus/records.py",
            "himga_locomo_plus/pins.py",
            "himga_locomo_plus/options.py",
        },  # LoCoMo's rules are its own
        "realtalk": locomo | {"himga_realtalk/realtalk.py", "himga_realtalk/records.py", "himga_realtalk/pins.py"},
        "personamem": {
            "himga_personamem/personamem.py",
            "himga_personamem/records.py",
            "himga_personamem/layout.py",
            "himga_personamem/pins.py",
        },  # the CSV reader is himga.sources' (its content fingerprint)
    }
    reading = {
        "src/himga/jsonio/reader.py",
        "src/himga/jsonio/jsonlines.py",
        "src/himga/jsonio/compressed.py",
        "src/himga/jsonio/_duplicate_keys.py",
        "src/himga/jsonio/_depth.py",
        "src/himga/jsonio/rawcell.py",
        "src/himga/schema/sample.py",
        "src/himga/schema/features.py",
        "src/himga/cache/_arrow_batches.py",
        "src/himga/errors.py",
    }
    streams_no_lines = {"beam": {"src/himga/jsonio/jsonlines.py"}}  # BEAM reads JSON only, no JSON Lines
    for name, files in names.items():
        assert own[name] | (reading - streams_no_lines.get(name, set())) <= files
        assert {f for f in files if f.startswith("himga_")} == own[
            name
        ]  # no other builder folder, no card, no validate rule
        assert not files & {
            "src/himga/schema/helpers.py",
            "src/himga/validate.py",
            "src/himga/catalog/__init__.py",
            "src/himga/scoring/report/_official.py",
            "src/himga/data/loaders.py",
        }


def test_the_import_pattern_finds_every_import_a_whole_module_parse_finds():
    """The key's import scan (a pattern, then each match parsed alone) against ``ast.walk`` over each whole module of
    ours: every import statement, at top level or inside a function, is found (one more is safe, one less would
    leave a file out of the key)."""
    import ast

    from himga.cache._key import _import_nodes

    files = sorted(ROOT.glob("src/himga/**/*.py")) + sorted(ROOT.glob("himga_*/*.py"))
    assert len(files) > 150
    imports = 0
    for path in files:
        source = path.read_bytes()
        whole = {ast.dump(n) for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.Import, ast.ImportFrom))}
        found = {ast.dump(n) for n in _import_nodes(source)}
        assert whole <= found, (path, whole - found)
        imports += len(whole)
    assert imports > 1000


def test_the_import_pattern_reads_the_forms_python_allows():
    from himga.cache._key import _import_nodes

    source = b'''"""A docstring that says
import the file, then
from here import what is needed.
"""
import a.b as c, d
from .e import f  # a comment
from ..g import (h,
    i as j,  # a comment
)
def k():
    from l.m import n; import o
'''
    names = [
        (
            type(n).__name__,
            getattr(n, "module", None),
            n.level if hasattr(n, "level") else None,
            [a.name for a in n.names],
        )
        for n in _import_nodes(source)
    ]
    assert names == [
        ("Import", None, None, ["a.b", "d"]),
        ("ImportFrom", "e", 1, ["f"]),
        ("ImportFrom", "g", 2, ["h", "i"]),
        ("ImportFrom", "l.m", 0, ["n"]),
        ("Import", None, None, ["o"]),
    ]
