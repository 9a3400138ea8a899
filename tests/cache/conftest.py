"""Fixtures of the cache-fault tests: one fresh build per input, copies of it to damage, and every route that opens it.

Inputs (real files from ../shared/data): LoCoMo ``locomo10.json`` (10 rows, one record batch) and the
97-question oracle sample read with LongMemEval config ``s`` (writer batches of 10 questions, so 10 record
batches: a cut at a batch boundary leaves a readable, shorter file).

A *route* is ``(inp, cache_dir) -> value``; on an intact cache every route returns what it returns on a
fresh build (:func:`fresh`), and on a damaged one it must raise a himga error.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import datasets
import pytest

from himga.cli import main
from himga.data import build_dataset, load_locomo, load_longmemeval, samples_from_dataset
from himga.schema.convert import row_to_sample


@dataclass(frozen=True)
class Input:
    """One source: how the facade, the CLI and ``datasets.load_dataset`` name it."""

    name: str  # himga dataset name
    config: str | None
    path: Path  # a folder (LoCoMo) or one file (LongMemEval)
    rows: int
    batches: int  # Arrow record batches in the cache file

    def load(self, cache_dir, **kw):
        if self.name == "locomo":
            return load_locomo(self.path, cache_dir=cache_dir, **kw)
        return load_longmemeval(self.path, config=self.config, cache_dir=cache_dir, **kw)

    def hf(self, cache_dir, **kw):
        source = {"data_dir": str(self.path)} if self.name == "locomo" else {"data_files": str(self.path)}
        return datasets.load_dataset(f"himga_{self.name}", self.config, cache_dir=str(cache_dir), **source, **kw)

    def cli(self, *command):
        config = ["--config", self.config] if self.config else []
        return [command[0], self.name, *config, "--data-dir", str(self.path), *command[1:]]


def _routes(capsys):
    def cli_stats(inp, cache_dir):
        code = main(inp.cli("stats", "--cache-dir", str(cache_dir), "--json"))
        out, err = capsys.readouterr()
        if code:
            return ("exit", code, err)
        return json.loads(out)

    def cli_export(inp, cache_dir):
        out_dir = Path(cache_dir).parent / f"{Path(cache_dir).name}-export"
        shutil.rmtree(out_dir, ignore_errors=True)
        code = main(inp.cli("export", "--cache-dir", str(cache_dir), str(out_dir)))
        _, err = capsys.readouterr()
        if code:
            return ("exit", code, err)
        config = inp.config or "default"
        return [
            row_to_sample(r)
            for r in datasets.load_dataset("parquet", data_dir=str(out_dir / "data" / config), split="test")
        ]

    return {
        "load": lambda inp, c: inp.load(c),
        "lazy": lambda inp, c: list(inp.load(c, lazy=True)),
        "build_dataset": lambda inp, c: [
            row_to_sample(r) for r in build_dataset(inp.name, inp.config, path=inp.path, cache_dir=c)
        ],
        "datasets": lambda inp, c: list(samples_from_dataset(inp.hf(c, split="test"))),
        "datasets_slice": lambda inp, c: list(samples_from_dataset(inp.hf(c, split="test[:3]"))),
        "cli_stats": cli_stats,
        "cli_export": cli_export,
    }


@pytest.fixture
def routes(capsys):
    """Route name → ``(inp, cache_dir) -> value``: load, lazy, build_dataset, datasets, datasets_slice, cli_stats,
    cli_export."""
    return _routes(capsys)


@pytest.fixture(scope="session", params=["locomo", "longmemeval"])
def inp(request, shared_data) -> Input:
    if request.param == "locomo":
        return Input("locomo", None, shared_data / "locomo", rows=10, batches=1)
    return Input(
        "longmemeval", "s", shared_data / "longmemeval" / "longmemeval_oracle_sample.json", rows=97, batches=10
    )


@pytest.fixture(scope="session")
def _reference(tmp_path_factory):
    return {}


@pytest.fixture
def reference(inp, _reference, tmp_path_factory, routes):
    """``(cache_dir, folder, fresh)``: a fresh build of ``inp`` (not to be damaged) and every route's value on it."""
    if inp.name not in _reference:
        cache_dir = tmp_path_factory.mktemp(f"reference-{inp.name}")
        fresh = {name: route(inp, cache_dir) for name, route in routes.items()}
        (folder,) = {p.parent for p in cache_dir.rglob("dataset_info.json")}
        assert len(fresh["load"]) == inp.rows
        _reference[inp.name] = (cache_dir, folder, fresh)
    return _reference[inp.name]


@pytest.fixture
def cache_copy(reference, tmp_path):
    """``(cache_dir, folder)``: a copy of the reference cache, free to damage."""
    cache_dir, folder, _ = reference
    copy = tmp_path / "cache"
    shutil.copytree(cache_dir, copy, ignore=shutil.ignore_patterns("*.lock"))
    return copy, copy / folder.relative_to(cache_dir)
