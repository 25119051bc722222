"""The two-method interface every input format implements (after httpx's content decoders), and
the two base classes most adapters share it through.

- `ToolOutputFormat`: a benchmark tool's JSON output (one object, or a list/JSON Lines of them).
- `RecordsFormat`: a leaderboard's records, read row by row, skipping the unreadable ones.

Each adapter still keeps the whole of its format in its own module; the bases hold only the
sniff/parse scaffolding that was otherwise copied from adapter to adapter.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol, runtime_checkable

from checks.models import Claim, SourceKind
from extractors.document import RawDocument
from extractors.errors import ExtractError, InvalidInput
from extractors.formats.common import record_list, safe_json
from extractors.formats.records import RecordSet, find_records
from extractors.formats.values import BadValue

__all__ = ["Format", "RecordsFormat", "RowReader", "ToolOutputFormat"]

# `RecordsFormat` looks for one of its rows among the first 200 only, so that rejecting a huge
# unrelated array stays cheap.
_SNIFF_ROWS = 200


class Format(Protocol):
    """One input format. `sniff` looks at the shape only (never the file name) and must not raise;
    `parse` returns one Claim per record (a llama-bench array gives several) and raises
    `InvalidInput` when the shape matched but the content is unusable."""

    name: ClassVar[str]
    kind: ClassVar[SourceKind]  # "tool-output", "record", "log" or "config"

    def sniff(self, doc: RawDocument) -> bool: ...

    def parse(self, doc: RawDocument) -> list[Claim]: ...


@runtime_checkable
class RowReader(Protocol):
    """A format whose rows can be read one at a time (`sweep` streams a dump through it)."""

    name: ClassVar[str]
    kind: ClassVar[SourceKind]

    def records(self, data: Any) -> RecordSet | None: ...

    def read_row(self, source: str, row: Any, path: str) -> Claim: ...


class ToolOutputFormat:
    """A tool's JSON output. By default a document is one record or a list of records, every one
    passing `_is_record`, and each gives one Claim through `_claim`. An output of another shape
    overrides `_find` (what to look for) and `_claims` (how to read what was found)."""

    name: ClassVar[str]
    kind: ClassVar[SourceKind] = "tool-output"
    label: ClassVar[str]  # the tool as messages name it: "vLLM bench serve"
    not_ours: ClassVar[str]  # why `parse` refuses another shape: "not a vLLM bench serve result"

    def sniff(self, doc: RawDocument) -> bool:
        try:
            return self._find(safe_json(doc)) is not None
        except Exception:  # noqa: BLE001 - sniff never raises
            return False

    def parse(self, doc: RawDocument) -> list[Claim]:
        try:
            data = safe_json(doc)
            found = self._find(data)
            if found is None:
                raise InvalidInput(f"{doc.source}: {self._why_not(data)}")
            return self._claims(doc, data, found)
        except ExtractError:
            raise
        # A shape we recognised but could not read is the input's fault, never a traceback.
        except (KeyError, TypeError, ValueError, AttributeError, IndexError,
                OverflowError, RecursionError) as exc:
            raise InvalidInput(
                f"{doc.source}: {self.label} output could not be read ({type(exc).__name__})"
            ) from None

    def _find(self, data: Any) -> Any | None:
        """What `_claims` reads, or None when the document is not this format."""
        got = record_list(data)
        if got is None or not all(self._is_record(r) for r in got[0]):
            return None
        return got

    def _why_not(self, data: Any) -> str:
        """The refusal for a document `_find` rejected; an adapter may say more precisely why."""
        return self.not_ours

    def _claims(self, doc: RawDocument, data: Any, found: Any) -> list[Claim]:
        records, is_list = found
        # Provenance paths index into the list ("[0].output_throughput"), not into a lone object.
        return [self._claim(doc, rec, f"[{i}]" if is_list else "", i, len(records))
                for i, rec in enumerate(records)]

    def _is_record(self, rec: Any) -> bool:
        raise NotImplementedError

    def _claim(self, doc: RawDocument, rec: dict[str, Any], prefix: str, i: int,
               total: int) -> Claim:
        """The Claim of record `i` (0-based) of `total`. `prefix` is "" only for a lone object: the
        records of a list, even a list of one, are "[0]", "[1]", ..."""
        raise NotImplementedError


class RecordsFormat:
    """A leaderboard's records: the document is one record, or holds an array with at least one of
    ours among its first rows. Each row gives one Claim through `_parse_row`; a row that raises
    BadValue or InvalidInput is skipped with a warning, and the document is refused only when no
    row can be read (one odd row must not hide a whole board)."""

    name: ClassVar[str]
    kind: ClassVar[SourceKind] = "record"
    label: ClassVar[str]  # the board as messages name it: "InferenceX"
    row_word: ClassVar[str]  # what the board calls a row: "row", "run"
    not_found: ClassVar[str]  # "no InferenceX benchmark rows found"
    none_read: ClassVar[str]  # "InferenceX rows could not be read"

    def sniff(self, doc: RawDocument) -> bool:
        try:
            return self._rows(doc.json()) is not None
        except Exception:  # noqa: BLE001 - sniffing never raises
            return False

    def parse(self, doc: RawDocument) -> list[Claim]:
        found = self._rows(doc.json())
        if found is None:
            raise InvalidInput(f"{doc.source}: {self.not_found}")
        claims, errors = [], []
        for i, row in enumerate(found.rows):
            path = found.row_path(i)
            try:
                claims.append(self.read_row(doc.source, row, path))
            except InvalidInput as exc:
                errors.append(str(exc))
        if not claims:
            raise InvalidInput(f"{doc.source}: {self.none_read} ({errors[0]})")
        if errors:
            doc.warnings.append(f"{doc.source}: skipped {len(errors)} unreadable {self.label} "
                                f"{self.row_word}(s), e.g. {errors[0]}")
        return claims

    def read_row(self, source: str, row: Any, path: str) -> Claim:
        """One row's Claim, on its own: what `sweep` calls while it streams a dump. An unreadable
        row raises InvalidInput saying which row and why."""
        try:
            return self._parse_row(source, row, path)
        except (BadValue, InvalidInput) as exc:
            raise InvalidInput(f"{self.row_word} {path or 0}: {exc}") from None
        # A row of the right shape with a value of the wrong type is the row's fault.
        except (KeyError, TypeError, ValueError, AttributeError, IndexError,
                OverflowError, RecursionError) as exc:
            raise InvalidInput(f"{self.row_word} {path or 0}: could not be read "
                               f"({type(exc).__name__})") from None

    def records(self, data: Any) -> RecordSet | None:
        """Where this format's rows sit in a parsed document, or None when it holds none."""
        return self._rows(data)

    def _rows(self, data: Any) -> RecordSet | None:
        if self._is_single(data):
            return RecordSet("", [data], single=True)
        found = find_records(data)
        if found and any(self._is_row(r) for r in found.rows[:_SNIFF_ROWS]):
            return found
        return None

    def _is_single(self, obj: Any) -> bool:
        """A whole document that is one record (an API's single-record answer)."""
        return self._is_row(obj)

    def _is_row(self, row: Any) -> bool:
        raise NotImplementedError

    def _parse_row(self, source: str, row: Any, path: str) -> Claim:
        raise NotImplementedError
