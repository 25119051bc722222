"""Build the real-record calibration corpus from pinned commits of public repositories.

Run: `python -m benchmarks.corpus.build --mirrors /work/.mirror OUT` (OUT is usually
`benchmarks/corpus`). Every source of `sources.json` names a repository, a commit (40 hex), the
paths and a converter; the repository is read from a bare git mirror at
`MIRRORS/<owner>+<name>/repo` with `git show COMMIT:PATH`, so the corpus is the same bytes
whatever the repository did after that commit.

Converters keep each record in the form a user would hand claimcheck:
- `files`: a tool's own file (AccelMark `result.json`, MLPerf `mlperf_log_summary.txt`) copied
  as-is, under its own path, because the path itself is evidence (MLPerf names the system and
  the benchmark in it);
- `delimited_rows`: one file per row of a CSV/TSV export, the header line kept above the row
  (the columns, unit columns included, exactly as exported);
- `mlperf_tree`: an MLPerf Inference round: every LLM benchmark's
  `<division>/<org>/results/<system>/<benchmark>/<scenario>/performance/run_1/mlperf_log_summary.txt`,
  the `systems/<system>.json` beside it (kept, not a record) and the LLM rows of any
  `summary.csv` (one file per row, header kept);
- `markdown_tables`: one text line per table row (or per cell, for tables whose columns are
  models), with the manifest's context sentence (the prose facts the row depends on, written close
  to the original words), the section heading and each cell under its column header. With the
  option `rig_from_post` (a discussion export: a description and comments, each opened by
  "👤 **name** replied …"), each row also carries the sentences of *its own post* that name
  hardware ("Benchmarks are run on a Ryzen-7950X system with an RTX-4080 GPU"), as the post's
  reader sees them above the table: never another person's comment, and nothing where the post
  names two machines (two CPUs, or two different cards not joined by "+") or none
  (`extractors.post_rig` decides). A table with no model column inherits the post's model
  sentences by the same one-or-none rule.

Each record is a file under `<split>/<source>/files/` (a text record is a `.txt` holding its
line) and a line of `<split>/<source>/index.ndjson`: `id`, `source`, `url` (a permalink at the
commit) and `file` (relative to `files/`). A deterministic ~20%
of every source (sha256 of the id) goes to `heldout/` instead of `data/`: the held-out batch
measures generalisation and is not looked at while tuning. Sources whose licence does not allow
redistribution are listed in a generated `.gitignore`, so only the manifest is committed for them.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import fnmatch
import hashlib
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Record", "Source", "build", "is_heldout", "load_sources", "main"]

MANIFEST = Path(__file__).with_name("sources.json")
HELDOUT_SHARE = 5  # one record in five
_LLM_BENCHMARKS = ("llama2-70b", "llama3.1-405b", "llama3.1-8b", "mixtral-8x7b", "gptj",
                   "deepseek-r1", "llama-2-7b", "neuralmagic_llama-2-7b")
_SPEEDISH = re.compile(r"t/s|tok/s|tokens?/s|tokens? per s|throughput|speed|tps|ms/tok|eval rate",
                       re.IGNORECASE)
_NUMBER = re.compile(r"\d")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_TAGS = re.compile(r"<[^>]{0,40}>")


@dataclass(frozen=True)
class Source:
    name: str
    repo: str
    commit: str
    converter: str
    paths: list[str]
    licence: str
    redistribute: bool
    options: dict[str, Any]


@dataclass(frozen=True)
class Record:
    id: str
    source: str
    url: str
    text: str | None = None
    file: str | None = None  # relative path inside the source's folder
    content: bytes | None = None
    plain_decode: bool = False  # the source's tool has no speculative decoding

    def index_line(self) -> dict[str, str | bool]:
        out: dict[str, str | bool] = {"id": self.id, "source": self.source, "url": self.url}
        if self.plain_decode:
            out["plain_decode"] = True
        if self.text is not None:
            out["text"] = self.text
        if self.file is not None:
            out["file"] = self.file
        return out


def load_sources(manifest: Path = MANIFEST) -> list[Source]:
    raw = json.loads(manifest.read_text(encoding="utf-8"))
    out = []
    for s in raw["sources"]:
        if not re.fullmatch(r"[0-9a-f]{40}", s["commit"]):
            raise ValueError(f"{s['name']}: commit must be 40 hex digits")
        out.append(Source(name=s["name"], repo=s["repo"], commit=s["commit"],
                          converter=s["converter"], paths=s["paths"], licence=s["licence"],
                          redistribute=bool(s["redistribute"]), options=s.get("options", {})))
    return out


def is_heldout(record_id: str) -> bool:
    """Deterministic: the same id lands on the same side on every machine and every run."""
    return int(hashlib.sha256(record_id.encode("utf-8")).hexdigest(), 16) % HELDOUT_SHARE == 0


class Repo:
    """A bare mirror read at one commit."""

    def __init__(self, mirrors: Path, src: Source) -> None:
        self.git_dir = mirrors / src.repo.replace("/", "+") / "repo"
        self.commit = src.commit
        self.repo = src.repo
        if not self.git_dir.is_dir():
            raise FileNotFoundError(f"no mirror of {src.repo} at {self.git_dir}")
        self._names: list[str] | None = None

    def names(self) -> list[str]:
        if self._names is None:
            out = subprocess.run(["git", "--git-dir", str(self.git_dir), "ls-tree", "-r",
                                  "--name-only", self.commit], check=True, capture_output=True)
            self._names = out.stdout.decode("utf-8").splitlines()
        return self._names

    def glob(self, pattern: str) -> list[str]:
        return sorted(n for n in self.names() if fnmatch.fnmatchcase(n, pattern)
                      and n.count("/") == pattern.count("/"))

    def show(self, path: str) -> bytes:
        out = subprocess.run(["git", "--git-dir", str(self.git_dir), "show",
                              f"{self.commit}:{path}"], check=True, capture_output=True)
        return out.stdout

    def url(self, path: str, line: int | None = None) -> str:
        anchor = f"#L{line}" if line else ""
        return f"https://github.com/{self.repo}/blob/{self.commit}/{path}{anchor}"


def _expand(repo: Repo, src: Source) -> list[str]:
    paths: list[str] = []
    for p in src.paths:
        paths.extend(repo.glob(p) if any(c in p for c in "*?[") else [p])
    return paths


# --- converters -----------------------------------------------------------------------------

def _files(repo: Repo, src: Source) -> Iterator[Record]:
    for path in _expand(repo, src):
        yield Record(id=f"{src.name}:{path}", source=src.name, url=repo.url(path),
                     file=path, content=repo.show(path))


def _rows(repo: Repo, src: Source, path: str, keep: Any = None) -> Iterator[Record]:
    """One file per data row, the header above it, in the export's own delimiter."""
    text = repo.show(path).decode("utf-8-sig")
    lines = text.splitlines()
    if not lines:
        return
    delim = "\t" if "\t" in lines[0] else ","
    header = next(csv.reader([lines[0]], delimiter=delim))
    id_col = src.options.get("id_column")
    suffix = Path(path).suffix or ".csv"
    for n, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        row = next(csv.reader([line], delimiter=delim))
        if keep is not None and not keep(dict(zip(header, row, strict=False))):
            continue
        cells = dict(zip(header, row, strict=False))
        rid = cells.get(id_col, "") if id_col else ""
        key = rid.strip() or f"L{n}"
        stem = Path(path).with_suffix("").as_posix()
        yield Record(id=f"{src.name}:{path}:{key}", source=src.name, url=repo.url(path, n),
                     file=f"{stem}/{key}{suffix}",
                     content=(lines[0] + "\n" + line + "\n").encode("utf-8"))


