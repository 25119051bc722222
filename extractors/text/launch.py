"""Launch commands and environment variables quoted in a post, a record's notes or a config.

Recognised programs (flag spellings from sgl-project/sglang
`docs/advanced_features/speculative_decoding.md` and the z-lab/dflash README):
- SGLang `python -m sglang.launch_server`, `sglang serve`, `python -m sglang.bench_one_batch`;
- vLLM `vllm serve MODEL`, `python -m vllm.entrypoints.openai.api_server`;
- llama.cpp `llama-server`, `llama-cli`, `llama-speculative`, `llama-bench`;
- TensorRT-LLM `trtllm-serve`; ATOM `python -m atom.entrypoints.openai_server`;
- benchmark clients (`sglang.bench_serving`, `vllm bench serve`, `dflash.benchmark`), read after
  the servers so a server's flags win.

Quirks, each for a reason:
- Commands span lines with `\\` continuations and sit in markdown fences or inline backticks.
- `shlex` refuses unbalanced quotes; such a command is tokenised leniently and the fact noted,
  never raised: a stranger's paste is not ours to reject.
- What each flag means, and the draft-window conventions, live in `flags.py`.
- Env assignments are read three ways: `KEY=VALUE cmd` prefixes, `export KEY=VALUE` lines and
  `docker run -e`; a bare `UPPER_KEY=value` in prose counts too (not `AL=56.0`, a statistic).
- A complete server or bench command (naming its model) with no speculative flag or env variable
  means plain decode; `read_launch` notes it (`plain`), the caller applies `plain_decode` last.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from checks.engines import cannot_speculate
from checks.models import Claim
from checks.parsing import shell_words
from checks.reference import Reference
from checks.text import sanitise
from extractors.builder import ClaimBuilder
from extractors.text.flags import Program, apply_flags, canonical_method, parse_flags
from extractors.text.lazyre import lazy
from extractors.text.units import states_speed

__all__ = [
    "Command",
    "LaunchReading",
    "find_commands",
    "parse_launch_command",
    "plain_decode",
    "read_env",
    "read_launch",
    "split_command",
]

_PY = r"(?<![\w./-])(?:[\w./-]*/)?python[\d.]*(?:\s+-[A-Za-z]+)*\s+-m\s+"
_BIN = r"(?<![\w./-])(?:[\w./-]*/)?"
# (pattern, engine, role); role orders the commands: servers first, then in-process benches.
_PROGRAMS: list[tuple[re.Pattern[str], str, str]] = [
    (lazy(_PY + r"sglang\.launch_server\b"), "sglang", "server"),
    (lazy(r"(?<![\w.-])sglang\s+serve\b"), "sglang", "server"),
    (lazy(_PY + r"vllm\.entrypoints\.openai\.api_server\b"), "vllm", "server"),
    (lazy(r"(?<![\w.-])vllm\s+serve\b"), "vllm", "server"),
    (lazy(_BIN + r"llama-server\b"), "llama.cpp", "server"),
    (lazy(r"(?<![\w.-])trtllm-serve(?:\s+serve)?\b"), "tensorrt-llm", "server"),
    (lazy(_PY + r"atom\.entrypoints\.[\w.]+"), "atom", "server"),
    (lazy(_PY + r"sglang\.bench_one_batch\b"), "sglang", "bench"),
    (lazy(_BIN + r"llama-(?:cli|bench|speculative(?:-simple)?)\b"), "llama.cpp", "bench"),
    (lazy(_PY + r"sglang\.bench_serving\b"), "", "client"),
    (lazy(r"(?<![\w.-])vllm\s+bench\s+\w+"), "", "client"),
    (lazy(_PY + r"dflash\.benchmark\b"), "", "client"),
]
_ROLE_ORDER = {"server": 0, "bench": 1, "client": 2}
_HINT = lazy(r"sglang|vllm|llama-|trtllm|atom\.|dflash\.")  # one cheap test per line
_SHELL_STOP = {"|", "||", "&&", ";", "&", "\\"}
_ENV_TOKEN = lazy(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.DOTALL)
# A bare `KEY=VALUE` in prose or on its own line counts only with an upper-case key holding an
# underscore: "AL=56.0" is a statistic, "SGLANG_SIMULATE_ACC_LEN=56" is an environment variable.
_BARE_ENV = lazy(r"(?<![\w$-])([A-Z][A-Z0-9]*_[A-Z0-9_]+)="
                       r"(\"[^\"\n]*\"|'[^'\n]*'|[^\s`'\",;)]*)")
_EXPORT = lazy(r"^[ \t]*(?:export|set|setenv|ENV)\s+(.+)$", re.MULTILINE)
_FENCE = lazy(r"^[ \t]*(?:```|~~~).*$")
_PROMPT = lazy(r"^\s*(?:[-*>]\s+|\$\s+|#\s+|\w[\w.-]*@[\w.-]+:\S*[$#]\s+)+")


@dataclass
class Command:
    """One launch or benchmark command found in text."""

    raw: str  # as written, continuations kept
    engine: str  # "sglang", "vllm", "llama.cpp", "tensorrt-llm", "atom" or "" for a client
    role: str  # "server", "bench" or "client"
    program: str  # the matched program words, e.g. "vllm serve"
    args: list[str]  # tokens after the program
    env: dict[str, str]  # KEY=VALUE prefixes and docker -e pairs
    image: str | None  # container image when launched through `docker run`
    start: int  # character span in the searched text
    end: int
    lenient: bool  # quotes were unbalanced; tokenised leniently


@dataclass
class LaunchReading:
    found: list[str] = field(default_factory=list)  # "launch_command", "env"
    spans: list[tuple[int, int]] = field(default_factory=list)  # consumed text, for free text
    commands: list[Command] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    plain: tuple[str, str] | None = None  # (field, span) of a complete plain-decode command


def split_command(command: str) -> tuple[list[str], bool]:
    """Shell words of a command; (tokens, lenient). Never raises on unbalanced quotes: a quote
    left open is closed at the end (lenient), else the words are taken as written. The words come
    from the project's one tokenizer, checks.parsing.shell_words (memoised by content)."""
    text = command.replace("\\\r\n", " ").replace("\\\n", " ")
    for closing, lenient in (("", False), ('"', True), ("'", True)):
        words = shell_words(text + closing)
        if words is not None:
            return _drop_comment(list(words)), lenient
    written = re.findall(r"'[^']*'?|\"[^\"]*\"?|\S+", text)
    return _drop_comment([w.strip("'\"") for w in written]), True


