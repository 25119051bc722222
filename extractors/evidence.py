"""Turning documents (files, stdin, pasted text, fetched bodies) into Evidence for the checks.

Each document is read once: by the structured format that recognises its shape, or else as text
(free text, launch commands, engine logs). A post's text supplies the number being claimed and
its links; records supply the details. When both are given, the record matching the post's
number is primary and the post fills only what the record leaves empty.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from checks.models import Claim, Evidence, InputKind, PostInfo, Provenance, Source
from checks.parsing import parse_config
from checks.reference import Reference
from checks.text import sanitise
from extractors.document import RawDocument
from extractors.errors import InvalidInput, NoClaimFound, UnrecognisedInput, UsageError
from extractors.formats import FORMATS, detect
from extractors.formats.board_mapping import BoardMappingError
from extractors.formats.generic_board import GenericBoard
from extractors.formats.record_text import reading_with
from extractors.links import is_evidence_link, is_image_link
from extractors.printed import printout_record
from extractors.select import pick_primary, siblings_by_record, siblings_of
from extractors.text import TextReading, parse_text

__all__ = ["Reading", "build_evidence", "evidence_per_record", "merge_claims", "read_document",
           "record_evidence"]


@dataclass
class Reading:
    """What one document held."""

    source: Source
    records: list[Claim] = field(default_factory=list)  # from a structured format
    text: TextReading | None = None  # from the text readers
    excerpt: str | None = None  # the text as given, sanitised and capped, for the report
    warnings: list[str] = field(default_factory=list)

    @property
    def is_post(self) -> bool:
        return self.text is not None and self.text.kind == "post"


def read_document(doc: RawDocument, ref: Reference, source: Source | None = None,
                  boards: Sequence[str | Path] = ()) -> Reading:
    """Parse one document by shape, trying the caller's board mapping files (`--boards`) before
    the generic board adapter. Raises UnusableInput subclasses with a user-facing sentence."""
    src = source or Source(url=doc.source, kind="file" if doc.source not in ("text", "stdin") else "text")
    from extractors.image import is_image

    if is_image(doc.data):  # a screenshot: its text by OCR, then read like any document
        from extractors.image.reading import read_screenshot

        return read_screenshot(doc, src, lambda d, s: read_document(d, ref, s, boards))
    if not doc.data.strip():
        raise NoClaimFound(f"{doc.source}: the input is empty")
    fmt = detect(doc)
    name: str | None = fmt.name if fmt is not None else None
    kind = fmt.kind if fmt is not None else None
    if boards and (fmt is None or fmt.name == GenericBoard.name):
        try:
            board = GenericBoard(mapping_files=boards)
        except BoardMappingError as exc:
            raise UsageError(str(exc)) from None
        mapping = board.mapping_for(doc, doc.json())
        if mapping is not None:
            fmt, name, kind = board, f"{board.name}:{mapping.name}", mapping.kind
    if fmt is not None:
        with reading_with(ref):
            records = fmt.parse(doc)
        if not records:
            raise NoClaimFound(f"{doc.source}: recognised as {fmt.name} but it holds no records")
        # One copy: the format, its kind and the document's warnings as its note.
        update: dict[str, object] = {"format": name, "kind": kind}
        if doc.warnings:
            update["note"] = "; ".join(doc.warnings)
        src = src.model_copy(update=update)
        return Reading(source=src, records=records, warnings=list(doc.warnings))
    if doc.json() is not None:
        known = ", ".join(f.name for f in FORMATS)
        raise UnrecognisedInput(
            f"{doc.source}: this JSON is not a format claimcheck reads (known: {known}; "
            "a new leaderboard can be mapped in a boards config file)"
        )
    printed = printout_record(doc.text)
    if len(printed) == 1:  # a tool's printout (pasted, attached or piped): read as the record it saves
        inner = RawDocument(printed[0].record.encode(), source=doc.source, content_type="application/json")
        inner.warnings = [*doc.warnings, f"{doc.source}: read as the {printed[0].tool} output it holds"]
        return read_document(inner, ref, src, boards)
    reading = parse_text(doc, ref)
    if not _is_claim(reading.claim):
        reading = _spelled_tables(doc, ref) or reading
    src = src.model_copy(update={"format": "text", "kind": reading.kind if reading.kind != "post" else src.kind})
    return Reading(source=src, text=reading, excerpt=sanitise(doc.text, limit=2000),
                   warnings=list(doc.warnings))


def _spelled_tables(doc: RawDocument, ref: Reference) -> TextReading | None:
    """A text whose figures sit in a table no row reader knows ("| Model | Quant | avg tok/s |"):
    its unit-headed tables spelled out, a sentence a row, as a chat paste's are
    (`extractors.pasted.spell_tables`), so a file, stdin, `/audit` and the CLI read what chat
    reads. Only when the text alone gave no figure: a reading that found one is kept as it is."""
    from extractors.pasted import spell_tables, strip_fences

    text = doc.text
    plain = strip_fences(text)
    spelled = spell_tables(plain)
    if spelled == plain:
        return None
    reading = parse_text(RawDocument(spelled.encode(), source=doc.source), ref)
    return reading if _is_claim(reading.claim) else None


def merge_claims(primary: Claim, extra: Claim) -> Claim:
    """Fill the primary's empty fields from another reading of the same claim (keeping provenance)."""
    values = primary.model_dump(exclude={"provenance"})
    provenance: dict[str, Provenance] = dict(primary.provenance)
    for name, value in extra.model_dump(exclude={"provenance"}).items():
        if values.get(name) in (None, [], {}) and value not in (None, [], {}):
            values[name] = value
            if name in extra.provenance:
                provenance[name] = extra.provenance[name]
    return Claim(**values, provenance=provenance)


