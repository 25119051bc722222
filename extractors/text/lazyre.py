"""Patterns compiled on first use, with a keyword gate derived from the pattern itself.

The readers hold a few hundred module-level patterns; compiling them all when `extractors` is
imported was most of its import time, though a CLI run or one audit uses a handful of readers.
`lazy` returns a stand-in that compiles on its first attribute access and then keeps the compiled
pattern's methods on itself, so later calls cost a plain attribute lookup.

The gate: from the pattern's parse tree, a set of literal strings one of which every match must
contain (a run of literal characters, a branch's alternatives each with one, a repeat taken at
least once). `search`, `finditer` and `findall` over a whole text whose casefolded copy holds none
of them return no match without running the pattern (a pattern in sequence has several such sets,
one per required item: up to four are asked, each a necessary condition); the Python regex engine tries a pattern at
every position, and most patterns of most texts cannot match at all. Lookarounds count for
nothing and a search from a position is never gated, so the gate only skips searches that could
not have matched: every character an ASCII literal matches, in either case, casefolds to that
literal's lower case (checked over all of Unicode, with the folding `Scan` uses for its gates)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from re import _compiler, _parser  # type: ignore[attr-defined]
from re import _constants as sre  # type: ignore[attr-defined]
from typing import Any, cast

__all__ = ["compile_parsed", "fold", "folded", "lazy", "literals_of", "required_all", "required_literals",
           "start_class", "walking"]

# A gate's casefolding costs a pass over the text: the last short and the last long text folded
# are kept (by identity), as a reader runs many patterns over the same text.
# Shorter texts (a clause, a few words around a figure) go straight to the pattern: folding them
# afresh each call costs about what the pattern does.
_GATE_MIN = 128
_FOLD_KEPT: list[tuple[str, str]] = [("", ""), ("", "")]
_LONG_TEXT = 4096  # the slot of _FOLD_KEPT a text's fold is kept in: short (0) or long (1)
# The start-class pass (below) pays for its compiling on long texts at once; a record's notes or
# a post (short texts) are read through it only once the pattern has been asked often enough for
# its compiling to be repaid (a sweep of records, a bot's day), so a one-off CLI audit compiles
# none of them. Opening on the few letters a match can start with, the pass reads even a
# 100-character text about twice as fast as the pattern alone; a shorter one goes straight there.
_STARTS_MIN = 2048
_STARTS_SHORT = 64
_STARTS_HOT = 64  # whole-text searches of short texts before the pass is built for them


def fold(text: str) -> str:
    """Casefolded as IGNORECASE compares (dotless i and a dotted capital I as i)."""
    return text.casefold().replace("ı", "i").replace("\u0307", "")


def _folded(text: str) -> str:
    slot = 0 if len(text) < _LONG_TEXT else 1  # a short line between searches of a long text keeps it
    kept = _FOLD_KEPT[slot]  # one read: the pair cannot be torn
    if kept[0] is text:
        return kept[1]
    folded = fold(text)
    _FOLD_KEPT[slot] = (text, folded)
    return folded


def folded(text: str) -> str:
    """`fold(text)`, kept for the last short and the last long text folded (by identity)."""
    return _folded(text)


# The text a reader is walking (a `Scan`'s), with its fold made once by the reader: patterns asked
# of that very text are gated at any length, where another short text goes straight to its
# pattern (folding a clause afresh for one search costs what the search does).
_WALKED: list[tuple[str, str]] = [("", "")]


def walking(text: str, folded_text: str | None) -> None:
    """Tell the gates that `folded_text` is `fold(text)` for the text being read now (None: not
    folded yet, the gates fold it when they first need to, as for any other text)."""
    if folded_text is None:
        _WALKED[0] = ("", "")
        return
    _WALKED[0] = (text, folded_text)
    _FOLD_KEPT[0 if len(text) < _LONG_TEXT else 1] = (text, folded_text)  # `folded` finds it too


def literals_of(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """The casefolded strings one of which every match of a `lazy` pattern contains, or None
    (not a lazy pattern, or no such strings)."""
    return cast(tuple[str, ...] | None, pattern.required) if isinstance(pattern, _Lazy) else None


def _best(options: list[frozenset[str]]) -> frozenset[str] | None:
    """The most selective requirement: the one whose shortest string is longest."""
    useful = [o for o in options if o and all(o)]
    return max(useful, key=lambda o: min(len(s) for s in o)) if useful else None


def required_literals(items: Any) -> frozenset[str] | None:
    """Strings (lower case) one of which every match of the parsed sequence contains, or None."""
    return _best(_options(items))


# A gate asks at most this many of a pattern's requirements (each one more scan of the text).
_GATE_OPTIONS = 4


def required_all(items: Any) -> tuple[tuple[str, ...], ...]:
    """Every requirement of the parsed sequence (`required_literals`' candidates), the most
    selective first: each is a set of strings one of which every match contains, so a text
    lacking all the strings of any one of them cannot match."""
    useful = [o for o in _options(items) if o and all(o)]
    useful.sort(key=lambda o: (-min(len(s) for s in o), sorted(o)))
    return tuple(tuple(sorted(o)) for o in useful[:_GATE_OPTIONS])


def _options(items: Any) -> list[frozenset[str]]:
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
    return options


# ---- where a match can start ---------------------------------------------------------------
# A pattern that opens with a look-behind, a word boundary or a case-blind alternation gives `re`
# no first character to skip to: it runs the pattern at every position of the text. When every
# match starts with a character of a known class, `CLASS(?<=(?=PATTERN)CLASS)` finds the same
# start positions (the look-ahead is the pattern itself, read where the class character is), and
# because it opens with a plain character class `re` skips every other position in C; the match
# is then read at each position found. ASCII letters under IGNORECASE also match four non-ASCII
# characters (İ and ı as i, ſ as s, the Kelvin sign as k: tests/extractors/test_reader_shortcuts.py
# checks all of Unicode), so the class of a case-blind letter holds them too.
_LETTERS = "A-Za-z\u0130\u0131\u017f\u212a"
# The same four, by the ASCII letter each is matched to: a pattern whose matches open with a few
# letters ("ISL/OSL", "input/output", "prompt/gen") starts on those letters only (the pass then
# skips, in C, the letters no match can start with; most of a log's characters are letters).
_ALSO = {"i": "\u0130\u0131", "s": "\u017f", "k": "\u212a"}
_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


def _char_token(ch: str, icase: bool) -> str | None:
    if icase and ch.isascii() and ch.isalpha():
        return "letter:" + ch.lower()  # this letter in either case (see `_ALSO`)
    if not icase or ch.lower() == ch.upper() == ch:
        return ch
    return None  # a cased non-ASCII letter under IGNORECASE: its other cases are not listed


def _first_of(op: Any, av: Any, icase: bool) -> tuple[frozenset[str] | None, bool]:
    """(what the item's first character can be, whether the item can match nothing)."""
    if op is sre.LITERAL:
        token = _char_token(chr(av), icase)
        return (None if token is None else frozenset([token])), False
    if op is sre.IN:
        tokens: set[str] = set()
        for o, a in av:
            if o is sre.LITERAL and (token := _char_token(chr(a), icase)) is not None:
                tokens.add(token)
            elif o is sre.RANGE and (a[0] >= ord("0") and a[1] <= ord("9")):
                tokens.add("digits")
            elif o is sre.RANGE and (ord("a") <= a[0] <= a[1] <= ord("z") or ord("A") <= a[0] <= a[1] <= ord("Z")):
                tokens.add("letters" if icase else f"{chr(a[0])}-{chr(a[1])}")
            elif o is sre.CATEGORY and a is sre.CATEGORY_DIGIT:
                tokens.add("digits")
            else:
                return None, False
        return frozenset(tokens), False
    if op is sre.SUBPATTERN:
        _, add, drop, inner = av
        return _firsts(inner, (icase or bool(add & re.IGNORECASE)) and not drop & re.IGNORECASE)
    if op is sre.ATOMIC_GROUP:
        return _firsts(av, icase)
    if op is sre.BRANCH:
        union: set[str] = set()
        empty = False
        for alt in av[1]:
            found, nullable = _firsts(alt, icase)
            if found is None:
                return None, False
            union |= found
            empty = empty or nullable
        return frozenset(union), empty
    if op in _REPEATS:
        found, nullable = _firsts(av[2], icase)
        return found, found is not None and (nullable or av[0] == 0)
    return None, False


def _firsts(items: Any, icase: bool) -> tuple[frozenset[str] | None, bool]:
    acc: set[str] = set()
    for op, av in items:
        if op in _ZERO_WIDTH:
            continue
        found, nullable = _first_of(op, av, icase)
        if found is None:
            return None, False
        acc |= found
        if not nullable:
            return frozenset(acc), False
    return frozenset(acc), True


def _opens_slowly(items: Any, icase: bool) -> bool:
    """Whether `re` has no first character to skip to: the pattern opens with something of no
    width, or with a case-blind or alternative first item."""
    for op, av in items:
        if op is sre.AT and av in (sre.AT_BEGINNING, sre.AT_BEGINNING_STRING):
            return False  # anchored at the start: `re` tries it at one position only
        if op in _ZERO_WIDTH or icase:
            return True
        if op is sre.SUBPATTERN:
            return _opens_slowly(av[3], (icase or bool(av[1] & re.IGNORECASE)) and not av[2] & re.IGNORECASE)
        return op is sre.BRANCH
    return False


def start_class(source: str, flags: int = 0, parsed: Any = None) -> str | None:
    """A character class holding the first character of every match of the pattern, when it is
    known and the pattern cannot match nothing; else None. `parsed`: the pattern's parse tree,
    when the caller has it (`_parser.parse(source, flags)`)."""
    parsed = _parser.parse(source, flags) if parsed is None else parsed
    found, nullable = _firsts(parsed, bool(parsed.state.flags & re.IGNORECASE))
    if found is None or nullable or not found:
        return None
    letters = {t[len("letter:"):] for t in found if t.startswith("letter:")}
    if "letters" in found:  # some match opens with any letter: the class holds them all
        found = frozenset(t for t in found if not t.startswith("letter:")) | {"letters"}
        letters = set()
    parts = [c + c.upper() + _ALSO.get(c, "") for c in sorted(letters)]
    for token in sorted(found):
        if token.startswith("letter:"):
            continue
        if token == "letters":
            parts.append(_LETTERS)
        elif token == "digits":
            parts.append("\\d")
        elif len(token) == 3 and token[1] == "-":
            parts.append(token)
        else:
            parts.append(f"\\U{ord(token):08x}")
    return "[" + "".join(parts) + "]"


_GLOBAL_I = "(?i)"


def _starts(source: str, flags: int, parsed: Any = None) -> re.Pattern[str] | None:
    """The pattern finding where `source`'s matches start (see above), or None when it would not
    help or cannot be built: only patterns whose one global flag is IGNORECASE are wrapped.
    `parsed`: the pattern's parse tree, when the caller kept it (parsing is most of the work)."""
    parsed = _parser.parse(source, flags) if parsed is None else parsed
    icase = bool(parsed.state.flags & re.IGNORECASE)
    if parsed.state.flags & ~(re.IGNORECASE | re.UNICODE) or not _opens_slowly(parsed, icase):
        return None
    body = source[len(_GLOBAL_I):] if source.startswith(_GLOBAL_I) else source
    if re.match(r"\(\?[aiLmsux]+\)", body):
        return None  # other global flags: left as they are
    cls = start_class(source, flags, parsed)
    if cls is None:
        return None
    inner = f"(?i:{body})" if icase else f"(?:{body})"
    try:
        return re.compile(f"{cls}(?<=(?={inner}){cls})", flags & ~re.IGNORECASE)
    except re.error:
        return None


def _via_starts(starts: re.Pattern[str], compiled: re.Pattern[str]) -> tuple[Any, Any]:
    def search(text: str) -> re.Match[str] | None:
        at = starts.search(text)
        return None if at is None else compiled.match(text, at.start())

    def finditer(text: str) -> Iterator[re.Match[str]]:
        # Each search resumes where the last match ended, as `finditer` does: no position inside
        # a match is tried again, so the work stays what the plain pattern's was (linear).
        find, match = starts.search, compiled.match
        pos = 0
        while (at := find(text, pos)) is not None:
            m = match(text, at.start())
            if m is None:  # cannot happen (the pass looked ahead with the pattern itself)
                pos = at.start() + 1
                continue
            yield m
            pos = m.end()

    return search, finditer


def compile_parsed(source: str, flags: int, parsed: Any) -> re.Pattern[str]:
    """`re.compile(source, flags)` from its parse tree `parsed` (`_parser.parse(source, flags)`),
    built as `re._compiler.compile` builds it: the gates read the same tree, and parsing is most
    of compiling a pattern (a cold CLI audit parses some 110 of them), so it is done once, not
    once for the pattern and again for its gate. Generating the code reads the tree only."""
    code = _compiler._code(parsed, flags)
    groupindex = parsed.state.groupdict
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for k, i in groupindex.items():
        indexgroup[i] = k
    return cast(re.Pattern[str], _compiler._sre.compile(source, flags | parsed.state.flags, code,
                                             parsed.state.groups - 1, groupindex, tuple(indexgroup)))


class _Lazy:
    """A pattern's source and flags until something is asked of it."""

    def __init__(self, source: str, flags: int) -> None:
        self._source, self._flags = source, flags

    def __getattr__(self, name: str) -> Any:
        # Only reached for attributes not yet on the instance: compile once, then keep the bound
        # methods here so the next lookup does not come back through this hook.
        if name.startswith("__"):
            raise AttributeError(name)
        # Parsed, compiled and gated here, or read from the patterns a CLI keeps between runs.
        from extractors.text.compiled import analysed

        compiled, self.required, need = analysed(self._source, self._flags)
        for attr in ("match", "fullmatch", "sub", "subn", "split", "pattern", "flags", "groups",
                     "groupindex", "scanner"):
            setattr(self, attr, getattr(compiled, attr))
        self.search, self.finditer, self.findall = _gated(
            compiled, need or None, lambda: _starts(self._source, self._flags))
        return getattr(self, name) if name in vars(self) else getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source!r})"


