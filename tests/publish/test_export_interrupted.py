"""An interrupted ``himga export`` never looks complete.

Interrupted at every stage (inside the Parquet writer, between configs, at each rename of the commit;
by an exception, by a SIGINT the process sends itself, and by a SIGINT from outside), the export folder
must give, through ``datasets.load_dataset``, either an error or exactly the rows of a complete export:
the previous one under the previous card, or (once the commit's renames have begun) the new one under
the new card. Running the export again must give exactly the files of a fresh export.

Before the fix, an export interrupted in its first config left a valid Parquet file with the rows
written so far, and ``load_dataset(OUT)`` returned them; interrupted in the second config, it returned
the first config's rows plus the second's partial ones, all in one split.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest
from realdata import SHARED_DATA

import himga.publish._export_folder
from himga.publish import export

SAMPLE = SHARED_DATA / "longmemeval" / "longmemeval_oracle_sample.json"  # 97 questions
PAIR = SHARED_DATA / "longmemeval" / "longmemeval_oracle_pair.json"  # 2 questions
CONFIGS = ["oracle", "oracle_original"]
SMALL = {"row_group_bytes": 100_000, "num_shards": 3}  # 3 shards of 33/32/32 rows per config
TOTAL_WRITES = 66  # ParquetWriter.write_table calls of an export of CONFIGS from SAMPLE with SMALL


class Interrupt(KeyboardInterrupt):
    """Raised by the test hooks; a KeyboardInterrupt, as Ctrl-C gives."""


def _load(out: Path, tmp: Path, *config: str) -> list[dict] | None:
    """The rows ``datasets.load_dataset(out, *config)`` returns (as JSON values), or ``None`` if it fails."""
    cache = tmp / f"load_cache_{time.monotonic_ns()}"  # fresh each time: never a cached earlier state
    try:
        ds = datasets.load_dataset(str(out), *config, split="test", cache_dir=str(cache))
    # no data files at all / no such config on the card / a config on the card whose folder is missing
    # (datasets then reads 0 rows, and the card's recorded split size makes that an error)
    except (FileNotFoundError, ValueError, datasets.exceptions.SplitsVerificationError):
        return None
    return json.loads(json.dumps(list(ds)))


def _visible(out: Path) -> dict[str, bytes]:
    """Every file of ``out`` that is not hidden, with its bytes."""
    return {
        str(p.relative_to(out)): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(out).parts)
    }


def _count_writes(monkeypatch, tmp_path: Path) -> int:
    calls = []
    real = pq.ParquetWriter.write_table
    with monkeypatch.context() as m:
        m.setattr(pq.ParquetWriter, "write_table", lambda self, *a, **k: (calls.append(1), real(self, *a, **k))[1])
        export("longmemeval", tmp_path / "count", CONFIGS, data_dir=SAMPLE, **SMALL)
    return len(calls)


def _interrupt_writer_at(monkeypatch, call: int) -> None:
    """Make the ``call``-th ``ParquetWriter.write_table`` raise (the writer still closes and writes its footer)."""
    real = pq.ParquetWriter.write_table
    count = [0]

    def write_table(self, *args, **kwargs):
        count[0] += 1
        if count[0] == call:
            raise Interrupt(f"write_table call {call}")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(pq.ParquetWriter, "write_table", write_table)


@pytest.fixture
def fresh(shared_data, tmp_path):
    """Per source: the files of a fresh export of both configs, and its rows per config."""
    result = {}
    for source in (SAMPLE, PAIR):
        out = tmp_path / f"fresh_{source.stem}"
        export("longmemeval", out, CONFIGS, data_dir=source, **SMALL)
        result[source] = (_visible(out), {c: _load(out, tmp_path, c) for c in CONFIGS})
    assert [len(result[SAMPLE][1][c]) for c in CONFIGS] == [97, 97]
    assert [len(result[PAIR][1][c]) for c in CONFIGS] == [2, 2]
    return result


def test_interrupted_first_export_leaves_nothing_loadable(fresh, tmp_path, monkeypatch):
    total = _count_writes(monkeypatch, tmp_path)
    assert total == TOTAL_WRITES
    for call in (1, total // 4, total // 2 + 1, total):  # config 1: first, mid; config 2: first, last write
        out = tmp_path / f"out_{call}"
        with monkeypatch.context() as m:
            _interrupt_writer_at(m, call)
            with pytest.raises(Interrupt):
                export("longmemeval", out, CONFIGS, data_dir=SAMPLE, **SMALL)
        assert _visible(out) == {}, call
        assert sorted(p.name for p in out.iterdir()) == []  # staging folder removed, and no lock file in the export
        for config in ((), ("oracle",), ("oracle_original",)):
            assert _load(out, tmp_path, *config) is None, (call, config)
        export("longmemeval", out, CONFIGS, data_dir=SAMPLE, **SMALL)  # re-run: exactly a fresh export
        assert _visible(out) == fresh[SAMPLE][0], call


def test_interrupted_re_export_keeps_the_previous_export(fresh, tmp_path, monkeypatch):
    total = _count_writes(monkeypatch, tmp_path)
    out = tmp_path / "out"
    export("longmemeval", out, ["oracle"], data_dir=PAIR, **SMALL)
    previous_files = _visible(out)
    previous_rows = _load(out, tmp_path)
    assert previous_rows == fresh[PAIR][1]["oracle"]
    for call in (1, total // 2 + 1, total):
        with monkeypatch.context() as m:
            _interrupt_writer_at(m, call)
            with pytest.raises(Interrupt):
                export("longmemeval", out, CONFIGS, data_dir=SAMPLE, **SMALL)
        assert _visible(out) == previous_files, call
        assert _load(out, tmp_path) == _load(out, tmp_path, "oracle") == previous_rows, call
        assert _load(out, tmp_path, "oracle_original") is None, call
    export("longmemeval", out, CONFIGS, data_dir=SAMPLE, **SMALL)
    assert _visible(out) == fresh[SAMPLE][0]


def test_interrupted_commit_never_mixes_card_and_data(fresh, tmp_path, monkeypatch):
    """Interrupted before each rename of the commit: the card and each config's data agree, always."""
    real_replace = os.replace
    for call in (1, 2, 3, 4):  # oracle's old folder out, the card in, oracle in, oracle_original in
        out = tmp_path / f"out_{call}"
        export("longmemeval", out, ["oracle"], data_dir=PAIR, **SMALL)
        previous_card = (out / "README.md").read_bytes()
        count = [0]

        def replace(src, dst, *, _out=out, _call=call, _count=count):
            if Path(src).is_relative_to(_out):
                _count[0] += 1
                if _count[0] == _call:
                    raise Interrupt(f"rename {_count[0]}: {src} -> {dst}")
            return real_replace(src, dst)

        with monkeypatch.context() as m:
            m.setattr(himga.publish._export_folder.os, "replace", replace)
            with pytest.raises(Interrupt):
                export("longmemeval", out, CONFIGS, data_dir=SAMPLE, **SMALL)
        card = (out / "README.md").read_bytes()
        if call <= 2:  # card not replaced: the renames before it are undone, the previous export is whole
            assert card == previous_card
            assert _load(out, tmp_path, "oracle") == fresh[PAIR][1]["oracle"]
        else:  # the new card; each config is absent or exactly the new export's, as far as the renames got
            assert card == fresh[SAMPLE][0]["README.md"]
            assert _load(out, tmp_path, "oracle") == (None if call == 3 else fresh[SAMPLE][1]["oracle"])
        assert _load(out, tmp_path, "oracle_original") is None
        export("longmemeval", out, CONFIGS, data_dir=SAMPLE, **SMALL)
        assert _visible(out) == fresh[SAMPLE][0], call


