"""``himga sources`` and ``himga sources --check`` against a fake remote on 127.0.0.1.

The fake server answers ``HEAD`` like the two real remotes: GitHub raw (status and Content-Length) and
the Hub's resolve endpoint (``X-Repo-Commit``, ``X-Linked-Etag`` = the LFS sha256, ``X-Linked-Size``),
so the real ``huggingface_hub.get_hf_file_metadata`` and ``urllib`` code run; ``HF_ENDPOINT`` points
the Hub client at it.
"""

from __future__ import annotations

import dataclasses
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import huggingface_hub.constants
import pytest

import himga_beam.manifest
import himga_locomo.gold
import himga_locomo.pins
import himga_locomo_plus.pins
import himga_realtalk.pins
from himga.catalog import CATALOG, benchmark
from himga.cli import main

M_ORIGINAL_SHA = "ab" * 32


class _Remote(BaseHTTPRequestHandler):
    answers: dict[str, tuple[int, dict[str, str]]] = {}

    def do_HEAD(self):
        status, headers = self.answers.get(self.path, (404, {"Content-Length": "15"}))
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()

    def log_message(self, *args):
        pass


def _serve_github(monkeypatch, base: str) -> dict[str, tuple[int, dict[str, str]]]:
    """Point LoCoMo's pin and the parts of LoCoMo-Plus's and REALTALK's pins (all on GitHub) at ``base``; their
    answers as pinned."""

    def moved(pin):
        return dataclasses.replace(pin, url=base + urlsplit(pin.url).path)

    monkeypatch.setattr(himga_locomo.pins, "PIN", moved(himga_locomo.pins.PIN))
    for module in (himga_locomo_plus.pins, himga_realtalk.pins):
        monkeypatch.setattr(
            module, "RELEASE", dataclasses.replace(module.RELEASE, parts=tuple(map(moved, module.RELEASE.parts)))
        )
    pins = [himga_locomo.pins.PIN, *himga_locomo_plus.pins.RELEASE.parts, *himga_realtalk.pins.RELEASE.parts]
    return {urlsplit(p.url).path: (200, {"Content-Length": str(p.size)}) for p in pins}


def _hub_answer(revision: str, sha256: str, size: int) -> tuple[int, dict[str, str]]:
    return 200, {
        "X-Repo-Commit": revision,
        "X-Linked-Etag": f'"{sha256}"',
        "X-Linked-Size": str(size),
        "ETag": '"deadbeef"',
        "Content-Length": "1",
    }


