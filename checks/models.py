"""The data model every part of claimcheck speaks .

`Claim` is one measured or asserted result; every field is optional and unknown stays `None`.
Each filled field keeps its `Provenance` (which source, which record field or text span).
`Evidence` is a claim plus everything the extractors followed to find it. `Report` is what the
checks say about it; its JSON form (`schema` = `claimcheck.report/5`) is a public interface.

An `Answer` is data: a status, a short `reason` code, typed `figures` (a flag is a bool, a count an
int, a quantity a float; `FIGURE_KINDS` declares them and `figure_unit` names each one's unit) and
`basis` entries (`Basis`) that point at the sources they rest on by id. The report carries each
source once (`Report.references`, `Cited`). Sentences are rendered from the data
(`checks.render`); a `claimcheck.report/1` document (figures all floats, basis as prose lines)
still loads: `Report` upgrades it on reading (docs/report-schema.md has the field map).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from datetime import datetime
from functools import cache, lru_cache
from operator import itemgetter
from typing import Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    computed_field,
    field_validator,
    model_serializer,
    model_validator,
)

__all__ = [
    "CAVEAT",
    "FIGURE_KINDS",
    "REPORT_SCHEMA",
    "REPORT_SCHEMA_V1",
    "REPORT_SCHEMA_V2",
    "REPORT_SCHEMA_V3",
    "REPORT_SCHEMA_V4",
    "Answer",
    "Assumption",
    "Basis",
    "BasisKind",
    "Cited",
    "CitedKind",
    "Claim",
    "Difference",
    "Evidence",
    "FieldConflict",
    "FigureValue",
    "LossyMention",
    "ParsedConfig",
    "PeerFigure",
    "PeerGroup",
    "PostInfo",
    "Provenance",
    "Question",
    "Report",
    "Screenshot",
    "Source",
    "Status",
    "Step",
    "SuspectField",
    "SwitchHit",
    "TokSKind",
    "Verdict",
    "built",
    "extended",
    "figure_unit",
    "replaced",
]

REPORT_SCHEMA = "claimcheck.report/5"
# Each source once, but each basis entry written inside every answer that rests on it, with its
# kind, and each question with its number.
REPORT_SCHEMA_V4 = "claimcheck.report/4"
# Each source once, empty and default members left out; a note entry, a provenance's usual source
# and a span that is its value's own text were still written out in full.
REPORT_SCHEMA_V3 = "claimcheck.report/3"
# Typed figures, basis entries by source id, reason codes; every default member written out.
REPORT_SCHEMA_V2 = "claimcheck.report/2"
_M = TypeVar("_M", bound=BaseModel)
# The first version: figures all floats, basis prose lines with their citations inline.
REPORT_SCHEMA_V1 = "claimcheck.report/1"

# The seed's section 6, in one line: every report ends with it.
CAVEAT = (
    "Circumstantial: enough to falsify, not to establish the true value. "
    "Nothing here was reproduced; every figure is derived from the public record and the "
    "reference tables named in its basis."
)

Status = Literal["ok", "flag", "stop", "unanswerable", "n/a", "plan", "error"]
Verdict = Literal["implausible", "suspicious", "insufficient", "consistent"]
TokSKind = Literal[
    "decode",  # decode-only (TPOT-based, first token excluded)
    "output",  # end-to-end output tokens over wall time (includes prefill/TTFT)
    "total",  # input + output tokens over wall time
    "per_user",  # per stream at concurrency > 1
    "per_gpu",  # aggregate divided by GPU count
    "aggregate",  # all streams together
    "prefill",  # prompt processing speed
]

# The models an audit only builds with `built` (basis entries, cited sources, Q8's plan, Questions, the
# Report, the peers) are `defer_build`: pydantic builds their validator and serializer on first
# use, not at import, so a run that prints text never builds the Report's. The models every audit
# validates (the claim and its evidence, answers) are built at import, before a CLI forks its
# readers, so each reader does not build them again.


class Provenance(BaseModel):
    """Where one claim field came from."""

    model_config = ConfigDict(frozen=True)

    source: str  # URL, file path, "text" or "stdin"
    field: str | None = None  # record field path, flag name or env var
    span: str | None = None  # the quoted text the value was read from
    # "read": from the record or text; "user": stated by the user (`audit --set`, `/audit
    # facts:`), not found in any source
    kind: Literal["read", "user"] = "read"


class FieldConflict(BaseModel):
    """A record whose structured field and its own free text disagree on one claim field."""

    model_config = ConfigDict(frozen=True)

    field: str  # the Claim field, e.g. "spec_window"
    structured: str  # the structured value, as text
    structured_from: str  # where it came from (JSON key)
    text: str  # the value read from the record's own words
    text_from: str  # the text field and span it was read from


class SuspectField(BaseModel):
    """A record field at least 10× away from a sourced reference row: a units or typing error.

    The claim the checks read carries the sourced value in the field's place; this keeps the
    record's own value, so the report names both (checks/physics/model_size.sourced_claim)."""

    model_config = ConfigDict(frozen=True)

    field: str  # the Claim field, e.g. "params_total_b"
    record_value: float
    record_from: str  # where the record's value came from (JSON key, column)
    sourced_value: float | None  # None: the field is dropped and the physics derives it
    sourced_from: str  # the reference row and its source, or the formula
    ratio: float  # record ÷ sourced (or ÷ the expected figure)
    unit: str  # "B params", "GB", "bytes"


