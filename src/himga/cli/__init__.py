"""The himga command line: build, inspect, validate and publish the normalized benchmarks.

Each command is one function ``cmd_<name>(args) -> int`` (:mod:`himga.cli._commands`; ``score`` in
:mod:`himga.cli._score`), registered in :func:`build_parser`; the arguments they share are in
:mod:`himga.cli._args`.
Errors from himga (bad input, offline, ...) print one line to stderr and exit with status 2; Ctrl-C
prints one line and exits with 130, SIGTERM (``kill``, ``timeout``, a job scheduler) likewise with 143: both unwind
as an exception, so a build in progress removes its ``.incomplete`` folder and caches nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading

from himga.errors import HimgaError, redacted


def version() -> str:
    """``himga 0.1.0 (datasets 5.2.0)``: the versions a bug report needs (read from the installed metadata:
    nothing is imported)."""
    from importlib.metadata import version as installed

    from himga import __version__

    return f"himga {__version__} (datasets {installed('datasets')})"


_COMMANDS = (
    "cmd_build",
    "cmd_export",
    "cmd_push",
    "cmd_qrels",
    "cmd_sources",
    "cmd_stats",
    "cmd_subset",
    "cmd_validate",
    "cmd_verify",
)


def __getattr__(name: str):
    """The commands of :mod:`himga.cli._commands`, imported on first use (they import the catalogue)."""
    if name not in _COMMANDS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from himga.cli import _commands

    globals()[name] = value = getattr(_commands, name)
    return value


class _Parser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` without abbreviations (``--data`` is not ``--data-dir``: a typo of a flag, or a
    flag added later, must not silently pick another one); subcommands' parsers are of this class too."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def parse_args(self, args=None, namespace=None):
        """As ``argparse`` does, but an argument no parser knows is reported with the usage of the command it was
        given to (``himga validate: error: unrecognized arguments: --cache-dir``), not with ``himga``'s."""
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            commands = next((a.choices for a in self._actions if isinstance(a, argparse._SubParsersAction)), {})
            commands.get(getattr(parsed, "command", None), self).error(f"unrecognized arguments: {' '.join(extra)}")
        return parsed


def _build_arguments(p: argparse.ArgumentParser) -> None:
    from himga.cli._args import add_source_args

    add_source_args(p)


def _stats_arguments(p: argparse.ArgumentParser) -> None:
    from himga.cli._args import add_source_args

    add_source_args(p)
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.add_argument(
        "--plot",
        metavar="FILE.png",
        default=None,
        help="also draw question types and per-sample sessions/messages into a PNG (needs himga[plot])",
    )


def _export_arguments(p: argparse.ArgumentParser) -> None:
    from himga.cli._args import add_export_args, add_options
    from himga.publish import VIEWS

    add_export_args(p)
    p.add_argument("out_dir", help="the export folder")
    p.add_argument(
        "--card-only",
        action="store_true",
        help="write only README.md: with --data-dir the card an export of those files has, "
        "else the card of the configs already exported",
    )
    p.add_argument(
        "--num-shards",
        type=int,
        default=None,
        help="Parquet files per config (default: a multiple of 16, so 2, 4, 8 or 16 ranks each read whole files)",
    )
    add_options(p, ("gold", "errata"))  # a gold variant is exported as its own config beside the default one
    p.add_argument(
        "--view",
        choices=VIEWS,
        default=None,
        help="export what a system under test may see (no gold, every message dated) as the config 'system'",
    )


def _push_arguments(p: argparse.ArgumentParser) -> None:
    from himga.cli._args import add_export_args

    add_export_args(p)
    p.add_argument("--repo-id", required=True, help="ORG/NAME of the Hub dataset repository (created if missing)")
    p.add_argument("--private", action="store_true", help="create the repository as private")
    p.add_argument("--revision", default=None, help="branch to push to (default: main)")
    p.add_argument("--export-dir", default=None, help="upload this existing export folder instead of exporting first")
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="everything but the upload: export (or read --export-dir), check the card and every shard, list the "
        "files; no token is read, nothing is sent",
    )


def _qrels_arguments(p: argparse.ArgumentParser) -> None:
    from himga.cli._args import add_source_args

    add_source_args(p)
    p.add_argument("out_dir", help="the output folder (see himga.qrels for its files)")