@pytest.fixture
def remote(monkeypatch):
    """A fake GitHub-raw + Hub server serving every pin as pinned; returns its answers dict to edit."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Remote)
    base = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_ENDPOINT", base)
    answers = _serve_github(monkeypatch, base)
    errata = himga_locomo.gold.ERRATA_PIN
    served = dataclasses.replace(errata, url=base + urlsplit(errata.url).path)
    for name in ("locomo", "locomo_plus"):
        entry = benchmark(name)
        monkeypatch.setitem(
            CATALOG, name, dataclasses.replace(entry, auxiliary=((entry.auxiliary[0][0], "errata", served),))
        )
    answers[urlsplit(errata.url).path] = (200, {"Content-Length": "150552"})
    for pin in benchmark("longmemeval").pins().values():
        path = f"/datasets/{pin.repo_id}/resolve/{pin.revision}/{pin.filename}"
        answers[path] = _hub_answer(pin.revision, pin.sha256 or M_ORIGINAL_SHA, pin.size or 2_700_000_000)
    for pin in benchmark("personamem").pins().values():  # the 32k split's two Hub files (128k, 1M: no revision)
        for part in pin.parts:
            path = f"/datasets/{part.repo_id}/resolve/{part.revision}/{part.filename}"
            answers.update({path: _hub_answer(part.revision, part.sha256, part.size)} if part.revision else {})
    monkeypatch.setattr(himga_beam.manifest, "RAW_BASE", base)  # BEAM's pinned files: GitHub raw, one per part
    for pin in benchmark("beam").pins().values():
        answers.update({urlsplit(part.url).path: (200, {"Content-Length": str(part.size)}) for part in pin.parts})
    monkeypatch.setattr(_Remote, "answers", answers)
    yield answers
    server.shutdown()
    server.server_close()


def _lines(capsys) -> dict[str, str]:
    return {line.split(": ", 1)[0]: line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines()}


def test_check_reports_every_pin_ok(remote, capsys):
    assert main(["sources", "--check"]) == 0
    assert _lines(capsys) == {
        "locomo/default "
        "locomo10.json": "ok: 2,805,274 bytes; sha256 not sent by the remote, checked on download (HTTP 200)",
        "longmemeval/s longmemeval_s_cleaned.json": "ok: 277,383,467 bytes, sha256 matches",
        "longmemeval/m longmemeval_m_cleaned.json": "ok: 2,737,100,077 bytes, sha256 matches",
        "longmemeval/oracle longmemeval_oracle.json": "ok: 15,388,478 bytes, sha256 matches",
        "longmemeval/s_original longmemeval_s": "ok: 278,025,796 bytes, sha256 matches",
        "longmemeval/m_original "
        "longmemeval_m": f"ok: 2,700,000,000 bytes; no sha256 pinned: remote sha256 {M_ORIGINAL_SHA} (pin it)",
        "longmemeval/oracle_original longmemeval_oracle": "ok: 15,388,478 bytes, sha256 matches",
        "locomo_plus/default data": "ok: 2 files, 3,111,011 bytes in all (sizes match; sha256 checked on download)",
        "realtalk/default data": "ok: 10 files, 3,295,494 bytes in all (sizes match; sha256 checked on download)",
        "locomo-audit/errata "
        "errors.json": "ok: 150,552 bytes; sha256 not sent by the remote, checked on download (HTTP 200)",
        "beam/100K chats/100K": "ok: 40 files, 13,895,659 bytes in all (sizes match; sha256 checked on download)",
        "beam/500K chats/500K": "ok: 70 files, 85,595,486 bytes in all (sizes match; sha256 checked on download)",
        "beam/1M chats/1M": "unpinned: no revision pinned (not yet confirmed): nothing to check",
        "beam/10M chats/10M": "unpinned: no revision pinned (not yet confirmed): nothing to check",
        "personamem/32k .": "ok: 2 files, 6,918,576 bytes in all (sizes match; sha256 checked on download)",
        "personamem/128k .": "unpinned: no revision pinned (not yet confirmed): nothing to check",
        "personamem/1M .": "unpinned: no revision pinned (not yet confirmed): nothing to check",
    }


def test_check_names_the_first_part_of_a_tier_that_differs(remote, capsys):
    part = benchmark("beam").pin("500K").parts[3]
    remote[next(p for p in remote if p.endswith(part.layout_path))] = (200, {"Content-Length": "7"})
    assert main(["sources", "beam", "--check"]) == 1
    assert _lines(capsys)["beam/500K chats/500K"] == (
        f"differs: {part.layout_path}: size differs: pinned {part.size:,} bytes, remote 7 bytes (HTTP 200)"
    )


def test_check_fails_on_a_404_a_changed_etag_and_a_changed_size(remote, capsys):
    locomo_path = next(p for p in remote if p.endswith("/data/locomo10.json"))
    del remote[locomo_path]
    s = benchmark("longmemeval").pins()["s"]
    remote[f"/datasets/{s.repo_id}/resolve/{s.revision}/{s.filename}"] = _hub_answer(s.revision, "cd" * 32, s.size)
    oracle = benchmark("longmemeval").pins()["oracle"]
    remote[f"/datasets/{oracle.repo_id}/resolve/{oracle.revision}/{oracle.filename}"] = _hub_answer(
        oracle.revision, oracle.sha256, 99
    )
    m = benchmark("longmemeval").pins()["m"]
    del remote[f"/datasets/{m.repo_id}/resolve/{m.revision}/{m.filename}"]
    assert main(["sources", "--check"]) == 1
    lines = _lines(capsys)
    assert lines["locomo/default locomo10.json"] == f"missing: HTTP 404 for {himga_locomo.pins.PIN.url}"
    assert (
        lines["longmemeval/s longmemeval_s_cleaned.json"]
        == f"differs: sha256 differs: pinned {s.sha256}, remote {'cd' * 32}"
    )
    assert (
        lines["longmemeval/oracle longmemeval_oracle.json"]
        == "differs: size differs: pinned 15,388,478 bytes, remote 99 bytes"
    )
    assert lines["longmemeval/m longmemeval_m_cleaned.json"].startswith("missing: HTTP 404 for http://127.0.0.1:")
    assert lines["longmemeval/s_original longmemeval_s"] == "ok: 278,025,796 bytes, sha256 matches"


def test_check_one_dataset(remote, capsys):
    assert main(["sources", "locomo", "--check"]) == 0
    assert list(_lines(capsys)) == ["locomo/default locomo10.json", "locomo-audit/errata errors.json"]


def test_check_offline_is_one_line(monkeypatch, capsys):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert main(["sources", "--check"]) == 1
    assert capsys.readouterr().out == "offline: HF_HUB_OFFLINE is set; no pin was checked (unset it to check)\n"


def test_check_with_no_remote_answering_is_one_line(monkeypatch, capsys):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # discard port: connection refused
    _serve_github(monkeypatch, "http://127.0.0.1:9")
    assert main(["sources", "--check"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("offline: no remote answered (") and out.endswith("); no pin was checked\n")
    assert out.count("\n") == 1


def test_listing_names_every_pin_and_its_local_copy(shared_data, tmp_path, monkeypatch, capsys):
    assert main(["sources", "locomo"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "locomo/default: locomo10.json",
        "  url       "
        "https://raw.githubusercontent.com/snap-research/locomo/3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376/data/locomo10.json",
        "  revision  3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376",
        "  size      2,805,274 bytes",
        "  sha256    79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4",
        "  licence   cc-by-nc-4.0",
        "  evidence  revision, size and sha256 confirmed 2026-12-01 in a clone of github.com/snap-research/LoCoMo",
        "  local     none (downloaded into $HIMGA_CACHE on first use)",
        "",
        "locomo-audit/errata: errors.json",
        "  url       "
        "https://raw.githubusercontent.com/dial481/locomo-audit/9493fb4b4af4256ed17a18e8fd0b3cfdeec29539/errors.json",
        "  revision  9493fb4b4af4256ed17a18e8fd0b3cfdeec29539",
        "  size      150,552 bytes",
        "  sha256    f298ef46263fada20688a1d672be37d4f488c6da3b19343eea55ae5c1b5fe55e",
        "  licence   cc-by-nc-4.0",
        "  evidence  revision, size and sha256 confirmed 2026-12-01 in a clone of github.com/dial481/locomo-audit",
        "  local     none (downloaded into $HIMGA_CACHE on first use)",
        *[
            line
            for version, sha, size in (
                ("v1", "a83882eda3ff02fd04dace6edddd0ceed533a245fedb3069ffde02a9503c4e3a", "656,280"),
                ("v2", "3c32acbdcf667967a4e1f9f541b06566ae5e7361dc92f79f9043af7d068adc6b", "645,227"),
            )
            for line in (
                "",
                f"locomo-audit/probe-{version}: ap-baseline/{version}/ap_eval_results_scored.json",
                "  url       "
                "https://raw.githubusercontent.com/dial481/locomo-audit/9493fb4b4af4256ed17a18e8fd0b3cfdeec29539/"
                f"ap-baseline/{version}/ap_eval_results_scored.json",
                "  revision  9493fb4b4af4256ed17a18e8fd0b3cfdeec29539",
                f"  size      {size} bytes",
                f"  sha256    {sha}",
                "  licence   cc-by-nc-4.0",
                "  evidence  revision, size and sha256 confirmed 2026-12-03 in a snapshot of "
                "github.com/dial481/locomo-audit",
                "  local     none (downloaded into $HIMGA_CACHE on first use)",
            )
        ],
    ]
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(shared_data))
    assert main(["sources"]) == 0
    out = capsys.readouterr().out
    assert f"  local     verified copy at {shared_data / 'locomo' / 'locomo10.json'}" in out.splitlines()
    assert (
        out.count("  local     none under $HIMGA_DATASETS_ROOT/longmemeval/ (it is set, so nothing is downloaded)") == 6
    )
    assert (
        "  local     verified copy at "
        f"{shared_data / 'locomo-audit' / 'ap-baseline' / 'v2' / 'ap_eval_results_scored.json'}" in out
    )
    assert f"  local     40 of 40 files, verified, at {shared_data / 'beam' / 'chats' / '100K'}/" in out.splitlines()
    assert (
        "  local     none under $HIMGA_DATASETS_ROOT/realtalk/ (it is set, so nothing is downloaded)" in out
    )  # not data/'s layout
    assert (
        f"  local     2 of 2 files at {shared_data / 'personamem'}/; questions_32k.csv: same content as "
        "bowen-upenn/PersonaMem-v1@a8076d5 (re-serialised; sha256 "
        "23f306a8d28b7ffcf133fe7dad09ade06fcb862fc7c3f19691362a5cd69409bd)" in out.splitlines()
    )  # the CSV has LF line endings, the Hub's CRLF
    assert out.count("  local     none: no pinned revision to download; a copy is read with --data-dir") == 2
    assert (
        out.count("\n\n") == 18
    )  # 19 blocks: seven LoCoMo and LongMemEval files, BEAM's four tiers, LoCoMo-Plus's and
    # REALTALK's data/ folders, LoCoMo's errata and two probe files (LoCoMo-Plus reads the same: listed once),
    # PersonaMem's three splits


def test_listing_a_modified_copy_under_datasets_root(shared_data, tmp_path, monkeypatch, capsys):
    (tmp_path / "locomo").mkdir()
    copy = tmp_path / "locomo" / "locomo10.json"
    copy.write_bytes((shared_data / "locomo" / "locomo10.json").read_bytes()[:-1])
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path))
    assert main(["sources", "locomo"]) == 0
    assert capsys.readouterr().out.splitlines()[7] == (
        f"  local     {copy}: differs from the pinned locomo10.json: a modified copy or another release "
        "(2,805,273 bytes, pinned 2,805,274)"
    )