class Claim(BaseModel):
    """One measured (or asserted) result. Unknown stays None, never a guess."""

    model_config = ConfigDict(extra="forbid")

    # model
    model: str | None = None
    params_total_b: float | None = None
    params_active_b: float | None = None
    is_moe: bool | None = None
    weight_format: str | None = None
    bits_per_weight: float | None = None
    model_size_bytes: float | None = None  # the record's own file size (e.g. llama-bench)
    kv_dtype: str | None = None
    size_inferred: bool | None = None  # params read from the name or a file size, not a model row
    # hardware and software
    hardware: str | None = None
    hardware_count: int | None = None
    engine: str | None = None
    engine_version: str | None = None
    container_image: str | None = None
    # offload: weights partly outside the card's memory (llama.cpp -ngl, "+ 64GB RAM offload")
    offload: bool | None = None
    gpu_layers: int | None = None
    system_ram_gb: float | None = None
    system_bandwidth_gbs: float | None = None  # stated system-memory bandwidth
    # the cell
    batch: int | None = None
    concurrency: int | None = None
    # The most requests the server decodes at once, as launched (llama-server `-np N`): a figure
    # nothing calls one stream's may sum that many.
    server_slots: int | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    context_length: int | None = None
    serving_claim: bool | None = None  # offered as evidence about multi-user serving
    # the number
    tokens_generated: int | None = None
    wall_seconds: float | None = None
    tok_s: float | None = None
    tok_s_kind: TokSKind | None = None
    ttft_ms: float | None = None
    ttft_empty: bool | None = None  # the record has a TTFT field and it is empty
    prefill_cached: bool | None = None
    speedup: float | None = None  # a claimed speedup over a baseline
    baseline_tok_s: float | None = None
    # A per-request decode rate (1 / TPOT, inter-token latency, "interactivity", tok/s per user)
    # carried beside the headline tok_s: one stream gets at most one token (x AL) per step, so it is
    # bounded by the batch-1 ceiling at any concurrency.
    per_user_tok_s: float | None = None
    cell: str | None = None  # the record's own name for the scenario it reports ("interactive")
    # speculative decoding
    speculative: bool | None = None  # None = not known whether it was used
    spec_method: str | None = None
    spec_window: int | None = None  # most tokens one verify pass can emit
    spec_window_convention: str | None = None  # which rule turned the flag into the window
    draft_steps: int | None = None
    draft_topk: int | None = None
    drafter_model: str | None = None
    acceptance_length: float | None = None
    acceptance_length_low: float | None = None  # when a range is reported ("AL 231-292")
    acceptance_length_high: float | None = None
    acceptance_rate: float | None = None  # 0..1
    accepted_tokens: int | None = None
    drafted_tokens: int | None = None
    accept_threshold: float | None = None  # < 1.0 means lossy verification
    ratios: list[tuple[int, int]] = Field(default_factory=list)  # "a/b" statistics seen
    # power
    power_w: float | None = None
    power_w_high: float | None = None  # upper end when a range is reported
    power_method: str | None = None  # board / wall / nvidia-smi
    power_profile: str | None = None  # power limit, clocks
    # method
    temperature: float | None = None
    repeats: int | None = None
    cooldown_s: float | None = None
    prefix_caching: bool | None = None
    launch_command: str | None = None
    env: dict[str, str] = Field(default_factory=dict)
    notes: str | None = None
    # identity
    submitter: str | None = None
    date: str | None = None
    source_url: str | None = None
    record_id: str | None = None
    # the accelerator's memory as the record states it (LocalScore `accel_ram`), GB; compared with
    # the hardware row by the suspect_field check, never used in place of the row
    hardware_memory_gb: float | None = None
    # a benchmark's latency targets (MLPerf Server `tpot_latency`, `ttft_latency`), ms: every
    # request of a valid run got at least 1000 / tpot_target_ms tok/s — a per-user bound, not a rate
    tpot_target_ms: float | None = None
    ttft_target_ms: float | None = None
    # fields the record states 10x or more away from a sourced row, replaced by the sourced value
    # before any check reads the claim (checks/physics/model_size.sourced_claim)
    suspect_fields: list[SuspectField] = Field(default_factory=list)
    # where the record's structured fields and its own text disagree (the structured value wins)
    conflicts: list[FieldConflict] = Field(default_factory=list)
    provenance: dict[str, Provenance] = Field(default_factory=dict)
    # the unnamed machine the record ran on, as an id: records naming no hardware whose `machine`
    # is equal ran on one machine (one table of one post: one command's output), so they may be
    # each other's peers (checks/peers.py); never a hardware row, never a ceiling
    machine: str | None = None
    # the CPU of the machine around the card, as named ("Benchmarks are run on a Ryzen-7950X
    # system with an RTX-4080 GPU"): its platform's most generous bandwidth bounds the share of the
    # weights an offloaded run reads from system memory (checks/physics/offload.py); never the device
    host: str | None = None
    # tokens already in the KV cache when the timed decode starts (llama-sweep-bench `N_KV`,
    # llama-bench's "tg128 @ d4096"): every token decoded reads at least that many tokens of KV
    kv_depth: int | None = None
    # accepted draft tokens per verify pass, the bonus token the target adds not counted
    # (AccelMark `task.runtime_metrics.mean_accepted_tokens`: its example 2.96 = acceptance_rate
    # 0.74 × 4 draft tokens): each pass emits this + 1 (checks/rules/speculative_bound.py)
    accepted_per_pass: float | None = None

    def source_of(self, name: str) -> str:
        """A short phrase naming where a field came from, for a report's basis."""
        p = self.provenance.get(name)
        if p is None:
            return f"claim.{name}"
        where = p.field or (f'"{p.span}"' if p.span else "")
        return f"claim.{name} ({p.source}{': ' + where if where else ''})"

    def filled(self) -> dict[str, Any]:
        """The fields that hold a value (no provenance, no empty containers)."""
        out: dict[str, Any] = {}
        for name, value in self:
            if name == "provenance" or value is None or value == [] or value == {}:
                continue
            out[name] = value
        return out


SourceKind = Literal["post", "record", "config", "log", "tool-output", "page", "text", "file"]


class Screenshot(BaseModel):
    """What OCR read from one image (Q1 says what the image was: a printout or a photo)."""

    name: str  # the image's file name or URL
    lines: int = 0  # lines of text OCR read
    figures: int = 0  # numeric claim fields read from that text (tok/s, W, ms, tokens, ...)
    format: str | None = None  # what the text was read as ("llama-bench table", "vllm_bench", "text")


class Source(BaseModel):
    """One place the extractors read: a fetched URL, a file, stdin or pasted text."""

    url: str
    final_url: str | None = None
    redirects: list[str] = Field(default_factory=list)
    fetched_at: datetime | None = None
    status: int | None = None
    content_type: str | None = None
    sha256: str | None = None
    kind: SourceKind = "text"
    format: str | None = None  # the adapter that parsed it
    note: str | None = None  # e.g. "parsed leniently: raw control characters in JSON"
    screenshot: Screenshot | None = None  # set when the source is an image read by OCR


class PostInfo(BaseModel):
    """What the original post itself held (Q1)."""

    text: str | None = None
    links: list[str] = Field(default_factory=list)
    evidence_links: list[str] = Field(default_factory=list)  # config, record, log, repo, gist
    image_count: int = 0
    quotes_launch_command: bool = False


InputKind = Literal["post", "record", "tool-output", "log", "config"]


class PeerFigure(BaseModel):
    """One other record's figure for the same setup (checks/peers.py), with where it came from."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    record: str  # the peer's record id (corpus id, dump position, stored audit)
    tok_s: float
    source: str | None = None  # the peer's source URL or file
    # GB each token of the peer reads (weights + KV at its stated depth, checks/physics), and what
    # it ran ("Llama 3 8B, Q4_K_M, depth 4096"): the same machine's peers compare per byte read
    gb_per_token: float | None = None
    ran: str | None = None
    # which weights it ran (checks.peers.weights_of) and at what KV depth: a record of the same
    # weights at a deeper cache is no faster than it, whether or not the KV bytes are known
    weights: str | None = None
    kv_depth: int | None = None


class PeerGroup(BaseModel):
    """The figures other records report for this record's setup; the record itself is never in it."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    setup: str  # the shared setup, readable: "RTX 4090 ×1, Llama 3 8B, Q4_K_M, decode"
    figures: list[PeerFigure] = Field(default_factory=list)
    # the other records of the same machine (one table of one post, one submission), any model or
    # depth, with their GB per token (checks/peers.py `machine_key`); the machine_outlier finding
    machine: str | None = None
    machine_figures: list[PeerFigure] = Field(default_factory=list)
