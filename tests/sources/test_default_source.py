"""Issue 17 §2: without a source, a config (the default one included) reads only its own file, on every route.

``$HIMGA_DATASETS_ROOT/longmemeval/`` holding only oracle files used to give ``load_dataset("longmemeval")``
(documented as config ``s``) the oracle questions, cached under ``s-…``; now every route reads the
config's own file or says which file it looked for and where.
"""

from __future__ import annotations

import json
import shutil

import datasets
import pytest

import himga  # noqa: F401  (registers the builders)
from himga.cli import main
from himga.data import load_dataset, samples_from_dataset
from himga.errors import HimgaError
from himga.publish import export

PAIR_IDS = ["gpt4_2655b836", "09ba9854_abs"]


@pytest.fixture
def oracle_only_root(shared_data, tmp_path, monkeypatch):
    """A $HIMGA_DATASETS_ROOT whose longmemeval/ holds oracle files only (one named, two not), and whose
    locomo/ holds locomo10.json beside another .json file."""
    lme = tmp_path / "root" / "longmemeval"
    shutil.copytree(shared_data / "longmemeval", lme)  # longmemeval_oracle_pair.json, longmemeval_oracle_sample.json
    shutil.copy(shared_data / "longmemeval" / "longmemeval_oracle_pair.json", lme / "longmemeval_oracle.json")
    locomo = tmp_path / "root" / "locomo"
    locomo.mkdir()
    shutil.copy(shared_data / "locomo" / "locomo10.json", locomo / "locomo10.json")
    (locomo / "locomo10 (edited).json").write_text(json.dumps([json.loads((locomo / "locomo10.json").read_text())[0]]))
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path / "root"))
    return tmp_path / "root"


def _routes(capsys, cache):
    def cli(*argv):
        capsys.readouterr()
        status = main([*argv, "--cache-dir", str(cache)] if argv[0] != "validate" else list(argv))
        out, err = capsys.readouterr()
        if status:
            raise HimgaError(err.strip().removeprefix("himga: error: "))
        return out

    def via_datasets(name, config, **kw):
        return [
            s.sample_id
            for s in samples_from_dataset(
                datasets.load_dataset(f"himga_{name}", config, split="test", cache_dir=str(cache), **kw)
            )
        ]

    return {
        "himga.data.load_dataset": lambda name, config: [
            s.sample_id for s in load_dataset(name, config, cache_dir=cache)
        ],
        "datasets.load_dataset": via_datasets,
        "streaming": lambda name, config: via_datasets(name, config, streaming=True),
        "cli stats": lambda name, config: json.loads(
            cli("stats", name, *(["--config", config] if config else []), "--json")
        )["samples"],
        "cli build": lambda name, config: (
            cli("build", name, *(["--config", config] if config else [])).split(":")[1].split()[0]
        ),
        "cli validate": lambda name, config: json.loads(
            cli("validate", name, *(["--config", config] if config else []), "--json", "-")
        )["samples"],
    }


@pytest.mark.parametrize("config", [None, "s"])
def test_the_default_config_reads_only_its_own_file(oracle_only_root, tmp_path, capsys, config):
    folder = oracle_only_root / "longmemeval"
    message = (
        f"longmemeval (config 's'): no source file in {folder}; looked for longmemeval_s_cleaned.json, "
        "longmemeval_s_cleaned; "
        "found longmemeval_oracle.json, longmemeval_oracle_pair.json, longmemeval_oracle_sample.json "
        "(pass config= / --config for another config's file, or data_dir= / --data-dir for a file of another name)"
    )
    for route, load in _routes(capsys, tmp_path / "cache").items():
        with pytest.raises(HimgaError) as caught:
            load("longmemeval", config)
        assert str(caught.value) == message, route
    with pytest.raises(HimgaError) as caught:
        export("longmemeval", tmp_path / "out", [config or "s"])
    assert str(caught.value) == message


def test_another_config_reads_only_its_own_file(oracle_only_root, tmp_path, capsys):
    expected = {
        "himga.data.load_dataset": PAIR_IDS,
        "datasets.load_dataset": PAIR_IDS,
        "streaming": PAIR_IDS,
        "cli stats": 2,
        "cli build": "2",
        "cli validate": 2,
    }
    for route, load in _routes(capsys, tmp_path / "cache").items():
        assert load("longmemeval", "oracle") == expected[route], route
    sizes = export("longmemeval", tmp_path / "out", ["oracle"])
    assert sizes["oracle"].num_examples == 2


def test_locomo_default_source_reads_only_the_pinned_file(oracle_only_root, tmp_path, capsys):
    for route, load in _routes(capsys, tmp_path / "cache").items():
        result = load("locomo", None)
        assert (len(result) if isinstance(result, list) else int(result)) == 10, route
