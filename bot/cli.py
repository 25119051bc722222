"""The `claimcheck` command line: the offline, scriptable face of the audit pipeline.

Every command is `asyncio.run` over one `bot.core.App` (the same calls the bot makes): local
files are read in the same reading workers, under the same deadline, as the bot's attachments.

Exit codes: 0 a report was printed (whatever the verdict); 2 unusable input or configuration (one
line on stderr, never a traceback); 3 a URL could not be fetched or was refused; 1 a bug (one
line too).
"""

from __future__ import annotations

import argparse
import codecs
import gc
import json
import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO, cast

from extractors.errors import ExtractError, FetchError, UsageError

if TYPE_CHECKING:
    # Imported where used: `--help` needs none of them, and a cold start pays for each.
    from collections.abc import Awaitable, Callable

    from bot.core import App, Network
    from bot.options import PipelineOptions
    from bot.settings import Settings
    from checks.models import Report
    from checks.reference import Reference

__all__ = ["build_parser", "compiled_dir", "main", "options_from_args"]

EXIT_OK, EXIT_INTERNAL, EXIT_UNUSABLE, EXIT_FETCH = 0, 1, 2, 3

DESCRIPTION = """\
Audit a viral LLM-inference speed claim: follow it to the record behind it and answer the
eight questions (evidence, config, cell, fork, AL/window, power, roofline, what to measure)
with figures and their sources.

examples:
  claimcheck audit --example                        the seed's 2103.6 tok/s claim, offline
  claimcheck audit "Llama 3.1 8B on one H100, batch 1, 150 tok/s"
  claimcheck audit results.json                     a vLLM/SGLang/llama-bench/... output
  claimcheck audit post.txt board.json              a post and the record it points at
  claimcheck audit https://www.reddit.com/r/LocalLLaMA/comments/...
  claimcheck compare a.json b.json                  the difference table before any conclusion
  claimcheck sweep board_dump.json                  audit every record of a leaderboard dump
  claimcheck reference gpu "RTX 5090"               the constants and their sources
"""


def _example_paths() -> list[Path]:
    from importlib import resources

    base = resources.files("bot") / "examples"
    return [Path(str(base / "headline_post.txt")), Path(str(base / "headline_board.json"))]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="claimcheck", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--reference", action="append", default=[], metavar="FILE",
                        help="a JSON file of reference rows merged over the packaged tables (repeatable)")
        sp.add_argument("--boards", action="append", default=[], metavar="FILE",
                        help="a JSON file of leaderboard mappings (repeatable)")
        sp.add_argument("--allow-host", action="append", default=[], metavar="HOST[:PORT]",
                        help="let this host through the address and port rules (self-hosted boards, tests)")
        sp.add_argument("--cache", metavar="PATH", help="SQLite file for fetched pages (default: user data dir)")
        sp.add_argument("--no-cache", action="store_true", help="keep fetched pages in memory only")

    a = sub.add_parser("audit", help="audit one claim (a URL, a file, - for stdin, or text)",
                       description="Audit one claim. Several INPUTs are read as one claim: e.g. a post and its record.")
    a.add_argument("inputs", nargs="*", metavar="INPUT", help="URL, file path, - (stdin) or literal text")
    a.add_argument("--example", action="store_true", help="audit the bundled example (the seed's headline claim)")
    fmt = a.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print the report as JSON (schema claimcheck.report/5)")
    fmt.add_argument("--markdown", action="store_true", help="print the report as Markdown")
    a.add_argument("--brief", action="store_true", help="leave out figures and basis lines")
    a.add_argument("--chart", metavar="FILE.png",
                   help="also write the chart: the claim against the ceilings, tok/s against window")
    a.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="facts",
                   help="a fact the record leaves out, stated by you (repeatable): hardware=\"8x B200\", "
                        "batch=1, model=..., format=...; never overrides the record (a conflict shows both)")
    common(a)

    c = sub.add_parser("compare", help="two claims side by side: the difference table, knob by knob")
    c.add_argument("a", metavar="A")
    c.add_argument("b", metavar="B")
    c.add_argument("--json", action="store_true")
    common(c)

    s = sub.add_parser("sweep", help="audit every record of a leaderboard dump or tool output",
                       description="Audit every record of a dump (a local file of any size is "
                       "streamed), rank them, and list the records that could not be read.")
    s.add_argument("source", metavar="FILE|URL")
    sfmt = s.add_mutually_exclusive_group()
    sfmt.add_argument("--json", action="store_true",
                      help="one JSON document: reports (written as made), counts, unreadable records, ranking")
    sfmt.add_argument("--jsonl", action="store_true", help="one report per line, written as made")
    s.add_argument("--top", type=int, default=20, help="rows in the ranked summary (default 20)")
    s.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="worker processes auditing records (default: the number of cores)")
    common(s)

    d = sub.add_parser("digest", help="print the moderators' digest of the last 24 h from the store")
    d.add_argument("--guild", type=int, metavar="ID", help="one guild (default: every audit)")
    d.add_argument("--db", metavar="PATH", help="the store (default: CLAIMCHECK_DB_PATH or the user data dir)")

    sub.add_parser("bot", help="run the Discord bot (CLAIMCHECK_TOKEN; see the README)")

    r = sub.add_parser("reference", help="show reference rows with their sources")
    r.add_argument("table", choices=["gpu", "model", "format", "method", "power"])
    r.add_argument("name", nargs="?")
    r.add_argument("--reference", action="append", default=[], metavar="FILE")
    r.add_argument("--json", action="store_true")
    return p


