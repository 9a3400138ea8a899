"""himga.cache._prepare.prepare/unwrap: what the facade and the CLI raise when ``datasets`` wraps an error."""

from __future__ import annotations

import errno
import json

import datasets
import pytest

from himga.cache import unwrap
from himga.cli import main
from himga.data import build_dataset
from himga.errors import SourceFormatError, SourceUnreadableError


def test_unwrap_prefers_the_himga_error_then_an_os_error_behind_datasets_wrapper():
    source = SourceFormatError("f.json", "$", "bad")
    denied = PermissionError(errno.EACCES, "Permission denied", "/data/f.json")
    for inner in (source, denied):
        try:
            try:
                raise inner
            except Exception as e:
                raise datasets.exceptions.DatasetGenerationError(
                    "An error occurred while generating the dataset"
                ) from e
        except datasets.exceptions.DatasetGenerationError as wrapper:
            assert unwrap(wrapper) is inner
    plain = RuntimeError("a bug")
    assert unwrap(plain) is plain
    try:
        raise ValueError("not datasets' wrapper") from denied
    except ValueError as other:
        assert unwrap(other) is other  # only datasets' wrapper is unwrapped to an OSError


def test_unreadable_source_is_a_himga_error_and_one_cli_line(tmp_path, monkeypatch, capsys):
    source = tmp_path / "locomo10.json"
    source.write_text(json.dumps([]), encoding="utf-8")

    def denied(path, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr("himga_locomo.locomo.load_json", denied)
    with pytest.raises(SourceUnreadableError) as info:
        build_dataset("locomo", path=tmp_path, cache_dir=tmp_path / "cache")
    assert isinstance(info.value.__cause__, datasets.exceptions.DatasetGenerationError)
    assert unwrap(info.value) is info.value  # the re-raised error's chain is a cycle; unwrap still ends
    assert main(["stats", "locomo", "--data-dir", str(tmp_path), "--cache-dir", str(tmp_path / "cache")]) == 2
    assert capsys.readouterr().err == f"himga: error: locomo: source '{source}' is unreadable (Permission denied)\n"
    assert not list((tmp_path / "cache").rglob("dataset_info.json"))
