"""``datasets.load_dataset("himga_locomo" | "himga_longmemeval", ...)`` after ``import himga`` (himga._registration).

Pins the behaviour on the installed ``datasets`` (any of the supported range; CI runs the newest and,
for the tests in .ci/oldest-tests.txt, the oldest): every ``load_dataset`` argument the issue lists,
cache reuse without network, cache invalidation by the code hash, himga errors as the cause of
``datasets``' wrapper, and the fresh-interpreter acceptance in subprocesses.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import datasets
import datasets.load
import pytest
from datasets.exceptions import DatasetGenerationError

import himga  # noqa: F401  (registers the names)
from himga import _registration as registry
from himga.data import SAMPLE_FEATURES
from himga.data.loaders import build_dataset
from himga.errors import ConfigurationError, SourceFormatError
from himga.testing import write_longmemeval_like
from himga_locomo.locomo import Locomo
from himga_longmemeval.longmemeval import Longmemeval

IDS = ["conv-26", "conv-30", "conv-41", "conv-42", "conv-43", "conv-44", "conv-47", "conv-48", "conv-49", "conv-50"]
LME_CONFIGS = ["s", "m", "oracle", "s_original", "m_original", "oracle_original"]
ORACLE_SAMPLE = Path("longmemeval") / "longmemeval_oracle_sample.json"  # under the shared_data fixture


def _locomo(shared_data, **kwargs):
    return datasets.load_dataset("himga_locomo", data_dir=str(shared_data / "locomo"), split="test", **kwargs)


@pytest.fixture
def generation_count(monkeypatch, tmp_path):
    """How often the LoCoMo builder generated rows (counts calls of ``_generate_examples``), in a fresh cache."""
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "fresh_cache")
    calls = []
    original = Locomo._generate_examples

    def counting(self, files):
        calls.append(files)
        yield from original(self, files)

    monkeypatch.setattr(Locomo, "_generate_examples", counting)
    return calls


# --- the registration itself -----------------------------------------------------------------------


def test_installed_datasets_is_supported_and_wrapped():
    from packaging.specifiers import SpecifierSet

    assert datasets.__version__ in SpecifierSet(registry.SUPPORTED_DATASETS)
    registry.check_datasets()
    assert datasets.load.dataset_module_factory._himga is True
    wrapper = datasets.load.dataset_module_factory
    registry.register()  # idempotent: no second wrapper
    assert datasets.load.dataset_module_factory is wrapper
    assert not hasattr(wrapper.__wrapped__, "_himga")


def test_supported_range_is_the_one_pyproject_and_ci_use():
    """registry.SUPPORTED_DATASETS is pyproject's datasets range; .ci/oldest-constraints.txt pins the lower bounds."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version

    root = Path(__file__).resolve().parents[2]
    requirements = [
        Requirement(d) for d in tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    ]
    specs = {r.name.replace("_", "-"): r.specifier for r in requirements}
    assert specs["datasets"] == SpecifierSet(registry.SUPPORTED_DATASETS)
    lines = (root / ".ci" / "oldest-constraints.txt").read_text().splitlines()
    pins = dict(line.replace("_", "-").split("==") for line in lines if line.strip() and not line.startswith("#"))
    assert sorted(pins) == ["datasets", "huggingface-hub", "pyarrow"]
    for name, pinned in pins.items():
        assert [Version(s.version) for s in specs[name] if s.operator == ">="] == [Version(pinned)], name


@pytest.mark.parametrize("version", ["6.0.0", "3.6.0"])
def test_unsupported_version_names_the_range(monkeypatch, version):
    monkeypatch.setattr(datasets, "__version__", version)
    with pytest.raises(
        registry.UnsupportedDatasetsError, match=rf"datasets {version} is installed; himga supports datasets>=4\.0,<6"
    ):
        registry.check_datasets()


def test_missing_internal_names_the_range(monkeypatch):
    monkeypatch.delattr(datasets.load, "DatasetModule")
    with pytest.raises(
        registry.UnsupportedDatasetsError,
        match=r"no datasets\.load\.dataset_module_factory/DatasetModule; himga supports datasets>=4\.0,<6",
    ):
        registry.check_datasets()