def _colour(stream: TextIO) -> bool:
    return "NO_COLOR" not in os.environ and hasattr(stream, "isatty") and stream.isatty()


def _print_report(report: Report, args: argparse.Namespace, out: TextIO) -> None:
    from bot.render import render_markdown, render_terminal

    if getattr(args, "json", False):
        out.write(report.to_json() + "\n")
    elif getattr(args, "markdown", False):
        out.write(render_markdown(report))
    else:
        out.write(render_terminal(report, colour=_colour(out), details=not getattr(args, "brief", False)))


def options_from_args(args: argparse.Namespace, settings: Settings) -> PipelineOptions:
    """The pipeline's options: the settings, with this command's flags added or put first."""
    from bot.options import PipelineOptions

    cache = getattr(args, "cache", None)
    return PipelineOptions.from_settings(
        settings,
        boards=getattr(args, "boards", None) or (),
        allow_hosts=getattr(args, "allow_host", None) or (),
        cache_path=Path(cache) if cache else None,
        no_cache=bool(getattr(args, "no_cache", False)),
    )


def _run(args: argparse.Namespace, ref: Reference,
         call: Callable[[App], Awaitable[Any]], readers: int = 1) -> Any:
    """`asyncio.run` of one call on an app opened for this command, with `readers` workers."""
    import asyncio

    from bot.core import App

    async def run() -> Any:
        # A worker for each file the command reads at once, at most two (forked while this
        # process has one thread, so each costs a fork, not an interpreter's start).
        async with App.open(args.settings, ref=ref, options=args.options,
                            network=args.network, readers=readers,
                            fork_while_single_threaded=True) as app:
            return await call(app)

    return asyncio.run(run())


def _cmd_audit(args: argparse.Namespace, ref: Reference, out: TextIO) -> int:
    from bot.core import AuditResult, Request
    from bot.facts import parse_facts

    inputs = list(args.inputs)
    facts = parse_facts(args.facts)
    if not inputs and not args.example:
        raise UsageError("nothing to audit: give a URL, a file, - for stdin or the claim's text (or --example)")
    # The example is the package's own files: read in this process, no worker started for them.
    # What the user gives beside it is read in the workers, as the bot reads it.
    request = Request.from_args(inputs, facts=facts,
                                bundled=_example_paths() if args.example else ())
    result: AuditResult = _run(args, ref, lambda app: app.audit(request),
                               readers=max(1, min(2, len(request.docs))))
    if args.chart:
        from bot.render.chart import render_chart

        png = render_chart(result.report, result.points)
        if png is None:
            raise UsageError("no chart: the report has no roofline ceiling to draw the claim against")
        try:
            Path(args.chart).write_bytes(png)
        except OSError as exc:
            raise UsageError(f"cannot write the chart to {args.chart}: {exc.strerror}") from None
    _print_report(result.report, args, out)
    return EXIT_OK


