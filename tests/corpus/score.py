"""Score the free-text reader against the chat corpus: `python -m tests.corpus.score`.

`claims.jsonl` holds speed claims the way people post them (post titles, comments, README lines,
issue threads), each with the public URL it was taken from and the fields a careful reader would
fill (`null` where the text does not say). `chatter.jsonl` holds lines from the same threads that
make no speed claim: questions, VRAM sizes, prices, versions, dates, jokes.

How a field counts as read right:
- tok/s, kind, card count, batch, concurrency, AL and window: equal values (None == None).
- card, model, weight format and speculative method: the same reference row, or the same name
  once case, spaces and punctuation are folded away ("RTX-4060 Ti" is "RTX 4060 Ti"); a model's
  variant suffix ("-Instruct", "-it", "-chat") does not change which model it is.
- total and active parameters: where the text states a size, the size the checks will use (the
  claim's own figure, else its model row's) matches it within 15% or 0.5B: a name's size is a
  rounded label (Qwen3-30B-A3B has 3.35B active; Llama 3.1 8B has 8.03B), not a count. Where the
  text states none, the claim must not carry one of its own (a model row's figure is the table's,
  not a reading).

A chatter line counts as a false positive when the reader finds a speed in it: a tok/s figure or
a token count over a time.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from checks.models import Claim
from checks.reference import Reference, load_reference, normalise_name
from extractors.document import RawDocument
from extractors.text import parse_text

__all__ = ["FIELDS", "Score", "load", "read", "score"]

HERE = Path(__file__).parent
FIELDS = ("tok_s", "tok_s_kind", "hardware", "hardware_count", "model", "params_total_b",
          "params_active_b", "weight_format", "batch", "concurrency", "spec_method",
          "acceptance_length", "spec_window")
_VARIANT = re.compile(r"(?:instruct|chat|it)$")
SIZE_REL, SIZE_ABS = 0.15, 0.5


@dataclass
class Score:
    claims: int = 0
    chatter: int = 0
    right: dict[str, int] = field(default_factory=dict)
    stated: dict[str, int] = field(default_factory=dict)  # fields the text states
    stated_right: dict[str, int] = field(default_factory=dict)
    misses: list[tuple[str, str, Any, Any]] = field(default_factory=list)
    false_positives: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.claims * len(FIELDS)

    @property
    def exact(self) -> float:
        return sum(self.right.values()) / self.total if self.total else 0.0

    @property
    def stated_exact(self) -> float:
        n = sum(self.stated.values())
        return sum(self.stated_right.values()) / n if n else 0.0


def load(name: str) -> list[dict[str, Any]]:
    path = HERE / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def read(text: str, ref: Reference) -> Claim:
    return parse_text(RawDocument.from_text(text), ref).claim


def _fold(name: str) -> str:
    return _VARIANT.sub("", normalise_name(name))


def _same_name(kind: str, want: str, got: str, ref: Reference) -> bool:
    if _fold(want) == _fold(got):
        return True
    find = {"hardware": ref.gpu, "model": ref.model, "weight_format": ref.format,
            "spec_method": ref.method}[kind]
    a, b = find(want), find(got)
    return a is not None and a is b


def _size(claim: Claim, name: str, ref: Reference) -> float | None:
    own = getattr(claim, name)
    if own is not None:
        return float(own)
    row = ref.model(claim.model)
    return getattr(row, name, None) if row is not None else None


def _right(name: str, want: Any, claim: Claim, ref: Reference) -> tuple[bool, Any]:
    if name in ("params_total_b", "params_active_b"):
        got = _size(claim, name, ref) if want is not None else getattr(claim, name)
        if want is None or got is None:
            return want is None and got is None, got
        return abs(got - want) <= max(SIZE_ABS, SIZE_REL * want), got
    got = getattr(claim, name)
    if name in ("hardware", "model", "weight_format", "spec_method"):
        if want is None or got is None:
            return want is None and got is None, got
        return _same_name(name, want, got, ref), got
    return got == want, got


def score(ref: Reference | None = None) -> Score:
    ref = ref or load_reference()
    out = Score(right=dict.fromkeys(FIELDS, 0), stated=dict.fromkeys(FIELDS, 0),
                stated_right=dict.fromkeys(FIELDS, 0))
    for item in load("claims.jsonl"):
        out.claims += 1
        claim = read(item["text"], ref)
        for name in FIELDS:
            want = item["expect"][name]
            ok, got = _right(name, want, claim, ref)
            out.right[name] += ok
            if want is not None:
                out.stated[name] += 1
                out.stated_right[name] += ok
            if not ok:
                out.misses.append((item["text"], name, want, got))
    for item in load("chatter.jsonl"):
        out.chatter += 1
        claim = read(item["text"], ref)
        if claim.tok_s is not None or (claim.tokens_generated and claim.wall_seconds):
            out.false_positives.append(item["text"])
    return out


def table(s: Score) -> str:
    lines = [f"claimcheck chat corpus, {datetime.now(UTC):%Y-%m-%d}: {s.claims} claims, "
             f"{s.chatter} chat lines without a claim",
             "",
             "| field | exact (all) | exact (where the text states it) |",
             "|---|---:|---:|"]
    for name in FIELDS:
        stated = s.stated[name]
        lines.append(f"| {name} | {s.right[name]}/{s.claims} | "
                     f"{s.stated_right[name]}/{stated} |")
    lines += ["",
              f"Fields exact: {sum(s.right.values())}/{s.total} = {s.exact:.1%} "
              f"(stated fields only: {s.stated_exact:.1%})",
              f"Claims found in chat lines without one: {len(s.false_positives)}/{s.chatter}"]
    return "\n".join(lines)


def verdicts(ref: Reference | None = None) -> tuple[Counter[str], list[tuple[str, str]]]:
    """Every corpus claim audited as a pasted line: the verdict counts, and the text and headline
    of each `implausible` or `suspicious` one (honest claims should be neither)."""
    from bot.pipeline import audit_inputs
    from extractors.errors import ExtractError

    ref = ref or load_reference()
    counts: Counter[str] = Counter()
    alarms = []
    for item in load("claims.jsonl"):
        try:
            report = audit_inputs([item["text"]], ref)
        except ExtractError:
            counts["refused"] += 1
            continue
        counts[report.verdict] += 1
        if report.verdict in ("implausible", "suspicious"):
            alarms.append((item["text"], report.headline))
    return counts, alarms


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    s = score()
    print(table(s))
    if "--verdicts" in args:
        counts, alarms = verdicts()
        print("\nVerdicts when each claim is audited: " + ", ".join(
            f"{k} {counts[k]}" for k in ("consistent", "insufficient", "suspicious", "implausible",
                                         "refused")))
        for text, headline in alarms:
            print(f"- {text}\n    {headline}")
    if "--misses" in args:
        print()
        for text, name, want, got in s.misses:
            print(f"- {name}: want {want!r}, got {got!r} <- {text}")
        for text in s.false_positives:
            print(f"- false positive <- {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