def test_module_for_our_names_and_untouched_for_others(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("x.json").write_text("[]")
    module = datasets.load.dataset_module_factory("himga_longmemeval", data_files=["x.json"])
    assert module.module_path == "himga_longmemeval.longmemeval"
    assert module.builder_kwargs == {"data_files": [str(Path("x.json").resolve())]}
    (tmp_path / "a.jsonl").write_text('{"x": 1}\n')
    other = datasets.load.dataset_module_factory("json", data_files=str(tmp_path / "a.jsonl"))
    assert other.module_path == "datasets.packaged_modules.json.json"


@pytest.mark.parametrize("config", LME_CONFIGS)
def test_every_longmemeval_config_resolves(config):
    builder = datasets.load_dataset_builder("himga_longmemeval", config)
    assert type(builder).__name__ == "Longmemeval" and isinstance(builder, Longmemeval)
    assert builder.config.name == config
    assert builder.info.features == SAMPLE_FEATURES


def test_longmemeval_default_config_is_s():
    assert datasets.load_dataset_builder("himga_longmemeval").config.name == "s"


# --- load_dataset arguments ------------------------------------------------------------------------


def test_data_dir_gives_the_builder_rows(shared_data):
    ds = _locomo(shared_data)
    assert ds["sample_id"] == IDS
    assert ds.features == SAMPLE_FEATURES
    assert ds.cache_files and all(f["filename"].endswith("locomo-test.arrow") for f in ds.cache_files)
    facade = build_dataset("locomo", path=shared_data / "locomo")
    assert ds.cache_files == facade.cache_files  # same builder, same cache key: one cache for both paths
    assert ds[0] == facade[0]


def test_no_arguments_finds_sources_like_get_dataset(shared_data, monkeypatch):
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(shared_data))
    dd = datasets.load_dataset("himga_locomo")
    assert list(dd) == ["test"]
    assert dd["test"]["sample_id"] == IDS


def test_relative_data_dir_and_data_files_resolve_against_cwd(shared_data, monkeypatch):
    monkeypatch.chdir(shared_data)
    assert datasets.load_dataset("himga_locomo", data_dir="locomo", split="test").num_rows == 10
    monkeypatch.chdir(shared_data / "locomo")
    assert datasets.load_dataset("himga_locomo", data_files="locomo10.json", split="test")["sample_id"] == IDS


def test_slice_split_and_config_keyword(shared_data):
    assert _locomo(shared_data, category_order="seed")["sample_id"] == IDS
    head = datasets.load_dataset("himga_locomo", data_dir=str(shared_data / "locomo"), split="test[:2]")
    assert head["sample_id"] == ["conv-26", "conv-30"]
    seed = _locomo(shared_data, category_order="seed")
    types = Counter(qa["question_type"] for row in seed for qa in row["qa_pairs"])
    assert types == {"single_hop": 282, "temporal": 321, "multi_hop": 96, "open_domain": 841, "adversarial": 446}


def test_streaming_same_features_and_rows(shared_data):
    ds = _locomo(shared_data)
    it = _locomo(shared_data, streaming=True)
    assert isinstance(it, datasets.IterableDataset)
    assert it.features == ds.features
    assert list(it) == list(ds)


def test_num_proc_on_a_folder_of_two_files(shared_data, tmp_path):
    records = json.loads((shared_data / "locomo" / "locomo10.json").read_text())
    (tmp_path / "a.json").write_text(json.dumps(records[:4]))
    (tmp_path / "b.json").write_text(json.dumps(records[4:]))
    parallel = datasets.load_dataset("himga_locomo", data_dir=str(tmp_path), split="test", num_proc=2)
    assert list(parallel) == list(_locomo(shared_data))


