"""Nothing raw from outside reaches a terminal or a Markdown surface ("any input, bounded").

A server's reason phrase, Content-Type and redirect Location, a link on a fetched page and a
record's fields can all carry escape sequences (`\\x1b]0;…\\x07` retitles a terminal), line breaks,
bidi overrides, HTML and mentions. The CLI's one-line errors, the terminal report and the
Markdown report must show them as inert text.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cli import main
from tests.fixtures.web.loopback import FIXTURES, Loopback, loopback_network

OSC = "\x1b]0;pwned\x07"
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
HOSTILE = f"<img src=x onerror=alert(1)></details><script>x</script>{OSC}\u202e@everyone @here [x](https://e.example) ![i](https://e.example/i.png)"


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ALLOW_HOSTS", "FETCH_BUDGET", "CACHE_PATH", "USE_CACHE"):
        monkeypatch.delenv(f"CLAIMCHECK_{name}", raising=False)


async def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = await asyncio.to_thread(main, list(argv), out=out, err=err,
                                    network=loopback_network)
    return code, out.getvalue(), err.getvalue()


RESPONSES = {
    "reason": b"HTTP/1.1 599 \x1b]0;pwned\x07Gone\x1b[2J Away\r\nContent-Length: 0\r\n\r\n",
    "content-type": b"HTTP/1.1 200 OK\r\nContent-Type: image/x\x1b]0;pwned\x07\r\nContent-Length: 2\r\n\r\n{}",
    "location": b"HTTP/1.1 302 Found\r\nLocation: gopher://evil/\x1b]0;pwned\x07\r\nContent-Length: 0\r\n\r\n",
}


@pytest.fixture
async def raw_server() -> AsyncIterator[dict[str, int]]:
    """A server that answers bytes no framework would send: one port per response."""
    servers, ports = [], {}
    for kind, body in RESPONSES.items():
        async def answer(r: asyncio.StreamReader, w: asyncio.StreamWriter, body: bytes = body) -> None:
            await r.readuntil(b"\r\n\r\n")
            w.write(body)
            await w.drain()
            w.close()
        srv = await asyncio.start_server(answer, "127.0.0.1", 0)
        servers.append(srv)
        ports[kind] = srv.sockets[0].getsockname()[1]
    yield ports
    for srv in servers:
        srv.close()


@pytest.mark.parametrize(("kind", "said"), [
    ("reason", "answered 599 ]0;pwnedGone[2J Away"),
    ("content-type", "is image/x]0, not a page or JSON"),
    ("location", "redirected to gopher://evil/]0;pwned, and only http and https links are fetched"),
])
async def test_server_bytes_reach_the_terminal_as_one_clean_line(
    raw_server: dict[str, int], kind: str, said: str
) -> None:
    port = raw_server[kind]
    code, out, err = await run("audit", "--no-cache", "--allow-host", f"127.0.0.1:{port}",
                               f"http://127.0.0.1:{port}/post")
    assert (code, out) == (3, "")
    assert err.count("\n") == 1 and not RAW_CONTROL.search(err)
    assert said in err


async def test_a_hostile_link_on_a_page_is_shown_inert(server: Loopback) -> None:
    link = f"http://127.0.0.2/{OSC}x"
    url = server.text("/post", f"<p>Llama 3.1 8B on one H100, batch 1: 150 tok/s "
                      f"<a href='{link}'>record</a></p>")
    code, out, err = await run("audit", "--no-cache", "--allow-host", server.host, url)
    assert (code, err) == (0, "")
    assert not RAW_CONTROL.search(out)
    # the page's text is read with a terminal's escape sequences left out (extractors.document):
    # the title-setting OSC never reaches the report, not even as its printable rest
    assert "http://127.0.0.2/x: refused, not fetched" in out and "pwned" not in out


def _hostile_record(tmp_path: Path) -> Path:
    data = json.loads((FIXTURES / "vllm_bench/llama31_8b_eagle3_conc4.json").read_text("utf-8"))
    data["model_id"] = HOSTILE
    path = tmp_path / "bench.json"
    path.write_text(json.dumps(data))
    return path


def test_record_fields_cannot_inject_markup_into_markdown(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["audit", "--markdown", "--no-cache", str(_hostile_record(tmp_path))], out=out, err=err) == 0
    md = out.getvalue()
    assert not RAW_CONTROL.search(md)
    unescaped_tags = re.findall(r"(?<!\\)<(/?\w+)", md)
    assert unescaped_tags == ["details", "summary", "/summary", "/details"]  # the report's own
    assert "@everyone" not in md and "@here" not in md
    assert "\\<img src=x onerror=alert\\(1\\)\\>" in md
    assert "@\u2060everyone @\u2060here \\[x\\]\\(https\\://e\\.example\\)" in md
    assert "](" not in md.replace("\\](", "")  # no link or image survives


def test_record_fields_reach_the_terminal_on_one_line_without_escapes(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["audit", "--no-cache", str(_hostile_record(tmp_path))], out=out, err=err) == 0
    text = out.getvalue()
    assert not RAW_CONTROL.search(text)
    assert "<img src=x onerror=alert(1)></details><script>x</script>]0;pwned@everyone" in text
