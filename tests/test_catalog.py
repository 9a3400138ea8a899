"""The catalogue is the one table of benchmarks: its entries resolve, and no module outside it
and the builder folders branches on a benchmark's name or resolves a builder by name."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from himga.catalog import AUXILIARY_FOLDERS, CATALOG, NAMES, benchmark, by_load_name, of_builder
from himga.errors import ConfigurationError
from himga.options import user_options
from himga.schema.relevance import LOCOMO, LONGMEMEVAL

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "src" / "himga" / "catalog"  # the package: the table of entries


#: The builder folders (top-level packages) of the catalogue's entries: ``himga_locomo``, ``himga_longmemeval``.
BUILDER_PACKAGES = {b.builder_module.partition(".")[0] for b in CATALOG.values()}


def _names_in(node: ast.AST) -> list[str]:
    """Benchmark names written as string constants in ``node`` (a constant, or a tuple/list/set of them)."""
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return [i.value for i in items if isinstance(i, ast.Constant) and i.value in NAMES]


def offences(source: str) -> list[str]:
    """Where ``source`` branches on a benchmark name (``x == "locomo"``, ``x in ("locomo", ...)``, a
    ``case "locomo":``, a dict keyed by benchmark names), calls ``builder_class(``, imports a builder folder
    (``from himga_locomo.gold_report import ...``: the entry names those modules) or writes a table of the
    catalogue's auxiliary folders (``("locomo-audit",)``: the entry's ``auxiliary`` holds them)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if bad := [m for m in modules if m.partition(".")[0] in BUILDER_PACKAGES]:
                found.append(f"line {node.lineno}: imports {bad[0]}")
        if isinstance(node, ast.Constant) and node.value in AUXILIARY_FOLDERS:
            found.append(f"line {node.lineno}: names the auxiliary folder {node.value!r}")
        if isinstance(node, ast.Compare) and any(_names_in(n) for n in (node.left, *node.comparators)):
            found.append(
                f"line {node.lineno}: compares with "
                f"{_names_in(node.left) or [n for c in node.comparators for n in _names_in(c)]}"
            )
        elif isinstance(node, ast.MatchValue) and _names_in(node.value):
            found.append(f"line {node.lineno}: case {_names_in(node.value)}")
        elif isinstance(node, ast.Dict) and any(k is not None and _names_in(k) for k in node.keys):
            found.append(f"line {node.lineno}: a table keyed by benchmark names")
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name == "builder_class":
                found.append(f"line {node.lineno}: builder_class(")
    return found


def test_no_module_outside_the_catalogue_and_the_builders_branches_on_a_benchmark_name():
    modules = [p for p in (ROOT / "src" / "himga").rglob("*.py") if not p.is_relative_to(CATALOGUE)]
    assert len(modules) > 20
    bad = {str(p.relative_to(ROOT)): o for p in modules if (o := offences(p.read_text(encoding="utf-8")))}
    assert bad == {}


def test_the_checker_finds_each_kind_of_branch():
    assert offences('if sample.dataset == "locomo": pass') == ["line 1: compares with ['locomo']"]
    assert offences('ok = name in ("longmemeval", "x")') == ["line 1: compares with ['longmemeval']"]
    assert offences('match name:\n    case "locomo":\n        pass') == ["line 2: case ['locomo']"]
    assert offences('T = {"locomo": 1}') == ["line 1: a table keyed by benchmark names"]
    assert offences("cls = builders.builder_class(name)") == ["line 1: builder_class("]
    assert offences("from himga_locomo.gold_report import audit_summary") == [
        "line 1: imports himga_locomo.gold_report"
    ]
    assert offences("import himga_longmemeval.records as r") == ["line 1: imports himga_longmemeval.records"]
    assert offences('AUXILIARY = ("locomo-audit",)') == ["line 1: names the auxiliary folder 'locomo-audit'"]
    assert offences('load("locomo")\nx = "longmemeval"') == []  # naming a benchmark is not branching on it