def _delimited_rows(repo: Repo, src: Source) -> Iterator[Record]:
    for path in _expand(repo, src):
        yield from _rows(repo, src, path)


def _is_llm(benchmark: str) -> bool:
    b = benchmark.lower()
    return any(b.startswith(x) for x in _LLM_BENCHMARKS)


def _mlperf_tree(repo: Repo, src: Source) -> Iterator[Record]:
    """The whole round is walked: `paths` in the manifest only documents the shape kept."""
    systems_kept: set[str] = set()
    names = set(repo.names())
    for path in repo.names():
        parts = path.split("/")
        # <division>/<org>/results/<system>/<benchmark>/<scenario>/performance/run_1/mlperf_log_summary.txt
        if (len(parts) == 9 and parts[2] == "results" and parts[6] == "performance"
                and parts[7] == "run_1" and parts[8] == "mlperf_log_summary.txt"
                and _is_llm(parts[4])):
            yield Record(id=f"{src.name}:{path}", source=src.name, url=repo.url(path),
                         file=path, content=repo.show(path))
            system = "/".join([parts[0], parts[1], "systems", parts[3] + ".json"])
            if system not in systems_kept and system in names:
                systems_kept.add(system)
                # support file: kept beside the tree, not a record of its own
                yield Record(id="", source=src.name, url=repo.url(system), file=system,
                             content=repo.show(system))
        elif len(parts) == 3 and parts[2] == "summary.csv":
            yield from _rows(repo, src, path,
                             keep=lambda row: _is_llm(row.get("Model", "") or ""))