class SwitchHit(BaseModel):
    """A forced-acceptance switch named in a claim's own words (checks.switches)."""

    model_config = ConfigDict(frozen=True)

    switch: str  # the switch's name in checks.switches.SWITCHES
    where: str  # "launch_command", "env" or "notes"
    span: str
    value: float | None = None
    off: str | None = None  # why it is not in force, or None when it is


class LossyMention(BaseModel):
    """An accept threshold stated (`which`, `value`) or a lossy verification mode in force (`how`)
    in a claim's own words (checks.switches)."""

    model_config = ConfigDict(frozen=True)

    where: str  # "launch_command", "env" or "notes"
    span: str
    which: str | None = None  # a threshold: "single" or "acc"
    value: float | None = None
    how: str | None = None  # a mode: what makes it lossy


class ParsedConfig(BaseModel):
    """The claim's launch command, env and notes parsed once (`checks.parsing.parse_config`), so
    no check runs its own tokenizer or patterns over the raw text. It keeps the texts it was parsed
    from: a claim changed afterwards (`model_copy`) is parsed again rather than read stale."""

    model_config = ConfigDict(frozen=True)

    launch_command: str | None = None
    env: dict[str, str] = Field(default_factory=dict)
    notes: str | None = None
    # the launch command split as a POSIX shell would (shlex); None: no command, or unbalanced
    # quotes (a stranger's half-pasted command)
    words: tuple[str, ...] | None = None
    # an engine version stated in the command / the notes ("vllm==0.6.3", "build: 4567 (a1b2c3d)")
    launch_version: str | None = None
    notes_version: str | None = None
    # "a/b" written in the notes in a sentence about accepting, drafting or verifying tokens:
    # (a, b, the text as written); input/output length pairs left out
    accept_ratios: tuple[tuple[int, int, str], ...] = ()
    # forced-acceptance switches, accept thresholds and lossy modes, and phrases saying prefill
    # was left out, as checks.switches finds them
    forced: tuple[SwitchHit, ...] = ()
    lossy: tuple[LossyMention, ...] = ()
    prefill_phrases: tuple[str, ...] = ()


class Evidence(BaseModel):
    """The primary claim and the chain of sources behind it."""

    claim: Claim
    kind: InputKind = "post"
    post: PostInfo | None = None
    sources: list[Source] = Field(default_factory=list)
    siblings: list[Claim] = Field(default_factory=list)
    not_found: list[str] = Field(default_factory=list)  # what was searched for and not found
    warnings: list[str] = Field(default_factory=list)
    # records of the same setup (a board's other rows, a corpus, earlier audits), given by the
    # caller (checks.runner.audit(peers=...)); None: audited alone
    peers: PeerGroup | None = None
    # the claim's launch command, env and notes parsed once (checks.parsing); filled by the
    # extractors, else by the runner, and read by the checks through `checks.parsing.parsed`
    parsed: ParsedConfig | None = None


class Assumption(BaseModel):
    """A constant a figure rests on, with its value, unit and source."""

    model_config = ConfigDict(frozen=True)

    name: str
    value: float | str
    unit: str = ""
    source: str


# A figure's value has its own type: a flag is a bool, a count an int, a quantity a float.
FigureValue = bool | int | float

# The figures whose type is not a quantity, by name. A check may hand a count over as a float
# (`float(len(runs))`): the answer stores it with its declared type, so the JSON says `3`, not `3.0`.
FIGURE_KINDS: dict[str, Literal["count", "flag"]] = {
    **{name: "count" for name in (
        "batch", "concurrency", "server_slots", "ceiling_batch", "max_batch", "experiments", "differences",
        "images", "evidence_links", "switches", "signals", "runs", "al_runs", "full_ratios",
        "window", "spec_window", "published_window", "largest_published_window", "conflicts",
        "suspect_fields", "differing_knobs", "unknown_knobs", "screenshots_with_figures",
        "screenshots_without_figures", "hardware_count", "tokens_generated", "siblings",
        "input_tokens", "output_tokens", "context_length", "required_batch", "peers",
        "shallower_peers")},
    **{name: "flag" for name in ("serving", "rigorous_is_slowest", "compute_roof", "layer_split", "moe_reading")},
}

# A figure's unit, from the suffix of its name (the checks name every figure this way).
_UNIT_SUFFIXES = (
    ("_tok_s", "tok/s"), ("_gbs", "GB/s"), ("_gb", "GB"), ("_tflops", "TFLOPS"), ("_w", "W"),
    ("_ms", "ms"), ("_pct", "%"), ("_seconds", "s"), ("_b", "B params"), ("watts", "W"),
    ("watts_high", "W"),
)


@lru_cache(maxsize=1024)  # a name's unit never changes; the checks use some hundred names
def figure_unit(name: str) -> str:
    """'tok/s' for `ceiling_tok_s`, 'GB' for `weights_gb`, '' for a ratio, a count or a flag."""
    if name in FIGURE_KINDS:
        return ""
    return next((unit for suffix, unit in _UNIT_SUFFIXES if name.endswith(suffix)), "")


