"""Where the cold build's CPU goes: each stage of its pipeline timed in one process (CPU seconds).

Usage (from the project root): ``python benchmarks/build_stages.py benchmarks/out/s.json``

Runs the LongMemEval build's pipeline on the file in one process, without ``datasets`` around it: the
reader's fast path (``himga.jsonio._fast.array_items``) with each of its steps wrapped in a CPU timer,
``question_to_row``, the Arrow batches of 10 questions (``himga.cache.rows_to_table``) and an in-memory Arrow
stream. Prints one JSON object: seconds per stage, the total, and what no stage covers (the reader's own
buffering, the generator, freeing objects). The build of row (3) of ``benchmarks/run.py`` shares this work
between two processes (``himga.jsonio._beside``): the check process splits the file and runs the walk, the
canonical text, the colon counts and the fingerprint's sha256; the build's own process parses each item
again, hashes the file (provenance) and does the rest, including the UTF-8 encoding of every string that
the canonical text would otherwise have left cached for pyarrow (so its rows -> Arrow costs more there).
"""

from __future__ import annotations

import gc
import hashlib
import json
import sys
import time
from collections import defaultdict

import pyarrow as pa

from himga.cache import rows_to_table
from himga.jsonio import _fast
from himga_longmemeval.records import question_to_row

SECONDS: dict[str, float] = defaultdict(float)


def timed(name: str, function):
    """``function`` with its CPU time added to ``SECONDS[name]``."""

    def run(*args, **kwargs):
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            SECONDS[name] += time.process_time() - start

    return run


class _Timed:
    """A msgspec decoder whose ``decode`` is timed."""

    def __init__(self, name: str, decoder) -> None:
        self.decode = timed(name, decoder.decode)


class _HashedReader:
    """The source file, every byte read fed to a sha256 (the provenance digest), timed."""

    def __init__(self, f, digest) -> None:
        self._f, self._update = f, timed("provenance sha256", digest.update)

    def read(self, n: int = -1) -> bytes:
        data = self._f.read(n)
        self._update(data)
        return data


def main(path: str) -> None:
    _fast._RAW = _Timed("split (msgspec.Raw)", _fast._RAW)
    _fast._DECODER = _Timed("parse (msgspec)", _fast._DECODER)
    _fast._tree_ok = timed("depth and integers (walk)", _fast._tree_ok)
    _fast.canonical = timed("canonical text (orjson)", _fast.canonical)
    _fast._same_keys = timed("duplicate keys (colon counts)", _fast._same_keys)
    content = timed("content fingerprint sha256", hashlib.sha256().update)
    row = timed("question -> row", question_to_row)
    table = timed("rows -> Arrow", rows_to_table)
    write = timed("Arrow stream write", lambda writer, batch: writer.write_table(batch))
    gc.disable()  # as the builder does (himga.cache._arrow_batches)
    start = time.process_time()
    sink, writer, rows = pa.BufferOutputStream(), None, []
    with open(path, "rb") as f:
        for item in _fast.array_items(_HashedReader(f, hashlib.sha256()), 63, content):
            rows.append(row(item, file="s.json", path="$[0]"))
            if len(rows) == 10:
                batch, rows = table(rows), []
                writer = writer or pa.ipc.new_stream(sink, batch.schema)
                write(writer, batch)
    total = time.process_time() - start
    result = {name: round(seconds, 3) for name, seconds in SECONDS.items()}
    print(json.dumps({**result, "total": round(total, 3), "other": round(total - sum(SECONDS.values()), 3)}))


if __name__ == "__main__":
    main(sys.argv[1])