def _with_derived_rate(claim: Claim) -> Claim:
    """A post saying only "2048 tokens in 0.969 s" claims tokens ÷ seconds; say it was derived."""
    if claim.tok_s is None and claim.tokens_generated and claim.wall_seconds:
        rate = claim.tokens_generated / claim.wall_seconds
        prov = dict(claim.provenance)
        prov["tok_s"] = Provenance(source="formula", field="tokens_generated ÷ wall_seconds")
        return claim.model_copy(update={"tok_s": round(rate, 2), "provenance": prov})
    return claim


def _input_kind(kind: str, default: InputKind) -> InputKind:
    """A source kind that is also an input kind, else the default (a page or text is a post)."""
    for k in ("record", "tool-output", "log", "config"):
        if kind == k:
            return k
    return default


def _is_claim(c: Claim) -> bool:
    return c.tok_s is not None or c.speedup is not None


def _post_info(readings: Sequence[Reading]) -> PostInfo | None:
    posts = [r for r in readings if r.is_post and r.text is not None]
    if not posts:
        return None
    text = "\n".join(r.excerpt or "" for r in posts) or None
    links = [u for r in posts if r.text for u in r.text.links]
    images = {u: is_image_link(u) for u in links}  # each link's URL split once here, not twice
    return PostInfo(
        text=text,
        links=[u for u in links if not images[u]],
        evidence_links=[u for u in links if is_evidence_link(u)],
        image_count=sum(1 for u in links if images[u]),
        quotes_launch_command=any(
            r.text is not None and "launch_command" in r.text.found for r in posts
        ),
    )


def build_evidence(readings: Sequence[Reading], ref: Reference) -> Evidence:
    """One Evidence from every document given for one claim (e.g. a post and its record)."""
    records = [c for r in readings for c in r.records]
    texts = [r.text for r in readings if r.text is not None]
    numbers = [n for t in texts for n in t.numbers]
    text_claim: Claim | None = None
    for t in texts:
        text_claim = t.claim if text_claim is None else merge_claims(text_claim, t.claim)

    if records:
        i = pick_primary(records, numbers)
        primary = records[i]
        others = records[:i] + records[i + 1:]
        siblings = siblings_of(primary, others)
        if text_claim is not None:
            primary = merge_claims(primary, text_claim)
    elif text_claim is not None:
        primary, siblings = text_claim, []
    else:
        raise NoClaimFound("no claim found in the input")

    primary = _with_derived_rate(primary)
    if not _is_claim(primary):
        raise NoClaimFound(
            "no speed claim found: expected a tok/s figure (e.g. '2103.6 tok/s' or "
            "'2048 tokens in 0.969 s'), a benchmark tool's JSON output or a leaderboard record"
        )
    # A pasted table's other decode rows, on the claim's machine: its peers (checks/peers.py),
    # from the same reading; only where the claim is the text's (a record has its own board).
    mates = [] if records else [c for t in texts for c in t.table_rows]
    peers = None
    if mates:
        from checks.peers import PeerIndex  # only a pasted table needs it (the CLI's cold start)

        peers = PeerIndex.build(((c.record_id or "", c) for c in mates), ref).peers_of(None, primary, ref)
    post = _post_info(readings)
    kind: InputKind
    if post is not None:
        kind = "post"
    else:
        first = readings[0].source.kind
        kind = _input_kind(first, default="post")
    return Evidence(
        claim=primary,
        kind=kind,
        post=post,
        sources=[r.source for r in readings],
        siblings=siblings,
        warnings=[w for r in readings for w in r.warnings],
        parsed=parse_config(primary),
        peers=peers,
    )


def evidence_per_record(reading: Reading, ref: Reference) -> list[Evidence]:
    """`sweep`: one Evidence per record of a dump, each with its own siblings."""
    if not reading.records:
        raise InvalidInput(f"{reading.source.url}: sweep needs a file of records (a leaderboard dump or tool output)")
    out = []
    siblings = siblings_by_record(reading.records)
    for i, claim in enumerate(reading.records):
        claim = _with_derived_rate(claim)
        out.append(
            Evidence(
                claim=claim,
                kind=_input_kind(reading.source.kind, default="record"),
                sources=[reading.source],
                siblings=siblings[i],
                warnings=reading.warnings,
                parsed=parse_config(claim),
            )
        )
    return out


def record_evidence(claim: Claim, source: Source, siblings: Sequence[Claim],
                    warnings: Sequence[str] = ()) -> Evidence:
    """`sweep`, one record at a time: the Evidence of one record of a dump and its siblings."""
    claim = _with_derived_rate(claim)
    return Evidence(
        claim=claim,
        kind=_input_kind(source.kind, default="record"),
        sources=[source],
        siblings=list(siblings),
        warnings=list(warnings),
        parsed=parse_config(claim),  # memoised by content: a board's repeated template once
    )