@lru_cache(maxsize=4096)  # an answer's figure names: a check names the same few every time
def _units_of(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Each of `names` that has a unit, with it, in order."""
    return tuple((name, unit) for name in names if (unit := figure_unit(name)))


def _typed(name: str, value: FigureValue) -> FigureValue:
    kind = FIGURE_KINDS.get(name)
    if kind == "flag":
        return bool(value)
    if kind == "count" and not isinstance(value, bool) and float(value).is_integer():
        return int(value)
    if kind is None and isinstance(value, int) and not isinstance(value, bool):
        return float(value)  # a quantity that happens to be whole (0 GB of KV) is still a quantity
    return value


# Answer fields the JSON leaves out when empty (/2: the ones it added; /3: every defaulted one).
_OPTIONAL_EMPTY = frozenset({"reason", "label", "differences", "steps", "figures", "missing", "basis",
                             "assumptions"})

def built(cls: type[_M], /, **values: Any) -> _M:
    """`cls.model_construct(**values)` for values already valid, without pydantic's per-field
    default resolution (model_construct costs three times a validation; an audit builds ~150
    entries). Fields in declared order (the JSON's order), defaults from the class's declared ones,
    a `default_factory` called per instance."""
    template, factories, required = _shape_of(cls)
    data = template.copy()  # every field in declared order, at its default
    data.update(values)
    for name, make in factories:
        if name not in values:
            data[name] = make()
    if len(data) != len(template):  # a name the class does not declare is not kept
        data = {k: v for k, v in data.items() if k in template}
    for name in required:
        if name not in values:
            del data[name]
    obj = object.__new__(cls)
    _set = object.__setattr__
    _set(obj, "__dict__", data)
    _set(obj, "__pydantic_fields_set__", set(values))
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj


def replaced(obj: _M, /, **changes: Any) -> _M:
    """`obj.model_copy(update=changes)` for changes already valid, without its per-field work: the
    other fields copied as they are, in declared order."""
    return _copied(obj, type(obj), changes)


def extended(obj: BaseModel, cls: type[_M], /, **fields: Any) -> _M:
    """`obj` as an instance of `cls`, a subclass declaring `fields` after the fields it inherits
    (a Question from its Answer and `n`), the values already valid."""
    return _copied(obj, cls, fields)


def _copied(obj: BaseModel, cls: type[_M], changes: dict[str, Any]) -> _M:
    data = obj.__dict__.copy()
    data.update(changes)
    new = object.__new__(cls)
    _set = object.__setattr__
    _set(new, "__dict__", data)
    _set(new, "__pydantic_fields_set__", obj.__pydantic_fields_set__ | changes.keys())
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new


_REQUIRED = object()


@cache  # per model class (a fixed, small set): its fields and declared defaults, constants
def _shape_of(cls: type[BaseModel]) -> tuple[dict[str, Any], tuple[tuple[str, Callable[[], Any]], ...],
                                             tuple[str, ...]]:
    """The class's fields in declared order at their defaults (a required one at a placeholder),
    the fields made by a `default_factory`, and the required ones."""
    template: dict[str, Any] = {}
    factories: list[tuple[str, Callable[[], Any]]] = []
    required: list[str] = []
    for name, info in cls.model_fields.items():
        template[name] = _REQUIRED
        if info.default_factory is not None:
            factories.append((name, info.default_factory))  # type: ignore[arg-type]
        elif info.is_required():
            required.append(name)
        else:
            template[name] = info.default
    return template, tuple(factories), tuple(required)


CitedKind = Literal["reference-row", "record", "stated-by-user", "document"]
BasisKind = Literal["record-field", "reference-row", "formula", "stated-by-user", "document", "note"]


class Cited(BaseModel):
    """One source a report rests on, carried once in `Report.references`; basis entries name its id."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    id: str  # "hardware/RTX 5090", "record-1", "user", "doc:<citation>"
    kind: CitedKind
    citation: str  # 'RTX 5090 (spheron.network/...; checked 2026-11-29)', or the record's URL/path
    url: str | None = None  # where to read it, when the citation holds one address


class Basis(BaseModel):
    """One statement a figure rests on: a record field, a reference row, a formula with its numbers,
    a user's statement or a document, pointing at its source by id (`Report.references`).

    `states` is what the entry says without its source's citation; `checks.render.basis_line`
    renders the sentence. `cite` carries the source while the answer is built (the runner lifts it
    into the report's references), so it is not part of the JSON."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    kind: BasisKind = "note"  # left out of the JSON when it is a note
    states: str = ""
    source: str | None = None  # a `Cited.id`
    field: str | None = None  # the claim field a record-field or stated-by-user entry reads
    at: str | None = None  # where in the source: the JSON key, flag or quoted span
    cite: Cited | None = Field(default=None, exclude=True, repr=False)

    def _key(self) -> tuple[str, str, str | None, str | None, str | None]:
        return (self.kind, self.states, self.source, self.field, self.at)

    # Two entries are the same statement whether or not the source still rides along (`cite` is
    # build-time only: a report read back from JSON has it in `Report.references`).
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Basis) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @model_serializer(mode="plain")
    def _without_empty(self) -> dict[str, str | None]:
        # An entry names only what it has: most carry no field or span, and reports hold hundreds
        # (plain, not wrap: built straight from the five strings, the cheapest serializer).
        return _basis_data(self)


def _basis_data(b: Basis) -> dict[str, str | None]:
    """A basis entry's JSON members: its kind unless a note, and each of its four strings it has."""
    d = b.__dict__
    kind = d["kind"]
    out: dict[str, str | None] = {} if kind == "note" else {"kind": kind}
    for k in ("states", "source", "field", "at"):
        if v := d[k]:
            out[k] = v
    return out


class Difference(BaseModel):
    """One knob where the claim departs from the nearest trusted reference (Q8's difference list):
    the knob's name (`checks.compare` names), the claim's setting and the reference's."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    knob: str  # "spec_window"
    claimed: str  # "56"
    reference: str  # "published 16"


class Step(BaseModel):
    """One single-variable experiment of Q8's plan: the knob it changes (None: the baseline), what
    to run and what to expect."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    knob: str | None
    run: str


class Answer(BaseModel):
    """One check's result: a status, a short reason code, typed figures and basis entries.

    `summary` is the sentence a person reads; nothing downstream parses it (the verdict, the
    headline and the experiment plan read `status`, `reason` and `figures`). A basis entry given
    as a plain string is kept as a `note` entry, so a check written before entries existed (and a
    `claimcheck.report/1` document) still builds an answer."""

    key: str
    status: Status
    summary: str
    figures: dict[str, FigureValue] = Field(default_factory=dict)
    missing: list[str] = Field(default_factory=list)
    basis: list[Basis] = Field(default_factory=list)
    assumptions: list[Assumption] = Field(default_factory=list)
    # A short code for why the check returned its status ("waiting", "above_ceiling"), read by the
    # verdict's headline (checks.render.REASONS gives its words); "" when the status says it all.
    reason: str = ""
    # The check's own short words for that reason, when REASONS has no entry for it
    # ("the record contradicts its own words on spec_window").
    label: str = ""
    # Q8's plan as data: the differences and the experiments in run order (empty for other checks).
    differences: list[Difference] = Field(default_factory=list)
    steps: list[Step] = Field(default_factory=list)

    @model_serializer(mode="wrap")
    def _without_empty(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # /3: a member that is empty is left out (most answers have no plan, many no reason, no
        # assumptions, nothing missing); the loader fills the defaults back in.
        out: dict[str, Any] = handler(self)
        return {k: v for k, v in out.items() if k not in _OPTIONAL_EMPTY or v}

    @field_validator("figures", mode="after")
    @classmethod
    def _declared_types(cls, figures: dict[str, FigureValue]) -> dict[str, FigureValue]:
        # a float under a quantity's name (most figures) is already what `_typed` gives: kept as
        # it is, in the dict validation just made (never the caller's)
        for name, value in figures.items():
            if type(value) is not float or name in FIGURE_KINDS:
                figures[name] = _typed(name, value)
        return figures

    @field_validator("basis", mode="before")
    @classmethod
    def _lines_are_notes(cls, basis: Any) -> Any:
        if isinstance(basis, (list, tuple)):
            # model_construct: a str is already a valid `states`, and answers are built by the
            # thousand in a sweep
            return [built(Basis, kind="note", states=b) if type(b) is str else b for b in basis]
        return basis

    def units(self) -> dict[str, str]:
        """Each figure's unit, for the figures that have one."""
        return {name: unit for name in self.figures if (unit := figure_unit(name))}

    def lines(self) -> list[str]:
        """What the answer rests on as sentences (checks.render.answer_lines): Q8's plan, then the
        basis entries, each citing its own source."""
        from checks.render import answer_lines  # the renderer imports this module

        return answer_lines(self)


class Question(Answer):
    """An answer to one of the eight questions."""

    model_config = ConfigDict(defer_build=True)  # validated only when a report is read back

    n: int


_FIELD_KINDS = ("record-field", "stated-by-user")


def _at(p: dict[str, Any]) -> str | None:
    """Where in its source a provenance says the field was read: what `checks.basis.field` writes
    as a basis entry's `at`."""
    if p.get("kind") == "user":
        return p.get("field")
    return p.get("field") or (f'"{p["span"]}"' if p.get("span") else None)


def _answer_without_provenance(a: Any, where: dict[str, tuple[Any, str | None]]) -> Any:
    """A record-field entry's source and place are the claim's provenance of that field: /3
    leaves them out of the entry. An entry with no source for a field that has a provenance
    says `"source": null`, so reading it back does not give it one."""
    if not isinstance(a, dict) or not a.get("basis"):
        return a
    basis = []
    for b in a["basis"]:
        if b.get("kind") in _FIELD_KINDS and (name := b.get("field")) in where:
            if (b.get("source"), b.get("at")) == where[name]:
                b = {k: v for k, v in b.items() if k not in ("source", "at")}
            elif "source" not in b:
                b = {**b, "source": None}
        basis.append(b)
    return {**a, "basis": basis}


def _answer_with_provenance(a: Any, where: dict[str, tuple[Any, str | None]]) -> Any:
    if not isinstance(a, dict) or not isinstance(a.get("basis"), list):
        return a
    basis = []
    for b in a["basis"]:
        if isinstance(b, dict) and b.get("kind") in _FIELD_KINDS and "source" not in b \
                and type(name := b.get("field")) is str and name in where:
            source, at = where[name]
            b = {**b, "source": source, "at": at}
        basis.append(b)
    return {**a, "basis": basis}


def _by_name(assumptions: list[Any]) -> dict[str, Any]:
    """The report's assumptions by name, for the names only one of them has."""
    names = [a.get("name") for a in assumptions if isinstance(a, dict)]
    return {a["name"]: a for a in assumptions if isinstance(a, dict) and names.count(a.get("name")) == 1}


def _assumptions_by_name(a: Any, named: dict[str, Any]) -> Any:
    """An answer's assumption is written as its name when the report's list holds it under that
    name (the report carries each constant once: its value, unit and source)."""
    if not isinstance(a, dict) or not a.get("assumptions"):
        return a
    return {**a, "assumptions": [x["name"] if named.get(x.get("name")) == x else x for x in a["assumptions"]]}


def _assumptions_in_full(a: Any, named: dict[str, Any]) -> Any:
    if not isinstance(a, dict) or not isinstance(a.get("assumptions"), list):
        return a
    return {**a, "assumptions": [named.get(x, x) if isinstance(x, str) else x for x in a["assumptions"]]}


# /4: the source most provenances name, the claim's first record, is left out of them.
_FIRST_RECORD = "record-1"


def _value_text(value: Any) -> str | None:
    """A claim value as the text a reader quotes it by ('2103.6', '1', 'sglang'): what /4 leaves a
    span out for; None for a value with no one text (a flag, a list, a float that is not finite)."""
    if type(value) is str:
        return value
    if type(value) is int or (type(value) is float and math.isfinite(value)):
        return str(value)
    return None


def _provenance_from_v4(p: Any, value: Any, cut: int | None = None) -> Any:
    """A /4 provenance in full (`cut`: /5, where a span left out is the value's text cut there)."""
    if isinstance(p, str):
        p = {"field": p}
    if not isinstance(p, dict):
        return p
    out = {"source": _FIRST_RECORD, **p}
    if "span" not in p and "kind" not in p and (text := _value_text(value)) is not None:
        out["span"] = text if cut is None else text[:cut]
    return out


# /5: a span a reader quoted from a long value is its first 200 characters (a record field's
# value as `extractors.formats.aliases` quotes it): /5 leaves it out as it leaves out a whole text.
_SPAN_CUT = 200


def _provenance_v5(p: dict[str, Any], value: Any, by_citation: dict[str, str]
                   ) -> tuple[dict[str, Any] | str, tuple[Any, str | None]]:
    """A provenance as /5 writes it, and the (source, place) a record-field entry of its field
    leaves out (`_at`). /3 names the source by its `references` id (`by_citation`) and leaves out
    the members at their defaults; /4 leaves out the source when it is the claim's first record
    and the span when it is the value's own text (a value with a text but no span writes `"span":
    null`), and writes what is left of the usual one, where in the record, as that string; /5
    also leaves out a span that is the value's text cut at `_SPAN_CUT`."""
    source, field, span, kind = p["source"], p["field"], p["span"], p["kind"]
    source = by_citation.get(source, source)
    at = field if kind == "user" else field or (f'"{span}"' if span else None)
    out: dict[str, Any] = {} if source == _FIRST_RECORD else {"source": source}
    if field is not None:
        out["field"] = field
    if kind == "read" and (text := _value_text(value)) is not None:
        if span is None:
            out["span"] = None  # read with no span: said, so that the reader does not give it one
        elif span != text[:_SPAN_CUT]:
            out["span"] = span
    else:
        if span is not None:
            out["span"] = span
        if kind != "read":
            out["kind"] = kind
    return (out["field"] if out.keys() == {"field"} else out), (source, at)


# The members of a Source and of a Report that /3 leaves out at these values.
_EMPTY_SOURCE: dict[str, tuple[Any, ...]] = {
    "final_url": (None,), "redirects": ([],), "fetched_at": (None,), "status": (None,),
    "content_type": (None,), "sha256": (None,), "format": (None,), "note": (None,), "screenshot": (None,),
}
_REPORT_DEFAULTS: dict[str, Any] = {
    "assumptions": [], "siblings": 0, "hardware_name": None, "not_found": [], "warnings": [], "references": [],
}


def _plain_json(info: SerializationInfo) -> bool:
    """A JSON dump with none of the options that change which members are written."""
    return (info.mode_is_json() and info.include is None and info.exclude is None
            and not (info.exclude_unset or info.exclude_defaults or info.exclude_none or info.round_trip))


def _json_of(model: BaseModel) -> Any:
    """A member model's JSON data, by its own (compiled) serializer: one call, no Python per field."""
    return model.__pydantic_serializer__.to_python(model, mode="json")


# An Answer's fields in declared order (a Question's, then `n`): `_answer_data` writes them so.
_ANSWER_ORDER = ("key", "status", "summary", "figures", "missing", "basis", "assumptions", "reason", "label",
                 "differences", "steps")

# The answer members that are lists of models (written by the models' own serializers).
_MODEL_LISTS = frozenset({"assumptions", "differences", "steps"})


@cache  # per answer class (Answer, Question): its fields in declared order, as the JSON has them
def _answer_fields(cls: type[BaseModel]) -> tuple[tuple[str, bool], ...]:
    """Each field's name, and whether the JSON leaves it out when empty."""
    return tuple((name, name in _OPTIONAL_EMPTY) for name in cls.model_fields)


# A basis entry's statement (`Basis._key`) read off its members in one C call.
_basis_key = itemgetter("kind", "states", "source", "field", "at")


class _Pool:
    """The report's /5 `basis` list as the answers are written: each distinct entry once, in the
    order the answers first cite it, in its /5 form (`_basis_v5`)."""

    def __init__(self, where: dict[str, tuple[Any, str | None]], cited: dict[str, str],
                 values: dict[str, Any]) -> None:
        self.where, self.cited, self.values = where, cited, values
        self.entries: list[Any] = []
        self.index: dict[Any, int] = {}

    def ids(self, basis: list[Any]) -> list[int]:
        """The positions of an answer's entries, each new one written on the way."""
        index, entries, where, cited, values = self.index, self.entries, self.where, self.cited, self.values
        ids: list[int] = []
        for b in basis:
            if type(b) is Basis:
                d = b.__dict__
                key: Any = _basis_key(d)
                i = index.get(key)
                if i is None:
                    i = index[key] = len(entries)
                    entries.append(_basis_v5(d, where, cited, values))
            else:  # what `_basis_in_report` passes through as it is
                written = _entry_v5(_basis_in_report(b, where), cited, values)
                key = ("", repr(written))
                i = index.get(key)
                if i is None:
                    i = index[key] = len(entries)
                    entries.append(written)
            ids.append(i)
        return ids


def _basis_v5(d: dict[str, Any], where: dict[str, tuple[Any, str | None]], cited: dict[str, str],
              values: dict[str, Any]) -> Any:
    """`_entry_v5(_basis_in_report(b, where), cited, values)` for a Basis's members `d`, in one
    step (the same members in the same order; the sweep writes some seventy entries a record)."""
    kind, states = d["kind"], d["states"]
    source, field, at = d["source"] or None, d["field"] or None, d["at"] or None
    null_source = False
    if field is not None and kind in _FIELD_KINDS and field in where:
        if (source, at) == where[field]:
            source = at = None
        elif source is None:
            null_source = True
    if source is not None and source in cited:
        implied = _KIND_OF_CITED.get(cited[source], "note")
    else:
        implied = "record-field" if field is not None else "note"
    if implied == kind == "note" and source is None and field is None and at is None and not null_source:
        return states
    out: dict[str, Any] = {} if implied == kind else {"kind": kind}
    if kind == "record-field" and field is not None:
        if not states:
            out["states"] = ""
        elif states[0] != "=" or states != _value_states(field, values.get(field)):
            out["states"] = states
    elif states:
        out["states"] = states
    if source is not None:
        out["source"] = source
    if field is not None:
        out["field"] = field
    if at is not None:
        out["at"] = at
    if null_source:
        out["source"] = None
    return out


def _answer_data(a: Answer, where: dict[str, tuple[Any, str | None]],
                 named: dict[str, Any], pool: _Pool, n: int) -> dict[str, Any]:
    """What `Answer._without_empty`, then `_answer_without_provenance`, `_assumptions_by_name`
    and `_pooled` give in JSON, read straight off the answer's members in one walk: the figures
    and lists as they are (plain values, written by pydantic's JSON encoder after), basis entries
    as their positions in `pool`, the plan and the assumptions by their own serializers, a
    question's `n` left out when it is `n`, its place."""
    d = a.__dict__
    cls = type(a)
    if cls is Answer or cls is Question:  # their fields written out, in declared order (_ANSWER_ORDER)
        out: dict[str, Any] = {"key": d["key"], "status": d["status"], "summary": d["summary"]}
        if v := d["figures"]:
            out["figures"] = v
        if v := d["missing"]:
            out["missing"] = v
        if v := d["basis"]:
            out["basis"] = pool.ids(v)
        if v := d["assumptions"]:
            out["assumptions"] = [_assumption_in_report(x, named) for x in v]
        if v := d["reason"]:
            out["reason"] = v
        if v := d["label"]:
            out["label"] = v
        if v := d["differences"]:
            out["differences"] = [_json_of(x) if isinstance(x, BaseModel) else x for x in v]
        if v := d["steps"]:
            out["steps"] = [_json_of(x) if isinstance(x, BaseModel) else x for x in v]
        if cls is Question and ((v := d["n"]) != n or type(v) is not int):
            out["n"] = v
        return out
    out = {}
    for name, optional in _answer_fields(cls):
        value = d[name]
        if optional:
            if not value:
                continue
            if name == "basis":
                value = pool.ids(value)
            elif name == "assumptions":
                value = [_assumption_in_report(x, named) for x in value]
            elif name in _MODEL_LISTS:
                value = [_json_of(x) if isinstance(x, BaseModel) else x for x in value]
        elif name == "n" and value == n and type(value) is int:
            continue
        out[name] = value
    return out


def _assumption_in_report(x: Any, named: dict[str, Any]) -> Any:
    """One of an answer's assumptions as `_assumptions_by_name` leaves it: its name when the
    report's list holds it under that name."""
    if not isinstance(x, Assumption):
        return _json_of(x) if isinstance(x, BaseModel) else x
    data = _json_of(x)
    return x.name if named.get(x.name) == data else data


def _basis_in_report(b: Any, where: dict[str, tuple[Any, str | None]]) -> Any:
    """One basis entry as `_basis_data`, then `_answer_without_provenance` leave it."""
    if type(b) is not Basis:
        return b
    d = b.__dict__
    kind = d["kind"]
    out: dict[str, str | None] = {} if kind == "note" else {"kind": kind}
    if v := d["states"]:
        out["states"] = v
    if v := d["source"]:
        out["source"] = v
    if v := d["field"]:
        out["field"] = v
    if v := d["at"]:
        out["at"] = v
    if kind in _FIELD_KINDS and (name := out.get("field")) in where:
        if (out.get("source"), out.get("at")) == where[name]:
            out.pop("source", None)
            out.pop("at", None)
        elif "source" not in out:
            out["source"] = None
    return out


def _cited_data(c: Any) -> Any:
    """A reference's JSON data: its four strings (a report cites some eight)."""
    if type(c) is not Cited:
        return _json_of(c) if isinstance(c, BaseModel) else c
    d = c.__dict__
    return {"id": d["id"], "kind": d["kind"], "citation": d["citation"], "url": d["url"]}


def _report_members(r: Report, by_alias: bool) -> dict[str, Any]:
    """The JSON data `handler` gives for a report (every member, the computed units last), built
    from its members in Python, the answers left as they are (`_compacted` writes them), the
    other models by their own serializers."""
    d = r.__dict__
    return {
        "schema" if by_alias else "schema_": d["schema_"],
        "verdict": d["verdict"],
        "headline": d["headline"],
        "questions": d["questions"],
        "findings": d["findings"],
        "claim": _json_of(d["claim"]),
        "sources": [_json_of(s) for s in d["sources"]],
        "assumptions": [_json_of(a) for a in d["assumptions"]],
        "siblings": d["siblings"],
        "hardware_name": d["hardware_name"],
        "not_found": d["not_found"],
        "warnings": d["warnings"],
        "caveat": d["caveat"],
        "references": [_cited_data(c) for c in d["references"]],
        "units": r.units,
    }


def _compacted(r: Report, out: dict[str, Any], *, plain: bool) -> dict[str, Any]:
    """`Report._compact`'s work on the JSON data of every member (`plain`: the answers still
    models, written here by `_answer_data`)."""
    by_citation = {c.citation: c.id for c in r.references if c.kind in ("record", "document")}
    claim = {k: v for k, v in out["claim"].items() if v is not None and v != [] and v != {}}
    where: dict[str, tuple[Any, str | None]] = {}
    if provenance := claim.get("provenance"):
        written: dict[str, Any] = {}
        for name, p in provenance.items():
            written[name], where[name] = _provenance_v5(p, claim.get(name), by_citation)
        claim["provenance"] = written
    out["claim"] = claim
    named = _by_name(out["assumptions"])
    out["sources"] = [{k: v for k, v in src.items() if k == "url" or v not in _EMPTY_SOURCE.get(k, ())}
                      for src in out["sources"]]
    out["references"] = [{k: v for k, v in c.items() if v is not None} for c in out["references"]]
    if not plain:
        for group in ("questions", "findings"):
            out[group] = [_assumptions_by_name(_answer_without_provenance(a, where), named) for a in out[group]]
        return _pooled({k: v for k, v in out.items() if k not in _REPORT_DEFAULTS or v != _REPORT_DEFAULTS[k]})
    pool = _Pool(where, {c["id"]: c["kind"] for c in out["references"]}, claim)
    for group in ("questions", "findings"):
        out[group] = [_answer_data(a, where, named, pool, n) for n, a in enumerate(out[group], start=1)]
    members: dict[str, Any] = {}
    for k, v in out.items():
        if k not in _REPORT_DEFAULTS or v != _REPORT_DEFAULTS[k]:
            members[k] = v
        if k == "findings" and pool.entries:
            members["basis"] = pool.entries
    return members


# /5: what a basis entry's source says it is. An entry that cites a reference row is a
# reference-row entry, one that cites a record a record-field entry, and so on; an entry with a
# claim field and no source is a record-field entry (its provenance names the record); an entry
# with neither is a note. Only a kind that differs from this (a formula) is written.
_KIND_OF_CITED: dict[str, str] = {"reference-row": "reference-row", "document": "document",
                                  "record": "record-field", "stated-by-user": "stated-by-user"}


def _implied_kind(entry: dict[str, Any], cited: dict[str, str]) -> str:
    """The kind /5 reads for a basis entry written without one (`cited`: reference id -> kind)."""
    source = entry.get("source")
    if type(source) is str and (kind := cited.get(source)) is not None:
        return _KIND_OF_CITED.get(kind, "note")
    return "record-field" if "field" in entry else "note"


def _value_states(name: str, value: Any) -> str | None:
    """What a record-field entry of claim field `name` says when it only states the value: '=
    2048', '= 0.969 s', '= 2103.6 tok/s', "= 'sglang'", '= true' (an int as written, a float as
    `:g` writes it, a string quoted, the unit the field's name gives); None for a value with no
    such text."""
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool:
        return _value_words(name, kind.__name__, value)
    return None


@lru_cache(maxsize=4096)  # by type too: 1, 1.0 and True are one key otherwise
def _value_words(name: str, kind: str, value: Any) -> str | None:
    if kind == "bool":
        text = "true" if value else "false"
    elif kind == "int":
        text = str(value)
    elif kind == "float" and math.isfinite(value):
        text = f"{value:g}"
    elif kind == "str":
        text = repr(value)
    else:
        return None
    unit = "tok/s" if name == "tok_s" else figure_unit(name)
    return f"= {text} {unit}" if unit else f"= {text}"


def _entry_v5(entry: Any, cited: dict[str, str], values: dict[str, Any]) -> Any:
    """A /4 basis entry as /5 writes it in the report's list: without its kind when its source
    (or its field, or its having neither) says it, and a note that only states something as that
    string (as a /1 line, and a str given to an Answer, already read); a record-field entry
    without its words when they only state the claim's value (`_value_states`: then an entry
    that says nothing writes `"states": ""`)."""
    if not isinstance(entry, dict):
        return entry
    kind = entry.get("kind", "note")
    rest = {k: v for k, v in entry.items() if k != "kind"}
    if kind == "record-field" and (name := rest.get("field")):
        states = rest.pop("states", "")
        if not states or states != _value_states(name, values.get(name)):
            rest = {"states": states, **rest}
    if _implied_kind(rest, cited) != kind:
        return {"kind": kind, **rest}
    if kind == "note" and rest.keys() <= {"states"}:
        return rest.get("states", "")
    return rest


def _pooled(out: dict[str, Any]) -> dict[str, Any]:
    """/5: every distinct basis entry once, in the report's `basis` list (in the order the answers
    first cite them), each answer's `basis` the positions of its entries in that list; a question's
    `n` left out when it is its place in the list. Four answers that rest on the same reference row
    statement ('27.8B params total') name it once."""
    cited = {c["id"]: c["kind"] for c in out.get("references", ()) if isinstance(c, dict) and "id" in c}
    values = out.get("claim") or {}
    pool: list[Any] = []
    index: dict[Any, int] = {}
    for group in ("questions", "findings"):
        answers = []
        for n, a in enumerate(out[group], start=1):
            if not isinstance(a, dict):
                answers.append(a)
                continue
            a = dict(a)
            if group == "questions" and a.get("n") == n and type(a["n"]) is int:
                del a["n"]
            if basis := a.get("basis"):
                ids = []
                for entry in basis:
                    written = _entry_v5(entry, cited, values)
                    key = tuple(written.items()) if isinstance(written, dict) else written
                    i = index.get(key)
                    if i is None:
                        i = index[key] = len(pool)
                        pool.append(written)
                    ids.append(i)
                a["basis"] = ids
            answers.append(a)
        out[group] = answers
    if not pool:
        return out
    placed: dict[str, Any] = {}
    for k, v in out.items():
        placed[k] = v
        if k == "findings":
            placed["basis"] = pool
    return placed


def _entry_from_v5(entry: Any, cited: dict[str, str], values: dict[str, Any]) -> Any:
    """An entry of a /5 `basis` list as /4 wrote it: its kind, and a record-field entry's words."""
    if isinstance(entry, str):
        return {"states": entry}
    if not isinstance(entry, dict):
        return entry
    if "kind" not in entry:
        entry = {"kind": _implied_kind(entry, cited), **entry}
    if entry["kind"] == "record-field" and "states" not in entry and isinstance(name := entry.get("field"), str):
        entry = {**entry, "states": _value_states(name, values.get(name)) or ""}
    return entry


def _unpooled(data: dict[str, Any]) -> dict[str, Any]:
    """A /5 document as /4 wrote it: each answer's entries in place, with their kinds, and each
    question's `n`. A position outside the list is left as it is (validation names it)."""
    data = dict(data)
    pool = data.pop("basis", None)
    pool = pool if isinstance(pool, list) else []
    cited = {c["id"]: c["kind"] for c in data.get("references") or ()
             if isinstance(c, dict) and type(c.get("id")) is str and "kind" in c}
    claim = data.get("claim")
    values: dict[str, Any] = claim if isinstance(claim, dict) else {}
    entries = [_entry_from_v5(e, cited, values) for e in pool]
    for group in ("questions", "findings"):
        if not isinstance(answers := data.get(group), list):
            continue
        out = []
        for n, a in enumerate(answers, start=1):
            if isinstance(a, dict):
                a = dict(a)
                if group == "questions":
                    a.setdefault("n", n)
                if isinstance(basis := a.get("basis"), list):
                    a["basis"] = [entries[i] if type(i) is int and 0 <= i < len(entries) else i for i in basis]
            out.append(a)
        data[group] = out
    return data


# The width a member of the printed report may take on one line, with its indentation.
_WIDTH = 120


def _dense(value: Any, level: int) -> str:
    """`value` as indented JSON (two spaces a level), a list or object written on one line when it
    fits in `_WIDTH` columns: a hundred small entries take a line each, not five."""
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if not isinstance(value, (dict, list)) or not value or len(flat) + 2 * level <= _WIDTH:
        return flat
    pad = "\n" + "  " * (level + 1)
    if isinstance(value, dict):
        body = ("," + pad).join(f"{json.dumps(k, ensure_ascii=False)}: {_dense(v, level + 1)}"
                                for k, v in value.items())
        return "{" + pad + body + "\n" + "  " * level + "}"
    return "[" + pad + ("," + pad).join(_dense(v, level + 1) for v in value) + "\n" + "  " * level + "]"


class Report(BaseModel):
    """What claimcheck says about one claim. Its JSON is a public, versioned interface."""

    model_config = ConfigDict(defer_build=True, populate_by_name=True)

    schema_: str = Field(default=REPORT_SCHEMA, alias="schema")
    verdict: Verdict
    headline: str
    questions: list[Question]
    findings: list[Answer]
    claim: Claim
    sources: list[Source]
    assumptions: list[Assumption] = Field(default_factory=list)  # /3 leaves an empty list out
    siblings: int = 0
    # the reference row's name for the claim's hardware ("RTX 5090" for "NVIDIA GeForce RTX 5090")
    hardware_name: str | None = None
    not_found: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    caveat: str = CAVEAT
    # Every source a basis entry points at, each once (a reference row cited by four answers is
    # carried here once, not four times).
    references: list[Cited] = Field(default_factory=list)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def units(self) -> dict[str, str]:
        """The unit of every figure name the answers use that has one ('ceiling_tok_s': 'tok/s'),
        once per report: a unit belongs to the figure's name, not to one answer."""
        units: dict[str, str] = {}
        for group in (self.questions, self.findings):
            for a in group:
                if figures := a.figures:
                    units.update(_units_of(tuple(figures)))
        return units

    @model_serializer(mode="wrap")
    def _compact(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        """/3: each source once, empty and default members left out (the loader fills them in).
        A claim field's provenance names its source by its `references` id when the report cites
        that source ("record-1"), not by repeating the path or URL per field.

        JSON with no options (`model_dump_json`, what the sweep prints per record) starts from
        `_report_members`, plain data read off the members, not from `handler`: pydantic's
        walk calls back into Python for each answer and basis entry (a report has some hundred),
        which cost three times the rest of the report's serialisation. Every other dump starts
        from `handler`; the two give the same JSON (tests/bot/test_report_json.py)."""
        if _plain_json(info):
            return _compacted(self, _report_members(self, bool(info.by_alias)), plain=True)
        return _compacted(self, handler(self), plain=False)

    @model_validator(mode="before")
    @classmethod
    def _read_v1(cls, data: Any) -> Any:
        """Every schema version reads as /5. A `claimcheck.report/1` document (stored audits): its
        prose basis lines become `note` entries (the Answer validator), its float counts and flags
        take their declared types, it has no reason codes and no references. /2 carries every
        member and each provenance's source in full. /3 names a provenance's source by its
        reference id: the citation is put back. /4 also leaves out a provenance's source when it
        is `record-1` and its span when it is the value's text: both are put back. /5 writes each
        basis entry once in the report's `basis` list (answers name positions), an entry's kind
        only when its source does not say it, a record-field entry's words only when they are not
        the value's, a question's `n` only when it is not its place, and cuts a span left out at
        200 characters: `_unpooled` gives the /4 document back. The schema field says /5 from
        then on."""
        if isinstance(data, dict):
            data = {k: v for k, v in data.items() if k != "units"}  # computed, not read
            schema = data.get("schema")
            cut = None
            if schema == REPORT_SCHEMA:  # /5 is /4 with the entries pooled and spans cut: read as /4
                data, schema, cut = _unpooled(data), REPORT_SCHEMA_V4, _SPAN_CUT
            if schema == REPORT_SCHEMA_V4 and isinstance(claim := data.get("claim"), dict) \
                    and isinstance(provenance := claim.get("provenance"), dict):
                claim = data["claim"] = {**claim, "provenance": {
                    name: _provenance_from_v4(p, claim.get(name), cut) for name, p in provenance.items()}}
            if schema in (REPORT_SCHEMA_V4, REPORT_SCHEMA_V3) and isinstance(claim := data.get("claim"), dict) \
                    and isinstance(provenance := claim.get("provenance"), dict):
                where = {name: (p.get("source"), _at(p)) for name, p in provenance.items() if isinstance(p, dict)}
                named = _by_name(data.get("assumptions") or [])
                for group in ("questions", "findings"):
                    if isinstance(answers := data.get(group), list):
                        data[group] = [_assumptions_in_full(_answer_with_provenance(a, where), named)
                                       for a in answers]
                cited = {c["id"]: c.get("citation") for c in data.get("references") or []
                         if isinstance(c, dict) and type(c.get("id")) is str
                         and c.get("kind") in ("record", "document")}
                data["claim"] = {**claim, "provenance": {
                    name: {**p, "source": cited.get(p["source"], p["source"]) if type(p.get("source")) is str
                           else p.get("source")}
                    if isinstance(p, dict) else p for name, p in provenance.items()}}
            if schema in (REPORT_SCHEMA_V1, REPORT_SCHEMA_V2, REPORT_SCHEMA_V3, REPORT_SCHEMA_V4):
                data["schema"] = REPORT_SCHEMA
        return data

    def to_json(self) -> str:
        """The report as `audit --json` prints it and the store keeps it: indented, with every
        member that fits in `_WIDTH` columns on its one line (a basis entry, a provenance, a
        reference), as a person reads it. The same JSON values as `model_dump_json`."""
        return _dense(json.loads(self.model_dump_json(by_alias=True)), 0)

    def question(self, key: str) -> Question:
        return next(q for q in self.questions if q.key == key)

    def finding(self, key: str) -> Answer:
        return next(f for f in self.findings if f.key == key)

    def cited(self) -> dict[str, Cited]:
        """The references by id, for rendering basis entries (checks.render.basis_line)."""
        return {c.id: c for c in self.references}