def _cmd_compare(args: argparse.Namespace, ref: Reference, out: TextIO) -> int:
    from bot.core import Request
    from bot.render.compare import render_comparison

    a, b = Request.from_args([args.a]), Request.from_args([args.b])
    comparison = _run(args, ref, lambda app: app.compare(a, b))
    if args.json:
        out.write(comparison.model_dump_json(indent=2) + "\n")
    else:
        out.write(render_comparison(comparison))
    return EXIT_OK


def _utf8_buffer(out: TextIO) -> BinaryIO | None:
    """The binary stream under `out` when writing UTF-8 bytes to it writes what `out` would
    (a UTF-8 stream with no newline translation): a sweep's reports are then copied to it as the
    workers wrote them, not decoded and encoded again line by line."""
    binary = getattr(out, "buffer", None)
    encoding = getattr(out, "encoding", None)
    # On Windows a text stream writes each "\n" as "\r\n": there the text layer writes.
    if binary is None or not isinstance(encoding, str) or os.name == "nt":
        return None
    try:
        utf8 = codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return None
    return cast(BinaryIO, binary) if utf8 else None


def _cmd_sweep(args: argparse.Namespace, ref: Reference, out: TextIO) -> int:
    from bot.render.sweep import JsonSweepWriter, render_sweep
    from bot.sweep import SweepResult, SweepSummary, default_jobs

    if args.top < 1:
        raise UsageError(f"--top must be a whole number of rows, at least 1 (got {args.top})")
    jobs = default_jobs() if args.jobs is None else args.jobs
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1 (got {jobs})")

    def sweep(on_report: Callable[[str], None] | None,
              report_out: BinaryIO | None = None) -> SweepSummary:
        summary: SweepSummary = _run(args, ref, lambda app: app.sweep(
            args.source, jobs=jobs, on_report=on_report, report_out=report_out))
        return summary

    if args.jsonl:
        def line(text: str) -> None:
            out.write(text + "\n")

        binary = _utf8_buffer(out)
        if binary is not None:
            out.flush()  # what the text layer holds goes first
            summary = sweep(None, binary)
            binary.flush()
        else:
            summary = sweep(line)
        if summary.unreadable:
            # Not a report, so not on stdout; but never dropped silently.
            sys.stderr.write(f"claimcheck: {len(summary.unreadable)} record(s) could not be read: "
                             + "; ".join(f"record {u.record}: {u.reason}" for u in summary.unreadable[:args.top])
                             + ("; …" if len(summary.unreadable) > args.top else "") + "\n")
        return EXIT_OK
    if args.json:
        writer: JsonSweepWriter | None = None

        def write(text: str) -> None:
            nonlocal writer
            writer = writer or JsonSweepWriter(out, args.source)
            writer.report(text)

        summary = sweep(write)
        (writer or JsonSweepWriter(out, args.source)).finish(summary)
        return EXIT_OK
    summary = sweep(None)
    result = SweepResult(source=summary.source, records=summary.records,
                         by_verdict=summary.by_verdict, ranked=summary.ranked(args.top),
                         unreadable=summary.unreadable)
    out.write(render_sweep(result, top=args.top))
    return EXIT_OK


NO_TOKEN = (
    "no bot token: create an application at https://discord.com/developers/applications, add a "
    "bot, copy its token into CLAIMCHECK_TOKEN, and enable the Message Content intent there for "
    "watching chat (slash commands work without it)"
)


def _cmd_bot(args: argparse.Namespace, ref: Reference, out: TextIO) -> int:
    import asyncio
    import logging

    from bot.app import run_bot

    settings = args.settings
    token = settings.discord.token
    if token is None or not token.get_secret_value().strip():
        raise UsageError(NO_TOKEN)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    asyncio.run(run_bot(settings))
    return EXIT_OK


