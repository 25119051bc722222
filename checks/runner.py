"""Run every registered check over one piece of evidence and assemble the Report.

A check that raises is a bug in that check, not a finding about the claim: it is reported with
status `error` and the others still run (after MLPerf's `BaseCheck.run_checks`).
"""

from __future__ import annotations

from itertools import chain
from operator import attrgetter

from checks.basis import assembled, record_source
from checks.basis import repointed as _repointed
from checks.memo import AuditMemo, one_audit
from checks.models import (
    Answer,
    Assumption,
    Cited,
    Claim,
    Evidence,
    PeerGroup,
    Question,
    Report,
    built,
    replaced,
)
from checks.parsing import with_parsed
from checks.physics.ceilings import class_row
from checks.physics.model_size import sourced_claim
from checks.reference import CONSUMER_GPU, Reference, with_system_cards
from checks.registry import CHECKS, Check, CheckFn
from checks.verdict import headline, verdict

__all__ = ["audit"]


def _run_one(check_key: str, fn: CheckFn, ev: Evidence, ref: Reference, prior: dict[str, Answer]) -> Answer:
    try:
        answer = fn(ev, ref, prior)
    except Exception as exc:  # noqa: BLE001 - any failure of a check is reported, never raised
        return Answer(
            key=check_key,
            status="error",
            summary=f"the {check_key} check failed: {type(exc).__name__}: {exc}",
            reason="raised",
            label=f"{type(exc).__name__}: {exc}",
        )
    if answer.key != check_key:
        return Answer(key=check_key, status="error", summary=f"check returned key {answer.key!r}")
    return answer


_BASIS, _CITE = attrgetter("basis"), attrgetter("cite")


def _references(answers: dict[str, Answer]) -> tuple[dict[str, Answer], dict[str, Cited]]:
    """Every source the answers' basis entries cite, once, in order of first citation. A record's
    id is its number ('record-1'), not its path or URL, which the reference's citation carries."""
    references: dict[str, Cited] = {}
    renamed: dict[str, str] = {}
    records = 0  # record sources numbered so far
    # Each entry's source, the distinct objects in order of first citation, gathered in C (an
    # audit's seventy entries cite some eight objects: a row's Cited is one object per audit).
    cites = list(map(_CITE, chain.from_iterable(map(_BASIS, answers.values()))))
    for cite in dict(zip(map(id, cites), cites, strict=True)).values():
        if cite is None or cite.id in renamed:
            continue
        old = new_id = cite.id
        if cite.kind == "record":
            records += 1
            new_id = f"record-{records}"
        renamed[old] = new_id
        references[new_id] = cite if new_id == old else built(
            Cited, id=new_id, kind=cite.kind, citation=cite.citation, url=cite.url)
    moved = {old: (new, references[new]) for old, new in renamed.items() if old != new}
    if not moved:
        return answers, references
    for a in answers.values():  # this audit's own answers, built by the checks just now
        basis = a.basis
        for i, b in enumerate(basis):
            if b.source in moved:
                # A new list from the first renamed entry on (the answer's own list is left as
                # it was), each renamed entry a copy pointing at the record's number; set in the
                # answer's fields directly (pydantic's __setattr__ is a tenth of this pass).
                a.__dict__["basis"] = basis[:i] + [_repointed(e, *moved[e.source]) if e.source in moved else e
                                                   for e in basis[i:]]
                a.__pydantic_fields_set__.add("basis")
                break
    return answers, references


def _question(a: Answer, n: int) -> Question:
    """`extended(a, Question, n=n)`: the answer's fields, then its number (Question declares `n`
    after the fields it inherits), copied as they are."""
    data = a.__dict__.copy()
    data["n"] = n
    return assembled(Question, data, {*a.__pydantic_fields_set__, "n"})


def _order(checks: tuple[Check, ...]) -> tuple[tuple[tuple[int, str], ...], tuple[str, ...]]:
    """The questions' (number, key) in the order of their numbers, the findings' keys in run order."""
    return (tuple(sorted((c.question, c.key) for c in checks if c.question is not None)),
            tuple(c.key for c in checks if c.question is None))


