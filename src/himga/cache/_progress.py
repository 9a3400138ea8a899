"""The build's progress bar: ``datasets``' own, shown once rows are written and erased if the build fails.

``datasets`` opens its "Generating test split" bar before the first row is generated, so a source file
that fails at once still prints ``Generating test split: 0 examples`` above the error. Here the same bar
(``datasets.utils.tqdm.tqdm``, so ``datasets.disable_progress_bars()`` and
``HF_DATASETS_DISABLE_PROGRESS_BARS`` still rule) stays hidden until rows are written, and a build that
fails after that leaves no bar behind.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path

import datasets.builder
from datasets.utils.tqdm import tqdm as datasets_tqdm

__all__ = ["RowsProgress", "rows_progress", "split_generator"]


class RowsProgress(datasets_tqdm):
    """``datasets``' progress bar, displayed from the first written row on and cleared on failure."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("delay", float("inf"))  # tqdm shows nothing until the delay has passed
        super().__init__(*args, **kwargs)

    def update(self, n: float | None = 1) -> bool | None:
        if n and getattr(self, "delay", 0):  # rows are being written: display from now on (no delay: disabled)
            self.delay = 0
        return super().update(n)

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        if exc_type is not None:
            self.leave = False  # a failed build: erase the bar (nothing is cached either)
        return super().__exit__(exc_type, exc_value, traceback)


@contextlib.contextmanager
def rows_progress() -> Iterator[None]:
    """Within the block, ``datasets``' builders show :class:`RowsProgress` as their split progress bar.

    Replaces ``datasets.builder.hf_tqdm`` (the name ``datasets`` 5.x builders use for the bar) and
    restores it on exit; where that name is missing, ``datasets``' own bar is left alone.
    """
    if not hasattr(datasets.builder, "hf_tqdm"):
        yield
        return
    original = datasets.builder.hf_tqdm
    datasets.builder.hf_tqdm = RowsProgress
    try:
        yield
    finally:
        datasets.builder.hf_tqdm = original


def split_generator(files: Sequence[str | Path], pin) -> datasets.SplitGenerator:
    """The builders' one ``test`` split over ``files``, with the bar's total when it is known.

    The total is ``pin.rows`` (a :class:`himga.sources.RemoteFile`) when the files read are as many as the pin's
    and have their size in total (a stat, no read): ``Generating test split: 100%|…| 500/500 [00:03<00:00, …]``
    with the time left. Any other source shows a count without a total, as before (its row count is unknown).
    ``datasets`` replaces the number by the rows actually written once the split is built.
    """
    split = datasets.SplitGenerator(name=datasets.Split.TEST, gen_kwargs={"files": tuple(str(f) for f in files)})
    if (
        pin.rows
        and pin.size is not None
        and len(files) == len(pin.files)
        and sum(Path(f).stat().st_size for f in files) == pin.size
    ):
        split.split_info.num_examples = pin.rows
    return split
