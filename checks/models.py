"""The data model every part of claimcheck speaks .

`Claim` is one measured or asserted result; every field is optional and unknown stays `None`.
Each filled field keeps its `Provenance` (which source, which record field or text span).
`Evidence` is a claim plus everything the extractors followed to find it. `Report` is what the
checks say about it; its JSON form (`schema` = `claimcheck.report/1`) is a public interface.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "CAVEAT",
    "REPORT_SCHEMA",
    "Answer",
    "Assumption",
    "Claim",
    "Evidence",
    "FieldConflict",
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
    "SuspectField",
    "SwitchHit",
    "TokSKind",
    "Verdict",
]

REPORT_SCHEMA = "claimcheck.report/1"

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

    model_config = ConfigDict(frozen=True)

    record: str  # the peer's record id (corpus id, dump position, stored audit)
    tok_s: float
    source: str | None = None  # the peer's source URL or file


class PeerGroup(BaseModel):
    """The figures other records report for this record's setup; the record itself is never in it."""

    model_config = ConfigDict(frozen=True)

    setup: str  # the shared setup, readable: "RTX 4090 ×1, Llama 3 8B, Q4_K_M, decode"
    figures: list[PeerFigure] = Field(default_factory=list)
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


class Answer(BaseModel):
    """One check's result."""

    key: str
    status: Status
    summary: str
    figures: dict[str, float] = Field(default_factory=dict)
    missing: list[str] = Field(default_factory=list)
    basis: list[str] = Field(default_factory=list)
    assumptions: list[Assumption] = Field(default_factory=list)


class Question(Answer):
    """An answer to one of the eight questions."""

    n: int


class Report(BaseModel):
    """What claimcheck says about one claim. Its JSON is a public, versioned interface."""

    model_config = ConfigDict(populate_by_name=True)

    schema_: str = Field(default=REPORT_SCHEMA, alias="schema")
    verdict: Verdict
    headline: str
    questions: list[Question]
    findings: list[Answer]
    claim: Claim
    sources: list[Source]
    assumptions: list[Assumption]
    siblings: int = 0
    # the reference row's name for the claim's hardware ("RTX 5090" for "NVIDIA GeForce RTX 5090")
    hardware_name: str | None = None
    not_found: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    caveat: str = CAVEAT

    def to_json(self) -> str:
        return self.model_dump_json(by_alias=True, indent=2)

    def question(self, key: str) -> Question:
        return next(q for q in self.questions if q.key == key)

    def finding(self, key: str) -> Answer:
        return next(f for f in self.findings if f.key == key)