_SELF_SIGINT = """
import os, signal, sys
import pyarrow.parquet as pq
real, count = pq.ParquetWriter.write_table, [0]
def write_table(self, *args, **kwargs):
    count[0] += 1
    if count[0] == {call}:
        os.kill(os.getpid(), signal.SIGINT)  # a real signal: KeyboardInterrupt unwinds through the writer
    return real(self, *args, **kwargs)
pq.ParquetWriter.write_table = write_table
from himga.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _cli(
    tmp_path: Path, *args: str, code: str = "from himga.cli import main; import sys; sys.exit(main(sys.argv[1:]))"
):
    env = dict(
        os.environ,
        HF_DATASETS_CACHE=str(tmp_path / "cli_cache"),
        HF_HUB_OFFLINE="1",
        HF_DATASETS_DISABLE_PROGRESS_BARS="1",
    )
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _export_args(out: Path) -> list[str]:
    return [
        "export",
        "longmemeval",
        str(out),
        "--config",
        "oracle",
        "--config",
        "oracle_original",
        "--data-dir",
        str(SAMPLE),
    ]


def test_sigint_in_the_second_config_of_a_cli_export(fresh, tmp_path):
    """The issue's case: SIGINT while the second config is written, on the command line."""
    out = tmp_path / "out"
    done = _cli(
        tmp_path, *_export_args(out), code=_SELF_SIGINT.format(call=17)
    )  # default sizes: 16 shards of one write per config
    _, err = done.communicate(timeout=300)
    assert done.returncode in (130, -signal.SIGINT), err[-2000:]
    assert err.endswith("himga: interrupted\n")  # one line, no traceback
    assert _visible(out) == {}
    assert _load(out, tmp_path) is None and _load(out, tmp_path, "oracle") is None
    assert subprocess.run([sys.executable, "-m", "himga.cli", *_export_args(out)], capture_output=True).returncode == 0
    assert sorted(_visible(out)) == ["README.md"] + [
        f"data/{c}/test-{i:05d}-of-00016.parquet" for c in CONFIGS for i in range(16)
    ]
    assert (out / "README.md").read_bytes() == fresh[SAMPLE][0]["README.md"]  # the card does not depend on shard sizes
    assert {c: _load(out, tmp_path, c) for c in CONFIGS} == fresh[SAMPLE][1]


def test_sigint_from_outside_during_an_export(fresh, tmp_path):
    """A SIGINT sent by another process once the export has started writing (staging folder present)."""
    out = tmp_path / "out"
    export("longmemeval", out, ["oracle"], data_dir=PAIR)
    previous_card, previous_rows = (out / "README.md").read_bytes(), _load(out, tmp_path)
    run = _cli(tmp_path, *_export_args(out))
    deadline = time.monotonic() + 120
    while not (out / ".himga-export.incomplete").exists():
        assert run.poll() is None and time.monotonic() < deadline, "the export finished or never started staging"
        time.sleep(0.005)
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=300)
    assert run.returncode in (130, -signal.SIGINT), err[-2000:]
    card = (out / "README.md").read_bytes()
    assert card in (previous_card, fresh[SAMPLE][0]["README.md"])
    if card == previous_card:
        assert _load(out, tmp_path) == previous_rows  # the default config: oracle, the only one on the card
        assert _load(out, tmp_path, "oracle_original") is None
    else:
        for config in CONFIGS:
            assert _load(out, tmp_path, config) in (None, fresh[SAMPLE][1][config])
    export("longmemeval", out, CONFIGS, data_dir=SAMPLE, **SMALL)
    assert _visible(out) == fresh[SAMPLE][0]
