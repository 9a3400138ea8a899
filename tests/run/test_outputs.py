"""Every writing command (qrels, subset, score, export) checks its outputs with one function, before any work:
never among the sources (a later load of the folder would read them), never over an input, always writable."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from helpers.tiny_sources import tiny_locomo

from himga.cli import main
from himga.errors import ConfigurationError
from himga.run import check_outputs

WHY = "write outputs elsewhere (a later load of the sources would read them as sources)"


@pytest.fixture
def src(tmp_path) -> Path:
    return tiny_locomo(tmp_path / "lc")


def _run(capsys, *argv) -> tuple[int, str]:
    status = main(list(argv))
    return status, capsys.readouterr().err


def test_qrels_into_its_source_folder_is_refused_and_the_folder_still_loads(src, tmp_path, capsys):
    cache = str(tmp_path / "c")
    assert _run(capsys, "qrels", "locomo", str(src), "--data-dir", str(src), "--cache-dir", cache) == (
        2,
        f"himga: error: out_dir {str(src)!r} is the source folder {str(src)!r}: {WHY}\n",
    )
    assert sorted(p.name for p in src.iterdir()) == ["locomo10.json"]
    assert main(["stats", "locomo", "--data-dir", str(src), "--cache-dir", cache]) == 0


def test_qrels_into_the_folder_of_a_source_file_or_inside_a_source_folder_is_refused(src, tmp_path, capsys):
    source = src / "locomo10.json"
    cache = str(tmp_path / "c")
    assert _run(capsys, "qrels", "locomo", str(src), "--data-dir", str(source), "--cache-dir", cache) == (
        2,
        f"himga: error: out_dir {str(src)!r} holds the source file {str(source)!r}: {WHY}\n",
    )
    assert _run(capsys, "qrels", "locomo", str(tmp_path), "--data-dir", str(src), "--cache-dir", cache) == (
        2,
        f"himga: error: out_dir {str(tmp_path)!r} holds the source folder {str(src)!r}: {WHY}\n",
    )
    inside = src / "qrels"
    assert _run(capsys, "qrels", "locomo", str(inside), "--data-dir", str(src), "--cache-dir", cache) == (
        2,
        f"himga: error: out_dir {str(inside)!r} is inside the source folder {str(src)!r}: {WHY}\n",
    )
    assert sorted(p.name for p in src.iterdir()) == ["locomo10.json"]
    assert not (tmp_path / "c").exists()  # refused before the build


def test_the_pinned_source_counts_too(src, tmp_path, monkeypatch, capsys):
    """Without --data-dir the build reads $HIMGA_DATASETS_ROOT/locomo/locomo10.json: its folder is refused as OUT."""
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path))
    (tmp_path / "lc").rename(tmp_path / "locomo")
    folder = tmp_path / "locomo"
    assert _run(capsys, "qrels", "locomo", str(folder), "--cache-dir", str(tmp_path / "c")) == (
        2,
        f"himga: error: out_dir {str(folder)!r} holds the source locomo10.json file {str(folder / 'locomo10.json')!r}: "
        f"{WHY}\n",
    )
    assert sorted(p.name for p in folder.iterdir()) == ["locomo10.json"]


def test_subset_score_and_export_use_the_same_check(src, tmp_path, capsys):
    cache = str(tmp_path / "c")
    ids = src / "ids.txt"
    assert _run(
        capsys, "subset", "locomo", str(ids), "--n", "1", "--seed", "1", "--data-dir", str(src), "--cache-dir", cache
    ) == (2, f"himga: error: out {str(ids)!r} is inside the source folder {str(src)!r}: {WHY}\n")
    pred = tmp_path / "pred.jsonl"
    pred.write_text('{"question_id": "s1:0", "hypothesis": "hi"}\n', encoding="utf-8")
    report = src / "r.json"
    assert _run(
        capsys, "score", "locomo", str(pred), "--data-dir", str(src), "--cache-dir", cache, "--out", str(report)
    ) == (2, f"himga: error: --out {str(report)!r} is inside the source folder {str(src)!r}: {WHY}\n")
    assert _run(capsys, "export", "locomo", str(src), "--data-dir", str(src), "--cache-dir", cache) == (
        2,
        f"himga: error: out_dir {str(src)!r} is the source folder {str(src)!r}: {WHY}\n",
    )
    assert sorted(p.name for p in src.iterdir()) == ["locomo10.json"]


def test_a_failed_qrels_leaves_no_empty_folder(tmp_path, capsys):
    """A source whose ids a TREC file cannot hold: nothing is written, and the folder qrels made is gone again."""
    src = tiny_locomo(tmp_path / "src")
    out = tmp_path / "new" / "out"
    from himga.data import load_locomo
    from himga.qrels import write_qrels

    samples = load_locomo(src, cache_dir=tmp_path / "c")
    samples[0].sample_id = "s 1"  # an id no TREC file can hold
    with pytest.raises(ConfigurationError, match="contains whitespace|without whitespace"):
        write_qrels(samples, out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c", "src"]


def test_the_printed_paths_are_joined_once(src, tmp_path, capsys):
    out = f"{tmp_path}/q/"
    assert main(["qrels", "locomo", out, "--data-dir", str(src), "--cache-dir", str(tmp_path / "c")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == f"  {tmp_path}/q/queries.tsv: 1 line"
    assert "//" not in "\n".join(lines)


# ---- outputs that cannot be written: said before any work ------------------------------------------------


def test_an_export_into_a_link_to_nothing_is_refused(src, tmp_path, capsys):
    link = tmp_path / "dangling"
    link.symlink_to(tmp_path / "nowhere")
    assert _run(capsys, "export", "locomo", str(link), "--data-dir", str(src), "--cache-dir", str(tmp_path / "c")) == (
        2,
        f"himga: error: out_dir {str(link)!r}: is a symbolic link to {str(tmp_path / 'nowhere')!r}, which does not "
        "exist; name a folder\n",
    )


def test_a_file_in_place_of_the_output_folder_is_refused(src, tmp_path, capsys):
    (afile := tmp_path / "afile").write_text("x")
    assert _run(capsys, "qrels", "locomo", str(afile), "--data-dir", str(src), "--cache-dir", str(tmp_path / "c")) == (
        2,
        f"himga: error: out_dir {str(afile)!r}: is a regular file, expected a folder\n",
    )


@pytest.fixture
def unwritable(tmp_path, monkeypatch):
    """A folder this user cannot write into: as root ``chmod`` does not stop writes, so ``os.access`` says so."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    real = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode, **kw: False if Path(p) == folder and mode & os.W_OK else real(p, mode, **kw)
    )
    yield folder
    folder.chmod(0o755)


