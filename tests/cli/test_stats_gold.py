"""``himga stats locomo --gold audited``: how many QA pairs the audit changes, on the real files."""

from __future__ import annotations

import os

import pytest

from himga.cli import main


def test_stats_gold_audited(shared_data, tmp_path, capsys):
    errata = shared_data / "locomo-audit" / "errors.json"
    if not errata.is_file():
        pytest.fail(f"no {errata}") if os.environ.get("CI") else pytest.skip(f"real data not found at {errata}")
    argv = [
        "stats",
        "locomo",
        "--data-dir",
        str(shared_data / "locomo"),
        "--cache-dir",
        str(tmp_path),
        "--gold",
        "audited",
        "--errata",
        str(errata),
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(out) if line.startswith("gold: "))
    assert out[start:] == [
        "gold: audited (errors.json, sha256 f298ef46263fada20688a1d672be37d4f488c6da3b19343eea55ae5c1b5fe55e)",
        "  QA pairs corrected            156 of 1,986",
        "  answer changed                120",
        "  evidence changed               97",
        "  corrected by category:",
        "    category 4                        57",
        "    category 1                        53",
        "    category 2                        36",
        "    category 3                        10",
        "  corrected by error type:",
        "    WRONG_CITATION                    57",
        "    HALLUCINATION                     33",
        "    TEMPORAL_ERROR                    26",
        "    ATTRIBUTION_ERROR                 24",
        "    AMBIGUOUS                         13",
        "    INCOMPLETE                         3",
        "source: locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok",
        "errata: errors.json = dial481/locomo-audit@9493fb4, sha256 ok",
    ]
    capsys.readouterr()
    assert main(["build", *argv[1:]]) == 0  # the build names the same two files
    assert capsys.readouterr().out.splitlines()[1:] == [
        "source: locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok",
        "errata: errors.json = dial481/locomo-audit@9493fb4, sha256 ok",
    ]


def test_gold_is_a_locomo_option(capsys):
    assert main(["stats", "longmemeval", "--gold", "audited"]) == 2
    assert capsys.readouterr().err == "himga: error: longmemeval: --gold applies to locomo, locomo_plus only\n"


def test_the_errata_download_hint_names_the_errata_option(tmp_path):  # probe B5
    from himga.sources import where_to_put
    from himga_locomo.gold import ERRATA_PIN

    assert where_to_put(ERRATA_PIN, tmp_path / "locomo-audit") == (
        f"download {ERRATA_PIN.url} yourself and put it in {tmp_path / 'locomo-audit'}/ (a copy there that has the "
        "pinned sha256"
        " is used and not downloaded again), or in <dir>/locomo-audit/ after `export HIMGA_DATASETS_ROOT=<dir>`, or "
        "pass --errata / errata= "
        "pointing at it"
    )


def test_an_errata_folder_is_named_a_folder(shared_data, tmp_path, capsys):  # probe B6
    folder = tmp_path / "dir ü"
    folder.mkdir()
    assert (
        main(
            [
                "stats",
                "locomo",
                "--data-dir",
                str(shared_data / "locomo"),
                "--gold",
                "audited",
                "--errata",
                str(folder),
                "--cache-dir",
                str(tmp_path / "c"),
            ]
        )
        == 2
    )
    assert (
        capsys.readouterr().err
        == f"himga: error: locomo: errata file {str(folder)!r} is a directory, expected a file\n"
    )


def test_the_probe_download_hint_names_the_ways_that_work(tmp_path):
    """The probe files are no builder option: found in their folder only (no --errata, which is another file)."""
    from himga.sources import where_to_put
    from himga_locomo.probe import PROBE_PINS

    pin = PROBE_PINS["v1"]
    assert where_to_put(pin, tmp_path / "locomo-audit") == (
        f"download {pin.url} yourself and put it in {tmp_path / 'locomo-audit' / 'ap-baseline' / 'v1'}/ (a copy there "
        "that has the "
        "pinned sha256 is used and not downloaded again), or in <dir>/locomo-audit/ap-baseline/v1/ and "
        "`export HIMGA_DATASETS_ROOT=<dir>`"
    )