# The registry's order, worked out once (a test may run the audit over a table of its own).
_REGISTERED = CHECKS
_QUESTIONS, _FINDINGS = _order(CHECKS)
_KIND_SOURCE = attrgetter("kind", "source")


def _numbered(claim: Claim) -> dict[str, Cited]:
    """The claim's record source under its report id, when it has one: then every record entry
    cites 'record-1' whichever check cites it first (a claim read from several records is
    numbered by `_references`, in order of first citation)."""
    sources = {source for kind, source in set(map(_KIND_SOURCE, claim.provenance.values())) if kind != "user"}
    if len(sources) != 1:
        return {}
    (source,) = sources
    return {source: record_source(source, 1)}


def _card_name(ev: Evidence, ref: Reference) -> str | None:
    row = ref.gpu(ev.claim.hardware)
    if row is None and ev.claim.hardware == CONSUMER_GPU:
        row = class_row(ref)  # named by its class only: the row its bounds read
    return row.name if row is not None else None


def audit(ev: Evidence, ref: Reference, peers: PeerGroup | None = None) -> Report:
    """Evidence + reference tables -> Report. Pure and deterministic. `peers`: the other records
    of the claim's setup (checks.peers.PeerIndex.peers_of), for the peer_outlier finding."""
    if peers is not None:
        ev = replaced(ev, peers=peers)  # model_copy(update=...) without its per-call work: a sweep's every record
    ev = with_system_cards(ev, ref)  # "p5.48xlarge" and "RTX 4090 + RTX 3090 Ti" say their count
    # One choice of inputs for every check: a field 10x off its sourced row is replaced by the
    # sourced value here, so no check (and no stop) rests on it (checks.physics.model_size).
    claim = sourced_claim(ev.claim, ref)
    if claim is not ev.claim:
        ev = replaced(ev, claim=claim)
    # The launch command, env and notes parsed once for every check (the extractors usually did).
    ev = with_parsed(ev)
    answers: dict[str, Answer] = {}
    # The checks share one memo: the claim's weights, format and sizes computed once for all of
    # them (checks.memo.per_audit), its record cited under its number from the start.
    with one_audit(AuditMemo(records=_numbered(ev.claim))):
        for check in CHECKS:
            # `prior` is the answers so far, read-only by its type: no copy per check.
            answers[check.key] = _run_one(check.key, check.run, ev, ref, answers)
    answers, references = _references(answers)
    # The answers were validated when the checks built them: a Question is the same fields and n,
    # in the order of n; the findings in run order (every check gave one answer under its key).
    numbered, unnumbered = (_QUESTIONS, _FINDINGS) if CHECKS is _REGISTERED else _order(CHECKS)
    questions = [_question(answers[key], n) for n, key in numbered]
    findings = list(map(answers.__getitem__, unnumbered))
    assumptions: list[Assumption] = []
    seen: set[Assumption] = set()  # frozen: hashed by their fields, so a set finds the equal ones
    held: set[int] = set()  # most are one module constant cited by several checks: seen by identity
    for a in answers.values():
        for item in a.assumptions:
            if id(item) in held:
                continue
            held.add(id(item))  # the answers hold every item until the report does
            if item not in seen:
                seen.add(item)
                assumptions.append(item)
    v = verdict(questions, findings, ev)
    card = _card_name(ev, ref)
    # Every member was built or validated above (the checks' answers, the claim, its sources): the
    # Report is put together as they are, so a run that prints text never builds its validator.
    return built(
        Report,
        verdict=v,
        headline=headline(v, questions, findings, ev, card_name=card),
        questions=questions,
        findings=findings,
        claim=ev.claim,
        sources=ev.sources,
        assumptions=assumptions,
        siblings=len(ev.siblings),
        hardware_name=card,
        not_found=ev.not_found,
        warnings=ev.warnings,
        references=list(references.values()),
    )