def _drop_comment(tokens: list[str]) -> list[str]:
    for i, tok in enumerate(tokens):
        if tok.startswith("#"):
            return tokens[:i]
    return tokens


def _logical_lines(text: str) -> list[tuple[int, int, str]]:
    """(start, end, joined) for each line, `\\` continuations joined into one line."""
    out: list[tuple[int, int, str]] = []
    pos = 0
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        start = pos
        parts = [lines[i]]
        pos += len(lines[i]) + 1
        while parts[-1].rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            parts.append(lines[i])
            pos += len(lines[i]) + 1
        out.append((start, min(pos - 1, len(text)), "\n".join(parts)))
        i += 1
    return out


# `_HINT`'s words: a line holding none of them runs no command (`_line_command`).
_HINT_WORDS = ("sglang", "vllm", "llama-", "trtllm", "atom.", "dflash.")


def _hinted_lines(text: str) -> list[tuple[int, int, str]]:
    """The logical lines of `_logical_lines` that hold one of `_HINT_WORDS`: in a text with no
    continuation, found by searching the text for the words (a log's other lines are never
    visited in Python); with one, every logical line is made and tested."""
    if "\\" in text:
        return [ll for ll in _logical_lines(text) if any(w in ll[2] for w in _HINT_WORDS)]
    starts: set[int] = set()
    for word in _HINT_WORDS:
        at = text.find(word)
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            starts.add(start)
            end = text.find("\n", at)
            at = text.find(word, end) if end >= 0 else -1  # on to the next line
    out = []
    for start in sorted(starts):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        out.append((start, end, text[start:end]))
    return out


