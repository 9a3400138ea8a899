"""Issue 16 §6: an entry named like a source that cannot be read is an error naming it, never skipped.

A dangling symlink among LoCoMo's parts made ``himga stats``/``export`` succeed with 5 of 10 samples and
a card listing only the surviving part. Links to files are read as files; links to nothing, FIFOs and
devices are refused with what they are; folders (and links to folders) are not sources and are ignored.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from himga.cli import main
from himga.data import load_locomo, load_longmemeval
from himga.errors import ConfigurationError, SourceFormatError


def _locomo_part(path: Path, sample_id: str) -> None:
    record = {
        "sample_id": sample_id,
        "conversation": {
            "speaker_a": "A",
            "speaker_b": "B",
            "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hi"}],
        },
        "qa": [{"question": "Q?", "answer": "hi", "category": 1, "evidence": ["D1:1"]}],
    }
    path.write_text(json.dumps([record]), encoding="utf-8")


@pytest.fixture
def parts(tmp_path) -> Path:
    folder = tmp_path / "parts"
    folder.mkdir()
    _locomo_part(folder / "a.json", "conv-a")
    _locomo_part(tmp_path / "elsewhere.json", "conv-b")
    (folder / "b.json").symlink_to(tmp_path / "elsewhere.json")  # a link to a file: read as the file
    (folder / "sub.json").symlink_to(tmp_path)  # a link to a folder: not a source
    return folder


def test_links_to_files_are_read(parts, tmp_path):
    assert [s.sample_id for s in load_locomo(parts, cache_dir=tmp_path / "cache")] == ["conv-a", "conv-b"]


def test_dangling_link_is_an_error_naming_it(parts, tmp_path, capsys):
    (parts / "c.json").symlink_to(tmp_path / "gone.json")
    with pytest.raises(SourceFormatError) as info:
        load_locomo(parts, cache_dir=tmp_path / "cache")
    assert (
        str(info.value)
        == f"c.json: $: cannot be read as a source: a symbolic link to {str(tmp_path / 'gone.json')!r}, which does not "
        "exist"
    )
    assert main(["stats", "locomo", "--data-dir", str(parts), "--cache-dir", str(tmp_path / "cache")]) == 2
    assert capsys.readouterr().err == f"himga: error: {info.value}\n"
    assert (
        main(
            [
                "export",
                "locomo",
                str(tmp_path / "out"),
                "--data-dir",
                str(parts),
                "--cache-dir",
                str(tmp_path / "cache"),
            ]
        )
        == 2
    )
    assert not (tmp_path / "out" / "README.md").exists()


def test_fifo_is_refused_without_reading_it(parts, tmp_path):
    os.mkfifo(parts / "c.json")
    with pytest.raises(SourceFormatError) as info:
        load_locomo(parts, cache_dir=tmp_path / "cache")
    assert str(info.value) == "c.json: $: cannot be read as a source: it is a FIFO (named pipe), not a regular file"


def test_device_link_is_refused(parts, tmp_path):
    (parts / "c.json").symlink_to("/dev/zero")
    with pytest.raises(SourceFormatError) as info:
        load_locomo(parts, cache_dir=tmp_path / "cache")
    assert str(info.value) == "c.json: $: cannot be read as a source: it is a character device, not a regular file"


def test_longmemeval_folder_with_a_dangling_config_file(tmp_path):
    folder = tmp_path / "lme"
    folder.mkdir()
    (folder / "longmemeval_oracle.json").symlink_to(tmp_path / "gone.json")
    with pytest.raises(SourceFormatError) as info:
        load_longmemeval(folder, cache_dir=tmp_path / "cache")
    assert (
        str(info.value) == "longmemeval_oracle.json: $: cannot be read as a source: a symbolic link to "
        f"{str(tmp_path / 'gone.json')!r}, which does not exist"
    )


# ---- a FIFO or a device given as the path says what it is --------------------------------


@pytest.fixture(params=["fifo", "/dev/zero", "/dev/null", "dangling link"])
def odd_path(request, tmp_path) -> tuple[Path, str]:
    if request.param == "fifo":
        path = tmp_path / "pipe"
        os.mkfifo(path)
        return path, "a FIFO (named pipe)"
    if request.param == "dangling link":
        path = tmp_path / "link"
        path.symlink_to(tmp_path / "gone")
        return path, f"a symbolic link to {str(tmp_path / 'gone')!r}, which does not exist"
    return Path(request.param), "a character device"


def test_odd_path_says_what_it_is_on_every_route(odd_path, tmp_path, capsys):
    path, kind = odd_path
    message = f"source {str(path)!r} is {kind}, not a file or a folder of files: no source can be read from it"
    with pytest.raises(ConfigurationError) as info:
        load_locomo(path, cache_dir=tmp_path / "cache")
    assert str(info.value) == f"locomo: {message}"
    with pytest.raises(ConfigurationError) as info:
        load_longmemeval(path, config="oracle", cache_dir=tmp_path / "cache")
    assert str(info.value) == f"longmemeval: {message}"
    for args in (
        ["stats", "locomo", "--data-dir", str(path)],
        ["export", "locomo", str(tmp_path / "out"), "--data-dir", str(path)],
        ["export", "longmemeval", str(tmp_path / "out"), "--data-dir", str(path)],
    ):
        assert main([*args, "--cache-dir", str(tmp_path / "cache")]) == 2
        assert capsys.readouterr().err == f"himga: error: {args[1]}: {message}\n"


@pytest.mark.parametrize("kind", ["a folder", "a FIFO (named pipe)"])
def test_longmemeval_config_file_that_is_not_a_file(tmp_path, kind):
    folder = tmp_path / "lme"
    folder.mkdir()
    (folder / "longmemeval_oracle.json").mkdir() if kind == "a folder" else os.mkfifo(
        folder / "longmemeval_oracle.json"
    )
    with pytest.raises(ConfigurationError) as info:
        load_longmemeval(folder, config="oracle", cache_dir=tmp_path / "cache")
    assert str(info.value) == (
        f"longmemeval (config 'oracle'): longmemeval_oracle.json in {folder} is {kind}, not a regular file: "
        "no source can be read from it"
    )