def _subset_arguments(p: argparse.ArgumentParser) -> None:
    from himga.cli._args import add_source_args

    add_source_args(p)
    p.add_argument(
        "out", help="the ids file to write (one id per line: conv-26:0 for LoCoMo, question_id for LongMemEval)"
    )
    p.add_argument("--n", type=int, required=True, help="how many QA pairs")
    p.add_argument("--seed", required=True, help="the seed (any integer or word); ranks are sha256('<seed>:<id>')")
    p.add_argument(
        "--stratify",
        choices=("question_type",),
        default=None,
        help="proportional quotas per question type (largest remainder)",
    )
    p.add_argument("--keep-abstention", action="store_true", help="keep the share of abstention questions")
    p.add_argument(
        "--exclude-category",
        type=int,
        action="append",
        default=[],
        metavar="N",
        help="leave out the QA pairs of this source category before the draw (repeatable; LoCoMo 5: adversarial)",
    )
    p.add_argument(
        "--exclude-type",
        action="append",
        default=[],
        metavar="TYPE",
        help="leave out the QA pairs of this question type before the draw (repeatable; e.g. adversarial)",
    )


def _validate_arguments(p: argparse.ArgumentParser) -> None:
    from himga.cli._args import add_config, add_data_dir, add_dataset

    add_dataset(p)
    add_config(p)
    add_data_dir(p)
    p.add_argument(
        "--json",
        metavar="FILE",
        default=None,
        help="also write every finding as JSON to FILE ('-': print only the JSON)",
    )


def _sources_arguments(p: argparse.ArgumentParser) -> None:
    from himga.cli._args import add_dataset

    add_dataset(p, optional=True)
    p.add_argument(
        "--check",
        action="store_true",
        help="ask the remote whether each pin still resolves (no download); exit 1 if any does not",
    )


def _verify_arguments(p: argparse.ArgumentParser) -> None:
    from himga.catalog import NAMES
    from himga.cli._args import add_cache_dir

    p.add_argument(
        "dataset", nargs="*", metavar="{" + ",".join(NAMES) + "}", help="which benchmarks' caches (default: every one)"
    )
    add_cache_dir(p)


def _score_arguments(p: argparse.ArgumentParser) -> None:
    from himga.cli import _score

    _score.add_arguments(p)
    p.set_defaults(func=_score.run)


def _run_arguments(p: argparse.ArgumentParser) -> None:
    from himga.cli import _run

    _run.add_arguments(p)


def _import_arguments(p: argparse.ArgumentParser) -> None:
    from himga.cli import _import

    _import.add_arguments(p)


def _compare_arguments(p: argparse.ArgumentParser) -> None:
    from himga.cli import _compare

    _compare.add_arguments(p)


def _judge_arguments(p: argparse.ArgumentParser) -> None:
    from himga.cli import _judge

    _judge.add_arguments(p)
    p.set_defaults(func=_judge.run)


