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
    run = subprocess.Popen(
        [sys.executable, "-c", _SLOW_BUILD, "build", "locomo", "--data-dir", str(src), "--cache-dir", str(cache)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={"HF_DATASETS_DISABLE_PROGRESS_BARS": "1", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    deadline = time.monotonic() + 120
    while not list(cache.rglob("*.incomplete/*.arrow")) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert list(cache.rglob("*.incomplete")), "the build never started"
    time.sleep(0.5)  # inside the sleep after the first row
    run.send_signal(signal.SIGTERM)
    out, err = run.communicate(timeout=120)
    assert (run.returncode, err) == (143, "himga: terminated\n")
    assert not list(cache.rglob("*.incomplete")) and not list(cache.rglob("dataset_info.json"))


# A command whose library swallows the KeyboardInterrupt (fsspec's AbstractFileSystem.exists has a bare except), then
# fails: the error is the interruption's doing, so the command says it was interrupted.
_SWALLOWED = """
import os, signal, sys, time
from himga import cli
def command(args):
    try:
        os.kill(os.getpid(), signal.{signal})
        time.sleep(5)
    except:  # noqa: E722 (as the library does)
        pass
    raise FileNotFoundError("Unable to find 'there.json'")
sys.exit(cli._run_command(command, None))
"""


def test_an_error_after_a_swallowed_interrupt_is_reported_as_the_interruption():
    for name, status, said in (("SIGINT", 130, "himga: interrupted\n"), ("SIGTERM", 143, "himga: terminated\n")):
        done = subprocess.run(
            [sys.executable, "-c", _SWALLOWED.format(signal=name)], capture_output=True, text=True, timeout=60
        )
        assert (done.returncode, done.stderr) == (status, said), name
    no_signal = _SWALLOWED.replace("os.kill(os.getpid(), signal.{signal})", "pass")
    done = subprocess.run([sys.executable, "-c", no_signal], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (2, "himga: error: Unable to find 'there.json'\n")
