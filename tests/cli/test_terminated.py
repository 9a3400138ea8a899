"""SIGTERM (what ``kill``, ``timeout`` and job schedulers send) stops a command as Ctrl-C does: one line, nothing
cached, no ``.incomplete`` folder left behind (a SIGKILL'ed build's leftover is listed by ``himga verify``)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from helpers.tiny_sources import tiny_locomo

# A build that yields its first row, then waits: the test sends SIGTERM while the .incomplete folder exists.
_SLOW_BUILD = """
import sys, time
import himga_locomo.locomo as builder
real = builder.Locomo._generate_examples
def slow(self, *args, **kwargs):
    for item in real(self, *args, **kwargs):
        yield item
        time.sleep(60)
builder.Locomo._generate_examples = slow
from himga.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_sigterm_during_a_build_leaves_nothing(tmp_path):
    src = tiny_locomo(tmp_path / "src")
    cache = tmp_path / "cache"
    run = subprocess.Popen([sys.executable, "-c", _SLOW_BUILD, "build", "locomo", "--data-dir", str(src), "--cache-dir", str(cache)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={"HF_DATASETS_DISABLE_PROGRESS_BARS": "1",
                                                                                         "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    deadline = time.monotonic() + 120
    while not list(cache.rglob("*.incomplete/*.arrow")) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert list(cache.rglob("*.incomplete")), "the build never started"
    time.sleep(0.5)  # inside the sleep after the first row
    run.send_signal(signal.SIGTERM)
    out, err = run.communicate(timeout=120)
    assert (run.returncode, err) == (143, "himga: terminated\n")
    assert not list(cache.rglob("*.incomplete")) and not list(cache.rglob("dataset_info.json"))
