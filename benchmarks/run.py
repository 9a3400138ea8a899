"""The himga benchmark: LongMemEval-shaped input, eight measurements, BEAM builds, one table.

Usage (from the project root)::

    python benchmarks/run.py                 # S-scale (~260 MB input), a few minutes
    python benchmarks/run.py --m-scale       # also M-scale (--sessions 480, ~2.6 GB input), much longer
    python benchmarks/run.py --input FILE    # an existing S-scale file instead of generating one
    python benchmarks/run.py --beam-only     # only the BEAM rows: the real 500K tier and a generated 10M-scale chat

Inputs come from ``himga.testing.write_longmemeval_like`` (S-scale: default arguments, 259,675,208 bytes;
M-scale: ``sessions=480``), written to the work folder (``--out``, default ``benchmarks/out/``) and reused when
present. Every measurement runs in a fresh Python process (``benchmarks/measure.py``); its peak RSS is
the ``ru_maxrss`` the OS reports for that process (``os.wait4``, i.e. ``getrusage`` of the child).
Timings exclude interpreter start-up and imports, except the start-up rows (11-15: whole processes, median
wall time). The machine may be shared, so every S-scale measurement runs ``--repeat`` times (default 3) and
the fastest run is reported (all runs go to stderr); the parse limit and the cold build run in turn, and the
build's row also gives the median and range of its time over the parse's run by run. The cold build's row
lists the checks it runs.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# name, label, ratio base ("parse" | "seed" | None), target (kind, limit) or None
#: What the cold build checks while it parses (himga.jsonio._fast, the builders, himga.cache), printed with its row.
CHECKS = (
    "duplicate keys, nesting depth, 64-bit integers, finite numbers, UTF-8, provenance sha256, "
    "content fingerprint, cache checksums"
)
ROWS_S = [
    ("parse", "(1) parse limit: ijson C items, no work", None, None),
    ("parse_msgspec", "(1b) the build's parser alone: msgspec splits and parses the items, no checks", "parse", None),
    ("seed", "(2) seed-style: json.load + dataclasses", "parse", None),
    ("build", f"(3) cold build: raw JSON -> Arrow cache; checks on: {CHECKS}", "parse", ("ratio<=", 1.5)),
    ("content", "(3b) content fingerprint alone: canonical JSON (orjson) + sha256 of the parsed items", "parse", None),
    ("open", "(4) warm open: build_dataset on the cache", "seed", ("s<=", 0.050)),
    ("materialize", "(5) all Samples from the cache", "seed", ("ratio<=", 0.5)),
    ("lazy", "(6) lazy: first Sample after open", "seed", ("s<=", 0.010)),
    ("stream", "(7) streaming: first row, streaming=True", "parse", None),
    ("export", "(8) export: Parquet via himga.publish._export (bytes vs raw JSON)", None, ("bytes<=", 0.3)),
    ("verify", "(9) himga verify: re-hash the cache, count its rows", "parse", None),
]
ROWS_M = [
    ("parse", "(1) parse limit (M)", None, None),
    ("build", "(3) cold build (M), every check on", "parse", ("ratio<=", 1.5)),
    ("open", "(4) warm open (M)", None, None),
    ("lazy", "(6) lazy: first Sample after open (M)", None, None),
    ("stream", "(7) streaming: first row (M)", "parse", None),
]
RSS_TARGETS = {("s", "build"): 400, ("m", "build"): 1000}
DEFAULT_BEAM = ROOT.parent / "shared" / "data" / "beam"


def beam_rows(work: Path, beam_data: Path, repeat: int) -> list[str]:
    """(10) BEAM cold builds: the real 500K tier (when ``beam_data`` holds it) and one generated 10M-scale chat
    (``himga.testing.write_beam_like`` defaults, ~37 MB, written to ``work/beam-10M`` and reused)."""
    from himga.testing import write_beam_like

    generated = work / "beam-10M"
    if not (generated / "chats" / "10M" / "1" / "chat.json").is_file():
        print(f"generating {generated} (one 10M-scale BEAM chat) ...", file=sys.stderr, flush=True)
        write_beam_like(generated)
    inputs = [("500K", beam_data, "the real 500K tier"), ("10M", generated, "a generated 10M-scale chat")]
    lines = []
    for config, root, what in inputs:
        if config == "500K" and not (root / "chats" / "500K").is_dir():
            lines.append(f"| (10) BEAM {config} cold build: {what} not found at {root} | | | | | |")
            continue
        r = measure("beam_build", root, work / f"cache-beam-{config}", config, work, repeat=repeat)
        mb = r["input_mb"] / r["seconds"]
        lines.append(
            f"| (10) BEAM {config} cold build: {what}, {r['rows']} chat{'s' if r['rows'] > 1 else ''}, "
            f"{r['messages']:,} messages, "
            f"{r['input_mb']:.0f} MB JSON | {r['seconds']:.2f} s (CPU {r['cpu_seconds']:.2f} s; {mb:.0f} MB/s) "
            f"| {r['rss_mb']:.0f} | | | |"
        )
    return lines


def ensure_input(path: Path, sessions: int) -> Path:
    """Write the LongMemEval-shaped input ``path`` (500 questions, ``sessions`` per question) unless it exists."""
    if path.is_file() and path.stat().st_size > 0:
        return path
    print(f"generating {path} (500 questions, {sessions} sessions each) ...", file=sys.stderr, flush=True)
    # in a child (written to path.part, renamed when complete): this process stays small, and so do the peak RSS
    # figures of the children it starts later (Linux counts a forked child's memory before exec in its ru_maxrss)
    subprocess.run(
        [sys.executable, "-m", "himga.testing", str(path), "--questions", "500", "--sessions", str(sessions)],
        check=True,
        cwd=ROOT,
    )
    return path


def measure(name: str, input_file: Path, cache: Path, config: str, work: Path, repeat: int = 1) -> dict:
    """Run one measurement ``repeat`` times, each in a fresh child process; keep the fastest run.

    The result gets ``rss_mb``, the largest peak RSS (MB) the OS reported over the runs, and ``runs``,
    every run's wall time (the machine is shared, so the minimum is the least noisy estimate).
    """
    runs = [_measure_once(name, input_file, cache, config, work) for _ in range(repeat)]
    best = min(runs, key=lambda r: r["seconds"])
    best["rss_mb"] = max(r["rss_mb"] for r in runs)
    best["runs"] = [round(r["seconds"], 4) for r in runs]
    return best


def measure_paired(
    base: str, name: str, input_file: Path, cache: Path, config: str, work: Path, repeat: int
) -> tuple[dict, dict]:
    """:func:`measure` of ``base`` and ``name`` in turn (base, name, base, name, ...): the load of a shared
    machine drifts between runs, so ``name``'s result also gets ``pair_ratios``, each run's time over the time of
    the ``base`` run just before it."""
    runs = [
        (_measure_once(base, input_file, cache, config, work), _measure_once(name, input_file, cache, config, work))
        for _ in range(repeat)
    ]
    results = []
    for i in (0, 1):
        best = min((pair[i] for pair in runs), key=lambda r: r["seconds"])
        best["rss_mb"] = max(pair[i]["rss_mb"] for pair in runs)
        best["runs"] = [round(pair[i]["seconds"], 4) for pair in runs]
        results.append(best)
    results[1]["pair_ratios"] = sorted(b["seconds"] / a["seconds"] for a, b in runs)
    return results[0], results[1]


def _measure_once(name: str, input_file: Path, cache: Path, config: str, work: Path) -> dict:
    """Run one measurement in a child process; add its peak RSS (MB) from the OS."""
    cmd = [
        sys.executable,
        str(HERE / "measure.py"),
        name,
        "--input",
        str(input_file),
        "--cache",
        str(cache),
        "--config",
        config,
        "--work",
        str(work),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"measurement {name} failed (exit {proc.returncode}); output:\n{out}")
    result = json.loads(out.strip().splitlines()[-1])
    result["rss_mb"] = usage.ru_maxrss / 1024  # Linux: KiB
    print(f"  {config}/{name}: {result}", file=sys.stderr, flush=True)
    return result


def _ratio(result: dict, base: dict | None) -> float | None:
    return result["seconds"] / base["seconds"] if base else None


def _verdict(kind_limit, result: dict, ratio: float | None, rss_limit: float | None) -> tuple[str, str]:
    parts, ok = [], True
    if kind_limit:
        kind, limit = kind_limit
        if kind == "ratio<=":
            parts.append(f"<= {limit:g}x")
            ok &= ratio is not None and ratio <= limit
        elif kind == "s<=":
            parts.append(f"<= {limit * 1000:g} ms")
            ok &= result["seconds"] <= limit
        elif kind == "bytes<=":
            parts.append(f"<= {limit:g}x JSON")
            ok &= result["bytes_ratio"] <= limit
    if rss_limit:
        parts.append(f"RSS <= {rss_limit:g} MB")
        ok &= result["rss_mb"] <= rss_limit
    if not parts:
        return "", ""
    return ", ".join(parts), "yes" if ok else "NO"


def table(scale: str, rows, results: dict) -> list[str]:
    """Markdown table lines for one scale."""
    lines = []
    for name, label, base, target in rows:
        r = results[name]
        base_r = results.get(base) if base else None
        ratio = _ratio(r, base_r)
        if name.startswith("export"):
            ratio_s = f"{r['bytes_ratio']:.2f}x JSON bytes"
            value = f"{r['seconds']:.2f} s; {r['parquet_mb']:.0f} MB of {r['raw_mb']:.0f} MB"
        else:
            ratio_s = f"{ratio:.2g}x {base}" if ratio is not None else "1.00x" if name == "parse" else ""
            if "pair_ratios" in r:  # measured in turn with its base: the median of the pairs, and their range
                pairs = r["pair_ratios"]
                ratio_s += f" (in turn: median {pairs[len(pairs) // 2]:.2g}x, {pairs[0]:.2g}-{pairs[-1]:.2g})"
            value = f"{r['seconds'] * 1000:.1f} ms" if r["seconds"] < 1 else f"{r['seconds']:.2f} s"
            if "cpu_seconds" in r and name in ("parse", "parse_msgspec", "build", "content"):
                value += f" (CPU {r['cpu_seconds']:.2f} s)"
            if r.get("check_process_cpu_seconds"):
                value = value[:-1] + f"; its check process {r['check_process_cpu_seconds']:.2f} s)"
            if name == "lazy":
                value += (
                    f" (open {r['open_seconds'] * 1000:.0f} ms; "
                    f"random #{r['random_index']}: {r['random_seconds'] * 1000:.1f} ms)"
                )
            if name == "open":
                value += f" (as_dataset alone {r['as_dataset_seconds'] * 1000:.0f} ms)"
        target_s, met = _verdict(target, r, ratio, RSS_TARGETS.get((scale, name)))
        lines.append(f"| {label} | {value} | {r['rss_mb']:.0f} | {ratio_s} | {target_s} | {met} |")
    return lines


#: Start-up costs, each a whole fresh process (wall seconds, median of --repeat runs): the import of the
#: facade, and the command line's first commands (``score`` on the S-scale cache built above).
STARTUP = [
    ("import himga.data", "(11) import himga.data (no datasets, no pyarrow import)", ["-c", "import himga.data"]),
    ("himga --version", "(12) himga --version (no datasets import)", ["-m", "himga.cli", "--version"]),
    ("himga --help", "(12b) himga --help (no builder, no datasets import)", ["-m", "himga.cli", "--help"]),
    ("himga sources", "(13) himga sources (no builder, no datasets import)", ["-m", "himga.cli", "sources"]),
    ("himga score", "(14) himga score on the built cache (judge prompts for 500 questions)", None),
    ("python", "(15) python -c pass (the interpreter alone)", ["-c", "pass"]),
]


def startup(work: Path, input_file: Path, cache: Path, repeat: int) -> list[str]:
    """Table lines of the start-up rows: whole processes, wall time (median) and peak RSS (largest)."""
    import statistics

    predictions = work / "predictions.jsonl"
    if not predictions.is_file():  # in a child, as the input (ensure_input)
        write = (
            "import json, sys\nfrom himga.jsonio import iter_array_items\nwith open(sys.argv[2], 'w') as out:\n"
            "    for _, q in iter_array_items(sys.argv[1]):\n"
            "        out.write(json.dumps({'question_id': q['question_id'], 'hypothesis': 'I do not know.'}) + '\\n')\n"
        )
        subprocess.run([sys.executable, "-c", write, str(input_file), str(predictions)], check=True, cwd=ROOT)
    score = [
        "-m",
        "himga.cli",
        "score",
        "longmemeval",
        str(predictions),
        "--config",
        "s",
        "--data-dir",
        str(input_file),
        "--cache-dir",
        str(cache),
        "--prompts",
        str(work / "prompts.jsonl"),
    ]
    lines = []
    for name, label, argv in STARTUP:
        times, rss = [], 0.0
        for _ in range(repeat):
            t0 = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, *(argv or score)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT
            )
            _, status, usage = os.wait4(proc.pid, 0)
            times.append(time.perf_counter() - t0)
            if os.waitstatus_to_exitcode(status) != 0:
                raise SystemExit(f"{name} failed: {proc.stderr.read().decode()[-2000:]}")
            rss = max(rss, usage.ru_maxrss / 1024)
        print(f"  startup/{name}: {[round(t, 3) for t in times]}", file=sys.stderr, flush=True)
        lines.append(f"| {label} | {statistics.median(times) * 1000:.0f} ms | {rss:.0f} | | | |")
    return lines


def machine() -> str:
    """One line: cores, RAM, Python, datasets/pyarrow/ijson versions, date."""
    import datasets
    import ijson
    import msgspec
    import orjson
    import pyarrow

    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (
        f"{os.cpu_count()} cores ({platform.processor() or platform.machine()}), {ram:.1f} GiB RAM, "
        f"{platform.system()} {platform.release()}, Python {platform.python_version()}, datasets "
        f"{datasets.__version__}, "
        f"pyarrow {pyarrow.__version__}, ijson {ijson.__version__} ({ijson.backend}), msgspec {msgspec.__version__}, "
        f"orjson {orjson.__version__}; "
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description="Benchmark himga on LongMemEval-shaped files; prints one Markdown table.")
    ap.add_argument("--out", type=Path, default=HERE / "out", help="work folder (inputs, caches, exports; reused)")
    ap.add_argument("--input", type=Path, help="an existing S-scale input file (default: generate OUT/s.json)")
    ap.add_argument("--m-scale", action="store_true", help="also measure an M-scale file (--sessions 480; slow)")
    ap.add_argument("--m-input", type=Path, help="an existing M-scale input file (default: generate OUT/m.json)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per S-scale measurement; the fastest is kept (M: 1)")
    ap.add_argument(
        "--only",
        nargs="+",
        help="run only these measurements (for profiling; 'startup': rows 11-15); prints no verdicts",
    )
    ap.add_argument(
        "--beam-data",
        type=Path,
        default=DEFAULT_BEAM,
        help="BEAM in the repository's layout (default ../shared/data/beam)",
    )
    ap.add_argument("--beam-only", action="store_true", help="measure only the BEAM rows (10)")
    args = ap.parse_args()

    work = args.out.resolve()
    work.mkdir(parents=True, exist_ok=True)
    scales = [("s", args.input or work / "s.json", 48, ROWS_S)]
    if args.m_scale:
        scales.append(("m", args.m_input or work / "m.json", 480, ROWS_M))

    lines = [
        "| measurement | time | peak RSS MB | ratio | target | met |",
        "|---|---|---|---|---|---|",
    ]
    for config, path, sessions, rows in [] if args.beam_only else scales:
        path = ensure_input(Path(path).resolve(), sessions)
        cache = work / f"cache-{config}"
        results, repeat = {}, args.repeat if config == "s" else 1
        if not args.only or {"parse", "build"} <= set(args.only):  # the ratio that has a target: measured in turn
            results["parse"], results["build"] = measure_paired("parse", "build", path, cache, config, work, repeat)
        for name, *_ in rows:
            if (args.only and name not in args.only) or name in results:
                continue
            results[name] = measure(name, path, cache, config, work, repeat=repeat)
        if args.only:
            if "startup" in args.only and config == "s":
                lines += startup(work, path, cache, args.repeat)
            continue
        size = path.stat().st_size / 1e6
        lines.append(
            f"| **{config.upper()}-scale**: `{path.name}`, {size:.0f} MB, {results['parse']['items']} questions | | | "
            "| | |"
        )
        lines += table(config, rows, results)
        if config == "s":
            lines.append("| **start-up**: whole processes, median wall time | | | | | |")
            lines += startup(work, path, cache, args.repeat)
    if not args.only:
        lines += [
            "| **BEAM**: one row per tier build (from the JSON chats to the Arrow cache) | | | | | |",
            *beam_rows(work, args.beam_data.resolve(), args.repeat),
        ]
    print()
    print("\n".join(lines))
    print()
    print(
        f"Fastest of {args.repeat} runs per S-scale measurement (1 at M-scale), each in a fresh process; peak RSS is "
        "the largest over the runs."
    )
    print(f"Machine: {machine()}")


if __name__ == "__main__":
    main()