#: Every command, in the order ``himga --help`` lists them: its help line and what adds its arguments (and, but for
#: ``score`` and ``judge``, ``cmd_<name>`` as its function).
_SUBCOMMANDS = {
    "build": ("parse the source files into the Arrow cache", _build_arguments),
    "stats": ("print samples, sessions, turns and QA pairs by question type", _stats_arguments),
    "export": (
        "write a Hub-ready folder: data/<config>/test-*.parquet and the dataset card README.md",
        _export_arguments,
    ),
    "push": ("upload an export (card and Parquet, never .py) to a Hub dataset repository", _push_arguments),
    "qrels": ("write TREC qrels (session and turn), queries and candidates for IR tools", _qrels_arguments),
    "subset": (
        "draw a subset of the QA pairs anyone can re-draw; write its ids, print its fingerprint",
        _subset_arguments,
    ),
    "validate": ("report data-quality findings of the raw source (changes nothing)", _validate_arguments),
    "sources": ("list every pinned source file (URL, revision, size, sha256, licence, local copy)", _sources_arguments),
    "verify": (
        "re-hash every file of the built caches, count their rows, list leftovers of interrupted builds (changes "
        "nothing)",
        _verify_arguments,
    ),
    "run": (
        "run a memory system on a benchmark: ingest, retrieve, answer; resumable, into a run folder (merge: shards)",
        _run_arguments,
    ),
    "import": (
        "turn a published run's file into himga's run records, each joined to its LoCoMo question by conversation and "
        "question text",
        _import_arguments,
    ),
    "score": ("score a run's predictions with the benchmark's official rules (a table and a report)", _score_arguments),
    "compare": (
        "runs side by side: per category, n, interval, judge and models; --plot draws them",
        _compare_arguments,
    ),
    "judge": (
        "send judge requests (himga score --prompts) to an OpenAI-compatible endpoint; write the replies himga score "
        "--labels reads (needs himga[judge])",
        _judge_arguments,
    ),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``himga`` command, one subcommand per command.

    Args:
        command: Add the arguments of this command only (what :func:`main` passes: the command its arguments name, or
            ``""`` when they name none, as ``himga --help``); the other commands are listed with their help line but
            not built. ``None``: every command's arguments. Arguments that list the builders' configs and options
            import the builders and so ``datasets`` (about a second); ``himga sources`` and ``himga --help`` need
            none of them.
    """
    import himga.cli as commands  # the cmd_* functions, looked up here (imported on first use, see __getattr__)

    parser = _Parser(prog="himga", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=version())
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (help_line, add_arguments) in _SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_line)
        if command is None or command == name:
            if f"cmd_{name}" in _COMMANDS:
                p.set_defaults(func=getattr(commands, f"cmd_{name}"))
            add_arguments(p)
    return parser


def _command(argv: list[str]) -> str:
    """The command ``argv`` names: its first item that is no flag (the ``himga`` parser's own flags take no value),
    else ``""``."""
    return next((a for a in argv if not a.startswith("-")), "")


def _one_line(message: str) -> str:
    """``message`` with every non-printable character escaped as ``repr`` does (one line, no raw ESC)."""
    return message if message.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread: whatever cleans up after Ctrl-C cleans up after it."""


@contextlib.contextmanager
def _signals_unwind(received: list[int]):
    """While the block runs (in the main thread), SIGTERM raises :class:`_Terminated` instead of killing the process,
    and SIGINT raises ``KeyboardInterrupt`` as Python's own handler does (unless SIGINT is ignored); each signal is
    appended to ``received``, so that an error raised after one is reported as the interruption: a library that
    swallows the ``KeyboardInterrupt`` (fsspec's ``AbstractFileSystem.exists``, ``fsspec/spec.py`` in 2026.9.0, has a
    bare ``except``, so ``datasets`` then says "Unable to find" a file that is there) would otherwise turn Ctrl-C into
    a wrong error."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_signal(signum, frame):
        received.append(signum)
        raise _Terminated if signum == signal.SIGTERM else KeyboardInterrupt

    signals = [signal.SIGTERM] + (
        [signal.SIGINT] if signal.getsignal(signal.SIGINT) is signal.default_int_handler else []
    )
    previous = {signum: signal.signal(signum, on_signal) for signum in signals}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _interrupted(signum: int) -> int:
    """Say the command was interrupted (one line) and return the shell's status for ``signum``."""
    print(f"himga: {'terminated' if signum == signal.SIGTERM else 'interrupted'}", file=sys.stderr)
    return 128 + signum


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``himga`` console script; returns the exit status."""
    if (sys.argv[1:] if argv is None else list(argv)) == ["--version"]:  # as argparse answers it, without the catalogue
        print(version())
        raise SystemExit(0)
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(_command(argv)).parse_args(argv)
    return _run_command(args.func, args)


def _run_command(func, args: argparse.Namespace) -> int:
    """Run a command's function; bad input, an offline source, an unwritable output, Ctrl-C or SIGTERM end it with
    one line on standard error and the exit status (2; 130 or 143), never a traceback."""
    received: list[int] = []
    try:
        with _signals_unwind(received):
            return func(args)
    except (HimgaError, OSError) as e:  # bad input, offline, unwritable output: one line, no traceback
        if received:  # the error came after Ctrl-C or SIGTERM, whose KeyboardInterrupt a library swallowed
            return _interrupted(received[0])
        if isinstance(e, BrokenPipeError):  # `himga ... | head`: the reader left; not an error
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
            return 0
        print(f"himga: error: {_one_line(redacted(str(e)))}", file=sys.stderr)
        return 2
    except (
        KeyboardInterrupt
    ) as e:  # Ctrl-C or SIGTERM: one line, the shell's status for the signal; builds cache nothing
        return _interrupted(signal.SIGTERM if isinstance(e, _Terminated) else signal.SIGINT)
