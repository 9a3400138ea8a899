"""`himga stats … --plot FILE.png` and himga.stats.plot: a valid PNG of the expected size, and the errors."""

from __future__ import annotations

import struct
import sys

import pytest

from himga.cli import main
from himga.data import EvidenceRef, Message, QAPair, QuestionType, Sample, Session
from himga.errors import ConfigurationError, HimgaError, MissingDependencyError
from himga.stats.plot import MAX_BARS, plot_stats

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from the IHDR chunk, which a PNG must start with."""
    assert data[:8] == PNG_MAGIC
    length, kind = struct.unpack(">I4s", data[8:16])
    assert (length, kind) == (13, b"IHDR")
    return struct.unpack(">II", data[16:24])


def test_stats_plot_locomo(shared_data, tmp_path, capsys):
    out = tmp_path / "locomo.png"
    status = main(
        [
            "stats",
            "locomo",
            "--data-dir",
            str(shared_data / "locomo"),
            "--cache-dir",
            str(tmp_path / "c"),
            "--plot",
            str(out),
        ]
    )
    assert status == 0
    stdout = capsys.readouterr().out
    assert "QA pairs                    1,986" in stdout
    assert stdout.rstrip().endswith(f"wrote {out}")
    data = out.read_bytes()
    assert _png_size(data) == (1320, 935)  # 12 x 8.5 inches at 110 dpi
    assert len(data) > 10_000
    assert data.endswith(b"IEND\xaeB`\x82")


def _synthetic(n: int) -> list[Sample]:
    types = list(QuestionType)
    return [
        Sample(
            f"q{i}",
            "longmemeval",
            [Session(f"s{j}", [Message("user", "x")] * (1 + (i * j) % 7)) for j in range(1 + i % 9)],
            [QAPair(f"q{i}", "?", "a", types[5 + i % 6], EvidenceRef(session_ids=["s0"]))],
        )
        for i in range(n)
    ]


def test_histograms_for_many_samples(tmp_path):
    out = plot_stats(_synthetic(MAX_BARS + 60), tmp_path / "many.png", title="synthetic")
    data = out.read_bytes()
    assert _png_size(data) == (1320, 935)
    assert len(data) > 10_000


def test_missing_matplotlib_says_how_to_install(shared_data, published_runs, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes `import matplotlib` raise ImportError
    with pytest.raises(MissingDependencyError, match=r"pip install 'himga\[plot\]'"):
        plot_stats(_synthetic(2), tmp_path / "x.png")
    out = tmp_path / "never.png"
    status = main(["stats", "locomo", "--data-dir", str(shared_data / "locomo"), "--plot", str(out)])
    assert status == 2
    assert capsys.readouterr().err == (
        "himga: error: drawing a plot needs matplotlib, which is not installed: pip install 'himga[plot]'\n"
    )
    assert not out.exists()
    fc = published_runs / "dial481__locomo-audit/fc-baseline/results/gpt-4.1-mini-cot/eval_results.json"
    status = main(["compare", str(fc), "--data-dir", str(shared_data / "locomo"), "--plot", str(out)])
    assert status == 2
    captured = capsys.readouterr()  # before any run is read: no table printed
    assert (captured.out, captured.err) == (
        "",
        "himga: error: drawing a plot needs matplotlib, which is not installed: pip install 'himga[plot]'\n",
    )


def test_bad_targets(tmp_path):
    with pytest.raises(ConfigurationError, match=r"expected a name ending in \.png, got '.*stats\.svg'"):
        plot_stats(_synthetic(2), tmp_path / "stats.svg")
    with pytest.raises(ConfigurationError, match="nothing to plot: no samples"):
        plot_stats([], tmp_path / "empty.png")
    with pytest.raises(HimgaError, match="cannot write the plot to '.*missing/x.png': No such file or directory"):
        plot_stats(_synthetic(2), tmp_path / "missing" / "x.png")
