"""Compiled patterns kept between runs, the way Python keeps a module's bytecode.

Python's `re` parses and compiles a pattern in Python code: a cold `claimcheck audit --example`
spent some 50 ms of its 0.45 s compiling the ~130 patterns its readers ask (the lazy module-level
ones, `lazyre`, and the name finders' alternations built from the reference tables). What the
compiler produces is plain data: the engine's code (a list of ints), the group count and names,
and, for a lazy pattern, the literals its gate asks (`lazyre.required_all`). The CLI names a
directory (`keep_in`); each pattern compiled then is looked up there first, its engine object
rebuilt from the data with `_sre.compile` (what `re._compiler.compile` ends with), and the new
ones are written back when the command ends (`save`).

Correct by construction: an entry is keyed by the pattern's exact source and flags, and the file
by everything that shapes the data (the Python build, the engine's MAGIC and code size, and the
bytes of `lazyre`, which computes the gates): a changed pattern is a new key, a changed Python or
gate code a new file. The file is `marshal` data (lists, tuples, strings, ints: no code is loaded
from it), and the engine validates the code it is given; a file that does not read, or an entry
the engine refuses, is compiled afresh as if absent. Nothing is written when Python is told not
to write bytecode (`sys.dont_write_bytecode`, PYTHONDONTWRITEBYTECODE), nor when the directory is
not writable; without `keep_in` nothing is read or written (a library caller, the tests)."""

from __future__ import annotations

import hashlib
import marshal
import re
import sys
from array import array
from pathlib import Path
from re import _compiler, _parser  # type: ignore[attr-defined]
from typing import Any, cast

from extractors.kept_files import keep_file
from extractors.text import lazyre

__all__ = ["MAX_ENTRIES", "analysed", "compile", "keep_in", "kept_in", "save", "start_class", "store_path"]

_FORMAT = 1  # the layout of the file's data (bumped when it changes)
# Entries kept in one file: more (a long-running process, many distinct inputs) and a save keeps
# only the entries this run used. A name finder's alternation is keyed by its aliases, so a
# reference file of one's own adds its own few.
MAX_ENTRIES = 4096

# The engine's code word: an unsigned int of its CODESIZE bytes.
_CODE_TYPE = next(t for t in "IL" if array(t).itemsize == _compiler._sre.CODESIZE)



class _Store:
    """One directory's file, read on the first pattern asked of it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: dict[tuple[str, str, int], Any] | None = None  # None: not read yet
        self.used: set[tuple[str, str, int]] = set()
        self.added = False

    def load(self) -> dict[tuple[str, str, int], Any]:
        if self.entries is None:
            self.entries = {}
            try:
                data = marshal.loads(self.path.read_bytes())
            except (OSError, EOFError, ValueError, TypeError):
                data = None
            if isinstance(data, dict) and data.get("format") == _FORMAT and isinstance(data.get("entries"), dict):
                self.entries = data["entries"]
        return self.entries


_KEPT: list[_Store | None] = [None]  # the store this process uses (set by `keep_in`)


def _tag() -> str | None:
    """What the file's data depends on, hashed: the Python build, the engine's code format and
    the gate code (`lazyre`'s bytes). None when that module cannot be read."""
    try:
        gates = Path(lazyre.__file__).read_bytes()
    except (OSError, TypeError):
        return None
    h = hashlib.blake2b(digest_size=10)
    for part in (sys.version, sys.implementation.cache_tag or "", str(_compiler._sre.MAGIC),
                 str(_compiler._sre.CODESIZE), sys.byteorder, str(_FORMAT)):
        h.update(part.encode() + b"\0")
    h.update(gates)
    return h.hexdigest()


def store_path(directory: Path) -> Path | None:
    """The pattern file this Python and this gate code use in `directory` (None: none can)."""
    tag = _tag()
    return None if tag is None else directory / f"patterns-{tag}.marshal"


def keep_in(directory: Path | None) -> None:
    """Keep compiled patterns in `directory` from now on (None: keep none, the default)."""
    path = None if directory is None else store_path(directory)
    _KEPT[0] = None if path is None else _Store(path)


def kept_in() -> Path | None:
    """The directory this process keeps its patterns in (`keep_in`; None: none): what a worker
    it starts reads them from too."""
    store = _KEPT[0]
    return None if store is None else store.path.parent


def _code_of(source: str, flags: int, parsed: Any) -> tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]:
    """What `re._compiler.compile` hands the engine, from the parse tree."""
    # The code as the bytes of an array of code words (read back in C, where a list of ints
    # made marshal build every int: ~10 ms a load); plain ints elsewhere (re's flags are an
    # int subclass, which marshal does not write).
    code = array(_CODE_TYPE, _compiler._code(parsed, flags)).tobytes()
    groupindex = {str(k): int(i) for k, i in parsed.state.groupdict.items()}
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for k, i in groupindex.items():
        indexgroup[i] = k
    return int(flags | parsed.state.flags), code, int(parsed.state.groups) - 1, groupindex, tuple(indexgroup)


