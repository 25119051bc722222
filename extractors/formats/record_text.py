"""A record's own words: its free-text fields read by the same readers as a pasted post.

Boards keep half of what a run was in prose: a launch command, notes, comments, a reproduce
command, an engine-configuration object (AccelMark `task.extra_config`, a `speculative_config`).
`read_record_text` runs those through `extractors.text` — the launch-command parser, the log-line
readers and the free-text reader, in that order, as `parse_text` does for a post — and fills only
the claim fields the record's structured keys left empty, each with the JSON key and the text span
as provenance. Where a structured field and the record's own text disagree (a window of 16 in a
field, `--speculative-num-draft-tokens 56` in its command) the structured value stays and a
`FieldConflict` showing both is added to the claim.

Quirks, each with its reason:
- Engine-configuration objects are spelled as the flags they stand for (`max_model_len: 4096` →
  `--max-model-len 4096`, a nested `speculative_config` → `--speculative-config '{…}'`, `false` →
  `--no-…`), so the flag reader's conventions (vLLM's k + 1 window, …) apply unchanged.
- A complete launch command with no speculative flag means plain decode, but only once every other
  reader has had its say (`launch.plain_decode`): notes naming a method must still be heard.
- A context length from a flag (`--max-model-len`, `--context-length`, `max_model_len` in a
  config) is the server's cap, not the context the run used: charging KV for the cap would condemn
  honest batched records, so it is not taken from a record's command.
- Names in prose are matched against the packaged reference tables, loaded once per process: the
  adapters are called without the caller's reference, and a GPU named only in the notes must still
  be found.
- Each distinct text is read once per sweep: boards repeat their launch templates and notes, so
  the reading of a record's texts (what the readers set, before it is merged into the record) is
  memoised by content in a `TextMemo`. The memo belongs to whoever reads many records (the sweep
  opens one with `text_memo(...)`, or passes `memo=`): it is bounded (least recently used out)
  and lives as long as that context, never in a module global. The reading depends only on the
  texts, their order and paths, the engine, the source name and the reference, which make the
  key; the merge into the record (which depends on its structured fields) runs every time.
"""

from __future__ import annotations

import copy
import json
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from checks.models import FieldConflict, Provenance
from checks.reference import Reference, load_reference
from checks.text import sanitise
from extractors.builder import ClaimBuilder
from extractors.formats.aliases import ALIAS_INDEX, fold
from extractors.text.flags import Program, apply_flags
from extractors.text.freetext import read_free_text
from extractors.text.launch import plain_decode, read_launch
from extractors.text.logs import read_logs

_T = TypeVar("_T")

__all__ = [
    "CONFIG_KEYS",
    "CONFLICT_FIELDS",
    "TextMemo",
    "config_flags",
    "current_memo",
    "read_record_text",
    "reading_with",
    "record_conflicts",
    "row_texts",
    "text_fields",
    "text_memo",
]

# Claim fields where the record's words contradicting its structured keys is a finding. Names
# (hardware, model) are spelled many ways and are not compared.
CONFLICT_FIELDS = ("spec_window", "acceptance_length", "acceptance_rate", "batch",
                   "hardware_count", "speculative", "draft_steps", "draft_topk")
# Keys (folded) of engine-configuration objects: vLLM engine args, SGLang server args, a board's
# `extra_config`.
CONFIG_KEYS = ("speculative_config", "extra_config", "engine_config", "engine_args",
               "engine_kwargs", "server_args", "serving_config", "launch_config")
_MAX_TEXT = 20_000  # one field of a record; a whole pasted log belongs in a file of its own


@cache
def _packaged_reference() -> Reference:
    return load_reference()


# The reference of the enclosing `read_document` call: a format adapter's `parse(doc)` is given
# no reference, and its records' texts must be read with the caller's tables (a user's override
# files included), not a second copy of the packaged ones loaded on the side.
_CONTEXT_REF: ContextVar[Reference | None] = ContextVar("claimcheck_record_reference", default=None)


@contextmanager
def _within(var: ContextVar[_T | None], value: _T) -> Iterator[_T]:
    """`var` is `value` inside the block, whatever it was before."""
    token = var.set(value)
    try:
        yield value
    finally:
        var.reset(token)


def reading_with(ref: Reference) -> AbstractContextManager[Reference]:
    """Records' texts read inside this block are read with `ref`."""
    return _within(_CONTEXT_REF, ref)


@dataclass(frozen=True)
class _TextReading:
    """What the readers set from one record's texts: values, provenance, and which text (its
    position among the texts) each field came from — positions, not paths, since the same
    template sits at another path in every record. Shared between records with the same texts,
    so never handed out itself."""

    values: dict[str, Any]
    provenance: dict[str, Provenance]
    origin: dict[str, int]
    plain_at: int | None  # the text whose complete command said plain decode, if that was used


_Key = tuple[str, str, tuple[tuple[str, str], ...]]


