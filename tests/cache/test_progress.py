"""himga.cache._progress: datasets' split bar appears once rows are written and is erased on failure."""

from __future__ import annotations

import io

import datasets
import datasets.builder
import pytest

from himga.cache._progress import RowsProgress, rows_progress


def _bar(out: io.StringIO) -> RowsProgress:
    return RowsProgress(unit=" examples", desc="Generating test split", file=out, mininterval=0)


def test_nothing_before_the_first_row_even_when_the_build_fails(progress_bars_on):
    out = io.StringIO()
    with pytest.raises(ValueError), _bar(out):
        raise ValueError("bad source")
    assert out.getvalue() == ""


def test_rows_written_then_failure_leaves_no_bar(progress_bars_on):
    visible = progress_bars_on
    out = io.StringIO()
    with pytest.raises(ValueError), _bar(out) as bar:
        bar.update(3)
        assert "Generating test split: 3 examples" in out.getvalue()  # shown while rows are written
        raise ValueError("bad record")
    assert visible(out.getvalue()) == []


def test_success_keeps_the_final_bar(progress_bars_on):
    visible = progress_bars_on
    out = io.StringIO()
    with _bar(out) as bar:
        bar.update(5)
    assert len(visible(out.getvalue())) == 1 and visible(out.getvalue())[0].startswith(
        "Generating test split: 5 examples"
    )


def test_disabled_bars_stay_silent():
    out = io.StringIO()
    with _bar(out) as bar:
        bar.update(5)
    assert out.getvalue() == ""


def test_the_swap_is_scoped():
    original = datasets.builder.hf_tqdm
    with rows_progress():
        assert datasets.builder.hf_tqdm is RowsProgress
    assert datasets.builder.hf_tqdm is original
    with pytest.raises(KeyError), rows_progress():
        raise KeyError("x")
    assert datasets.builder.hf_tqdm is original


# --- the pinned file's known row count is the bar's total ---------------------------------


def test_the_pinned_files_bar_has_a_total(shared_data, tmp_path, capfd, progress_bars_on):
    from himga.data import load_locomo

    visible = progress_bars_on
    load_locomo(shared_data / "locomo" / "locomo10.json", cache_dir=tmp_path / "a")  # the pinned file (2,805,274 bytes)
    (bar,) = [line for line in visible(capfd.readouterr().err) if line.startswith("Generating test split")]
    assert bar.startswith("Generating test split: 100%|") and "| 10/10 [" in bar
    edited = tmp_path / "locomo10.json"
    edited.write_bytes((shared_data / "locomo" / "locomo10.json").read_bytes() + b"\n")  # another size: count unknown
    load_locomo(edited, cache_dir=tmp_path / "b")
    (bar,) = [line for line in visible(capfd.readouterr().err) if line.startswith("Generating test split")]
    assert bar.startswith("Generating test split: 10 examples [")


def test_split_generator_total_only_for_one_file_of_the_pinned_size(tmp_path):
    from himga.cache import split_generator
    from himga.sources import RemoteFile

    pin = RemoteFile("x.json", "https://example.invalid/x.json", None, size=5, rows=500)
    (tmp_path / "x.json").write_bytes(b"[1,2]")
    (tmp_path / "y.json").write_bytes(b"[1, 2]")
    assert split_generator([tmp_path / "x.json"], pin).split_info.num_examples == 500
    assert split_generator([tmp_path / "y.json"], pin).split_info.num_examples == 0
    assert split_generator([tmp_path / "x.json", tmp_path / "x.json"], pin).split_info.num_examples == 0
    assert split_generator([tmp_path / "x.json"], RemoteFile("x.json", "u", None)).split_info.num_examples == 0
