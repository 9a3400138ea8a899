"""Reading an export back in a fresh interpreter that never imports himga, and comparing it with the builder's rows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from himga.data import SAMPLE_FEATURES


def load_without_himga(tmp_path: Path, path: str, *args: str, cwd: Path | None = None) -> dict:
    """Load ``path`` (split test, and streaming) in a fresh interpreter; features and rows as JSON."""
    code = f"""
        import json, sys, datasets
        args = {list(args)!r}
        ds = datasets.load_dataset({path!r}, *args, split="test")
        it = datasets.load_dataset({path!r}, *args, split="test", streaming=True)
        print(json.dumps({{
            "himga_imported": any(m == "himga" or m.startswith(("himga.", "himga_")) for m in sys.modules),
            "features": ds.features.to_dict(), "stream_features": it.features.to_dict(),
            "rows": list(ds), "stream_rows": list(it), "cache_files": len(ds.cache_files),
        }}))
        """
    env = dict(
        os.environ,
        HF_DATASETS_CACHE=str(tmp_path / "fresh_cache"),
        HF_HUB_OFFLINE="1",
        HF_DATASETS_DISABLE_PROGRESS_BARS="1",
    )
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env, cwd=cwd or tmp_path
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def assert_same_as_builder(loaded: dict, ds) -> None:
    assert loaded["himga_imported"] is False
    assert loaded["features"] == loaded["stream_features"] == SAMPLE_FEATURES.to_dict()
    expected = json.loads(json.dumps(list(ds)))
    assert loaded["rows"] == expected
    assert loaded["stream_rows"] == expected
    assert loaded["cache_files"] == 1  # memory-mapped Arrow cache of the Parquet files
