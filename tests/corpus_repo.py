"""A repository as the corpus builder's converters see it, held in memory for tests."""

from __future__ import annotations


class MemoryRepo:
    """The two things a converter asks of a repository: a file's bytes and its permalink."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files

    def show(self, path: str) -> bytes:
        return self.files[path].encode("utf-8")

    def url(self, path: str, line: int | None = None) -> str:
        return f"https://example.com/{path}#L{line}"