def test_every_entry_resolves():
    assert NAMES == ("locomo", "longmemeval", "beam", "locomo_plus", "realtalk", "personamem")
    locomo, lme = CATALOG["locomo"], CATALOG["longmemeval"]
    assert (locomo.builder.__name__, lme.builder.__name__) == ("Locomo", "Longmemeval")
    assert locomo.configs == ["default"]
    assert lme.configs == ["s", "m", "oracle", "s_original", "m_original", "oracle_original"]
    assert (locomo.default_config, lme.default_config) == ("default", "s")
    assert locomo.options == ("category_order", "adversarial_answer", "category3_answer", "gold", "errata")
    assert lme.options == ()
    assert (locomo.relevance_rule, lme.relevance_rule) == (LOCOMO, LONGMEMEVAL)
    assert list(locomo.validate_rules.KINDS)[0] == "malformed_evidence"
    assert locomo.notes.startswith("**Category mapping.**")
    assert lme.notes.startswith("**Question types.**")
    from himga.scoring import LOCOMO_SCORER, LONGMEMEVAL_SCORER

    assert (locomo.scorer, lme.scorer) == (LOCOMO_SCORER, LONGMEMEVAL_SCORER)
    assert list(locomo.golds) == ["published", "audited"] and lme.golds == {}
    assert (locomo.default_gold, lme.default_gold) == ("published", "published")
    assert locomo.gold_variants.__name__ == "himga_locomo.gold_report" and lme.gold_variants is None
    assert by_load_name("himga_longmemeval") is lme and by_load_name("squad") is None
    assert of_builder(lme.builder) is lme and of_builder(type(lme.builder)) is None


def test_locomo_family_entries_reuse_locomo_objects():
    locomo, plus, realtalk = CATALOG["locomo"], CATALOG["locomo_plus"], CATALOG["realtalk"]
    assert (plus.builder.__name__, realtalk.builder.__name__) == ("LocomoPlus", "Realtalk")
    assert plus.options == (*locomo.options, "placement", "placement_seed") and realtalk.options == ()
    assert plus.gold_variants is locomo.gold_variants and plus.auxiliary == locomo.auxiliary
    assert set(locomo.row_modules) <= set(plus.row_modules) and set(locomo.row_modules) <= set(realtalk.row_modules)
    assert plus.relevance_rule is LOCOMO and realtalk.relevance_rule.judge is not LOCOMO.judge
    assert [p.layout_path for p in plus.pin().parts] == ["data/locomo10.json", "data/locomo_plus.json"]
    assert (plus.pin().parts[0].sha256, plus.pin().parts[0].size) == (
        locomo.pin().sha256,
        locomo.pin().size,
    )  # the same bytes
    assert len(realtalk.pin().parts) == 10 and realtalk.pin().rows == 10
    assert (plus.scorer.name, realtalk.scorer.name) == ("locomo_plus", "realtalk")


def test_the_file_name_rule_is_one_function():
    lme = benchmark("longmemeval")
    assert lme.configs_named("longmemeval_oracle") == ["oracle", "oracle_original"]
    assert lme.configs_named("longmemeval_s.json") == ["s_original"]
    assert lme.configs_named("other.json") == []
    assert benchmark("locomo").configs_named("locomo10") == ["default"]
    assert lme.pin("m").local_names == ["longmemeval_m_cleaned.json", "longmemeval_m_cleaned"]
    assert lme.configs_named("longmemeval_oracle.jsonl") == ["oracle", "oracle_original"]


def test_the_file_rule_reads_a_file_or_a_folder(tmp_path):
    for name in ("b.json", "a.json", "longmemeval_oracle.json", ".hidden.json", "notes.txt"):
        (tmp_path / name).write_text("[]")
    assert [p.name for p in benchmark("locomo").source_files(None, tmp_path)] == [
        "a.json",
        "b.json",
        "longmemeval_oracle.json",
    ]
    assert [p.name for p in benchmark("longmemeval").source_files("oracle", tmp_path)] == ["longmemeval_oracle.json"]
    assert benchmark("longmemeval").source_files("s", tmp_path) == []
    assert benchmark("longmemeval").source_files("s", tmp_path / "a.json") == [tmp_path / "a.json"]
    with pytest.raises(ConfigurationError, match=r"^locomo: source '.*nowhere' does not exist$"):
        benchmark("locomo").source_files(None, tmp_path / "nowhere")


