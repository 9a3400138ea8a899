"""himga.build.progress: datasets' split bar appears once rows are written and is erased on failure."""

from __future__ import annotations

import io

import datasets
import datasets.builder
import pytest

from himga.build.progress import RowsProgress, rows_progress


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
    assert len(visible(out.getvalue())) == 1 and visible(out.getvalue())[0].startswith("Generating test split: 5 examples")


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
