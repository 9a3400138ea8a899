"""Issue 17 §3: every offline switch huggingface_hub or datasets honours stops a download at once, on every route,
with the message HF_HUB_OFFLINE=1 gives (himga.sources._offline.offline_switch decides, for downloads, pin checks and
push)."""

from __future__ import annotations

import socket

import datasets
import huggingface_hub
import huggingface_hub.constants
import huggingface_hub.file_download
import pytest

import himga  # noqa: F401  (registers the builders)
from himga.cli import main
from himga.cli._sources import check_pins
from himga.data import load_dataset
from himga.errors import DownloadError, UploadError
from himga.publish import push
from himga.sources import cache_root, offline_switch

_REAL = {
    "connect": socket.socket.connect,
    "create_connection": socket.create_connection,
    "http_get": huggingface_hub.file_download.http_get,
    "hf_hub_download": huggingface_hub.hf_hub_download,
}


@pytest.fixture(autouse=True)
def no_network(monkeypatch, tmp_path):
    """Any network attempt fails the test (and a fresh, empty $HIMGA_CACHE)."""
    monkeypatch.setenv("HIMGA_CACHE", str(tmp_path / "himga_cache"))

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args[:2]}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(huggingface_hub.file_download, "http_get", refuse)
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", refuse)


SWITCHES = [
    ("HF_HUB_OFFLINE", "1"),
    ("HF_DATASETS_OFFLINE", "1"),
    ("HF_DATASETS_OFFLINE", "true"),
    ("TRANSFORMERS_OFFLINE", "1"),
    ("HF_DATASETS_OFFLINE", "ON"),
    ("HF_HUB_OFFLINE", "yes"),
]


@pytest.mark.parametrize(("switch", "value"), SWITCHES)
def test_each_switch_is_seen(monkeypatch, switch, value):
    monkeypatch.setenv(switch, value)
    assert offline_switch() == switch


@pytest.mark.parametrize("value", ["0", "false", "", "no", "off"])
def test_a_switch_set_off_is_not_offline(monkeypatch, value):
    for switch in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(switch, value)
    assert offline_switch() is None


def test_the_libraries_copies_are_seen(monkeypatch):
    """Set by code (or read at the libraries' import, before a later unset)."""
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    assert offline_switch() == "HF_DATASETS_OFFLINE"
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    assert offline_switch() == "HF_HUB_OFFLINE"


def _expected(name: str, file: str, switch: str) -> str:
    return f"{file}: not in {cache_root() / name} and {switch} is set; download "


ROUTES = {
    "load_dataset": lambda name, cfg: load_dataset(name, *cfg),
    "datasets.load_dataset": lambda name, cfg: datasets.load_dataset(f"himga_{name}", *cfg, split="test"),
    "streaming": lambda name, cfg: datasets.load_dataset(f"himga_{name}", *cfg, split="test", streaming=True),
}


@pytest.mark.parametrize("route", list(ROUTES))
@pytest.mark.parametrize(
    ("switch", "value"), [("HF_HUB_OFFLINE", "1"), ("HF_DATASETS_OFFLINE", "1"), ("TRANSFORMERS_OFFLINE", "true")]
)
@pytest.mark.parametrize(
    ("name", "config", "file"),
    [("locomo", [], "locomo10.json"), ("longmemeval", ["oracle"], "longmemeval_oracle.json")],
)
def test_every_route_stops_at_once(monkeypatch, route, switch, value, name, config, file):
    monkeypatch.setenv(switch, value)
    with pytest.raises(DownloadError) as caught:
        ROUTES[route](name, config)
    assert str(caught.value).startswith(_expected(name, file, switch))
    assert not (cache_root() / name).exists() or not any((cache_root() / name).iterdir())


@pytest.mark.parametrize(
    ("switch", "value"), [("HF_HUB_OFFLINE", "1"), ("HF_DATASETS_OFFLINE", "1"), ("TRANSFORMERS_OFFLINE", "1")]
)
def test_the_cli_prints_the_same_one_line(monkeypatch, capsys, switch, value):
    monkeypatch.setenv(switch, value)
    assert main(["build", "longmemeval", "--config", "oracle"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("himga: error: " + _expected("longmemeval", "longmemeval_oracle.json", switch))
    assert err.count("\n") == 1


def test_pin_check_and_push_name_the_switch(monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    assert check_pins(["locomo"]) == (
        ["offline: HF_DATASETS_OFFLINE is set; no pin was checked (unset it to check)"],
        False,
    )
    with pytest.raises(UploadError, match="^cannot push to me/locomo: HF_DATASETS_OFFLINE is set$"):
        push("locomo", "me/locomo")


# --- no switch and no network: one clear line -------------------------------------------


_NO_DNS = """
import socket, sys, time
def no_dns(*args, **kwargs):
    raise socket.gaierror(-3, "Temporary failure in name resolution")
socket.getaddrinfo = no_dns
time.sleep = lambda seconds: None  # the library's back-off, not the subject here
from himga.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize(
    ("argv", "file"),
    [
        (["build", "locomo"], "locomo10.json"),
        (["build", "longmemeval", "--config", "oracle"], "longmemeval_oracle.json"),
    ],
)
def test_no_network_prints_one_line(tmp_path, argv, file):
    name = argv[1]
    """The real huggingface_hub download code in a fresh interpreter, every name look-up failing (a machine
    without network): its per-retry warnings ("Error while downloading ...", "Trying to resume download...",
    "Retrying in 1s") stay hidden; the one line says what failed and where to put a copy."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, HIMGA_CACHE=str(tmp_path / "himga"), HF_DATASETS_CACHE=str(tmp_path / "hf"))
    done = subprocess.run([sys.executable, "-c", _NO_DNS, *argv], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"himga: error: {file}: could not download ")
    assert done.stderr.endswith(
        f"put it in {tmp_path / 'himga' / name}/ (a copy there that has the pinned sha256 is used and not downloaded "
        "again), "
        f"or in <dir>/{name}/ after `export HIMGA_DATASETS_ROOT=<dir>`, or pass --data-dir / data_dir= pointing at it\n"
    )