def find_commands(text: str) -> list[Command]:
    """Every recognised command in text, servers first, then in order of appearance."""
    found: list[Command] = []
    for start, _, line in _hinted_lines(text):
        cmd = _line_command(line) if len(line) <= _MEMO_LINE else _line_command.__wrapped__(line)
        if cmd is not None:
            # A fresh copy per mention, at its place in this text (the memo's is shared).
            found.append(replace(cmd, args=list(cmd.args), env=dict(cmd.env), start=start + cmd.start,
                                 end=start + cmd.end))
    found.sort(key=lambda c: (_ROLE_ORDER[c.role], c.start))
    return found


# Lines memoised are at most this long, so the memo stays small whatever a stranger pastes.
_MEMO_LINE = 2000


@lru_cache(maxsize=2048)
def _line_command(line: str) -> Command | None:
    """The command one logical line runs, its span within the line; memoised by the line (a
    board repeats its launch templates, a log its command lines: tokenising and matching the
    twelve programs again was most of reading them)."""
    if _FENCE.match(line) or not _HINT.search(line):
        return None
    hits = [(m, eng, role) for pat, eng, role in _PROGRAMS if (m := pat.search(line))]
    if not hits:
        return None
    match, engine, role = min(hits, key=lambda h: h[0].start())
    return _command(line, 0, len(line), match, engine, role)


def _command(line: str, start: int, end: int, match: re.Match[str], engine: str,
             role: str) -> Command:
    head, body, cut = line[: match.start()], line[match.end():], (0, len(line))
    if head.count("`") % 2 == 1:  # inline code: the command ends at the closing backtick
        opening = head.rfind("`")
        head = head[opening + 1:]
        close = body.find("`")
        cut = (opening, match.end() + close + 1 if close >= 0 else len(line))
        body = body[:close] if close >= 0 else body
    else:
        head = _PROMPT.sub("", head)
    # "llama-bench says 158 t/s on my 3090", "4090: 150 tok/s llama-bench": the tool is context
    if _names_in_prose(body) or _ends_prose(head, body):
        body = ""
        if all(_ENV_TOKEN.match(w) for w in head.split()):
            cut = (cut[0], match.end())
        else:
            # The words before it are the sentence, not an env prefix ("Llama 3.3 70B Q4_K_M with
            # llama-bench on an RTX 4090"): kept as the command they were blanked from the readers
            # of the model, the format and the card.
            head, cut = "", (match.start(), match.end())
    elif (prose := _prose_after_options(body)) is not None:
        # "llama-server -np 8 on a 4090, Llama 3 8B Q4: 600 t/s": the command ends where the
        # sentence it sits in goes on; the card, the model and the figure are the post's words.
        body = body[:prose]
        cut = (cut[0], match.end() + prose)
    raw = (head + match.group(0) + body).strip()
    body_tokens, lenient = split_command(body)
    head_tokens, lenient_head = split_command(head)
    args: list[str] = []
    for tok in body_tokens:
        if tok in _SHELL_STOP or re.match(r"^\d?>", tok):
            break
        args.append(tok)
    env, image = _prefix(head_tokens)
    return Command(raw=raw, engine=engine, role=role, program=" ".join(match.group(0).split()),
                   args=args, env=env, image=image, start=start + cut[0], end=start + cut[1],
                   lenient=lenient or lenient_head)


