"""What ``himga run`` costs beside the endpoint: LoCoMo's 1,986 questions, a trivial memory, a local OpenAI-compatible
server that answers after a fixed latency.

The limit of a run is the endpoint: questions x latency / concurrency. Each row is one run in a fresh process
(``himga run`` as a user starts it), timed whole; its peak RSS is read from the OS. Rows with latency 0 give himga's own
cost per question (rendering, writing and fsyncing a record, accounting)::

    .venv/bin/python benchmarks/run_overhead.py [--repeat 3]      # after the README's install command, with ../shared

Prints one Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from helpers.chat_server import ChatServer  # noqa: E402  (the tests' local endpoint)

QUESTIONS = 1986


def _one(data: Path, cache: Path, base_url: str, concurrency: int, limit: int | None) -> tuple[float, float, int]:
    """``(seconds of the process, seconds of its run phase, peak RSS in MiB)`` of one ``himga run`` in a fresh
    process; the run phase (the manifest's ``run_seconds``) is from the first sample to the last answer."""
    out = Path(tempfile.mkdtemp(prefix="himga-run-"))
    command = [
        sys.executable,
        "-m",
        "himga.cli",
        "run",
        "locomo",
        "--memory",
        "recency",
        "--answer-model",
        "m",
        "--base-url",
        base_url,
        "--concurrency",
        str(concurrency),
        "--no-progress",
        "--data-dir",
        str(data),
        "--cache-dir",
        str(cache),
        "--out",
        str(out / "r"),
        *(["--limit", str(limit)] if limit else []),
    ]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env={**os.environ, "OPENAI_API_KEY": "x"})
    _, status, usage = os.wait4(process.pid, 0)  # this child's own peak RSS
    seconds = time.perf_counter() - start
    if status:
        raise SystemExit(f"himga run failed: {' '.join(command)}")
    peak = usage.ru_maxrss
    phase = json.loads((out / "r" / "manifest.json").read_text())["run_seconds"]
    shutil.rmtree(out)
    return seconds, phase, peak // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", default=str(ROOT.parent / "shared" / "data" / "locomo"), help="a folder with locomo10.json"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per row (the median is shown)")
    args = parser.parse_args()
    cache = Path(tempfile.mkdtemp(prefix="himga-cache-"))
    rows = [("L = 200 ms, C = 32", 0.2, 32, None), ("L = 0, C = 8", 0.0, 8, None), ("L = 0, C = 8, 100 q", 0.0, 8, 100)]
    print(
        "| run | limit N x L / C | process, median (min-max) | run phase, median | ratio to the limit (phase; "
        "process) | himga per question | peak RSS |"
    )
    print("|---|---|---|---|---|---|---|")
    with ChatServer(default="yes") as warm:  # build the cache once, outside the timings
        _one(Path(args.data), cache, warm.base_url, 8, 1)
    for label, latency, concurrency, limit in rows:
        n = limit or QUESTIONS
        with ChatServer(default="a short answer", latency=latency) as server:
            runs = [_one(Path(args.data), cache, server.base_url, concurrency, limit) for _ in range(args.repeat)]
        times = sorted(s for s, _, _ in runs)
        median, phase = statistics.median(times), statistics.median(p for _, p, _ in runs)
        bound = n * latency / concurrency
        ratio = f"{phase / bound:.3f}x; {median / bound:.3f}x" if bound else "—"
        per_question = f"{phase / n * 1000:.2f} ms" if not latency else "—"
        print(
            f"| {label}, {n:,} questions | {bound:.1f} s | {median:.2f} s ({times[0]:.2f}-{times[-1]:.2f}) | "
            f"{phase:.2f} s | {ratio} | {per_question} | {max(r for _, _, r in runs)} MiB |"
        )
    shutil.rmtree(cache)


if __name__ == "__main__":
    main()