class TextMemo:
    """Readings of records' own texts by content, the most recently used kept: at most `size`
    readings and `max_chars` characters of text (a reading keeps about twice its texts' size).

    One memo serves one reference (the readers' tables): a call with another reference reads
    without it. `hits` and `misses` say how much reading it saved."""

    def __init__(self, size: int = 4096, max_chars: int = 8_000_000) -> None:
        self.size = size
        self.max_chars = max_chars
        self.hits = 0
        self.misses = 0
        self._chars = 0
        self._ref: Reference | None = None
        self._items: OrderedDict[_Key, _TextReading] = OrderedDict()

    def serves(self, ref: Reference) -> bool:
        if self._ref is None:
            self._ref = ref
        return self._ref is ref

    def get(self, key: _Key) -> _TextReading | None:
        found = self._items.get(key)
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        self._items.move_to_end(key)
        return found

    def put(self, key: _Key, reading: _TextReading) -> None:
        chars = _chars(key)
        if key in self._items or chars > self.max_chars:
            return
        self._items[key] = reading
        self._chars += chars
        while len(self._items) > self.size or self._chars > self.max_chars:
            old, _ = self._items.popitem(last=False)
            self._chars -= _chars(old)


def _chars(key: _Key) -> int:
    return sum(len(name) + len(text) for name, text in key[2])


# The memo of the reading context around this call, if any (the sweep sets one): the format
# adapters between the sweep and `read_record_text` need not carry it in their signatures.
_CONTEXT_MEMO: ContextVar[TextMemo | None] = ContextVar("claimcheck_text_memo", default=None)


def current_memo() -> TextMemo | None:
    """The memo of the enclosing `text_memo` block, if any."""
    return _CONTEXT_MEMO.get()


def text_memo(memo: TextMemo) -> AbstractContextManager[TextMemo]:
    """Records read inside this block share `memo` (`with text_memo(TextMemo()): ...`)."""
    return _within(_CONTEXT_MEMO, memo)


def _memo_key(source: str, engine: str, texts: Sequence[tuple[str, Any]]) -> _Key:
    """What a reading depends on. A text's path does not change how it is read, except the last
    key naming a configuration object (`_read_one`); an object is keyed by its JSON in its own
    key order, since `config_flags` walks it in that order."""
    return source, engine, tuple(
        ("", value) if isinstance(value, str)
        else (_config_name(path), json.dumps(value, default=repr))
        for path, value in texts)


def _config_name(path: str) -> str:
    return fold(path.rsplit(".", 1)[-1])


def config_flags(obj: dict[str, Any], prefix: str = "") -> list[tuple[str, str, str | None, str]]:
    """An engine-configuration object spelled as the flags it stands for (see quirks)."""
    out: list[tuple[str, str, str | None, str]] = []
    for key, value in obj.items():
        name = str(key).strip().lower().replace("_", "-")
        if not name or value is None:
            continue
        if name in ("speculative-config", "spec-config") and isinstance(value, dict):
            text = json.dumps(value, sort_keys=True)
            out.append(("--speculative-config", "--speculative-config", text,
                        f"{prefix}{key}: {text[:150]}"))
        elif isinstance(value, dict):
            out.extend(config_flags(value, f"{prefix}{key}."))
        elif isinstance(value, bool):
            flag = f"--{name}" if value else f"--no-{name}"
            out.append((flag, flag, None, f"{prefix}{key}: {str(value).lower()}"))
        elif isinstance(value, (int, float, str)):
            out.append((f"--{name}", f"--{name}", str(value), f"{prefix}{key}: {value}"))
    return out


def _read_one(path: str, value: Any, engine: str, tb: ClaimBuilder, ref: Reference,
              plain: list[tuple[str, str]]) -> None:
    if isinstance(value, dict):
        if _config_name(path) in ("speculative_config", "spec_config"):
            value = {"speculative_config": value}  # the object is the flag's value
        apply_flags(tb, ref, Program(engine.lower()), config_flags(value))
        return
    text = sanitise(str(value), limit=_MAX_TEXT)
    launch = read_launch(text, tb, ref)
    logs = read_logs(text, tb, ref)
    rest = text
    for start, end in [*launch.spans, *logs.spans]:
        rest = rest[:start] + " " * (end - start) + rest[end:]
    read_free_text(rest, tb, ref)
    if launch.plain is not None:
        plain.append((path, launch.plain[1]))


def _read_texts(source: str, texts: Sequence[tuple[str, Any]], engine: str,
                ref: Reference) -> _TextReading:
    """The readers run over the (non-empty) texts in order: what they set and from which text."""
    tb = ClaimBuilder(source)
    origin: dict[str, int] = {}
    plain: list[tuple[str, str]] = []
    plain_at: list[int] = []
    for k, (path, value) in enumerate(texts):
        before = set(tb.values)
        had_plain = len(plain)
        _read_one(path, value, engine, tb, ref, plain)
        plain_at += [k] * (len(plain) - had_plain)
        for name in set(tb.values) - before:
            origin[name] = k
    used: int | None = None
    if plain and not tb.has("speculative"):
        path, span = plain[0]
        plain_decode(tb, span, field=path)
        used = origin["speculative"] = plain_at[0]
    return _TextReading(tb.values, tb.provenance, origin, used)


