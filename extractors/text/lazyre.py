"""Patterns compiled on first use, with a keyword gate derived from the pattern itself.

The readers hold a few hundred module-level patterns; compiling them all when `extractors` is
imported was most of its import time, though a CLI run or one audit uses a handful of readers.
`lazy` returns a stand-in that compiles on its first attribute access and then keeps the compiled
pattern's methods on itself, so later calls cost a plain attribute lookup.

The gate: from the pattern's parse tree, a set of literal strings one of which every match must
contain (a run of literal characters, a branch's alternatives each with one, a repeat taken at
least once). `search`, `finditer` and `findall` over a whole text whose casefolded copy holds none
of them return no match without running the pattern; the Python regex engine tries a pattern at
every position, and most patterns of most texts cannot match at all. Lookarounds count for
nothing and a search from a position is never gated, so the gate only skips searches that could
not have matched: every character an ASCII literal matches, in either case, casefolds to that
literal's lower case (checked over all of Unicode, with the folding `Scan` uses for its gates)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any, cast

__all__ = ["fold", "lazy", "required_literals"]

# A gate's casefolding costs a pass over the text: the last short and the last long text folded
# are kept (by identity), as a reader runs many patterns over the same text.
# Shorter texts (a clause, a few words around a figure) go straight to the pattern: folding them
# afresh each call costs about what the pattern does.
_GATE_MIN = 128
_FOLD_KEPT: list[tuple[str, str]] = [("", ""), ("", "")]


def fold(text: str) -> str:
    """Casefolded as IGNORECASE compares (dotless i and a dotted capital I as i)."""
    return text.casefold().replace("ı", "i").replace("\u0307", "")


def _folded(text: str) -> str:
    slot = 0 if len(text) < 4096 else 1  # a short line between searches of a long text keeps it
    kept = _FOLD_KEPT[slot]  # one read: the pair cannot be torn
    if kept[0] is text:
        return kept[1]
    folded = fold(text)
    _FOLD_KEPT[slot] = (text, folded)
    return folded


def _best(options: list[frozenset[str]]) -> frozenset[str] | None:
    """The most selective requirement: the one whose shortest string is longest."""
    useful = [o for o in options if o and all(o)]
    return max(useful, key=lambda o: min(len(s) for s in o)) if useful else None


def required_literals(items: Any) -> frozenset[str] | None:
    """Strings (lower case) one of which every match of the parsed sequence contains, or None."""
    options: list[frozenset[str]] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            options.append(frozenset(["".join(run)]))
            run.clear()

    for op, av in items:
        if op is sre.LITERAL and chr(av).isascii():
            run.append(chr(av).lower())
            continue
        flush()
        found: frozenset[str] | None = None
        if op is sre.SUBPATTERN:
            found = required_literals(av[3])
        elif op is sre.ATOMIC_GROUP:
            found = required_literals(av)
        elif op is sre.BRANCH:
            alts = [required_literals(p) for p in av[1]]
            found = None if any(a is None for a in alts) else frozenset().union(*alts)  # type: ignore[arg-type]
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT) and av[0] >= 1:
            found = required_literals(av[2])
        if found is not None:
            options.append(found)
    flush()
    return _best(options)


class _Lazy:
    """A pattern's source and flags until something is asked of it."""

    def __init__(self, source: str, flags: int) -> None:
        self._source, self._flags = source, flags

    def __getattr__(self, name: str) -> Any:
        # Only reached for attributes not yet on the instance: compile once, then keep the bound
        # methods here so the next lookup does not come back through this hook.
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = re.compile(self._source, self._flags)
        for attr in ("match", "fullmatch", "sub", "subn", "split", "pattern", "flags", "groups",
                     "groupindex", "scanner"):
            setattr(self, attr, getattr(compiled, attr))
        need = required_literals(_parser.parse(self._source, self._flags))
        if need is None:
            self.search, self.finditer, self.findall = compiled.search, compiled.finditer, compiled.findall
        else:
            self.search, self.finditer, self.findall = _gated(compiled, tuple(sorted(need)))
        return getattr(self, name) if name in vars(self) else getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source!r})"


def _gated(compiled: re.Pattern[str], need: tuple[str, ...]) -> tuple[Any, Any, Any]:
    # Each call is a reader asking one question of one text, a hundred times a record: the gate
    # is spelled out in each method rather than through a helper and a generator.
    def search(text: str, *args: Any, **kwargs: Any) -> re.Match[str] | None:
        if not args and not kwargs and isinstance(text, str) and len(text) >= _GATE_MIN:
            folded = _folded(text)
            for w in need:
                if w in folded:
                    return compiled.search(text)
            return None
        return compiled.search(text, *args, **kwargs)

    def finditer(text: str, *args: Any, **kwargs: Any) -> Iterator[re.Match[str]]:
        if not args and not kwargs and isinstance(text, str) and len(text) >= _GATE_MIN:
            folded = _folded(text)
            for w in need:
                if w in folded:
                    return compiled.finditer(text)
            return iter(())
        return compiled.finditer(text, *args, **kwargs)

    def findall(text: str, *args: Any, **kwargs: Any) -> list[Any]:
        if not args and not kwargs and isinstance(text, str) and len(text) >= _GATE_MIN:
            folded = _folded(text)
            for w in need:
                if w in folded:
                    return compiled.findall(text)
            return []
        return compiled.findall(text, *args, **kwargs)

    return search, finditer, findall


def lazy(source: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern that compiles `source` when first used (typed as the pattern it stands for)."""
    return cast(re.Pattern[str], _Lazy(source, flags))