def _cmd_digest(args: argparse.Namespace, ref: Reference, out: TextIO) -> int:
    import asyncio

    from bot.digest import build_digest, digest_text
    from bot.store.db import Store, StoreError, default_db_path
    from extractors.storage import utc_now

    path = Path(args.db or args.settings.store.db_path or default_db_path())
    if not path.is_file():
        raise UsageError(f"no store at {path}: run the bot first, or give --db")

    async def run() -> str:
        try:
            store = await Store.open(path)
        except (StoreError, OSError) as exc:
            raise UsageError(f"cannot use the store {path}: {exc}") from None
        async with store:
            return digest_text(await build_digest(store, args.guild, utc_now()))

    out.write(asyncio.run(run()))
    return EXIT_OK


def _cmd_reference(args: argparse.Namespace, ref: Reference, out: TextIO) -> int:
    from bot.render.reference import render_reference

    text, payload = render_reference(ref, args.table, args.name)
    out.write(json.dumps(payload, indent=2) + "\n" if args.json else text)
    return EXIT_OK


_COMMANDS = {"audit": _cmd_audit, "compare": _cmd_compare, "sweep": _cmd_sweep,
             "reference": _cmd_reference, "bot": _cmd_bot, "digest": _cmd_digest}


def _settings() -> Settings:
    """The settings from the environment; a value that does not parse names its variable."""
    from pydantic import ValidationError

    from bot.settings import Settings
    from checks.text import one_line

    try:
        return Settings()
    except ValidationError as exc:
        from bot.settings import flat_name

        first = exc.errors()[0]
        name = flat_name(tuple(first["loc"])) if first["loc"] else "a CLAIMCHECK_ variable"
        raise UsageError(f"{name}: {first['msg']} (got {one_line(first.get('input'), 60)!r})") from None
    except ValueError as exc:
        # Only a CLAIMCHECK_ variable brings pydantic-settings in, and its error with it.
        from pydantic_settings import SettingsError

        if not isinstance(exc, SettingsError):
            raise
        # pydantic-settings: 'error parsing value for field "allow_hosts" from source ...'
        m = re.search(r'field "(\w+)"', str(exc))
        name = f"CLAIMCHECK_{m[1].upper()}" if m else "a CLAIMCHECK_ variable"
        hint = " (a list is written as JSON, e.g. '[\"host:8080\"]')" if m and m[1].endswith("s") else ""
        raise UsageError(f"{name} is not a value claimcheck can read{hint}") from None


def _check_file(flag: str, path: Path) -> None:
    """A config file must be a readable UTF-8 file: said in one line before anything reads it."""
    try:
        if path.is_dir():
            raise UsageError(f"{flag} {path} is a directory, not a file")
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{flag} {path}: cannot read it ({exc.strerror})") from None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"{flag} {path} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from None


def _check_config(args: argparse.Namespace, settings: Settings) -> None:
    for flag, paths in (("--reference", [*settings.reference_files, *getattr(args, "reference", [])]),
                        ("--boards", [*settings.board_files, *getattr(args, "boards", [])])):
        for path in paths:
            _check_file(flag, Path(path))
    cache = getattr(args, "cache", None) or settings.store.cache_path
    if cache and not getattr(args, "no_cache", False) and Path(cache).is_dir():
        raise UsageError(f"--cache {cache} is a directory; give the SQLite file to use inside it")


def _start_sweep_workers_early(args: argparse.Namespace) -> None:
    """A sweep of a file big enough for workers (`extractors.offloop.PARALLEL_BYTES`) starts the fork
    server now, before this process imports the checks and readers: the server loads the same
    modules on the other core meanwhile, instead of after them (about 0.7 s of a sweep's wall
    time). A small file, stdin or a URL, or `--jobs 1`, starts nothing."""
    if args.command != "sweep" or (args.jobs is not None and args.jobs < 2):
        return
    from extractors.offloop import PARALLEL_BYTES, warm_up

    try:
        big = os.stat(args.source).st_size >= PARALLEL_BYTES
    except (OSError, ValueError):
        return  # not a local file: the sweep says why, in its own words
    if big:
        warm_up()


