"""One benchmark measurement, run in its own process by ``benchmarks/run.py``.

Usage: ``python benchmarks/measure.py NAME --input FILE --cache DIR --config s [--work DIR]``.
Prints one JSON object on the last line of stdout: ``{"seconds": ..., ...}``. Imports (``datasets``
and friends, ~1 s) happen before the clock starts; each timing covers only the work named. The
parent reads this process's peak RSS from the OS when it exits.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import time
from pathlib import Path


def parse(args) -> dict:
    """(1) The parse limit: stream the raw file with ijson's C backend, doing nothing with the items."""
    import ijson

    if ijson.backend != "yajl2_c":
        raise SystemExit(f"ijson C backend not available (got {ijson.backend})")
    t0, c0 = time.perf_counter(), time.process_time()
    n = 0
    with open(args.input, "rb") as f:
        for _ in ijson.items(f, "item", use_float=True):  # as the builder parses
            n += 1
    return {"seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0, "items": n}


def seed(args) -> dict:
    """(2) The seed-style baseline: json.load + every dataclass."""
    from seed_baseline import load_seed_style

    t0, c0 = time.perf_counter(), time.process_time()
    samples = load_seed_style(args.input)
    seconds = time.perf_counter() - t0
    return {
        "seconds": seconds,
        "cpu_seconds": time.process_time() - c0,
        "samples": len(samples),
        "messages": _messages(samples),
    }


def build(args) -> dict:
    """(3) Cold build: raw file → Arrow cache through the builder (a fresh cache folder)."""
    from himga.catalog import CATALOG

    [entry.builder for entry in CATALOG.values()]  # imports every builder's module (imports are not timed)
    from himga.cache import make_builder, prepare
    from himga.catalog import benchmark

    shutil.rmtree(args.cache, ignore_errors=True)
    children = _children_cpu()
    t0, c0 = time.perf_counter(), time.process_time()
    builder = make_builder(benchmark("longmemeval"), args.config, data_files=[args.input], cache_dir=args.cache)
    ds = prepare(builder)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    arrow_bytes = sum(p.stat().st_size for p in Path(args.cache).rglob("*.arrow"))
    return {
        "seconds": seconds,
        "cpu_seconds": cpu,
        "rows": len(ds),
        "arrow_mb": arrow_bytes / 1e6,
        "check_process_cpu_seconds": _children_cpu() - children,
    }


def _children_cpu() -> float:
    """CPU seconds (user + system) of this process's ended and reaped children: the build's check process."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def open_(args) -> dict:
    """(4) Warm open: the facade's build_dataset on the existing cache, and the builder's as_dataset alone."""
    from himga.cache import make_builder
    from himga.catalog import benchmark
    from himga.data import build_dataset

    t0 = time.perf_counter()
    ds = build_dataset("longmemeval", args.config, path=args.input, cache_dir=args.cache)
    seconds = time.perf_counter() - t0
    builder = make_builder(benchmark("longmemeval"), args.config, data_files=[args.input], cache_dir=args.cache)
    t1 = time.perf_counter()
    builder.as_dataset(split="test")
    return {"seconds": seconds, "as_dataset_seconds": time.perf_counter() - t1, "rows": len(ds)}


def materialize(args) -> dict:
    """(5) Full materialization: every Sample as dataclasses from the cache (load_longmemeval, warm)."""
    from himga.data import load_longmemeval

    t0, c0 = time.perf_counter(), time.process_time()
    samples = load_longmemeval(args.input, config=args.config, cache_dir=args.cache)
    seconds = time.perf_counter() - t0
    return {
        "seconds": seconds,
        "cpu_seconds": time.process_time() - c0,
        "samples": len(samples),
        "messages": _messages(samples),
    }


def lazy(args) -> dict:
    """(6) Lazy access: open a LazySamples, then the first and a random Sample."""
    from himga.data import load_longmemeval

    t0 = time.perf_counter()
    samples = load_longmemeval(args.input, config=args.config, cache_dir=args.cache, lazy=True)
    t_open = time.perf_counter()
    first = samples[0]
    t_first = time.perf_counter()
    index = random.Random(0).randrange(len(samples))
    t_r0 = time.perf_counter()
    other = samples[index]
    t_random = time.perf_counter()
    return {
        "seconds": t_first - t_open,
        "open_seconds": t_open - t0,
        "random_seconds": t_random - t_r0,
        "random_index": index,
        "first_id": first.sample_id,
        "random_sessions": len(other.sessions),
    }


def stream(args) -> dict:
    """(7) Streaming: time to the first row of the builder's as_streaming_dataset (raw file, no cache)."""
    from himga.cache import make_builder
    from himga.catalog import benchmark

    builder = make_builder(benchmark("longmemeval"), args.config, data_files=[args.input], cache_dir=args.cache)
    t0 = time.perf_counter()
    row = next(iter(builder.as_streaming_dataset(split="test")))
    return {"seconds": time.perf_counter() - t0, "first_id": row["sample_id"]}


def export(args) -> dict:
    """(8) Export: the cached dataset as Parquet (himga.publish._export.export if present, else Dataset.to_parquet)."""
    try:
        from himga.publish import export as himga_export
    except ImportError:
        himga_export = None
    out = Path(args.work) / f"export-{args.config}"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    if himga_export is not None:
        how = "himga.publish._export.export"
        t0 = time.perf_counter()
        himga_export("longmemeval", out, [args.config], data_dir=args.input, cache_dir=args.cache)
    else:
        from himga.data import build_dataset

        how = "Dataset.to_parquet"
        ds = build_dataset("longmemeval", args.config, path=args.input, cache_dir=args.cache)
        t0 = time.perf_counter()
        ds.to_parquet(str(out / "test.parquet"))
    seconds = time.perf_counter() - t0
    parquet_bytes = sum(p.stat().st_size for p in out.rglob("*.parquet"))
    raw_bytes = Path(args.input).stat().st_size
    return {
        "seconds": seconds,
        "parquet_mb": parquet_bytes / 1e6,
        "raw_mb": raw_bytes / 1e6,
        "bytes_ratio": parquet_bytes / raw_bytes,
        "how": how,
    }


def verify(args) -> dict:
    """(9) ``himga verify`` of the warm cache: re-hash every file and count the rows (himga.cache._manifest.verify)."""
    from himga.cache import verify as verify_cache
    from himga.data import build_dataset

    ds = build_dataset("longmemeval", args.config, path=args.input, cache_dir=args.cache)
    folder = Path(ds.cache_files[0]["filename"]).parent
    t0 = time.perf_counter()
    problems = verify_cache(folder)
    return {"seconds": time.perf_counter() - t0, "problems": problems}


def content(args) -> dict:
    """(3b) What the content fingerprint costs a cold build: the canonical JSON text of each parsed item
    (``himga.jsonio.canonical``, which the reader writes anyway for its duplicate-key check) and its sha256
    (``himga.sources.ContentDigest.item_text``), timed alone; the parse is not."""
    import msgspec

    from himga.jsonio import canonical
    from himga.sources import ContentDigest

    digest, seconds, cpu, n = ContentDigest(), 0.0, 0.0, 0
    with open(args.input, "rb") as f:
        items = msgspec.json.decode(f.read(), type=list[msgspec.Raw])
    for raw in items:
        item = msgspec.json.decode(raw)
        t0, c0 = time.perf_counter(), time.process_time()
        digest.item_text(canonical(item))
        seconds += time.perf_counter() - t0
        cpu += time.process_time() - c0
        n += 1
    return {"seconds": seconds, "cpu_seconds": cpu, "items": n, "content_sha256": digest.hexdigest()}


def parse_msgspec(args) -> dict:
    """(1b) The parser the build uses, doing nothing else: msgspec splits the array into items (``msgspec.Raw``,
    4 MiB reads) and parses each: ``himga.jsonio._fast.array_items`` with its checks replaced by the bare parse."""
    import msgspec

    from himga.jsonio import _fast

    decoder = msgspec.json.Decoder()
    _fast._checked = lambda raw, *_: decoder.decode(raw)
    t0, c0 = time.perf_counter(), time.process_time()
    with open(args.input, "rb") as f:
        n = sum(1 for _ in _fast.array_items(f, 63))
    return {"seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0, "items": n}


def beam_build(args) -> dict:
    """(10) BEAM cold build: the chats of a tier (``--input`` a folder in the repository's layout) → Arrow cache."""
    from himga.cache import make_builder, prepare
    from himga.catalog import benchmark

    shutil.rmtree(args.cache, ignore_errors=True)
    t0, c0 = time.perf_counter(), time.process_time()
    builder = make_builder(benchmark("beam"), args.config, data_dir=args.input, cache_dir=args.cache)
    ds = prepare(builder)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    files = builder.source_files()
    return {
        "seconds": seconds,
        "cpu_seconds": cpu,
        "rows": len(ds),
        "input_mb": sum(Path(f).stat().st_size for f in files) / 1e6,
        "messages": sum(len(s["messages"]) for row in ds.select_columns(["sessions"]) for s in row["sessions"]),
    }


def _messages(samples) -> int:
    return sum(len(s.messages) for sample in samples for s in sample.sessions)


MEASUREMENTS = {
    "parse": parse,
    "parse_msgspec": parse_msgspec,
    "seed": seed,
    "build": build,
    "content": content,
    "open": open_,
    "materialize": materialize,
    "lazy": lazy,
    "stream": stream,
    "export": export,
    "verify": verify,
    "beam_build": beam_build,
}


def _import_what_datasets_imports() -> None:
    """Imports are excluded from the timings, including the one ``datasets`` makes lazily: the first
    builder of a process patches ``scipy.io.loadmat`` for streaming (``datasets/streaming.py``), which
    imports ``scipy.io`` when SciPy is installed (~0.2 s here; the test extra brings SciPy in)."""
    import importlib.util

    if importlib.util.find_spec("scipy") is not None:
        import scipy.io  # noqa: F401


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name", choices=sorted(MEASUREMENTS))
    ap.add_argument("--input", required=True)
    ap.add_argument("--cache", required=True)
    ap.add_argument("--config", default="s")
    ap.add_argument("--work", default=".")
    args = ap.parse_args()
    import datasets

    datasets.disable_progress_bars()
    _import_what_datasets_imports()
    result = MEASUREMENTS[args.name](args)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
