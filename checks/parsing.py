"""A claim's launch command, env and notes parsed once into a `ParsedConfig`, for every check.

Checks read the parsed form through `parsed(ev)`, never the raw text: the extractors fill
`Evidence.parsed` when they build the evidence, the runner fills it when it is absent (evidence
built by hand), and `parsed` parses on the spot when a check is called on evidence that has none
or whose claim changed since (it keeps the texts it came from). One parser, here, pure.

`parse_config` is memoised by content (least recently used out, a bounded number of entries):
a board repeats its launch templates, so a sweep splits each distinct command once per process.
Its result is frozen, so sharing it is safe.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable
from functools import lru_cache

from checks.models import Claim, Evidence, ParsedConfig
from checks.switches import forced_hits, lossy_mentions, prefill_phrases

__all__ = ["accept_ratios", "join_words", "parse_config", "parsed", "shell_words", "version_in_text",
           "with_parsed"]

_MEMO_ENTRIES = 4096  # distinct (command, env, notes) combinations kept; a few KB each

# An engine named with its version in prose or a pip line ("vllm==0.6.3", "SGLang v0.4.1"). The
# separator is "==", "=" or ":" with optional spaces, or spaces alone; possessive, so a run of
# spaces after the name is walked once (the `\s*(?:=|\s)\s*` it replaces was cubic in the run).
_TEXT_VERSION = re.compile(
    r"\b(vllm|sglang|llama\.cpp|tensorrt[-_]llm|lmdeploy|ollama|exllamav[23]|mlx[-_]lm|tgi)"
    r"(?:\s*+(?:==|=|:)\s*+|\s++)v?(\d+\.\d+[\w.+\-]*)",
    re.IGNORECASE,
)
# llama.cpp's own banner: "build: 4567 (a1b2c3d)".
_TEXT_LLAMA_BUILD = re.compile(
    r"\b(?:version|build)\s*[:=]\s*(\d{3,5})\s*\(([0-9a-f]{7,40})\)", re.IGNORECASE
)


# "a/b" in free text: digits not part of a date, version, decimal or path (1/1/2026, 0.5/1, a/b/c).
_RATIO = re.compile(r"(?<![\d/.:\-])(\d+)\s*/\s*(\d+)(?![\d/.:\-])")
# An acceptance statistic is accepted ÷ proposed draft tokens: an a/b counts only in a sentence
# about accepting, drafting or verifying tokens, and an input/output length pair never does.
_ACCEPT_CONTEXT = re.compile(r"(?i)accept|\bdraft|\bAL\b|specul|verif|propos|\bspec\b|\bhits?\b")
_IO_PAIR = re.compile(r"(?i)\b(?:ISL\s*/\s*OSL|input\s*/\s*output|in\s*/\s*out|I\s*/\s*O)\b")


def accept_ratios(notes: str | None) -> tuple[tuple[int, int, str], ...]:
    """Every "a/b" of the notes written in a sentence about acceptance: (a, b, as written)."""
    if not notes or "/" not in notes:
        return ()
    out: list[tuple[int, int, str]] = []
    for m in _RATIO.finditer(notes):
        start = max(notes.rfind(x, 0, m.start()) for x in ".\n;") + 1
        ends = [i for i in (notes.find(x, m.end()) for x in ".\n;") if i >= 0]
        sentence = notes[start:min(ends, default=len(notes))]
        if _IO_PAIR.search(sentence) or not _ACCEPT_CONTEXT.search(sentence):
            continue  # two lengths ("128/128 in/out"), or a count that is no acceptance statistic
        out.append((int(m.group(1)), int(m.group(2)), m.group(0)))
    return tuple(out)


def version_in_text(text: str | None) -> str | None:
    """The engine version a text states (llama.cpp's build banner first), or None."""
    if not text:
        return None
    m = _TEXT_LLAMA_BUILD.search(text)
    if m:
        return f"b{m.group(1)}-{m.group(2)}"
    m = _TEXT_VERSION.search(text)
    return m.group(2).rstrip(".,;)") if m else None


@lru_cache(maxsize=_MEMO_ENTRIES)
def shell_words(command: str) -> tuple[str, ...] | None:
    """A command's shell words as POSIX shlex splits them, or None when its quotes do not
    balance (a stranger's command: no words, not a crash). The project's one tokenizer of launch
    commands: the extractors' launch reader calls it too. Memoised by content, as boards and
    sweeps repeat the same launch templates and shlex tokenises character by character."""
    try:
        return tuple(shlex.split(command))
    except ValueError:
        return None


def _words(cmd: str | None) -> tuple[str, ...] | None:
    return shell_words(cmd) if cmd else None


@lru_cache(maxsize=_MEMO_ENTRIES)
def _parse(launch_command: str | None, env: tuple[tuple[str, str], ...],
           notes: str | None) -> ParsedConfig:
    # Where the switches are searched, in order: the command, every env pair, the notes.
    places = [("launch_command", launch_command or ""), *(("env", f"{k}={v}") for k, v in env),
              ("notes", notes or "")]
    return ParsedConfig(
        launch_command=launch_command, env=dict(env), notes=notes,
        words=_words(launch_command),
        launch_version=version_in_text(launch_command),
        notes_version=version_in_text(notes),
        accept_ratios=accept_ratios(notes),
        forced=forced_hits(places),
        lossy=lossy_mentions(places),
        prefill_phrases=prefill_phrases(notes),
    )


def parse_config(claim: Claim) -> ParsedConfig:
    """The claim's launch command, env and notes, parsed (memoised by their content)."""
    return _parse(claim.launch_command, tuple(claim.env.items()), claim.notes)


def _fresh(p: ParsedConfig | None, c: Claim) -> bool:
    return (p is not None and p.launch_command == c.launch_command and p.notes == c.notes
            and p.env == c.env)


def parsed(ev: Evidence) -> ParsedConfig:
    """The evidence's parsed config: the one it carries when it matches its claim, else parsed."""
    return ev.parsed if ev.parsed is not None and _fresh(ev.parsed, ev.claim) else parse_config(ev.claim)


def with_parsed(ev: Evidence) -> Evidence:
    """The evidence carrying its claim's parsed config (itself when it already does)."""
    if _fresh(ev.parsed, ev.claim):
        return ev
    return ev.model_copy(update={"parsed": parse_config(ev.claim)})


def join_words(words: Iterable[str]) -> str:
    """Words back into one shell command line, each quoted where the shell needs it."""
    return shlex.join(words)
