"""``himga judge``: send the judge requests of ``himga score --prompts`` to a model, write the replies ``--labels``
reads.

::

    himga judge REQ.jsonl --out REPLIES.jsonl [--base-url URL] [--model M] [--concurrency N]
    himga judge REQ.jsonl --dry-run                     # what would be sent, and its prompt tokens, estimated
    himga judge REQ.jsonl --out REPLIES.jsonl --retry-failed   # ask again the replies that were no answer

Replies are cached by the sha256 of the request body (model, parameters, messages) in ``$HIMGA_CACHE/judge``
(``--cache-dir``): a rerun after Ctrl-C, a killed process or a run of 429s sends only the requests without a reply,
and the same body under other ids is paid once. The pairs of an event-ordering walk are asked as the official walk
asks them: only those it reaches. A reply that is no answer (no content, empty, or one the judge's label rule cannot
read) is kept out of the replies file and stored as such; ``--retry-failed`` asks those again. Exit status 1 when some
requests still have no answer (the replies file then holds the others; rerun to send the rest). The cache is a folder:
delete it (``rm -r "$HIMGA_CACHE/judge"``) to forget every reply.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from himga.errors import ConfigurationError

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``himga judge`` on its subparser ``p``."""
    p.add_argument("requests", help="the requests file (JSON Lines, one chat-completions body per line)")
    p.add_argument(
        "--out", metavar="REPLIES.jsonl", default=None, help="the replies file to write (not with --dry-run)"
    )
    from himga.cli._args import add_endpoint_args

    p.add_argument("--model", default=None, help="ask this model instead of the one each request names")
    add_endpoint_args(p, concurrency="requests")
    p.add_argument(
        "--cache-dir",
        default=None,
        help="the replies cache (default: $HIMGA_CACHE/judge; delete the folder to clear it)",
    )
    p.add_argument(
        "--retry-failed",
        action="store_true",
        help="ask again the requests whose stored reply was no answer (no content, empty, or unreadable by the "
        "judge's label rule); without it they stay without a reply",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="send nothing: say how many requests, distinct bodies, replies in the cache, and the prompt tokens of "
        "the rest (estimated as characters / 4)",
    )
    p.set_defaults(func=run)


def _tokens(usage: dict) -> str:
    return ", ".join(
        f"{usage[k]:,} {k.removesuffix('_tokens')}" for k in ("prompt_tokens", "completion_tokens") if k in usage
    )


def reply_check():
    """``(request, reply) -> why its judge cannot read it, or None``: the label rule of the registered judge the request
    names (``judge``, or ``rule`` on a benchmark's own route); any text for a request that names none."""
    import himga.catalog  # noqa: F401  (a benchmark folder's own judge registers when the catalogue imports it)
    from himga.scoring import judges

    known = judges()

    def check(request, reply: str) -> str | None:
        judge = known.get(request.judge)
        if judge is None:
            return None
        line = {**request.ids, **request.body, **({"walk": request.walk} if request.walk else {})}
        return judge.reply_problem(line, reply)

    return check


def _dry_run(name: str, requests, cache: Path, retry_failed: bool) -> int:
    from himga.endpoint._plan import CHARS_PER_TOKEN, plan_requests

    plan = plan_requests(requests, cache_dir=cache, retry_failed=retry_failed)
    failed = (
        f" ({plan['failed_before']:,} more stored as no answer: "
        + ("asked again)" if retry_failed else "--retry-failed asks them again)")
        if plan["failed_before"]
        else ""
    )
    print(
        f"{name}: {plan['requests']:,} requests, {plan['distinct']:,} distinct bodies, {plan['answered']:,} "
        f"answered in the cache ({cache}){failed}"
    )
    print(
        f"to send: {plan['send']:,} requests, ~{plan['send_tokens']:,} prompt tokens (the characters of their messages "
        f"/ {CHARS_PER_TOKEN}, the rule of thumb for English text; no tokenizer is downloaded)"
    )
    if plan["walks"]:
        print(
            f"and of the {plan['walk_pairs']:,} event-ordering pairs of {plan['walks']:,} first-match walks, only "
            f"those a walk reaches: at most {plan['walk_send_at_most']:,} (~{plan['walk_tokens_at_most']:,} prompt "
            "tokens at most), as the official walk asks them"
        )
    print("dry run: nothing was sent")
    return 0


def run(args: argparse.Namespace) -> int:
    """Run ``himga judge``; returns 0 when every request asked has a reply, else 1.

    Raises:
        ConfigurationError: an output that is the requests file, no ``--out`` (without ``--dry-run``), no key and no
            ``--base-url``.
        SourceFormatError: a malformed requests file.
        MissingDependencyError: the judge extra is not installed.
    """
    from himga.endpoint import read_requests, send_requests
    from himga.run import check_outputs, write_text
    from himga.sources import cache_root

    if args.out is None and not args.dry_run:
        raise ConfigurationError("himga judge: give --out REPLIES.jsonl (or --dry-run to see what would be sent)")
    if args.out is not None:
        check_outputs({"--out": args.out}, {"requests": args.requests})
    name, requests = read_requests(args.requests, model=args.model)
    cache = Path(args.cache_dir) if args.cache_dir else cache_root() / "judge"
    if args.dry_run:
        return _dry_run(name, requests, cache, args.retry_failed)
    result = send_requests(
        requests,
        cache_dir=cache,
        base_url=args.base_url,
        api_key_env=args.api_key_env,
        concurrency=args.concurrency,
        max_retries=args.max_retries,
        timeout=args.timeout,
        progress=not args.no_progress,
        retry_failed=args.retry_failed,
        check_reply=reply_check(),
    )
    write_text(args.out, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in result.replies))
    models = sorted({r["model"] for r in result.replies if r["model"]})
    unanswered = result.asked - len(result.replies)
    walked = result.walks
    extra = [f"{result.distinct:,} distinct bodies"] if result.distinct < len(requests) else []
    if walked["walks"]:
        extra.append(
            f"{walked['pairs']:,} event-ordering pairs in {walked['walks']:,} walks, {walked['reached']:,} reached"
        )
    counted = f" ({'; '.join(extra)})" if extra else ""
    print(
        f"{name}: {len(requests):,} requests{counted}, {result.cached:,} answered "
        f"before (cache {cache}), {result.sent:,} sent now, {unanswered:,} without a reply; answered by "
        f"{', '.join(models) or 'no model'}; wrote {args.out}"
    )
    if result.usage:
        print(f"tokens paid now: {_tokens(result.usage)}")
    for line, message in sorted(result.failed)[:10]:  # in file order, whatever order they failed in
        print(f"failed: {name}: line {line}: {message}")
    if len(result.failed) > 10:
        print(f"failed: ... and {len(result.failed) - 10:,} more")
    if result.failed_before:
        print(
            f"{result.failed_before:,} requests have a stored reply that is no answer (no content, empty, or "
            "unreadable by the judge's label rule): --retry-failed asks them again"
        )
    if unanswered:
        stored = result.failed_before + sum(message.startswith("no answer") for _line, message in result.failed)
        retry = f" (with --retry-failed for the {stored:,} whose reply was no answer)" if stored else ""
        print(f"rerun the same command{retry} to send the {unanswered:,} requests without a reply")
        return 1
    return 0
