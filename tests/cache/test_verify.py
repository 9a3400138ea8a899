"""Bytes altered in place (same size) are found by ``himga verify`` / :func:`himga.cache._manifest.verify`, not on
open."""

from __future__ import annotations

import random
import shutil

from himga.cache import _manifest as cache
from himga.cli import main


def _flip(path, offset, mask):
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)[0]
        f.seek(offset)
        f.write(bytes([byte ^ mask]))


def test_every_single_bit_flip_is_found_and_undoing_it_verifies_clean(inp, cache_copy):
    _, folder = cache_copy
    (arrow,) = folder.glob("*.arrow")
    assert cache.verify(folder) == []
    rng = random.Random(13)
    size = arrow.stat().st_size
    for _ in range(30):
        offset, mask = rng.randrange(size), 1 << rng.randrange(8)
        _flip(arrow, offset, mask)
        problems = cache.verify(folder)
        assert (
            len(problems) == 1
            and problems[0].startswith(f"{arrow.name}: xxh3_64 ")
            and problems[0].endswith("(bytes altered)")
        ), problems
        _flip(arrow, offset, mask)
        assert cache.verify(folder) == []


def test_case_flips_in_text_are_found(inp, cache_copy):
    _, folder = cache_copy
    (arrow,) = folder.glob("*.arrow")
    data = bytearray(arrow.read_bytes())
    word = b"the " if inp.name == "locomo" else b"I "
    offsets = [i for i in range(len(data) - 4) if data[i : i + len(word)] == word][:10]
    assert len(offsets) == 10
    for offset in offsets:
        data[offset] ^= 0x20  # "t" -> "T": same size, valid UTF-8, valid Arrow
        arrow.write_bytes(data)
        assert cache.verify(folder)[0].startswith(f"{arrow.name}: xxh3_64 ")
        data[offset] ^= 0x20
        arrow.write_bytes(data)
        assert cache.verify(folder) == []


def test_cli_verify_ok_then_damaged(inp, cache_copy, capsys):
    cache_dir, folder = cache_copy
    assert main(["verify", "--cache-dir", str(cache_dir)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"ok       {folder} (") and out.count("\n") == 1
    (arrow,) = folder.glob("*.arrow")
    _flip(arrow, arrow.stat().st_size // 2, 0x01)
    assert main(["verify", inp.name, "--cache-dir", str(cache_dir)]) == 2
    out, err = capsys.readouterr()
    assert out.startswith(f"DAMAGED  {folder} (") and f": {arrow.name}: xxh3_64 " in out
    assert (
        err
        == f"himga: error: 1 of 1 caches under {cache_dir} are damaged; remove them to rebuild on the next load: rm "
        f"-rf {folder}\n"
    )


def test_verify_counts_rows_behind_a_rewritten_manifest(inp, cache_copy):
    _, folder = cache_copy
    (arrow,) = folder.glob("*.arrow")
    info = (folder / cache.INFO_FILE).read_text(encoding="utf-8")
    (folder / cache.INFO_FILE).write_text(
        info.replace(f'"num_examples": {inp.rows}', f'"num_examples": {inp.rows + 1}'), encoding="utf-8"
    )
    cache.record(folder)  # checksums match the altered files
    assert cache.verify(folder) == [
        f"split 'test' has {inp.rows:,} rows, {inp.rows + 1:,} according to dataset_info.json"
    ]


def test_cli_verify_without_caches(tmp_path, capsys):
    assert main(["verify", "--cache-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"no himga caches under {tmp_path}\n"
    assert main(["verify", "nosuch", "--cache-dir", str(tmp_path)]) == 2
    assert (
        capsys.readouterr().err
        == "himga: error: unknown dataset 'nosuch'; expected one of ['locomo', 'longmemeval', 'beam', 'locomo_plus', "
        "'realtalk', 'personamem']\n"
    )
    assert (
        main(["verify", "--cache-dir", str(tmp_path / "typo")]) == 2
    )  # not "no caches": exit 0 would read as all well
    assert capsys.readouterr().err == f"himga: error: --cache-dir {str(tmp_path / 'typo')!r}: no such folder\n"


def test_cli_verify_lists_leftovers_of_interrupted_builds(inp, cache_copy, capsys):
    """A build killed with SIGKILL leaves ``<hash>.incomplete``: listed (with its size and the command that removes
    it), not damage (exit 0); ``datasets`` replaces it when the same inputs are built again."""
    cache_dir, folder = cache_copy
    left = folder.with_name(folder.name + ".incomplete")
    left.mkdir()
    (left / "part.arrow").write_bytes(b"x" * 2_000_000)
    assert main(["verify", "--cache-dir", str(cache_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"ok       {folder} (")
    assert lines[1:] == [
        f"left     {left} (2.0 MB): left by an interrupted (or a running) build; nothing reads it, and the "
        f"next build of the same inputs replaces it; to free the space: rm -rf {left}"
    ]
    shutil.rmtree(folder)
    assert main(["verify", inp.name, "--cache-dir", str(cache_dir)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"no himga caches under {cache_dir}", lines[1]]


def test_cli_verify_on_a_file(tmp_path, capsys):
    (afile := tmp_path / "afile").write_text("x")
    assert main(["verify", "--cache-dir", str(afile)]) == 2
    assert capsys.readouterr().err == f"himga: error: --cache-dir {str(afile)!r} is a regular file, not a folder\n"