def test_unknown_names_and_configs_are_configuration_errors():
    with pytest.raises(
        ConfigurationError,
        match=r"^unknown dataset 'squad'; expected one of \['beam', 'locomo', 'locomo_plus', 'longmemeval', "
        r"'personamem', 'realtalk'\]$",
    ):
        benchmark("squad")
    with pytest.raises(ConfigurationError, match=r"^longmemeval: unknown config 'x'; expected one of \['s', 'm', "):
        benchmark("longmemeval").config("x")


def test_options_are_checked_with_one_wording():
    with pytest.raises(
        ConfigurationError, match=r"^locomo: unknown keyword 'order'; expected one of lazy, category_order, "
    ):
        benchmark("locomo").check_options({"order": 1}, ("lazy",))
    with pytest.raises(ConfigurationError, match=r"^longmemeval: unknown keyword 'data_dir'; it takes none$"):
        benchmark("longmemeval").check_options({"data_dir": "x"})  # a BuilderConfig field, not an option
    benchmark("locomo").check_options({"category_order": "seed"})


def test_auxiliary_pins_are_catalogue_data():
    locomo = benchmark("locomo")
    assert AUXILIARY_FOLDERS == ("locomo-audit",)
    (folder, label, pin), *probes = locomo.auxiliary_pins()
    assert (folder, label, pin.filename, pin.revision, pin.size) == (
        "locomo-audit",
        "errata",
        "errors.json",
        "9493fb4b4af4256ed17a18e8fd0b3cfdeec29539",
        150_552,
    )
    assert [(f, lab, p.filename, p.revision, p.size) for f, lab, p in probes] == [
        (
            "locomo-audit",
            "probe-v1",
            "ap-baseline/v1/ap_eval_results_scored.json",
            "9493fb4b4af4256ed17a18e8fd0b3cfdeec29539",
            656_280,
        ),
        (
            "locomo-audit",
            "probe-v2",
            "ap-baseline/v2/ap_eval_results_scored.json",
            "9493fb4b4af4256ed17a18e8fd0b3cfdeec29539",
            645_227,
        ),
    ]
    assert locomo.auxiliary_pin("errata") == (folder, pin)
    assert benchmark("longmemeval").auxiliary_pins() == []
    with pytest.raises(ConfigurationError, match=r"^longmemeval: no pinned errata file$"):
        benchmark("longmemeval").auxiliary_pin("errata")


def test_an_entry_names_its_builder_and_its_pins_are_the_builder_configs():
    """The entry's pins and release ids are read without the builder; they are what the builder's configs say."""
    for entry in CATALOG.values():
        configs = entry.builder.BUILDER_CONFIGS
        assert list(entry.pins()) == entry.configs == [c.name for c in configs]
        assert all(entry.pins()[c.name] == c.remote_file() for c in configs), entry.name
        assert entry.builder.__module__ == entry.builder_module  # the folder's load_builder imports that module
        assert entry.module.__name__ == entry.builder_module
        assert all(importlib.import_module(name).__name__ == name for name in entry.row_modules)
        assert entry.options == user_options(entry.builder.BUILDER_CONFIG_CLASS), entry.name  # read without the builder
        assert entry.options_class is None or issubclass(entry.builder.BUILDER_CONFIG_CLASS, entry.options_class)
    beam = CATALOG["beam"]
    assert [(c.name, c.chats) for c in beam.builder.BUILDER_CONFIGS] == [
        ("100K", 20),
        ("500K", 35),
        ("1M", 35),
        ("10M", 10),
    ]
    release = beam.release_ids()
    assert (len(release), release["100K-20"], release["500K-35"], release["10M-10"], "100K-21" in release) == (
        100,
        "100K",
        "500K",
        "10M",
        False,
    )
