"""Builders of basis entries: what a figure rests on, as data pointing at its source.

A rule states what each input says and where it came from; the sentence is rendered later
(`checks.render.basis_line`) and each source is carried once per report (`Report.references`):

    answer("power", "flag", reason="waiting", summary=..., figures={"watts": 99.6, "ratio": 0.17},
           basis=[field(c, "power_w", "= 99.6 W"), row(hw, "board power 575 W"),
                  formula("ratio = 99.6 W ÷ 575 W = 0.17")])

A plain string is still accepted as a basis line (a `note` entry), so code written before entries
existed keeps working; converting it is one call per line: a line that starts with `row.cite()`
becomes `row(r, rest)`, one that starts with `claim.source_of(name)` becomes `field(claim, name,
rest)`, arithmetic becomes `formula(text)`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any, Protocol, TypeVar, get_args

from pydantic import BaseModel

from checks.memo import current_audit as _current_audit
from checks.memo import per_audit
from checks.models import (
    FIGURE_KINDS,
    Answer,
    Assumption,
    Basis,
    Cited,
    Claim,
    Difference,
    FigureValue,
    Status,
    Step,
    _typed,
    built,
)

__all__ = ["USER", "answer", "assembled", "cited_row", "difference", "doc", "field", "formula", "note", "other_record",
           "other_records", "record_source", "repointed", "row", "step"]

# The one source every "stated by the user" entry points at.
USER = built(Cited, id="user", kind="stated-by-user", citation="stated by the user")

# The builders use `built` (model_construct without pydantic's per-field default resolution):
# every argument is a str this module chose or a rule passed, already valid, and a sweep builds a
# hundred entries per record (validation would cost a third of an audit).


_M = TypeVar("_M", bound=BaseModel)
_new = object.__new__
# The four slots every pydantic model instance has, set through their own descriptors: the same
# as object.__setattr__ without its lookup by name (a fifth of building an entry or an answer).
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def _entry(kind: str, states: str, source: str | None = None, field: str | None = None,
           at: str | None = None, cite: Cited | None = None, given: tuple[str, ...] = ("kind", "states")) -> Basis:
    """`built(Basis, ...)` written out for the one class every builder makes (an audit makes some
    seventy entries; the generic one is a third of a rule's time): the six fields in declared order,
    `given` the ones the builder set (pydantic's fields-set)."""
    b = _new(Basis)
    _set_dict(b, {"kind": kind, "states": states, "source": source, "field": field, "at": at, "cite": cite})
    _set_fields(b, set(given))
    _set_extra(b, None)
    _set_private(b, None)
    return b


def assembled(cls: type[_M], data: dict[str, Any], fields_set: set[str]) -> _M:
    """An instance of `cls` holding `data` (every field, in declared order, each value already of
    its declared type) with `fields_set` as pydantic's fields-set: what `built` gives, without
    its per-field pass (the runner makes a Question of each of the eight answers this way)."""
    obj = _new(cls)
    _set_dict(obj, data)
    _set_fields(obj, fields_set)
    _set_extra(obj, None)
    _set_private(obj, None)
    return obj


def repointed(b: Basis, source: str, cite: Cited) -> Basis:
    """`replaced(b, source=source, cite=cite)` for the one class: the entry pointing at another id
    of its source (the runner numbers a report's records: 'record:data.json' -> 'record-1')."""
    new = _new(Basis)
    data = b.__dict__.copy()
    data["source"] = source
    data["cite"] = cite
    _set_dict(new, data)
    _set_fields(new, b.__pydantic_fields_set__ | _REPOINTED)
    _set_extra(new, None)
    _set_private(new, None)
    return new


_REPOINTED = frozenset({"source", "cite"})


def step(knob: str | None, run: str) -> Step:
    """`built(Step, knob=..., run=...)` written out: one experiment of Q8's plan, from strings the
    rule chose (already valid)."""
    s = _new(Step)
    _set_dict(s, {"knob": knob, "run": run})
    _set_fields(s, {"knob", "run"})
    _set_extra(s, None)
    _set_private(s, None)
    return s


def difference(knob: str, claimed: str, reference: str) -> Difference:
    """`built(Difference, ...)` written out: one knob where the claim departs from plain decode."""
    d = _new(Difference)
    _set_dict(d, {"knob": knob, "claimed": claimed, "reference": reference})
    _set_fields(d, {"knob", "claimed", "reference"})
    _set_extra(d, None)
    _set_private(d, None)
    return d
_CITED = ("kind", "states", "source", "cite")
_FIELD = ("kind", "states", "field")
_FIELD_CITED = ("kind", "states", "field", "source", "cite", "at")


class _Row(Protocol):
    name: str

    def cite(self) -> str: ...


def _table(r: _Row) -> str:
    """'hardware' for a HardwareRow, 'models' for a ModelRow: the id's namespace."""
    return _namespace(type(r))


@cache  # per row class: a handful of constants
def _namespace(row_type: type) -> str:
    kind = row_type.__name__.removesuffix("Row").lower()
    return {"hardware": "hardware", "model": "models", "format": "formats", "method": "methods",
            "family": "families", "platform": "platforms", "system": "systems",
            "powerband": "power_bands", "publishedal": "published_als", "recipe": "recipes"}.get(kind, kind)


@per_audit  # by the row's identity: its citation is formatted and hashed once an audit, not per entry
def cited_row(r: _Row) -> Cited:
    """The reference row as a report-level source: id 'hardware/RTX 5090', its full citation."""
    return _cited_row(_table(r), r.name, r.cite())


@lru_cache(maxsize=4096)  # a Cited is immutable; an audit cites its card and model rows a dozen times
def _cited_row(table: str, name: str, citation: str) -> Cited:
    return built(Cited, id=f"{table}/{name}", kind="reference-row", citation=citation)


def row(r: _Row, states: str = "") -> Basis:
    """What a reference row says ('board power 575 W'), citing the row once per report."""
    c = cited_row(r)
    return _entry("reference-row", states, c.id, cite=c, given=_CITED)


@lru_cache(maxsize=1024)  # a Cited is immutable; one audit cites its record a dozen times
def record_source(source: str, number: int | None = None) -> Cited:
    """A record, file or page the claim was read from, as a report-level source: 'record:<source>'
    until the report numbers it ('record-1', `number`)."""
    url = source if source.startswith(("http://", "https://")) else None
    return built(Cited, id=f"record:{source}" if number is None else f"record-{number}", kind="record",
                 citation=source, url=url)


def field(claim: Claim, name: str, states: str = "") -> Basis:
    """What a claim field holds ('= 99.6 W'), pointing at the record (JSON key or text span) it was
    read from, or at the user who stated it."""
    p = claim.provenance.get(name)
    if p is None:
        return _entry("record-field", states, field=name, given=_FIELD)
    if p.kind == "user":
        return _entry("stated-by-user", states, USER.id, name, p.field, USER, _FIELD_CITED)
    at = p.field or (f'"{p.span}"' if p.span else None)
    memo = _current_audit()
    # Under the report's id already ('record-1') when the runner knew it: no renaming copy later.
    c = (memo.records.get(p.source) if memo is not None else None) or record_source(p.source)
    return _entry("record-field", states, c.id, name, at, c, _FIELD_CITED)


def other_record(record: str, source: str | None, states: str) -> Basis:
    """What another record of the same setup reports (a peer: a board's row, a corpus record),
    citing the record (its URL or file) once per report."""
    if source is None:
        return doc(f"peer {record}", states)
    return doc(source, f"peer {record} {states}",
               url=source if source.startswith(("http://", "https://")) else None)


def formula(text: str) -> Basis:
    """A formula written out with its numbers ('ratio = 99.6 W ÷ 575 W = 0.17')."""
    return _entry("formula", text)


def other_records(lead: str, ranked: Sequence[Any], states: Callable[[Any], str], more: str,
                  shown: int) -> list[Basis]:
    """A lead note, the first `shown` of `ranked` (peer figures, highest first) each citing its
    record with what `states` says of it, and how many more there are ("… and 12 more peers")."""
    entries = [note(lead), *(other_record(f.record, f.source, states(f)) for f in ranked[:shown])]
    if len(ranked) > shown:
        entries.append(note(f"… and {len(ranked) - shown} more {more}"))
    return entries


def note(text: str) -> Basis:
    """A statement of the check's own reasoning ('dense: every weight is read per token')."""
    return _entry("note", text)


def doc(citation: str, states: str = "", url: str | None = None) -> Basis:
    """What a public document says (a paper, a README), cited once per report."""
    c = _cited_doc(citation, url)
    return _entry("document", states, c.id, cite=c, given=_CITED)


@lru_cache(maxsize=1024)  # a Cited is immutable; a board's peers all cite the board's one address
def _cited_doc(citation: str, url: str | None) -> Cited:
    return built(Cited, id=f"doc:{citation}", kind="document", citation=citation, url=url)


_STATUSES = frozenset(get_args(Status))
# The fields-set of an answer built by `answer` with no extra members.
_ANSWER_SET = frozenset({"key", "status", "summary", "reason", "figures", "basis", "missing", "assumptions"})
# The members a rule may hand over beyond the usual ones: the plain label, and the plan members
# with the one type their items have.
_EXTRA_ITEMS: dict[str, type] = {"differences": Difference, "steps": Step}
# The one type each member's items may have to be taken as they are (tested with `issuperset`).
_NUMBER, _BASIS_OR_STR = frozenset({float, int, bool}), frozenset({Basis, str})
_STR, _ASSUMPTION = frozenset({str}), frozenset({Assumption})


def answer(key: str, status: Status, summary: str, *, reason: str = "",
           figures: Mapping[str, FigureValue] | None = None, basis: Iterable[Basis | str] = (),
           missing: Sequence[str] = (), assumptions: Sequence[Assumption] = (), **extra: Any) -> Answer:
    """An Answer in one call, the shape every rule uses (`basis` may mix entries and strings).

    Built without pydantic's validation when every value already has the type its field declares
    (a rule's strings, figures and entries): the same answer validation gives, the figures typed
    by name as `Answer` types them, for a tenth of the cost (an audit builds two dozen answers).
    Any other value (a status outside the list, a numpy float, a dict for an entry) is validated."""
    figs = dict(figures) if figures else {}
    entries, miss, assumed = list(basis), list(missing), list(assumptions)
    # Each figure a bool, int or float (then typed by its name, in place), each entry a Basis or
    # a str (then a note entry, in place), as `Answer` takes them.
    plain = _STR.issuperset(map(type, (key, summary, reason, status))) and status in _STATUSES
    # The members' types are asked at once, in C (two dozen answers an audit, Q7's with a dozen
    # figures and entries); Python looks only at the figures under a count's or a flag's name,
    # the ints among the rest and the plain lines among the entries.
    if plain and figs:
        kinds = list(map(type, figs.values()))
        if _NUMBER.issuperset(kinds) and _STR.issuperset(map(type, figs)):
            ints = kinds.count(int)  # those under a quantity's name are floats, as `Answer` types them
            for name in FIGURE_KINDS.keys() & figs.keys():
                value = figs[name]
                if type(value) is int:
                    ints -= 1
                figs[name] = _typed(name, value)
            if ints:
                for name, value in figs.items():
                    if type(value) is int and name not in FIGURE_KINDS:
                        figs[name] = float(value)
        else:  # some other value or name: each looked at, as before (validated if not a number)
            for name, value in figs.items():
                kind = type(value)
                if kind is float and name not in FIGURE_KINDS:
                    continue  # a quantity already: kept as it is, as `Answer` keeps it
                if type(name) is not str or (kind is not bool and kind is not int and kind is not float):
                    plain = False
                    break
                figs[name] = _typed(name, value)
    if plain and entries:
        kinds = list(map(type, entries))
        if _BASIS_OR_STR.issuperset(kinds):
            at = -1
            for _ in range(kinds.count(str)):  # a plain line reads as a note entry
                at = kinds.index(str, at + 1)
                entries[at] = _entry("note", entries[at])  # type: ignore[arg-type]
        else:
            plain = False
    if (plain and (not miss or _STR.issuperset(map(type, miss)))
            and (not assumed or _ASSUMPTION.issuperset(map(type, assumed)))
            and (not extra or _plain_extra(extra))):
        # `built(Answer, ...)` written out: the fields in declared order, a fresh list for each
        # plan member not given, the names given as pydantic's fields-set.
        a = _new(Answer)
        data = {"key": key, "status": status, "summary": summary, "figures": figs, "missing": miss,
                "basis": entries, "assumptions": assumed, "reason": reason, "label": "",
                "differences": [], "steps": []}
        fields_set = set(_ANSWER_SET)
        if extra:  # the label and plan members given (their names checked above): in their places
            data.update(extra)
            fields_set.update(extra)
        _set_dict(a, data)
        _set_fields(a, fields_set)
        _set_extra(a, None)
        _set_private(a, None)
        return a
    return Answer(key=key, status=status, summary=summary, reason=reason, figures=figs, basis=entries,
                  missing=miss, assumptions=assumed, **extra)


def _plain_extra(extra: dict[str, Any]) -> bool:
    """A str label and plan members of their item types (each made a fresh list, in place)."""
    for name, value in extra.items():
        if name == "label":
            if type(value) is not str:
                return False
            continue
        kind = _EXTRA_ITEMS.get(name)
        if kind is None:
            return False  # a name `Answer` does not declare: validation says so
        items = extra[name] = list(value)
        if any(type(item) is not kind for item in items):
            return False
    return True
