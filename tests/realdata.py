"""Where the real-data tests find the real files: ``../shared/data`` beside the project, or ``$HIMGA_TEST_DATA``.

Read once, at import (the autouse fixture of ``conftest.py`` clears every ``HIMGA_*`` variable inside
tests). Tests take the ``shared_data`` fixture, which skips (or fails under CI) when the folder is
missing; module-level paths of test files come from here, never from a path of their own.
"""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_DATA = (Path(__file__).resolve().parents[1] / ".." / "shared" / "data").resolve()
SHARED_DATA = (
    Path(os.environ["HIMGA_TEST_DATA"]).expanduser().resolve() if os.environ.get("HIMGA_TEST_DATA") else DEFAULT_DATA
)