def _gated(compiled: re.Pattern[str], need: tuple[tuple[str, ...], ...] | None,
           make_starts: Callable[[], re.Pattern[str] | None]) -> tuple[Any, Any, Any]:
    """search / finditer / findall of a whole text: none when the text lacks every string of one
    of the requirements in `need` (`required_all`), and
    through the start-class pass (`_starts`) when there is one. A search from a position, or of
    a short text, goes straight to the pattern; the pass is built when a long text first asks,
    so a run reading only short texts never compiles it."""
    whole: list[Any] = []  # [search, finditer] of a whole long text, once built
    short_calls = [0]  # whole-text searches of short texts while the pass is not built

    def built() -> list[Any]:
        if not whole:
            starts = make_starts()
            whole.extend(_via_starts(starts, compiled) if starts is not None
                         else (compiled.search, compiled.finditer))
        return whole

    def hot(text: Any) -> bool:
        """Whether this whole-text search goes through the pass (building it when due)."""
        if not isinstance(text, str) or len(text) < _STARTS_SHORT:
            return False
        if len(text) >= _STARTS_MIN or whole:
            return True
        short_calls[0] += 1
        return short_calls[0] >= _STARTS_HOT

    def whole_search(text: str) -> re.Match[str] | None:
        if not hot(text):
            return compiled.search(text)
        return (whole or built())[0](text)

    def whole_finditer(text: str) -> Iterator[re.Match[str]]:
        if not hot(text):
            return compiled.finditer(text)
        return (whole or built())[1](text)

    # Each call is a reader asking one question of one text, a hundred times a record: the gate
    # is spelled out in each method rather than through a helper and a generator.

    def search(text: str, *args: Any, **kwargs: Any) -> re.Match[str] | None:
        if args or kwargs or need is None:
            return compiled.search(text, *args, **kwargs) if args or kwargs else whole_search(text)
        walked = _WALKED[0]
        if walked[0] is text:
            folded = walked[1]
        elif not isinstance(text, str) or len(text) < _GATE_MIN:
            return compiled.search(text)  # a short text: no pass saves more
        else:
            folded = _folded(text)
        for option in need:  # every requirement must be met; the most selective is asked first
            for w in option:
                if w in folded:
                    break
            else:
                return None
        return whole_search(text)

    def finditer(text: str, *args: Any, **kwargs: Any) -> Iterator[re.Match[str]]:
        if args or kwargs or need is None:
            return compiled.finditer(text, *args, **kwargs) if args or kwargs else whole_finditer(text)
        walked = _WALKED[0]
        if walked[0] is text:
            folded = walked[1]
        elif not isinstance(text, str) or len(text) < _GATE_MIN:
            return compiled.finditer(text)
        else:
            folded = _folded(text)
        for option in need:
            for w in option:
                if w in folded:
                    break
            else:
                return iter(())
        return whole_finditer(text)

    def findall(text: str, *args: Any, **kwargs: Any) -> list[Any]:
        if need is not None and not args and not kwargs and isinstance(text, str) and len(text) >= _GATE_MIN:
            folded = _folded(text)
            for option in need:
                for w in option:
                    if w in folded:
                        break
                else:
                    return []
        return compiled.findall(text, *args, **kwargs)

    return search, finditer, findall


def lazy(source: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern that compiles `source` when first used (typed as the pattern it stands for)."""
    return cast(re.Pattern[str], _Lazy(source, flags))