def _cells(line: str) -> list[str]:
    body = line.strip().strip("|")
    return [c.strip() for c in body.split("|")]


def _clean(cell: str) -> str:
    cell = _LINK.sub(r"\1", cell)
    cell = _TAGS.sub("", cell)
    return cell.replace("**", "").replace("`", "").strip()


# A comment's first line in a GitHub discussion export ("👤 **name** replied the …", quoted "> "
# for a reply to a reply), as extractors/post_rig.py reads it.
_POST = re.compile(r"^(?:> ?)*👤 \*\*")


def _tables(text: str) -> Iterator[tuple[list[str], str, str, list[tuple[int, list[str]]]]]:
    """(headers, heading, caption, [(line number, cells)]) for every pipe table.

    The heading is the document's title and the last two heading levels above the table; the
    caption is the paragraph right above it (the table's own sentence: device, settings). A
    leading cell left blank repeats the row above, as these tables mean it."""
    lines = text.splitlines()
    stack: list[tuple[int, str]] = []
    para: list[str] = []
    closed = False
    fenced = False  # inside a ``` block a "# ..." line is a shell comment, not a heading
    title: list[tuple[int, str]] | None = None  # the document's first heading: its title
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        if _POST.match(line):
            # Another person's comment: the headings of the post above are not its own (the
            # document's title, its first heading, still is).
            stack, para, fenced = list(title or []), [], False
        elif re.match(r"#{1,6}\s", line) and not fenced:
            level = len(line) - len(line.lstrip("#"))
            stack = [(lv, h) for lv, h in stack if lv < level] + [(level, _clean(line.lstrip("#")))]
            title = title if title is not None else stack[-1:]
            para = []
        elif (stripped.startswith("|") and i + 1 < len(lines)
              and re.fullmatch(r"\s*\|?[\s:|-]+\|?\s*", lines[i + 1]) and "-" in lines[i + 1]):
            headers = [_clean(c) for c in _cells(line)]
            rows: list[tuple[int, list[str]]] = []
            previous: list[str] = []
            j = i + 2
            while j < len(lines) and lines[j].strip().startswith("|"):
                cells = [_clean(c) for c in _cells(lines[j])]
                k = 0
                while k < len(cells) and not cells[k] and k < len(previous) and any(cells):
                    cells[k] = previous[k]
                    k += 1
                rows.append((j + 1, cells))
                if any(cells):
                    previous = cells
                j += 1
            titles = [h for lv, h in stack if lv == 1][:1] + [h for lv, h in stack if lv > 1][-2:]
            heading = " / ".join(dict.fromkeys(t for t in titles if t))
            caption = " ".join(para)
            yield headers, heading, caption if len(caption) <= 400 else "", rows
            para = []
            i = j
            continue
        elif not stripped:
            closed = True
        elif not stripped.startswith(("```", "<", "!")):
            # the paragraph right above the table, a blank line between them as Markdown wants
            para = [*([] if closed else para), _clean(stripped)]
            closed = False
        i += 1