def _ends_prose(head: str, body: str) -> bool:
    """A program that ends a sentence ("RTX 4090: 150 tok/s llama-bench", "Llama 3 8B with
    llama-bench"): nothing follows it, and what comes before is words, not an env prefix or a
    container run (`CUDA_VISIBLE_DEVICES=0 llama-bench`, `docker run … image llama-bench`)."""
    if body.strip() or not head.strip():
        return False
    words = head.split()
    return not any(w in ("docker", "podman", "sudo", "exec") for w in words) and not all(
        _ENV_TOKEN.match(w) or w.startswith("-") for w in words)


# A sentence going on after a command's options: a preposition or verb, then a determiner, a
# count or a name ("on a 4090", "on my 3090", "with 2x 3090", "gets 45 t/s"). No option, path
# or model id reads so; a prompt that does is quoted.
_PROSE_GOES_ON = re.compile(r"\s(?i:on|with|using|gets?|got|runs?|does|gives|giving|reaching|hits?)"
                            r"\s+(?:(?i:my|a|an|the|one|two)\b|\d|[A-Z])")


def _prose_after_options(body: str) -> int | None:
    """Where the sentence goes on after a command's options, when what follows states a speed
    (a figure with its unit is the post's claim, never an argument); None otherwise."""
    if not states_speed(body):
        return None
    for m in _PROSE_GOES_ON.finditer(body):
        before = body[:m.start()]
        if before.count('"') % 2 == 0 and before.count("'") % 2 == 0:  # outside any quoted prompt
            return m.start()
    return None


def _names_in_prose(body: str) -> bool:
    """A program named in a sentence, not run: the words after it hold no option and no path,
    file or model id (a command line's words are options, their values and paths: "vllm serve
    org/model --tp 2"); "vllm bench serve on my H100, 485 tok/s" and "llama-bench on my 3090:"
    report a run."""
    words = body.split()
    # "llama-bench (rig …): model: …; t/s: 13.13", "llama-bench: …": a heading or label naming the
    # tool; no shell command goes on with a bracket, colon or comma right after its program.
    if body.lstrip()[:1] in ("(", ":", ",", ";"):
        return True
    if not words or any(w.startswith("-") for w in words):
        return False
    return states_speed(body) or not any("/" in w or "=" in w or re.search(r"\w\.\w", w)
                                         for w in words)


def _prefix(tokens: list[str]) -> tuple[dict[str, str], str | None]:
    """Env assignments and a docker image from the words before the program."""
    env: dict[str, str] = {}
    image = None
    docker = any(t in ("docker", "podman") for t in tokens)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if docker and tok in ("-e", "--env") and i + 1 < len(tokens):
            m = _ENV_TOKEN.match(tokens[i + 1])
            if m:
                env[m.group(1)] = m.group(2)
            i += 2
            continue
        m = _ENV_TOKEN.match(tok)
        if m and not tok.startswith("-"):
            env[m.group(1)] = m.group(2)
        elif docker and not tok.startswith("-") and ("/" in tok or ":" in tok) and "=" not in tok:
            image = tok
        i += 1
    return env, image


def read_env(text: str) -> tuple[dict[str, str], list[str]]:
    """`export KEY=VALUE` lines and bare `UPPER_KEY=value` assignments anywhere in text."""
    env: dict[str, str] = {}
    spans: list[str] = []
    for m in _EXPORT.finditer(text):
        tokens, _ = split_command(m.group(1))
        for tok in tokens:
            e = _ENV_TOKEN.match(tok)
            if e and e.group(1) not in env:
                env[e.group(1)] = e.group(2)
                spans.append(f"export {tok}")
    for m in _BARE_ENV.finditer(text):
        if m.group(1) not in env:
            env[m.group(1)] = m.group(2).strip("'\"")
            spans.append(m.group(0))
    return env, spans


