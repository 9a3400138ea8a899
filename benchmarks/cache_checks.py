"""What himga's cache checks cost on an S-scale LongMemEval cache (~255 MB of Arrow); prints one Markdown table.

Usage (from the project root)::

    python benchmarks/cache_checks.py [--input FILE] [--out DIR] [--repeat 5]

The input is ``OUT/s.json`` (default ``benchmarks/out/``), generated with :mod:`himga.testing`
(default arguments) when missing, as ``benchmarks/run.py`` does; the cache is built once into
``OUT/cache-checks``. Measured in this process after a warm-up, page cache warm (the file was just
read), fastest of ``--repeat`` runs:

* each candidate hash over the Arrow file (what recording the manifest costs per byte);
* ``himga.cache._manifest.record`` (the build's extra cost), ``check_sizes`` (every open), the guarded
  ``as_dataset`` against ``datasets``' own (the whole on-open cost), and ``himga.cache._manifest.verify``;

and in a fresh process (``benchmarks/measure.py open``, imports excluded): the facade's warm open.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import ensure_input, machine, measure  # noqa: E402


def best(fn, repeat: int) -> float:
    """Fastest wall time of ``repeat`` calls, in seconds (after one warm-up call)."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def interleaved(a, b, repeat: int) -> tuple[float, float]:
    """Fastest wall times of ``a`` and ``b``, called alternately ``repeat`` times each (load drifts hit both)."""
    a(), b()
    ta, tb = [], []
    for _ in range(repeat):
        for fn, times in ((a, ta), (b, tb)):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
    return min(ta), min(tb)


def hashers():
    """Candidate file hashes: name → ``(path) -> hex digest``, each reading 1 MiB chunks."""
    import xxhash

    def streamed(factory):
        def digest(path):
            h = factory()
            with open(path, "rb") as f:
                while chunk := f.read(1 << 20):
                    h.update(chunk)
            return h.hexdigest()

        return digest

    def crc32(path):
        value = 0
        with open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                value = zlib.crc32(chunk, value)
        return f"{value:08x}"

    return {
        "sha256 (hashlib)": streamed(hashlib.sha256),
        "blake2b (hashlib)": streamed(hashlib.blake2b),
        "md5 (hashlib)": streamed(hashlib.md5),
        "crc32 (zlib)": crc32,
        "xxh3_128 (xxhash)": streamed(xxhash.xxh3_128),
        "xxh3_64 (xxhash) — used": streamed(xxhash.xxh3_64),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=HERE / "out")
    ap.add_argument("--input", type=Path, help="an existing S-scale input (default: OUT/s.json, generated if missing)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    import datasets

    from himga.cache import _manifest as cache
    from himga.cache import make_builder, prepare
    from himga.catalog import benchmark

    datasets.disable_progress_bars()
    work = args.out.resolve()
    work.mkdir(parents=True, exist_ok=True)
    source = ensure_input((args.input or work / "s.json").resolve(), 48)
    cache_dir = work / "cache-checks"
    builder = make_builder(benchmark("longmemeval"), "s", data_files=[str(source)], cache_dir=cache_dir)
    rows = len(prepare(builder))
    builder = make_builder(
        benchmark("longmemeval"), "s", data_files=[str(source)], cache_dir=cache_dir
    )  # what every later load opens
    folder = Path(builder.cache_dir)
    (arrow,) = folder.glob("*.arrow")
    size = arrow.stat().st_size

    lines = ["| check | time | notes |", "|---|---|---|"]
    for name, digest in hashers().items():
        seconds = best(lambda d=digest: d(arrow), min(args.repeat, 3))
        lines.append(
            f"| hash {name} | {seconds * 1000:.0f} ms | {size / seconds / 1e9:.2f} GB/s over the {size / 1e6:.0f} MB "
            "Arrow file |"
        )
    record = best(lambda: cache.record(folder), min(args.repeat, 3))
    lines.append(f"| build: `record` (manifest of every file) | {record * 1000:.0f} ms | added once per build |")
    sizes = best(lambda: cache.check_sizes(folder), 200)
    lines.append(f"| open: `check_sizes` (manifest + stat) | {sizes * 1e6:.0f} µs | every open |")
    guarded, plain = interleaved(
        lambda: (builder.download_and_prepare(), builder.as_dataset(split="test")),
        lambda: (
            datasets.GeneratorBasedBuilder.download_and_prepare(builder),
            datasets.GeneratorBasedBuilder.as_dataset(builder, split="test"),
        ),
        50,
    )
    lines.append(
        f"| open: guarded `download_and_prepare` + `as_dataset` vs datasets' own | {guarded * 1000:.1f} ms vs "
        f"{plain * 1000:.1f} ms "
        f"| all on-open checks: {(guarded - plain) * 1000:+.2f} ms (fastest of 50, interleaved) |"
    )
    result = measure("open", source, cache_dir, "s", work, repeat=args.repeat)
    lines.append(
        f"| open: facade `build_dataset`, fresh process | {result['seconds'] * 1000:.1f} ms | target <= 50 ms (fastest "
        f"of {args.repeat}) |"
    )
    verify = best(lambda: cache.verify(folder), min(args.repeat, 3))
    lines.append(f"| `himga verify`: `verify` (hash + rows of {rows} rows) | {verify * 1000:.0f} ms | on request |")
    print()
    print("\n".join(lines))
    print()
    print(f"Machine: {machine()}; load average {os.getloadavg()[0]:.1f} at the end (shared machine)")


if __name__ == "__main__":
    main()
