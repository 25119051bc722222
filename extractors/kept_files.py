"""Files a CLI run keeps for the next one (compiled patterns, the loaded reference): written whole
or not at all, and only the newest few of other builds left beside the current one."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["keep_file"]

KEEP_OTHERS = 8  # files of other builds or inputs kept beside the current one


def keep_file(path: Path, data: bytes, others: str) -> None:
    """Write `data` to `path` and prune the files matching the glob `others` beside it down to the
    newest `KEEP_OTHERS`. Raises OSError when the file cannot be written; pruning never raises."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written beside and renamed over: a reader never sees half a file, and two runs ending
    # together leave one whole file (the last one's).
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    try:
        older = [p for p in path.parent.glob(others) if p != path]
        older.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for old in older[KEEP_OTHERS:]:
            old.unlink()
    except OSError:
        return
