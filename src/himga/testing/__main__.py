"""``python -m himga.testing OUT.json [--questions N] [--sessions N | --m-scale] [--seed N]``: a LongMemEval-shaped
file;
``python -m himga.testing beam-like ROOT [--tier 10M] [--chats N] ...``: BEAM-shaped chats."""

import sys

if sys.argv[1:2] == ["beam-like"]:
    from himga.testing.beam_like import main as beam_main

    raise SystemExit(beam_main(sys.argv[2:]))

from himga.testing.longmemeval_like import main

raise SystemExit(main())