def _engine(source: str, data: Any) -> re.Pattern[str] | None:
    try:
        flags, code, groups, groupindex, indexgroup = data
        return cast(re.Pattern[str], _compiler._sre.compile(source, flags, array(_CODE_TYPE, code).tolist(), groups,
                                                            dict(groupindex), tuple(indexgroup)))
    except (TypeError, ValueError, RuntimeError, OverflowError):
        return None  # not what the engine takes (a damaged file): compiled afresh


def _kept(kind: str, source: str, flags: int) -> Any:
    store = _KEPT[0]
    if store is None:
        return None
    key = (kind, source, int(flags))
    found = store.load().get(key)
    if found is not None:
        store.used.add(key)
    return found


def _keep(kind: str, source: str, flags: int, data: Any) -> None:
    store = _KEPT[0]
    if store is not None:
        key = (kind, source, int(flags))
        store.load()[key] = data
        store.used.add(key)
        store.added = True


def compile(source: str, flags: int = 0) -> re.Pattern[str]:  # noqa: A001 - re.compile's twin
    """`re.compile(source, flags)`, from the kept patterns when there."""
    data = _kept("re", source, flags)
    if data is not None and (pattern := _engine(source, data)) is not None:
        return pattern
    if _KEPT[0] is None:
        return re.compile(source, flags)
    data = _code_of(source, flags, _parser.parse(source, flags))
    _keep("re", source, flags, data)
    pattern = _engine(source, data)
    return pattern if pattern is not None else re.compile(source, flags)


def analysed(source: str, flags: int) -> tuple[re.Pattern[str], tuple[str, ...] | None,
                                               tuple[tuple[str, ...], ...]]:
    """A lazy pattern's compiled form and its gate: `lazyre.required_literals` (sorted) and
    `lazyre.required_all` of its parse tree, from the kept patterns when there."""
    data = _kept("lazy", source, flags)
    if data is not None:
        try:
            engine, (required, need) = data[:5], data[5]
        except (TypeError, ValueError, IndexError):
            engine = None
        pattern = _engine(source, engine) if engine is not None else None
        if pattern is not None:
            return pattern, required, need
    parsed = _parser.parse(source, flags)
    code = _code_of(source, flags, parsed)
    found = lazyre.required_literals(parsed)
    required = tuple(sorted(found)) if found is not None else None
    need = lazyre.required_all(parsed)
    _keep("lazy", source, flags, (*code, (required, need)))
    pattern = _engine(source, code)
    return (pattern if pattern is not None else lazyre.compile_parsed(source, flags, parsed)), required, need


def start_class(source: str, flags: int = 0) -> str | None:
    """`lazyre.start_class(source, flags)`, from the kept patterns when there."""
    data = _kept("start", source, flags)
    if isinstance(data, tuple) and len(data) == 1 and (data[0] is None or isinstance(data[0], str)):
        return cast(str | None, data[0])
    found = lazyre.start_class(source, flags)
    _keep("start", source, flags, (found,))
    return found


def save() -> bool:
    """Write the kept patterns back when this run compiled new ones (whether it did). Never
    raises: a directory that cannot be written keeps nothing, and the next run compiles again."""
    store = _KEPT[0]
    if store is None or not store.added or sys.dont_write_bytecode or store.entries is None:
        return False
    entries = store.entries
    if len(entries) > MAX_ENTRIES:
        entries = {k: v for k, v in entries.items() if k in store.used}
    try:
        data = marshal.dumps({"format": _FORMAT, "entries": entries})
        keep_file(store.path, data, "patterns-*.marshal")
    except (OSError, ValueError):
        return False
    store.added = False
    return True
