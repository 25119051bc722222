"""One audit's memo: what its checks would otherwise each compute again.

Q7, fits_memory and compute_ceiling each size the same weights of the same claim on the same card,
and every check that cites a record field cites the same record. The runner opens one `AuditMemo`
per audit (`one_audit`) for the duration of its checks; a `per_audit` function called inside it
computes its value once for the same argument objects, and `checks.basis.field` cites the record
under the id the report gives it. Outside an audit (a check or a physics function called on its
own) everything is computed as before: the memo changes no value, only how often it is computed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, TypeVar

from checks.models import Cited

__all__ = ["AuditMemo", "current_audit", "one_audit", "per_audit"]


@dataclass
class AuditMemo:
    """What one audit computes once for all its checks: the values of `per_audit` functions,
    keyed by the function and its arguments' identities (each value holds its arguments, so no
    identity is reused while the audit runs), and each record source's citation under the id the
    report gives it ('record-1'), where the runner knows it before the checks run."""

    records: dict[str, Cited] = field(default_factory=dict)
    values: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = field(default_factory=dict)


# The audit under way in this context (the runner's, for the duration of its checks). A memo, not
# state: every function gives the same value without it, only computed again per check.
_AUDIT: ContextVar[AuditMemo | None] = ContextVar("claimcheck_audit_memo", default=None)


@contextmanager
def one_audit(memo: AuditMemo) -> Iterator[AuditMemo]:
    """The checks run inside share `memo` (the runner opens one per audit)."""
    token = _AUDIT.set(memo)
    try:
        yield memo
    finally:
        _AUDIT.reset(token)


# The memo of the audit under way, or None outside one (a check called on its own): the context
# variable's own getter, no wrapper call (every record-field entry asks).
current_audit: Callable[[], AuditMemo | None] = _AUDIT.get


_F = TypeVar("_F", bound=Callable[..., Any])


def per_audit(draw: _F) -> _F:
    """`draw(*args)` computed once per audit for the same argument objects (the claim, its rows,
    its format). Only for pure functions of their arguments whose values are immutable (frozen
    dataclasses, rows, tuples, None): every check then reads the same object."""

    def shared(*args: Any, **kwargs: Any) -> Any:
        memo = _AUDIT.get()
        if memo is None:
            return draw(*args, **kwargs)
        key = (draw, *map(id, args), *[(k, id(v)) for k, v in kwargs.items()]) if kwargs else \
            (draw, *map(id, args))
        hit = memo.values.get(key)
        if hit is not None:
            return hit[1]
        value = draw(*args, **kwargs)
        memo.values[key] = ((args, kwargs), value)  # the arguments kept alive: their ids stay theirs
        return value

    return wraps(draw)(shared)  # type: ignore[return-value]
