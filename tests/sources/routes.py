"""Every entry point that takes a source path, as one callable each, for tests that must hold on all of them.

A route is ``(dataset, config, path, cache_dir) -> list[Sample]``; it raises what the entry point
raises (the CLI routes raise :class:`CliError` carrying stderr). The CLI routes return the Samples of a
build into the same ``cache_dir`` (``himga build`` prints only a row count) and check what ``stats --json``
reports against them, so every route is compared on the data itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import datasets

from himga.cli import main
from himga.data import build_dataset, load_dataset, load_locomo, load_longmemeval, samples_from_dataset
from himga.schema.convert import row_to_sample
from himga.stats.summary import dataset_stats


class CliError(Exception):
    """A CLI route exited non-zero; the message is its stderr."""


def _load(dataset, config, path, cache_dir):
    if dataset == "locomo":
        return load_locomo(path, cache_dir=cache_dir)
    return load_longmemeval(path, config=config, cache_dir=cache_dir)


def _himga_load_dataset(dataset, config, path, cache_dir):
    return load_dataset(dataset, config, data_dir=path, cache_dir=cache_dir)


def _build_dataset(dataset, config, path, cache_dir):
    return [row_to_sample(row) for row in build_dataset(dataset, config, path=path, cache_dir=cache_dir)]


def _datasets(dataset, config, path, cache_dir, **source):
    ds = datasets.load_dataset(f"himga_{dataset}", config, split="test", cache_dir=str(cache_dir), **source)
    return list(samples_from_dataset(ds))


def _datasets_data_dir(dataset, config, path, cache_dir):
    return _datasets(dataset, config, path, cache_dir, data_dir=str(path))


def _datasets_data_files(dataset, config, path, cache_dir):
    return _datasets(dataset, config, path, cache_dir, data_files=str(path))


def _cli(command, dataset, config, path, cache_dir, capsys, *extra):
    capsys.readouterr()
    argv = [command, dataset, "--data-dir", str(path), *(["--config", config] if config else []), *extra]
    status = main(argv)
    out, err = capsys.readouterr()
    if status != 0:
        raise CliError(err.strip())
    return out


def cli_routes(capsys):
    """The CLI routes (they need pytest's ``capsys``): build, stats --json and validate --json -."""

    def build(dataset, config, path, cache_dir):
        out = _cli("build", dataset, config, path, cache_dir, capsys, "--cache-dir", str(cache_dir))
        samples = _build_dataset(dataset, config, path, cache_dir)  # the cache the CLI just built
        assert out.startswith(f"{dataset}: {len(samples)} rows in split 'test'"), out
        return samples

    def stats(dataset, config, path, cache_dir):
        out = _cli("stats", dataset, config, path, cache_dir, capsys, "--cache-dir", str(cache_dir), "--json")
        samples = _build_dataset(dataset, config, path, cache_dir)
        printed = json.loads(out)
        assert printed.pop("dataset") == dataset
        assert printed.pop("config") == (
            config or {"locomo": "default", "longmemeval": "oracle"}[dataset]
        )  # the sources here
        printed.pop("note", None)
        sources = printed.pop("sources")  # the provenance lines, as the table's "source:" lines
        assert sources and all(isinstance(line, str) for line in sources)
        assert printed == dataset_stats(samples)
        return samples

    def validate(dataset, config, path, cache_dir):
        report = json.loads(_cli("validate", dataset, config, path, cache_dir, capsys, "--json", "-"))
        samples = _build_dataset(dataset, config, path, cache_dir)
        assert report["samples"] == len(samples)
        return samples

    return {"cli build": build, "cli stats": stats, "cli validate": validate}


#: Routes taking a folder or a file.
ROUTES = {
    "load_*": _load,
    "himga.data.load_dataset": _himga_load_dataset,
    "build_dataset": _build_dataset,
    "datasets data_dir": _datasets_data_dir,
}

#: Routes taking a file only.
FILE_ROUTES = {"datasets data_files": _datasets_data_files}


def all_routes(capsys, path: Path) -> dict:
    """Every route that accepts ``path`` (a file: all of them; a folder: all but ``data_files``)."""
    routes = {**ROUTES, **cli_routes(capsys)}
    if Path(path).is_file():
        routes.update(FILE_ROUTES)
    return routes


def error_message(load, *args) -> str:
    """Call a route that must fail; return the himga error's message (every route raises it itself,
    ``datasets.load_dataset`` included; for the CLI, its one stderr line without ``himga: error: ``)."""
    from himga.errors import HimgaError

    try:
        load(*args)
    except CliError as e:
        lines = str(e).splitlines()
        assert len(lines) == 1 and lines[0].startswith("himga: error: "), str(e)  # one line, no traceback
        return lines[0].removeprefix("himga: error: ")
    except Exception as e:
        assert isinstance(e, HimgaError), repr(e)
        return str(e)
    raise AssertionError(f"{load} returned instead of raising")