def test_unwritable_outputs_are_refused_before_any_work(src, tmp_path, unwritable, capsys):
    denied = os.strerror(errno.EACCES)
    cache = str(tmp_path / "c")
    pred = tmp_path / "pred.jsonl"
    pred.write_text('{"question_id": "s1:0", "hypothesis": "hi"}\n', encoding="utf-8")
    report = unwritable / "r.json"
    assert _run(
        capsys, "score", "locomo", str(pred), "--data-dir", str(src), "--cache-dir", cache, "--out", str(report)
    ) == (
        2,
        f"himga: error: --out {str(report)!r}: folder {str(unwritable)!r} is not writable ({denied}): write it "
        "elsewhere\n",
    )
    for command in (
        ["qrels", "locomo", str(unwritable / "q")],
        ["export", "locomo", str(unwritable / "e")],
        ["subset", "locomo", str(unwritable / "ids.txt"), "--n", "1", "--seed", "1"],
    ):
        option = "out" if command[0] == "subset" else "out_dir"
        status, err = _run(capsys, *command, "--data-dir", str(src), "--cache-dir", cache)
        assert (status, err) == (
            2,
            f"himga: error: {option} {command[2]!r}: folder {str(unwritable)!r} is not writable ({denied}): "
            "write it elsewhere\n",
        )
    assert not (tmp_path / "c").exists()  # nothing was built or scored


def test_unwritable_output_as_another_user(as_nobody, tmp_path):
    """The same check without the simulation: uid 65534 in a root-owned folder."""
    import shutil
    import sys
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="himga-ro-"))
    try:
        base.chmod(0o755)
        src = tiny_locomo(base / "src")
        (base / "cache").mkdir()
        os.chown(base / "cache", 65534, 65534)
        himga = str(Path(sys.executable).with_name("himga"))
        done = as_nobody(
            himga, "qrels", "locomo", str(base / "q"), "--data-dir", str(src), "--cache-dir", str(base / "cache")
        )
        assert (done.returncode, done.stderr) == (
            2,
            f"himga: error: out_dir {str(base / 'q')!r}: folder {str(base)!r} is not writable (Permission denied): "
            "write it elsewhere\n",
        )
        assert not list((base / "cache").iterdir())
    finally:
        shutil.rmtree(base)


def test_check_outputs_api(tmp_path):
    src = tiny_locomo(tmp_path / "src")
    check_outputs({"--out": tmp_path / "r.json"}, {"source": src})
    with pytest.raises(ConfigurationError, match="is the source folder"):
        check_outputs({"out_dir": src}, {"source": src}, folders={"out_dir"})
    check_outputs({"out_dir": tmp_path / "new" / "deeper"}, {"source": src}, folders={"out_dir"})  # made on write


def test_a_device_or_a_pipe_is_written_into_never_replaced(src, tmp_path, capsys):
    """An output that is a device (here a link to /dev/null) or a named pipe gets the text; a rename over it would put
    a regular file in its place (run as root, over /dev/null itself)."""
    import stat
    import threading

    from himga.run import write_text

    null = tmp_path / "null"
    null.symlink_to(os.devnull)
    assert (
        main(
            [
                "subset",
                "locomo",
                str(null),
                "--n",
                "1",
                "--seed",
                "0",
                "--data-dir",
                str(src),
                "--cache-dir",
                str(tmp_path / "c"),
            ]
        )
        == 0
    )
    assert null.is_symlink() and stat.S_ISCHR(os.stat(null).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c", "lc", "null"]  # no .null.tmp left beside it
    pipe, got = tmp_path / "pipe", []
    os.mkfifo(pipe)
    reader = threading.Thread(target=lambda: got.append(pipe.read_text(encoding="utf-8")))
    reader.start()
    write_text(pipe, "conv-26:0\n")
    reader.join(timeout=30)
    assert got == ["conv-26:0\n"] and stat.S_ISFIFO(os.stat(pipe).st_mode)
