"""``python -m himga.testing OUT.json [--questions N] [--sessions N | --m-scale] [--seed N]``: a LongMemEval-shaped file."""

from himga.testing.longmemeval_like import main

raise SystemExit(main())