def _markdown_tables(repo: Repo, src: Source) -> Iterator[Record]:
    contexts: dict[str, str] = src.options.get("context", {})
    # A table's own facts that its rows drop: the tool and test a caption describes in prose
    # ("Average speed of generating 1024 tokens" is llama-bench's tg 1024), keyed by a pattern
    # on the caption, so a row split out of the table still says what it measured.
    captions: dict[str, str] = src.options.get("caption_context", {})
    split_cells = src.options.get("split") == "cells"
    unit = src.options.get("unit", "")
    all_tables = bool(src.options.get("all_tables"))
    columns: list[str] = src.options.get("columns", [])  # the value columns, when not all are
    # Tables that hold no speed although the source's context says every table does (a README's
    # perplexity table of file sizes and perplexities under "average speed in tokens/s"): their
    # cells would be written as speeds ("Size (GiB), IQ1_S: 14.29 tokens/s"). Patterns on the
    # heading or the caption.
    skip_tables: list[str] = src.options.get("skip_tables", [])
    rigs = _post_rigs_reader() if src.options.get("rig_from_post") else None
    for path in _expand(repo, src):
        context = next((c for p, c in contexts.items() if fnmatch.fnmatchcase(path, p)), "")
        text = repo.show(path).decode("utf-8", errors="replace")
        post_rig = rigs[0](text) if rigs is not None else None
        post_model = rigs[1](text) if rigs is not None else None
        for headers, heading, caption, rows in _tables(text):
            if any(fnmatch.fnmatchcase(heading, p) or fnmatch.fnmatchcase(caption or "", p) for p in skip_tables):
                continue
            speedy = [k for k, h in enumerate(headers) if _SPEEDISH.search(h)]
            if not speedy and not all_tables:
                continue
            lead = ", ".join(x for x in (context, heading) if x)
            if caption:
                lead = f"{lead} ({caption})" if lead else caption
            told = next((c for p, c in captions.items() if fnmatch.fnmatchcase(caption or "", p)), "")
            if told:
                lead = f"{lead} ({told})" if lead else told
            # The nearest heading above the table is its own (a post's "### AVX2" section): where
            # the post says which section ran on which machine, it picks the clause.
            rig = post_rig(rows[0][0], heading.rsplit(" / ", 1)[-1]) if post_rig is not None and rows else ""
            if rig and rig not in lead:
                lead = f"{lead} (rig named in the post: {rig})"
            model = (post_model(rows[0][0]) if post_model is not None and rows
                     and not any("model" in h.lower() for h in headers) else "")
            if rigs is not None and post_model is not None and rows and not model:
                model = _unnamed_models(headers, rows, post_model(rows[0][0]), rigs[2])
            if model and model not in lead:
                lead = f"{lead} (model named in the post: {model})"
            labels = 1
            if rows:
                first = rows[0][1]
                while labels < len(first) and not _is_value(first[labels]):
                    labels += 1
            for lineno, cells in rows:
                if not any(_NUMBER.search(c) for c in cells[1:]):
                    continue
                if split_cells:
                    label = ", ".join(c for c in cells[:labels] if c)
                    for k in range(labels, min(len(headers), len(cells))):
                        if columns and headers[k] not in columns:
                            continue
                        if not re.fullmatch(r"[\d.,]+( ?t/s)?", cells[k]):
                            continue
                        line = f"{lead}, {headers[k]}, {label}: {cells[k]} {unit}".strip()
                        yield Record(id=f"{src.name}:{path}:L{lineno}:{k}", source=src.name,
                                     url=repo.url(path, lineno), text=line)
                    continue
                pairs = "; ".join(f"{h}: {c}" for h, c in zip(headers, cells, strict=False)
                                  if c and h)
                yield Record(id=f"{src.name}:{path}:L{lineno}", source=src.name,
                             url=repo.url(path, lineno), text=f"{lead}: {pairs}" if lead else pairs)


def _post_rigs_reader() -> Any:
    """Two readers `text -> (table line number -> sentences of the post holding it)`: its
    hardware sentences, and its model sentences (for a table with no model column, or one whose
    model cells name no model), and `text -> the names of the models it names`, with the
    project's own readers (imported here: only a source that asks for it pays for the tables)."""
    from checks.reference import load_reference
    from extractors.post_rig import post_models, post_rigs
    from extractors.text.models import find_models

    ref = load_reference()
    return ((lambda text: post_rigs(text, ref)), (lambda text: post_models(text, ref)),
            (lambda text: [m.name for m in find_models(text, ref)]))


