"""``himga judge``: send the judge requests of ``himga score --prompts`` to a model, write the replies ``--labels``
reads.

::

    himga judge REQ.jsonl --out REPLIES.jsonl [--base-url URL] [--model M] [--concurrency N]

Replies are cached by request sha256 in ``$HIMGA_CACHE/judge`` (``--cache-dir``): a rerun after Ctrl-C, a
killed process or a run of 429s sends only the requests without a reply. Exit status 1 when some requests still
have none (the replies file then holds the others; rerun to send the rest).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``himga judge`` on its subparser ``p``."""
    p.add_argument("requests", help="the requests file (JSON Lines, one chat-completions body per line)")
    p.add_argument("--out", metavar="REPLIES.jsonl", required=True, help="the replies file to write")
    from himga.cli._args import add_endpoint_args

    p.add_argument("--model", default=None, help="ask this model instead of the one each request names")
    add_endpoint_args(p, concurrency="requests")
    p.add_argument("--cache-dir", default=None, help="the replies cache (default: $HIMGA_CACHE/judge)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``himga judge``; returns 0 when every request has a reply, else 1.

    Raises:
        ConfigurationError: an output that is the requests file, no key and no ``--base-url``.
        SourceFormatError: a malformed requests file.
        MissingDependencyError: the judge extra is not installed.
    """
    from himga.endpoint import read_requests, send_requests
    from himga.run import check_outputs, write_text
    from himga.sources import cache_root

    check_outputs({"--out": args.out}, {"requests": args.requests})
    name, requests = read_requests(args.requests, model=args.model)
    cache = Path(args.cache_dir) if args.cache_dir else cache_root() / "judge"
    result = send_requests(
        requests,
        cache_dir=cache,
        base_url=args.base_url,
        api_key_env=args.api_key_env,
        concurrency=args.concurrency,
        max_retries=args.max_retries,
        timeout=args.timeout,
        progress=not args.no_progress,
    )
    write_text(args.out, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in result.replies))
    models = sorted({r["model"] for r in result.replies if r["model"]})
    print(
        f"{name}: {len(requests)} requests, {result.cached} answered before (cache {cache}), {result.sent} sent now, "
        f"{len(requests) - len(result.replies)} without a reply; answered by {', '.join(models) or 'no model'}; wrote "
        f"{args.out}"
    )
    for line, message in result.failed[:10]:
        print(f"failed: {name}: line {line}: {message}")
    if len(result.replies) < len(requests):
        print(f"rerun the same command to send the {len(requests) - len(result.replies)} requests without a reply")
        return 1
    return 0