def read_launch(text: str, b: ClaimBuilder, ref: Reference | None = None) -> LaunchReading:
    """Fill `b` from every command and env assignment in text; first value wins."""
    out = LaunchReading()
    commands = find_commands(text)
    env: dict[str, str] = {}
    env_spans: list[str] = []
    for cmd in commands:
        out.commands.append(cmd)
        out.spans.append((cmd.start, cmd.end))
        if cmd.lenient:
            out.warnings.append(f"unbalanced quotes in a {cmd.program} command; read leniently")
        _apply(cmd, b, ref, out.warnings)
        for key, value in cmd.env.items():
            if key not in env:
                env[key] = value
                env_spans.append(f"{key}={value}")
    more, spans = read_env(text)
    for (key, value), span in zip(more.items(), spans, strict=False):
        if key not in env:
            env[key] = value
            env_spans.append(span)
    if commands:
        out.found.append("launch_command")
        if not any(_SPEC_ENV.search(k) for k in env):
            out.plain = next(((f"{c.program} command", c.raw[:200]) for c in commands
                              if _is_plain(c, ref)), None)
            # A tool with no way to speculate measures plain decode, whatever its line holds
            # ("Llama 3.3 70B Q4_K_M with llama-bench on an RTX 4090: 400 t/s").
            out.plain = out.plain or next(((c.program, c.program) for c in commands
                                           if cannot_speculate(c.program)), None)
    if env:
        clean = {sanitise(k, limit=200): sanitise(v, limit=500) for k, v in list(env.items())[:200]}
        b.set("env", clean, field="env", span="; ".join(env_spans)[:200])
        out.found.append("env")
    return out


def parse_launch_command(command: str, ref: Reference | None = None,
                         source: str = "text") -> Claim:
    """The Claim one pasted command describes (a convenience for tests and the CLI)."""
    b = ClaimBuilder(source)
    if (reading := read_launch(command, b, ref)).plain is not None:
        plain_decode(b, reading.plain[1], field=reading.plain[0])
    return b.build()


# Env that switches speculation on or forces acceptance (SemiAnalysisAI/InferenceX golden_al_distribution)
_SPEC_ENV = lazy(r"SPEC|DRAFT|ACC_LEN|EAGLE|MTP|DFLASH", re.IGNORECASE)


def _is_plain(cmd: Command, ref: Reference | None) -> bool:
    """A server or bench command that names its model and sets nothing speculative."""
    scratch = ClaimBuilder("scratch")
    _apply(cmd, scratch, ref, [])
    return cmd.role != "client" and scratch.has("model") and not any(
        scratch.has(f) for f in ("speculative", "spec_window", "spec_method", "drafter_model"))


def plain_decode(b: ClaimBuilder, command: str, field: str = "launch command") -> None:
    """Plain decode, read from a complete launch command with no speculative flag (first wins)."""
    b.set("speculative", False, field=field, span=f"no speculative flag in: {command[:150]}")


def _apply(cmd: Command, b: ClaimBuilder, ref: Reference | None, warnings: list[str]) -> None:
    flags, positionals = parse_flags(cmd.args)
    if cmd.engine and cmd.role != "client":
        b.set("engine", cmd.engine, field="program", span=cmd.program)
    if cmd.role == "server" or (cmd.role == "bench" and not b.has("launch_command")):
        b.set("launch_command", cmd.raw, field="launch command", span=cmd.raw[:200])
    if cmd.image:
        b.set("container_image", cmd.image, field="docker run", span=cmd.image)
    serve = cmd.program.startswith(("vllm serve", "trtllm-serve"))
    if serve and positionals and cmd.args and not cmd.args[0].startswith("-"):
        b.set("model", cmd.args[0], field=f"{cmd.program} MODEL",
              span=f"{cmd.program} {cmd.args[0]}")
    if "dflash.benchmark" in cmd.program:
        b.set("speculative", True, field="dflash.benchmark", span=cmd.program)
        b.set("spec_method", canonical_method("dflash", ref), field="dflash.benchmark",
              span=cmd.program)
    program = Program(cmd.engine, cmd.role, cmd.program)
    warnings.extend(apply_flags(b, ref, program, flags))
