"""For both datasets: a failed build caches nothing, so the same bad file fails again (not an empty dataset)."""

from __future__ import annotations

import pytest
from helpers.bad_input import LOADERS, cache_entries

from himga.errors import SourceFormatError


@pytest.mark.parametrize(("dataset", "file"), [("locomo", "locomo10.json"), ("longmemeval", "longmemeval_oracle.json")])
def test_same_bad_file_fails_every_time(dataset, file, tmp_path):
    load = next(iter(LOADERS[dataset].values()))
    path = tmp_path / file
    path.write_bytes(b"[]")
    for _ in range(2):
        with pytest.raises(SourceFormatError, match=f"^{file}: \\$: expected at least one"):
            load(path, tmp_path / "cache")
        assert cache_entries(tmp_path / "cache") == []
