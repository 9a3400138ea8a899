"""Issue 17 probe B6, B7, B8, D8: a path that is a file where a folder is expected, an empty path, and a datasets
root given as the source folder: each message says what the path is and what to pass, on every route."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import datasets
import pytest

from himga.cache import make_builder
from himga.catalog import benchmark
from himga.cli import main
from himga.data import load_dataset
from himga.errors import CacheError, ConfigurationError, SourceFormatError

sys.path.insert(0, str(Path(__file__).parent))  # routes.py, beside this file
from routes import all_routes, error_message

ONE = [
    {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bob",
            "session_1_date_time": "1:00 pm on 1 May, 2023",
            "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "hi"}],
        },
        "qa": [{"question": "When?", "answer": 2023, "evidence": ["D1:1"], "category": 2}],
    }
]


def _cli_error(capsys, *argv) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.startswith("himga: error: ") and err.count("\n") == 1, err
    return err.removeprefix("himga: error: ").rstrip("\n")


def test_datasets_root_that_is_a_file(tmp_path, monkeypatch, capsys):
    """B6: ``HIMGA_DATASETS_ROOT=afile`` says it is a file, not that it does not exist."""
    (tmp_path / "afile").write_text("x")
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path / "afile"))
    expected = (
        f"$HIMGA_DATASETS_ROOT is set to '{tmp_path}/afile', but '{tmp_path}/afile/locomo' is not a folder; expected a "
        "folder holding one subfolder per dataset (locomo/, longmemeval/, beam/, locomo_plus/, realtalk/, "
        "personamem/), and "
        f"'{tmp_path}/afile' is a regular file, "
        "not a folder (unset it to download the pinned files)"
    )
    for call in (
        lambda: load_dataset("locomo", cache_dir=tmp_path / "c"),
        lambda: datasets.load_dataset("himga_locomo", split="test", cache_dir=str(tmp_path / "c")),
        lambda: datasets.load_dataset("himga_locomo", split="test", streaming=True),
    ):
        with pytest.raises(ConfigurationError) as e:
            call()
        assert str(e.value) == expected
    assert _cli_error(capsys, "stats", "locomo") == expected


def test_datasets_cache_that_is_a_file(tmp_path, monkeypatch, capsys):
    """B7: ``HF_DATASETS_CACHE=<a file>`` (or ``cache_dir=``) names the variable, not a bare ``[Errno 17]``."""
    source = tmp_path / "locomo10.json"
    source.write_text(json.dumps(ONE))
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(blocker))
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", blocker)
    variable = (
        f"the datasets cache folder '{blocker}' (HF_DATASETS_CACHE) cannot be made: it is a regular file, not a "
        "folder; "
        "point HF_DATASETS_CACHE at a folder"
    )
    for call in (
        lambda: load_dataset("locomo", data_dir=source),
        lambda: datasets.load_dataset("himga_locomo", data_files=str(source), split="test"),
        lambda: datasets.load_dataset("himga_locomo", data_files=str(source), split="test", streaming=True),
    ):
        with pytest.raises(CacheError) as e:
            call()
        assert str(e.value) == variable
    assert _cli_error(capsys, "build", "locomo", "--data-dir", str(source)) == variable
    assert (
        _cli_error(capsys, "verify")
        == f"the datasets cache folder '{blocker}' (HF_DATASETS_CACHE) is a regular file, not a folder"
    )
    below = (
        f"the datasets cache folder '{blocker}/sub' (cache_dir= / --cache-dir) cannot be made: '{blocker}' is a "
        "regular "
        "file, not a folder; point cache_dir= / --cache-dir at a folder"
    )
    with pytest.raises(CacheError) as e:
        make_builder(benchmark("locomo"), data_dir=source, cache_dir=blocker / "sub")
    assert str(e.value) == below
    assert (
        _cli_error(capsys, "build", "locomo", "--data-dir", str(source), "--cache-dir", str(blocker / "sub")) == below
    )


@pytest.mark.parametrize(("name", "config"), [("locomo", None), ("longmemeval", "oracle")])
def test_an_empty_path_is_an_error_on_every_route(tmp_path, monkeypatch, capsys, name, config):
    """B8: ``--data-dir ""`` is not the working directory (which holds a source here, to be sure)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "locomo10.json").write_text(json.dumps(ONE))
    expected = f"{name}: the source path is empty: give a file or a folder (leave it out for the pinned source)"
    for route, load in all_routes(capsys, tmp_path).items():  # a folder: every route but data_files
        assert error_message(load, name, config, "", tmp_path / f"c-{route}") == expected, route
    with pytest.raises(ConfigurationError) as e:
        datasets.load_dataset(f"himga_{name}", config, data_dir="", split="test", streaming=True)
    assert str(e.value) == expected
    with pytest.raises(ConfigurationError) as e:
        make_builder(benchmark(name), config, data_dir="")
    assert str(e.value) == expected
    with pytest.raises(ConfigurationError) as e:
        datasets.load_dataset(f"himga_{name}", config, data_files=[""], split="test")
    assert str(e.value) == "data_files entry '' is empty: give a file or a pattern"
    assert (
        _cli_error(capsys, "export", name, "out", "--data-dir", "", *(["--config", config] if config else []))
        == expected
    )
    assert not (tmp_path / "out").exists()


def test_errata_paths(tmp_path, capsys):
    """An empty errata path (probe B8), and a folder given as the errata file (probe B6, worded as main words it)."""
    source = tmp_path / "locomo10.json"
    source.write_text(json.dumps(ONE))
    (tmp_path / "dir ü").mkdir()
    for errata, expected in (
        ("", "locomo: the errata path is empty: give a file (leave it out for the pinned errata)"),
        (str(tmp_path / "dir ü"), f"locomo: errata file '{tmp_path}/dir ü' is a directory, expected a file"),
        ("/dev/null", "locomo: errata file '/dev/null' is a character device, expected a file"),
    ):
        with pytest.raises(ConfigurationError) as e:
            load_dataset("locomo", data_dir=source, gold="audited", errata=errata, cache_dir=tmp_path / "c")
        assert str(e.value) == expected
        assert (
            _cli_error(capsys, "stats", "locomo", "--data-dir", str(source), "--gold", "audited", "--errata", errata)
            == expected
        )


@pytest.mark.parametrize(("name", "config"), [("locomo", None), ("longmemeval", "oracle")])
def test_a_datasets_root_given_as_the_source_folder(tmp_path, capsys, name, config):
    """D8: ``--data-dir ROOT`` (holding locomo/ and longmemeval/) names the subfolder to pass."""
    root = tmp_path / "data"
    for sub in ("locomo", "longmemeval", "locomo-audit"):
        (root / sub).mkdir(parents=True)
    expected = (
        f"data: $: expected at least one .json file in the directory, found none; it holds {name}/, as a datasets root "
        f"does: pass '{root}/{name}' (or set HIMGA_DATASETS_ROOT='{root}' and pass no folder)"
    )
    for route, load in all_routes(capsys, root).items():
        assert error_message(load, name, config, root, tmp_path / f"c-{route}") == expected, route
    (root / name).rmdir()
    other = "longmemeval" if name == "locomo" else "locomo"
    expected = (
        f"data: $: expected at least one .json file in the directory, found none; it holds {other}/, "
        f"the folder of another benchmark than {name}"
    )
    with pytest.raises(SourceFormatError) as e:
        load_dataset(name, config, data_dir=root, cache_dir=tmp_path / "c")
    assert str(e.value) == expected