# A size written in a model cell or a model's name: "8B BF16", "Llama 3.1 8B".
_SIZE = re.compile(r"(?<![\w.])(\d{1,4}(?:\.\d{1,2})?)\s?[Bb](?![A-Za-z0-9])")


def _unnamed_models(headers: list[str], rows: list[tuple[int, list[str]]], sentences: str,
                    names: Any) -> str:
    """The post's model sentences for a table whose model column writes only a size and a
    format ("8B BF16", "8B IQ4_XS - 4.25 bpw" under "LLaMA-3.1-8B-Instruct is used in all
    cases"): no cell of the column names a model, the post names one, and every size the cells
    write is that model's. Else ""."""
    col = next((k for k, h in enumerate(headers) if "model" in h.lower()), None)
    if col is None or not sentences:
        return ""
    cells = [cells[col] for _, cells in rows if col < len(cells) and cells[col]]
    if not cells or any(names(c) for c in cells):
        return ""
    named = {float(x) for n in names(sentences) for x in _SIZE.findall(n)}
    written = {float(x) for c in cells for x in _SIZE.findall(c)}
    return sentences if named and written <= named else ""


def _is_value(cell: str) -> bool:
    """A measured cell (a number, maybe with its unit) or a placeholder such as OOM or -."""
    return bool(re.fullmatch(r"[\d.,]+( ?t/s)?|OOM|-|N/A|", cell.strip(), re.IGNORECASE))


_ITEM = re.compile(r"\s*(?:[-*+]|\d{1,3}[.)])\s+")


def _prose(text: str) -> Iterator[tuple[int, str, str]]:
    """(line number, heading, paragraph) for every paragraph and list item outside code blocks,
    tables and HTML; the heading is the document's title and the last two heading levels above
    it, as `_tables` gives a table's."""
    stack: list[tuple[int, str]] = []
    para: list[str] = []
    start = 0
    fenced = False

    def heading() -> str:
        titles = [h for lv, h in stack if lv == 1][:1] + [h for lv, h in stack if lv > 1][-2:]
        return " / ".join(dict.fromkeys(t for t in titles if t))

    for n, line in enumerate([*text.splitlines(), ""], start=1):
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        boundary = (fenced or stripped.startswith(("```", "|", "<", "!", "#")) or not stripped
                    or bool(_ITEM.match(line)))
        if boundary and para:
            yield start, heading(), " ".join(para)
            para = []
        if fenced or stripped.startswith("```"):
            continue
        if re.match(r"#{1,6}\s", line):
            level = len(line) - len(line.lstrip("#"))
            stack = [(lv, h) for lv, h in stack if lv < level] + [(level, _clean(line.lstrip("#")))]
        elif stripped and not stripped.startswith(("|", "<", "!")):
            if not para:
                start = n
            para.append(_clean(_ITEM.sub("", line, count=1) if _ITEM.match(line) else stripped))


def _markdown_prose(repo: Repo, src: Source) -> Iterator[Record]:
    """One record per paragraph or list item that states a speed, under its headings: what a
    user pastes from a README or a blog post."""
    from extractors.text.units import states_speed  # the pipeline's own test of "a speed claim"

    for path in _expand(repo, src):
        text = repo.show(path).decode("utf-8", errors="replace")
        for lineno, heading, para in _prose(text):
            if states_speed(para):
                yield Record(id=f"{src.name}:{path}:L{lineno}", source=src.name,
                             url=repo.url(path, lineno), text=f"{heading}: {para}" if heading else para)


CONVERTERS = {"files": _files, "delimited_rows": _delimited_rows, "mlperf_tree": _mlperf_tree,
              "markdown_tables": _markdown_tables, "markdown_prose": _markdown_prose}


# --- writing --------------------------------------------------------------------------------

def _slug(record_id: str) -> str:
    """A file name from a record id: the source prefix dropped, every unsafe character a `_`."""
    tail = record_id.split(":", 1)[1]
    return re.sub(r"[^A-Za-z0-9._-]+", "_", tail).strip("_")[:150]