def compiled_dir(settings: Settings) -> Path | None:
    """Where compiled patterns and the loaded reference are kept between runs: the setting, else
    the user cache dir (platformdirs' on Linux, computed here: importing platformdirs costs a
    cold start ~25 ms). None when Python is told not to write bytecode (PYTHONDONTWRITEBYTECODE):
    then nothing is kept, or read, as the test suite runs."""
    if sys.dont_write_bytecode:
        return None
    if settings.store.compiled_dir is not None:
        return Path(settings.store.compiled_dir)
    if sys.platform == "linux":
        base = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.expanduser("~/.cache")
        return Path(base) / "claimcheck"
    import platformdirs

    return Path(platformdirs.user_cache_dir("claimcheck"))


_APP_COMMANDS = frozenset({"audit", "compare", "sweep"})
_ONE_SHOT = frozenset({"audit", "compare", "reference"})


@contextmanager
def _starting(whole_process: bool) -> Iterator[None]:
    """For a process that runs one short command (`whole_process`), the collector paused while
    the command's modules load and the reference is read, and what was made meanwhile frozen out
    of its later passes: start-up makes some hundred thousand objects (modules, classes, rows) and
    frees almost none, and passes over them found nothing to free (~15% of a cold `audit
    --example`'s CPU). Frozen, not merely paused: paused, the first pass after would walk them
    all at once. On again before the command runs (it forks its reading workers, and reads what
    strangers wrote). A caller running commands in its own process (the tests), and a bot or a
    sweep, which run on, are left as they were: frozen objects are never freed."""
    if not whole_process or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None,
         network: Network | None = None) -> int:
    """Run one command. Every failure ends in one line on `err` and exit 2 (unusable input or
    configuration) or 3 (a URL that cannot be fetched); a bug is one line and exit 1, never a
    traceback. `network`: how fetches reach hosts (default: the real network; tests pass a
    loopback-only one). `argv` None: this process's command line, whose one command the process
    runs (a short one's start-up is then kept out of the collector's passes, `_starting`)."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help(out)
        return EXIT_UNUSABLE
    _start_sweep_workers_early(args)
    # This process runs its command line's one command, and a short one: a bot or a sweep runs
    # on, and what its start-up left to collect is collected as before.
    whole_process = argv is None and args.command in _ONE_SHOT
    with _starting(whole_process):
        from bot.reference_cache import cached_reference
        from checks.reference import ReferenceError
        from checks.text import one_line
        from extractors.text import compiled

    try:
        with _starting(whole_process):
            settings = _settings()
            args.settings = settings
            args.network = network
            _check_config(args, settings)
            args.options = options_from_args(args, settings)
            kept = compiled_dir(settings)
            compiled.keep_in(kept)
            ref = cached_reference(kept, *settings.reference_files, *getattr(args, "reference", []))
            if args.command in _APP_COMMANDS:
                import bot.core  # noqa: F401 - the command's modules, loaded while starting
        try:
            return _COMMANDS[args.command](args, ref, out)
        finally:
            compiled.save()
            compiled.keep_in(None)
    except FetchError as exc:
        err.write(f"claimcheck: {one_line(exc, 500)}\n")
        return EXIT_FETCH
    except (ExtractError, ReferenceError) as exc:
        err.write(f"claimcheck: {one_line(exc, 500)}\n")
        return EXIT_UNUSABLE
    except KeyboardInterrupt:
        err.write("claimcheck: interrupted\n")
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except (UnicodeError, ValueError, RecursionError, MemoryError, OverflowError, OSError) as exc:
        # Input that got past every specific check: still one line, still exit 2.
        err.write(f"claimcheck: the input could not be read ({type(exc).__name__}: "
                  f"{one_line(exc, 200)})\n")
        return EXIT_UNUSABLE
    except Exception as exc:  # noqa: BLE001 - a bug: one line, never a traceback
        err.write(f"claimcheck: internal error ({type(exc).__name__}: {one_line(exc, 200)}); "
                  "please report it with the input\n")
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
