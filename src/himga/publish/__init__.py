"""Publishing: a Hub-ready export (Parquet and the dataset card), its card, reading an export back, and the
labels of its source files.

:mod:`.export` (``himga export`` and ``himga push``), :mod:`.card` (the dataset card ``README.md``),
:mod:`.read_export` (an export folder's configs and shard records; the check before a push),
:mod:`.source_labels` (which configs an export is labelled with, and whether its files are the pinned ones).
"""