def _write(out: Path, records: list[Record], support: list[Record]) -> int:
    """Each record as a file under `files/` (a text record as a `.txt` of its line, so a plain
    file walk reads it too) and one line of `index.ndjson` naming it."""
    out.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    with (out / "index.ndjson").open("w", encoding="utf-8") as fh:
        for r in records:
            if r.text is not None:
                name = f"text/{_slug(r.id)}"
                if name in taken:
                    name += "_" + hashlib.sha256(r.id.encode()).hexdigest()[:8]
                taken.add(name)
                r = Record(id=r.id, source=r.source, url=r.url, file=name + ".txt",
                           content=(r.text + "\n").encode("utf-8"), plain_decode=r.plain_decode)
            fh.write(json.dumps(r.index_line(), ensure_ascii=False) + "\n")
            if r.file is not None and r.content is not None:
                dest = out / "files" / r.file
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(r.content)
    for r in support:
        if r.file is not None and r.content is not None:
            dest = out / "files" / r.file
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(r.content)
    return len(records)


def _replace(dest: Path, records: list[Record], support: list[Record]) -> int:
    """Write a source's folder beside the old one and swap them, so a calibrate run reading the
    old folder meanwhile finds the same files under the same names."""
    fresh = dest.with_name(f".{dest.name}.new")
    stale = dest.with_name(f".{dest.name}.old")
    for tmp in (fresh, stale):
        shutil.rmtree(tmp, ignore_errors=True)
    n = _write(fresh, records, support)
    if dest.exists():
        dest.rename(stale)
    fresh.rename(dest)
    shutil.rmtree(stale, ignore_errors=True)
    return n


def build(mirrors: Path, out: Path, sources: list[Source],
          only: set[str] | None = None, heldout: bool = True) -> dict[str, tuple[int, int]]:
    """Write `out/data/<source>/` and `out/heldout/<source>/`; return (calibration, held-out)
    record counts per source. With `heldout=False` the held-out split is neither written nor
    counted (0): a reader change is tried on the calibration split alone, and only the corpus
    owner's full build touches the held-out files."""
    counts: dict[str, tuple[int, int]] = {}
    for src in sources:
        if only and src.name not in only:
            continue
        repo = Repo(mirrors, src)
        records, support, seen = [], [], set()
        for r in CONVERTERS[src.converter](repo, src):
            if not r.id:
                support.append(r)
            elif r.id not in seen:
                seen.add(r.id)
                records.append(r)
        if src.options.get("plain_decode"):
            records = [dataclasses.replace(r, plain_decode=True) for r in records]
        limit = src.options.get("limit")
        if isinstance(limit, int):
            records = records[:limit]
        held = [r for r in records if is_heldout(r.id)]
        cal = [r for r in records if not is_heldout(r.id)]
        counts[src.name] = (_replace(out / "data" / src.name, cal, support),
                            _replace(out / "heldout" / src.name, held, support) if heldout else 0)
    closed = [s.name for s in sources if not s.redistribute]
    lines = ["# generated by benchmarks/corpus/build.py: sources whose licence does not allow",
             "# redistribution are rebuilt from their mirror, never committed"]
    lines += [f"/{split}/{name}/" for name in closed for split in ("data", "heldout")]
    (out / ".gitignore").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.corpus.build",
                                     description="Build the calibration corpus from mirrors.")
    parser.add_argument("--mirrors", type=Path, required=True,
                        help="folder of bare mirrors, <owner>+<name>/repo")
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--only", action="append", help="build only this source (repeatable)")
    parser.add_argument("--calibration-only", action="store_true",
                        help="write the calibration split only, never the held-out one")
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    try:
        counts = build(args.mirrors, args.out, load_sources(args.manifest),
                       set(args.only) if args.only else None, heldout=not args.calibration_only)
    except (FileNotFoundError, ValueError, subprocess.CalledProcessError) as exc:
        print(f"build failed: {exc}", file=sys.stderr)
        return 1
    for name, (cal, held) in counts.items():
        print(f"{name}: {cal} calibration, {held} held-out")
    total = sum(a + b for a, b in counts.values())
    print(f"total: {total} record(s) from {len(counts)} source(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