def test_second_call_reuses_cache_without_network(shared_data, generation_count, monkeypatch):
    first = _locomo(shared_data)
    assert len(generation_count) == 1

    def no_network(*args, **kwargs):
        raise AssertionError("network access")

    monkeypatch.setattr(datasets.config, "HF_UPDATE_DOWNLOAD_COUNTS", True)  # datasets' default
    monkeypatch.setattr(datasets.load, "get_session", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    again = _locomo(shared_data)
    assert len(generation_count) == 1
    assert again.cache_files == first.cache_files


def test_download_mode_force_rebuilds(shared_data, generation_count):
    _locomo(shared_data)
    _locomo(shared_data, download_mode="force_redownload")
    assert len(generation_count) == 2


def test_code_hash_change_invalidates_cache(shared_data, generation_count, monkeypatch):
    from himga.cache import _key as cache_key

    first = _locomo(shared_data)
    monkeypatch.setattr(cache_key, "code_hash", lambda name: "0123456789abcdef")
    changed = _locomo(shared_data)
    assert len(generation_count) == 2
    assert "/0123456789abcdef-" in changed.cache_files[0]["filename"]  # data_dir: "-" + its files' fingerprint
    assert changed.cache_files != first.cache_files


def test_builder_errors_reach_the_user_as_himga_errors(shared_data, tmp_path):
    records = json.loads((shared_data / "locomo" / "locomo10.json").read_text())
    records[3]["qa"][17]["category"] = 7
    (tmp_path / "bad.json").write_text(json.dumps(records))
    with pytest.raises(SourceFormatError) as info:  # not datasets' DatasetGenerationError, which stays its cause
        datasets.load_dataset("himga_locomo", data_files=str(tmp_path / "bad.json"), split="test")
    assert str(info.value) == "bad.json: $[3].qa[17].category: expected 1-5, got 7"
    assert isinstance(info.value.__cause__, DatasetGenerationError)
    with pytest.raises(ConfigurationError, match="locomo: source 'no/such/folder' does not exist"):
        datasets.load_dataset("himga_locomo", data_dir="no/such/folder")


def test_longmemeval_oracle_sample(shared_data):
    ds = datasets.load_dataset("himga_longmemeval", "oracle", data_files=str(shared_data / ORACLE_SAMPLE), split="test")
    assert ds.num_rows == 97
    assert ds.features == SAMPLE_FEATURES
    it = datasets.load_dataset(
        "himga_longmemeval", "oracle", data_files=str(shared_data / ORACLE_SAMPLE), split="test", streaming=True
    )
    assert list(it) == list(ds)


# --- fresh interpreters ----------------------------------------------------------------------------


def _run(code: str, tmp_path: Path, cwd: Path | None = None) -> str:
    env = dict(
        os.environ,
        HF_DATASETS_CACHE=str(tmp_path / "hf_cache"),
        HF_HUB_OFFLINE="1",
        HF_DATASETS_DISABLE_PROGRESS_BARS="1",
    )
    env.pop("HF_UPDATE_DOWNLOAD_COUNTS", None)
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env, cwd=cwd or tmp_path
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_fresh_interpreter_acceptance(shared_data, tmp_path):
    out = _run(
        f"""
        import himga, datasets
        ds = datasets.load_dataset("himga_locomo", data_dir={str(shared_data / "locomo")!r}, split="test")
        it = datasets.load_dataset("himga_locomo", data_dir={str(shared_data / "locomo")!r}, split="test",
                                   streaming=True)
        lme = datasets.load_dataset("himga_longmemeval", "oracle", data_files={str(shared_data / ORACLE_SAMPLE)!r},
                                    split="test")
        print(ds.num_rows, list(it) == list(ds), ds["sample_id"][0], lme.num_rows, lme[0]["sample_id"])
        """,
        tmp_path,
    )
    assert out.split() == ["10", "True", "conv-26", "97", lme_first_id(shared_data)]


def lme_first_id(shared_data: Path) -> str:
    return json.loads((shared_data / ORACLE_SAMPLE).read_text())[0]["question_id"]


def test_memory_mapped_open_adds_little_rss(tmp_path):
    """Opening a built LongMemEval-like dataset (100 questions, ~51 MB of Arrow) maps its file: RSS grows < 50 MB."""
    source = write_longmemeval_like(tmp_path / "lme_like.json", 100, 48).path
    build = (
        f'import himga, datasets; datasets.load_dataset("himga_longmemeval", "s", data_files={str(source)!r}, '
        'split="test")'
    )
    _run(build, tmp_path)
    out = _run(
        f"""
        import himga, datasets, os
        def rss():
            return int(next(l for l in open("/proc/self/status") if l.startswith("VmRSS")).split()[1]) * 1024
        before = rss()
        ds = datasets.load_dataset("himga_longmemeval", "s", data_files={str(source)!r}, split="test")
        after = rss()
        size = sum(os.path.getsize(f["filename"]) for f in ds.cache_files)
        print(ds.num_rows, len(ds.cache_files), size, after - before, type(ds.data).__name__)
        """,
        tmp_path,
    )
    rows, files, size, delta, table = out.split()
    assert (rows, files, table) == ("100", "1", "MemoryMappedTable")
    assert int(size) > 50_000_000  # about the bound: reading the file into memory would fail the test
    assert int(delta) < 50 * 2**20


def test_longmemeval_streaming_with_has_answer_on_some_turns_only(tmp_path):
    """S-like haystacks: ``has_answer`` only on answer-session turns, the case datasets' nested encoder misses."""
    source = write_longmemeval_like(tmp_path / "lme_small.json", 20, 10).path
    ds = datasets.load_dataset("himga_longmemeval", "s", data_files=str(source), split="test")
    it = datasets.load_dataset("himga_longmemeval", "s", data_files=str(source), split="test", streaming=True)
    assert ds.num_rows == 20
    assert it.features == ds.features
    assert list(it) == list(ds)


def test_a_misspelled_option_is_a_configuration_error(shared_data):
    """Not datasets' ``ValueError: BuilderConfig ... doesn't have a 'category_ordr' key``: the options a user may
    pass."""
    with pytest.raises(ConfigurationError) as info:
        datasets.load_dataset("himga_locomo", data_dir=str(shared_data / "locomo"), category_ordr="seed", split="test")
    assert (
        str(info.value)
        == "locomo: unknown keyword 'category_ordr'; expected one of category_order, adversarial_answer, "
        "category3_answer, gold, errata"
    )
    with pytest.raises(ConfigurationError, match=r"^longmemeval: unknown keyword 'confg'; it takes none$"):
        datasets.load_dataset(
            "himga_longmemeval", data_files=str(shared_data / ORACLE_SAMPLE), confg="oracle", split="test"
        )


# --- a relative data_files entry is relative to data_dir -------------------------------


def _decoy_and_source(shared_data, tmp_path, dataset):
    """A data_dir holding the real file and a working directory holding a same-named decoy."""
    if dataset == "himga_locomo":
        name, records, id_key = (
            "locomo10.json",
            json.loads((shared_data / "locomo" / "locomo10.json").read_text()),
            "sample_id",
        )
    else:
        name, id_key = "longmemeval_oracle.json", "question_id"
        records = json.loads((shared_data / "longmemeval" / "longmemeval_oracle_pair.json").read_text())
    data, cwd = tmp_path / "data", tmp_path / "cwd"
    data.mkdir()
    cwd.mkdir()
    (data / name).write_text(json.dumps(records))
    (cwd / name).write_text(json.dumps([{**records[0], id_key: "decoy"}]))
    return name, data, cwd, [r[id_key] for r in records]


@pytest.mark.parametrize("streaming", [False, True], ids=["built", "streaming"])
@pytest.mark.parametrize("dataset", ["himga_locomo", "himga_longmemeval"])
def test_relative_data_files_are_relative_to_data_dir(shared_data, tmp_path, monkeypatch, dataset, streaming):
    name, data, cwd, ids = _decoy_and_source(shared_data, tmp_path, dataset)
    config = ["oracle"] if dataset == "himga_longmemeval" else []
    monkeypatch.chdir(cwd)  # holds a decoy of the same name: never read
    ds = datasets.load_dataset(
        dataset,
        *config,
        data_dir=str(data),
        data_files=name,
        split="test",
        streaming=streaming,
        cache_dir=str(tmp_path / "c"),
    )
    assert [row["sample_id"] for row in ds] == ids
    (cwd / name).unlink()  # and without a decoy: found in data_dir, not "does not exist"
    ds = datasets.load_dataset(
        dataset,
        *config,
        data_dir=str(data),
        data_files=[name],
        split="test",
        streaming=streaming,
        cache_dir=str(tmp_path / "c2"),
    )
    assert [row["sample_id"] for row in ds] == ids


@pytest.mark.parametrize("dataset", ["himga_locomo", "himga_longmemeval"])
def test_relative_data_files_are_relative_to_data_dir_in_make_builder(shared_data, tmp_path, monkeypatch, dataset):
    from himga.cache import make_builder, prepare
    from himga.catalog import by_load_name

    name, data, cwd, ids = _decoy_and_source(shared_data, tmp_path, dataset)
    monkeypatch.chdir(cwd)
    config = "oracle" if dataset == "himga_longmemeval" else None
    builder = make_builder(by_load_name(dataset), config, data_dir=data, data_files=name, cache_dir=tmp_path / "c")
    assert prepare(builder)["sample_id"] == ids
    with pytest.raises(ConfigurationError, match=f"^source 'missing.json' \\(in data_dir '{data}'\\) does not exist$"):
        make_builder(by_load_name(dataset), config, data_dir=data, data_files="missing.json")
