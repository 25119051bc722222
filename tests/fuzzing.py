"""Hypothesis strategies and the table of parsers the fuzz tests drive ("any input, bounded").

Each parser is a name, a strategy of inputs and a function. A parser may refuse an input only
with an `extractors.errors.ExtractError` (a sentence for the user); anything else that comes out
of it is an *escape*: a traceback on the command line, a crash in the bot.

The strategies aim at what broke before: numbers over Python's 4,300-digit int limit, nesting
near the JSON depth limit, long whitespace runs, NaN/Infinity, out-of-range timestamps and dates,
other encodings (UTF-16, Latin-1, a BOM), binary bytes, control and bidi characters, and real
fixture records with one value at a time replaced by a hostile one.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from bot.render.escape import escape_untrusted
from checks.models import Source
from checks.reference import Reference, load_reference
from checks.runner import audit
from checks.text import one_line, sanitise
from extractors.builder import ClaimBuilder
from extractors.document import MAX_JSON_DEPTH, RawDocument
from extractors.evidence import build_evidence, read_document
from extractors.fetch.url_policy import check_url
from extractors.formats import FORMATS
from extractors.links import find_links, rank_links
from extractors.text import parse_text
from extractors.text.launch import read_launch
from extractors.web import read_page

__all__ = ["PARSERS", "Parser"]

FIXTURES = Path(__file__).parent / "fixtures"
REF: Reference = load_reference()

# ---- hostile pieces ----------------------------------------------------------------------------

HUGE_INTS = ["9" * 4300, "9" * 4301, "-" + "9" * 5000, "1" + "0" * 400]
NUMBER_TEXTS = [*HUGE_INTS, "1e309", "-1e309", "1e-400", "NaN", "Infinity", "-Infinity", "0",
                "-0.0", "1e20", "1e13", "2147483648", "9007199254740993", "0.000001"]
HOSTILE_VALUES: list[Any] = [
    float("nan"), float("inf"), float("-inf"), 1e20, 1e13, -1, 0, -0.0, 2**63, 10**300, 1e308,
    True, None, "", " " * 5000, "NaN", "1e999", "\x1b]0;pwned\x07", "\u202e@everyone",
    "<img src=x onerror=alert(1)>", "9999-99-99T99:99:99Z", "0000-00-00", "+275760-09-13",
    "-1-01-01", [], {}, [None], {"": None}, "x" * 10000, 4.0, "4.0 tok/s on L66",
]
DATE_KEYS = ["created_timestamp", "created_utc", "date", "timestamp", "created_at", "time",
             "start_time", "end_time"]
TEXT_PIECES = [
    "2103.6 tok/s", "150 tok/s", "AL=56.0", "batch 1", "RTX 5090", "H100", "Llama 3.1 8B",
    "--speculative-num-draft-tokens 56", "export X=1", "vllm serve m", "\\\n", "```", "|---|",
    "| a | tok/s |", " " * 300, "\t" * 50, "\n" * 50, "9" * 5000, "\x00", "\x1b[2J", "\u202e",
    "\ufeff", "https://a.example/x.json", "http://[::1", "http://" + "a" * 70 + ".com/",
    "MLPerf Results Summary", "Scenario : Offline", "Tokens per second : 1e999", "NaN tok/s",
    "SpecDecoding metrics: Mean acceptance length: inf", "<script>", "@everyone",
]


def _nested(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


JSON_EDGE_TEXTS = [
    _nested(MAX_JSON_DEPTH - 1), _nested(MAX_JSON_DEPTH), _nested(MAX_JSON_DEPTH + 1),
    _nested(5000), '{"a":' * 150 + "1" + "}" * 150, "[" + " " * 100000 + "]",
    "[" + ",".join(["1e999"] * 50) + "]", '{"x": NaN, "y": Infinity, "z": -Infinity}',
    '{"output_throughput": ' + "9" * 4301 + "}", '{"a": "\x01\x02"}', "[1,2,", "{" * 10000,
    '"just a string"', "[]", "{}", "\ufeff{}", "null",
]

leaf = st.one_of(st.sampled_from(HOSTILE_VALUES), st.integers(), st.floats(allow_nan=True),
                 st.text(max_size=30), st.booleans(), st.none())
json_values = st.recursive(
    leaf, lambda kids: st.one_of(st.lists(kids, max_size=5),
                                 st.dictionaries(st.text(max_size=12), kids, max_size=5)),
    max_leaves=25,
)


def _dumps(value: Any) -> str:
    return json.dumps(value, allow_nan=True, default=str)


def _fixture_docs() -> list[Any]:
    docs = []
    for path in sorted(FIXTURES.rglob("*.json")):
        if "hostile" in path.parts:
            continue
        try:
            docs.append(json.loads(path.read_text("utf-8").replace("{{BASE}}", "http://127.0.0.1")))
        except (ValueError, UnicodeDecodeError):
            continue
    return docs


FIXTURE_DOCS = _fixture_docs()


def _paths(value: Any, prefix: tuple[Any, ...] = (), limit: int = 400) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    stack = [(prefix, value)]
    while stack and len(out) < limit:
        path, v = stack.pop()
        out.append(path)
        if isinstance(v, dict):
            stack += [((*path, k), x) for k, x in v.items()]
        elif isinstance(v, list):
            stack += [((*path, i), x) for i, x in enumerate(v[:20])]
    return out


def _replace(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    doc = copy.deepcopy(doc)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


@st.composite
def mutated_records(draw: st.DrawFn) -> str:
    """A real fixture record with a few values replaced by hostile ones (or a date key added)."""
    doc = draw(st.sampled_from(FIXTURE_DOCS))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        value = draw(st.one_of(st.sampled_from(HOSTILE_VALUES), json_values))
        if draw(st.booleans()) and isinstance(doc, dict):
            path = (draw(st.sampled_from(DATE_KEYS)),)
        try:
            doc = _replace(doc, path, value)
        except (KeyError, IndexError, TypeError):
            continue
    text = _dumps(doc)
    for number in draw(st.lists(st.sampled_from(NUMBER_TEXTS), max_size=2)):
        text = text.replace("1", number, 1)  # a raw number spelling json.dumps cannot produce
    return text


json_texts = st.one_of(
    json_values.map(_dumps), st.sampled_from(JSON_EDGE_TEXTS), mutated_records(),
    st.lists(json_values.map(_dumps), min_size=2, max_size=4).map("\n".join),  # JSON Lines
)
texts = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(st.sampled_from(TEXT_PIECES), st.text(max_size=10)), max_size=30).map(" ".join),
    # Long runs, kept to 4 KB: the linear-time tests cover size, this covers shape.
    st.sampled_from(TEXT_PIECES).flatmap(lambda p: st.integers(1, 4096 // len(p) + 1).map(lambda n: p * n)),
)


def _encode(text: str, how: str) -> bytes:
    if how == "utf-16":
        return text.encode("utf-16")
    if how == "latin-1":
        return text.encode("latin-1", errors="replace")
    if how == "bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8", errors="replace")
    return text.encode("utf-8", errors="surrogatepass")


documents = st.one_of(
    st.tuples(st.one_of(json_texts, texts),
              st.sampled_from(["utf-8", "utf-8", "utf-16", "latin-1", "bom"])).map(lambda t: _encode(*t)),
    st.binary(max_size=2000),
)

_HOSTS = ["127.0.0.1", "10.0.0.1", "[::1]", "[::ffff:127.0.0.1]", "0x7f000001", "2130706433",
          "127.1", "0177.0.0.1", "localhost", "a" * 64 + ".com", "example.com", "xn--80ak6aa92e.com",
          "169.254.169.254", "[fd00:ec2::254]", "0.0.0.0", "[::]", "ex ample.com", "é.com",
          "a..b", ".", "[::1", "example.com:99999", "user:pw@example.com", "example.com:0"]
urls = st.one_of(
    st.text(max_size=100),
    st.tuples(st.sampled_from(["http", "https", "ftp", "file", "gopher", "javascript", "HTTP", ""]),
              st.sampled_from(_HOSTS), st.text(max_size=20)).map(lambda t: f"{t[0]}://{t[1]}/{t[2]}"),
)

reddit_like = json_values.map(lambda v: _dumps([{"kind": "Listing", "data": {"children": [
    {"kind": "t3", "data": v if isinstance(v, dict) else {"title": v, "selftext": v}}]}}]))
tweet_like = st.tuples(st.sampled_from(HOSTILE_VALUES), json_values).map(
    lambda t: _dumps({"code": 200, "tweet": {"text": "Llama 3.1 8B on one H100: 150 tok/s",
                                             "created_timestamp": t[0], "author": t[1],
                                             "raw_text": {"facets": t[1]}}}))
html_like = st.lists(st.one_of(st.sampled_from(TEXT_PIECES), st.text(max_size=10),
                               st.sampled_from(["<a href='", "'>", "</a>", "<p>", "<table>", "<tr>",
                                                "<td>", "<script id=__NEXT_DATA__ type=application/json>",
                                                "</script>", "<pre><code>", "<!--"])), max_size=40).map(
    lambda parts: "<html><body>" + "".join(parts) + "</body></html>")
pages = st.one_of(reddit_like, tweet_like, html_like, texts, json_texts)
content_types = st.sampled_from(["application/json", "text/html", "text/plain", "text/markdown",
                                 "application/octet-stream", None])

# ---- the parsers -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Parser:
    name: str
    inputs: st.SearchStrategy[Any]
    run: Callable[[Any], object]


def _fmt(fmt: Any) -> Callable[[bytes], object]:
    def run(data: bytes) -> object:
        doc = RawDocument(data, source="fuzz.json")
        return fmt.parse(doc) if fmt.sniff(doc) else None
    return run


def _document(data: bytes) -> object:
    reading = read_document(RawDocument(data, source="fuzz"), REF)
    return audit(build_evidence([reading], REF), REF)


def _page(args: tuple[str, str | None]) -> object:
    body, ctype = args
    doc = RawDocument(body.encode("utf-8", errors="surrogatepass"), source="http://fuzz.example/p",
                      content_type=ctype)
    doc.refuse_binary()
    return read_page(doc, REF, Source(url="http://fuzz.example/p", kind="page"), as_post=True)


def _url(url: str) -> object:
    return check_url(url, ()), rank_links([url])


def _text_out(text: str) -> object:
    return sanitise(text), one_line(text), escape_untrusted(text, single_line=True), find_links(text)


PARSERS: list[Parser] = [
    Parser("json document", json_texts.map(lambda t: t.encode("utf-8", errors="surrogatepass")),
           lambda b: RawDocument(b, source="fuzz").json()),
    *[Parser(f"format {fmt.name}", json_texts.map(lambda t: t.encode("utf-8", errors="surrogatepass")),
             _fmt(fmt)) for fmt in FORMATS],
    Parser("read_document + audit", documents, _document),
    Parser("parse_text", texts, lambda t: parse_text(RawDocument.from_text(t), REF)),
    Parser("launch command", texts, lambda t: read_launch(t, ClaimBuilder("fuzz"), REF)),
    Parser("read_page", st.tuples(pages, content_types), _page),
    Parser("url policy", urls, _url),
    Parser("sanitiser and escaper", texts, _text_out),
]