def read_record_text(b: ClaimBuilder, texts: Sequence[tuple[str, Any]], *, engine: str = "",
                     ref: Reference | None = None,
                     memo: TextMemo | None = None) -> list[FieldConflict]:
    """Fill `b` from the record's free-text fields `[(JSON path, text or config object)]`.

    Fields are read in the order given (launch commands before notes) and the first value wins,
    as in a post. Returns the conflicts found, already appended to the builder's `conflicts`.
    `memo` (else the one of the enclosing `text_memo` block, if any) saves reading texts seen
    before."""
    ref = ref or _CONTEXT_REF.get() or _packaged_reference()
    memo = _CONTEXT_MEMO.get() if memo is None else memo
    structured = dict(b.values)
    structured_prov = dict(b.provenance)
    texts = [(path, value) for path, value in texts
             if not (value is None or (isinstance(value, str) and not value.strip()) or value == {})]
    key = _memo_key(b.source, engine, texts) if memo is not None and memo.serves(ref) else None
    reading = memo.get(key) if memo is not None and key is not None else None
    if reading is None:
        reading = _read_texts(b.source, texts, engine, ref)
        if memo is not None and key is not None:
            memo.put(key, reading)
    tb = ClaimBuilder(b.source)
    # Values are copied out of a shared reading: a caller may change a list it was given.
    tb.values = {k: copy.deepcopy(v) if isinstance(v, (list, dict)) else v
                 for k, v in reading.values.items()}
    tb.provenance = dict(reading.provenance)
    paths = [path for path, _ in texts]
    if reading.plain_at is not None:  # its provenance names the text's path
        tb.provenance["speculative"] = tb.provenance["speculative"].model_copy(
            update={"field": paths[reading.plain_at]})
    origin = {name: paths[k] for name, k in reading.origin.items()}
    for name, value in tb.values.items():
        if name in ("launch_command", "notes"):
            continue  # the record's own text is already kept as it was written
        p = tb.provenance[name]
        if name == "context_length" and (p.field or "").startswith("-"):
            continue  # a server's maximum length (--max-model-len) is a cap, not the run's context
        where = f"{origin.get(name, '?')} ({p.field})" if p.field else origin.get(name, "?")
        b.set(name, value, field=where, span=p.span)
    found = record_conflicts(structured, structured_prov, tb, origin)
    if found:
        b.set("conflicts", [*b.values.get("conflicts", []), *found], field="record text",
              overwrite=True)
    return found


def record_conflicts(structured: dict[str, Any], prov: dict[str, Any], tb: ClaimBuilder,
                     origin: dict[str, str]) -> list[FieldConflict]:
    """Where the text read into `tb` disagrees with a structured value."""
    out: list[FieldConflict] = []
    for name in CONFLICT_FIELDS:
        if name not in structured or name not in tb.values:
            continue
        a, t = structured[name], tb.values[name]
        if _same(a, t):
            continue
        sp, tp = prov.get(name), tb.provenance[name]
        out.append(FieldConflict(
            field=name, structured=str(a), structured_from=(sp.field or "record") if sp else "record",
            text=str(t), text_from=f"{origin.get(name, 'record text')}: \"{tp.span or tp.field}\""))
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return bool(a) == bool(b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(float(a) - float(b)) <= 0.005 * max(abs(float(a)), abs(float(b)), 1e-9)
    return str(a).strip().lower() == str(b).strip().lower()


def text_fields(record: dict[str, Any], keys: Iterable[str], prefix: str = "") -> list[tuple[str, Any]]:
    """`[(path, value)]` for the keys of `record` present, in the order of `keys`."""
    return [(f"{prefix}{k}", record[k]) for k in keys if k in record]


def row_texts(row: dict[str, Any], prefix: str, b: ClaimBuilder) -> list[tuple[str, Any]]:
    """A board row's free-text fields, commands first, then configuration objects, then notes.

    Top-level keys are found through the alias table (`command`, `cmd`, `notes`, `comments`, …);
    a launch command or notes a board mapping pointed at elsewhere are taken from the builder."""
    by_target: dict[str, list[tuple[str, Any]]] = {"launch_command": [], "config": [], "notes": []}
    for key, value in row.items():
        spelling = fold(key)
        target = "config" if spelling in CONFIG_KEYS else ALIAS_INDEX.get(spelling)
        if target in by_target and (isinstance(value, str) or (
                target == "config" and isinstance(value, dict))):
            by_target[target].append((f"{prefix}.{key}" if prefix else str(key), value))
    for name in ("launch_command", "notes"):
        p = b.provenance.get(name)
        if p is not None and p.field and all(path != p.field for path, _ in by_target[name]):
            by_target[name].insert(0, (p.field, b.values[name]))
    return [*by_target["launch_command"], *by_target["config"], *by_target["notes"]]
