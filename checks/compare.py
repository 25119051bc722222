"""Comparing two numbers: the difference table before any conclusion (seed §6-7).

Seed, section 6: "When two public numbers on the same hardware model contradict each other, the
default conclusion is 'not comparable.' Build the difference table first, then talk." And
section 7: "An inferred candidate list is an experiment plan, not a conclusion."

`compare(a, b)` gives one row per knob, each `same` / `differs` / `unknown` (unknown when either
side lacks the value). Names are compared through the reference aliases ("RTX 5090" is
"NVIDIA GeForce RTX 5090", "nvfp4" is "NVFP4"); context length is `context_length` or input +
output tokens; batch is `batch` or else `concurrency`; prefix caching counts as on when the record
says prefill came from cache.

Decisions:
- `comparable` is False when any knob that changes performance differs. `date` does not: a date
  changes nothing by itself, its effect arrives through engine version, drivers and power profile,
  which are knobs of their own. A differing date is named in the conclusion, nothing more.
- `comparable` is also False when a core knob (hardware, model, weight format, spec method, batch)
  is unknown on either side: "same as far as the record shows" is not enough for those.
- A side without speculative decoding has no window: `spec_window` is `same` when neither side
  speculates and `unknown` when only one does — that difference is the `spec_method` row's, so the
  seed's "65-74 vs 212.7" pair counts four knobs, not five.
- `gap_pct` is b relative to a: (b − a) / a × 100. It is reported, never attributed: one
  single-variable experiment per differing knob is the only way to split it (seed §7's ledger had
  one component pointing the wrong way).

Pure: no network, disk or clock.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from checks.models import Claim, FigureValue
from checks.reference import Reference, normalise_name
from checks.rules.fork import canonical_engine

__all__ = ["CORE_KNOBS", "KNOBS", "PERFORMANCE_KNOBS", "Comparison", "KnobRow", "compare"]

KNOBS = (
    "hardware",
    "model",
    "weight_format",
    "kv_dtype",
    "engine",
    "engine_version",
    "spec_method",
    "spec_window",
    "context_length",
    "batch",
    "prefix_caching",
    "power_profile",
    "tok_s_kind",
    "date",
)
# Knobs that change the measured number; `date` only matters through the others.
PERFORMANCE_KNOBS = tuple(k for k in KNOBS if k != "date")
# Knobs that must be known on both sides before two numbers can be called comparable.
CORE_KNOBS = ("hardware", "model", "weight_format", "spec_method", "batch")

# KV-cache dtype spellings across engines (vLLM/SGLang --kv-cache-dtype, llama.cpp -ctk).
KV_ALIASES = {
    "bfloat16": "bf16",
    "float16": "fp16",
    "half": "fp16",
    "fp8e4m3": "fp8",
    "fp8e4m3fn": "fp8",
    "float8e4m3fn": "fp8",
    "q80": "q8_0",
    "q8": "q8_0",
    "f16": "fp16",
}

KnobStatus = Literal["same", "differs", "unknown"]


class KnobRow(BaseModel):
    """One row of the difference table."""

    model_config = ConfigDict(defer_build=True)  # built on the first `compare`, not at import

    knob: str
    a: str | None
    b: str | None
    status: KnobStatus


class Comparison(BaseModel):
    """Two claims side by side: the table, the verdict on comparability and the experiment plan."""

    model_config = ConfigDict(defer_build=True)  # built on the first `compare`, not at import

    comparable: bool
    differing: list[str] = Field(default_factory=list)
    unknown: list[str] = Field(default_factory=list)
    rows: list[KnobRow] = Field(default_factory=list)
    conclusion: str
    experiments: list[str] = Field(default_factory=list)
    figures: dict[str, FigureValue] = Field(default_factory=dict)  # counts are ints (checks.models)


def _canon(lookup: Callable[[str | None], object] | None, name: str | None) -> str | None:
    if name is None or not name.strip():
        return None
    row = lookup(name) if lookup is not None else None
    return getattr(row, "name", None) or name.strip()


def _key(value: str | None) -> str | None:
    return normalise_name(value) if value is not None else None


def _kv(value: str | None) -> str | None:
    if value is None:
        return None
    k = re.sub(r"[^a-z0-9]", "", value.lower())
    return KV_ALIASES.get(k, k)


def _context(c: Claim) -> int | None:
    if c.context_length is not None:
        return c.context_length
    if c.input_tokens is not None and c.output_tokens is not None:
        return c.input_tokens + c.output_tokens
    return None


def _spec_method(c: Claim, ref: Reference | None) -> str | None:
    if c.speculative is False:
        return "none"
    return _canon(ref.method if ref else None, c.spec_method)


def _values(c: Claim, ref: Reference | None) -> dict[str, tuple[str | None, object]]:
    """knob -> (display value, comparison key)."""
    hw = _canon(ref.gpu if ref else None, c.hardware)
    hw_shown = f"{hw} ×{c.hardware_count}" if hw and c.hardware_count else hw
    model = _canon(ref.model if ref else None, c.model)
    fmt = _canon(ref.format if ref else None, c.weight_format)
    method = _spec_method(c, ref)
    window = (
        str(c.spec_window) if c.spec_window is not None and c.speculative is not False else None
    )
    ctx = _context(c)
    batch = c.batch if c.batch is not None else c.concurrency
    prefix = (
        c.prefix_caching if c.prefix_caching is not None else (True if c.prefill_cached else None)
    )
    engine = canonical_engine(c.engine)
    version = c.engine_version.strip().lstrip("vV") if c.engine_version else None

    def show(x: object) -> str | None:
        if x is None:
            return None
        if isinstance(x, bool):
            return "on" if x else "off"
        return str(x)

    return {
        "hardware": (hw_shown, (_key(hw), c.hardware_count) if hw else None),
        "model": (model, _key(model)),
        "weight_format": (fmt, _key(fmt)),
        "kv_dtype": (c.kv_dtype, _kv(c.kv_dtype)),
        "engine": (engine, _key(engine)),
        "engine_version": (version, version),
        "spec_method": (method, _key(method)),
        "spec_window": ("none" if c.speculative is False else window, window),
        "context_length": (show(ctx), ctx),
        "batch": (show(batch), batch),
        "prefix_caching": (show(prefix), prefix),
        "power_profile": (c.power_profile, _key(c.power_profile)),
        "tok_s_kind": (c.tok_s_kind, c.tok_s_kind),
        "date": (c.date, c.date),
    }


def _same(knob: str, ka: object, kb: object) -> bool:
    if knob == "hardware" and isinstance(ka, tuple) and isinstance(kb, tuple):
        # (name, count): a count known on one side only does not make the hardware differ
        name_a, count_a = ka
        name_b, count_b = kb
        return bool(name_a == name_b and (count_a is None or count_b is None or count_a == count_b))
    return ka == kb


def _experiment(row: KnobRow) -> str:
    """One single-variable measurement for one differing knob."""
    if row.knob == "tok_s_kind":
        return (
            f"tok_s_kind: recompute both numbers as the same kind ({row.a} vs {row.b}) from their raw "
            "tokens and times before measuring anything; a different kind is a different number"
        )
    if row.knob == "hardware":
        return (
            f"hardware: run A's exact config on {row.b} (everything else as A) and B's on {row.a}; "
            "log power with `nvidia-smi --query-gpu=power.draw --format=csv -lms 100`"
        )
    hint = {
        "spec_method": "switch only the speculative method (no-spec = drop every --speculative-* flag)",
        "spec_window": "change only the draft window / block size",
        "context_length": "change only the input+output length (e.g. bench_serving --random-input-len/--random-output-len)",
        "batch": "change only the batch / --max-concurrency",
        "prefix_caching": "toggle only prefix caching (SGLang --disable-radix-cache, vLLM --no-enable-prefix-caching)",
        "kv_dtype": "change only --kv-cache-dtype",
        "weight_format": "swap only the checkpoint's quantization format",
        "engine": "run the same config on the other engine",
        "engine_version": "pin only the engine version (same image otherwise)",
        "power_profile": "change only the power limit (`nvidia-smi -pl <W>`)",
        "model": "swap only the model checkpoint",
    }.get(row.knob, f"change only {row.knob}")
    return (
        f"{row.knob}: on A's box and config, {hint}: {row.a} -> {row.b}, same task, "
        "warm-up and repeats; the difference is this knob's share of the gap"
    )


def compare(a: Claim, b: Claim, ref: Reference | None = None) -> Comparison:
    """The difference table between two claims. Never attributes the gap to one knob."""
    va, vb = _values(a, ref), _values(b, ref)
    rows: list[KnobRow] = []
    for knob in KNOBS:
        (sa, ka), (sb, kb) = va[knob], vb[knob]
        if knob == "spec_window" and a.speculative is False and b.speculative is False:
            status: KnobStatus = "same"
        elif ka is None or kb is None:
            status = "unknown"
        else:
            status = "same" if _same(knob, ka, kb) else "differs"
        rows.append(KnobRow(knob=knob, a=sa, b=sb, status=status))

    differing = [r.knob for r in rows if r.status == "differs" and r.knob in PERFORMANCE_KNOBS]
    unknown = [r.knob for r in rows if r.status == "unknown"]
    core_unknown = [k for k in CORE_KNOBS if k in unknown]
    figures: dict[str, FigureValue] = {}
    gap = ""
    if a.tok_s is not None and b.tok_s is not None and a.tok_s > 0:
        figures.update(
            a_tok_s=a.tok_s, b_tok_s=b.tok_s, gap_pct=round((b.tok_s - a.tok_s) / a.tok_s * 100, 1)
        )
        gap = f"the gap ({figures['gap_pct']:+.1f}%, B vs A) "
    figures.update(differing_knobs=len(differing), unknown_knobs=len(unknown))

    if differing:
        conclusion = (
            f"not comparable as they stand; differs on {len(differing)} knob{'s' if len(differing) != 1 else ''}: "
            f"{', '.join(differing)}. {(gap[:1].upper() + gap[1:]) or 'Any gap '}is not attributed to any one knob until "
            "the single-variable measurements below are run."
        )
    elif core_unknown:
        conclusion = (
            f"cannot tell whether comparable: {', '.join(core_unknown)} unknown on at least one side; "
            "fill those in before reading anything into the gap."
        )
    else:
        conclusion = (
            "comparable on every knob both records state"
            + (f" (unknown: {', '.join(unknown)})" if unknown else "")
            + (
                f"; {gap.strip()} is the thing to explain, starting with a re-measurement of both"
                if gap
                else ""
            )
            + "."
        )
    if next(r for r in rows if r.knob == "date").status == "differs":
        conclusion += " Dates differ: engine and driver updates between them are the usual unattributed remainder."
    experiments = [_experiment(r) for r in rows if r.knob in differing]
    return Comparison(
        comparable=not differing and not core_unknown,
        differing=differing,
        unknown=unknown,
        rows=rows,
        conclusion=conclusion,
        experiments=experiments,
        figures=figures,
    )
