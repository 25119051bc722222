"""`claimcheck sweep` at scale (bot/sweep.py, extractors/dump.py): streamed, parallel, nothing
dropped silently."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from benchmarks.dumps import write_inferencex_dump
from bot.cli import _utf8_buffer, main
from bot.sweep import MIN_PART, PARALLEL_BYTES, _peer_id, run_sweep, sweep_source
from checks.models import Report
from checks.peers import PeerIndex
from checks.reference import Reference
from checks.runner import audit
from extractors.document import RawDocument
from extractors.dump import loaded_dump, open_dump
from extractors.errors import InvalidInput
from extractors.evidence import evidence_per_record, read_document
from extractors.fetch import FetchPolicy
from tests.bot.test_cli import run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
N_BOARD = 5 * MIN_PART - 10


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real-format board (InferenceX rows) big enough for four workers of MIN_PART records and
    for a first pass shared between workers."""
    path = write_inferencex_dump(tmp_path_factory.mktemp("sweep") / "board.json", N_BOARD)
    assert path.stat().st_size > PARALLEL_BYTES
    return path


@pytest.mark.parametrize("fmt", ["--json", "--jsonl"])
def test_four_jobs_write_the_same_bytes_as_one(board: Path, fmt: str) -> None:
    one = run("sweep", fmt, "--jobs", "1", str(board))
    four = run("sweep", fmt, "--jobs", "4", str(board))
    assert one[0] == 0 and one[2] == ""
    assert four == one


@pytest.mark.parametrize("jobs", [1, 4])
def test_reports_written_to_a_binary_stream_are_the_lines_on_report_gets(board: Path, ref: Reference,
                                                                         jobs: int) -> None:
    lines: list[str] = []
    run_sweep(str(board), ref, jobs=jobs, on_report=lines.append)
    out = io.BytesIO()
    summary = run_sweep(str(board), ref, jobs=jobs, report_out=out)
    assert summary.records == len(lines) == N_BOARD
    assert out.getvalue() == "".join(line + "\n" for line in lines).encode()


def test_a_sweep_takes_one_place_for_its_reports_not_two(board: Path, ref: Reference) -> None:
    with pytest.raises(ValueError, match="^give on_report or report_out, not both$"):
        run_sweep(str(board), ref, on_report=print, report_out=io.BytesIO())


def test_jsonl_to_a_utf8_stream_writes_the_bytes_a_text_stream_gets(board: Path) -> None:
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", newline="")
    out.write("first\n")  # written before the reports: flushed ahead of them
    assert main(["sweep", "--jsonl", "--jobs", "2", str(board)], out=out, err=io.StringIO()) == 0
    out.flush()
    code, text, _ = run("sweep", "--jsonl", "--jobs", "2", str(board))
    assert code == 0 and raw.getvalue() == ("first\n" + text).encode()


def test_only_a_utf8_text_stream_has_its_bytes_written_under_it() -> None:
    raw = io.BytesIO()
    assert _utf8_buffer(io.TextIOWrapper(raw, encoding="UTF8")) is raw
    assert _utf8_buffer(io.TextIOWrapper(io.BytesIO(), encoding="latin-1")) is None
    assert _utf8_buffer(io.StringIO()) is None


def test_four_jobs_rank_the_same_rows_as_one(board: Path) -> None:
    one = run("sweep", "--jobs", "1", "--top", "7", str(board))
    four = run("sweep", "--jobs", "4", "--top", "7", str(board))
    assert one[0] == 0 and four == one
    assert one[1].startswith(f"{N_BOARD} records from ")


def test_jsonl_writes_one_report_per_record_in_dump_order(board: Path) -> None:
    code, out, _ = run("sweep", "--jsonl", "--jobs", "1", str(board))
    reports = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(reports) == N_BOARD
    assert [r["claim"]["record_id"] for r in reports[:3]] == ["1000000", "1000001", "1000002"]


def test_the_json_document_keeps_its_keys_and_adds_the_unreadable_list(board: Path) -> None:
    code, out, _ = run("sweep", "--json", "--jobs", "2", str(board))
    doc = json.loads(out)
    assert code == 0
    assert set(doc) == {"source", "records", "by_verdict", "ranked", "reports", "unreadable"}
    assert doc["records"] == len(doc["reports"]) == len(doc["ranked"]) == N_BOARD
    assert sum(doc["by_verdict"].values()) == doc["records"] and doc["unreadable"] == []


def test_streaming_gives_the_reports_of_the_whole_document_reading(tmp_path: Path, ref: Reference) -> None:
    path = write_inferencex_dump(tmp_path / "b.json", 90)
    assert open_dump(path, ref).streamed
    assert sweep_source(str(path), ref).reports == _whole(path, ref)


def test_a_dump_larger_than_the_fetch_cap_sweeps_from_a_local_file(tmp_path: Path, ref: Reference) -> None:
    path = write_inferencex_dump(tmp_path / "big.json", 150, pad=60_000)
    assert path.stat().st_size > FetchPolicy().json_cap
    assert open_dump(path, ref).streamed
    summary = run_sweep(str(path), ref)
    assert summary.records == 150 and summary.unreadable == []


def test_unreadable_records_are_counted_and_listed_with_their_reason(tmp_path: Path) -> None:
    path = write_inferencex_dump(tmp_path / "holes.json", 40, broken={3, 17})
    code, out, err = run("sweep", str(path))
    assert (code, err) == (0, "")
    assert out.startswith(f"38 records from {path}: ")
    assert "2 record(s) could not be read:\n  record 3: row [3]: " in out
    assert "\n  record 17: row [17]: " in out
    doc = json.loads(run("sweep", "--json", str(path))[1])
    assert [u["record"] for u in doc["unreadable"]] == [3, 17]
    assert doc["unreadable"][0]["reason"].startswith("row [3]: ") and doc["records"] == 38


def test_jsonl_names_the_unreadable_records_on_stderr(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = write_inferencex_dump(tmp_path / "holes.json", 12, broken={5})
    code, out, _ = run("sweep", "--jsonl", str(path))
    assert code == 0 and len(out.splitlines()) == 11
    assert capsys.readouterr().err.startswith("claimcheck: 1 record(s) could not be read: record 5: row [5]: ")


@pytest.mark.parametrize("top", ["-5", "0"])
def test_top_below_one_is_refused(board: Path, top: str) -> None:
    code, out, err = run("sweep", "--top", top, str(board))
    assert (code, out) == (2, "")
    assert err == f"claimcheck: --top must be a whole number of rows, at least 1 (got {top})\n"


def test_jobs_below_one_is_refused(board: Path) -> None:
    assert run("sweep", "--jobs", "0", str(board)) == (2, "", "claimcheck: --jobs must be at least 1 (got 0)\n")


@pytest.mark.parametrize(("n", "jobs"), [(6, 1), (N_BOARD, 2)])
def test_raw_control_characters_are_read_leniently_while_streaming(tmp_path: Path, ref: Reference,
                                                                   n: int, jobs: int) -> None:
    path = write_inferencex_dump(tmp_path / "bel.json", n)
    path.write_bytes(path.read_bytes().replace(b'"single_turn"', b'"single\x07turn"', 1))
    result = sweep_source(str(path), ref, jobs=jobs)
    assert open_dump(path, ref).streamed and result.records == n
    lenient = f"{path}: JSON held raw control characters; parsed leniently"
    assert result.reports[0].warnings == [lenient] and result.reports[-1].warnings == [lenient]


def test_a_raw_tab_in_a_string_falls_back_to_reading_the_dump_whole(tmp_path: Path, ref: Reference) -> None:
    path = write_inferencex_dump(tmp_path / "tab.json", 6)
    path.write_bytes(path.read_bytes().replace(b'"single_turn"', b'"single\tturn"'))
    result = sweep_source(str(path), ref)
    whole = loaded_dump(RawDocument(path.read_bytes(), source=str(path)), ref)
    assert result.records == 6 and not whole.streamed
    assert [r.claim.record_id for r in result.reports] == [str(1_000_000 + k) for k in range(6)]


def _whole(path: Path, ref: Reference) -> list[Report]:
    """The reports of the old whole-document sweep: the reference for the streamed one (each
    record against its peers on the board, as the sweep audits it)."""
    reading = read_document(RawDocument(path.read_bytes(), source=str(path)), ref)
    evs = evidence_per_record(reading, ref)
    peers = PeerIndex.build(((_peer_id(i, ev.claim), ev.claim) for i, ev in enumerate(evs)), ref)
    return [audit(ev, ref, peers=peers.peers_of(_peer_id(i, ev.claim), ev.claim, ref))
            for i, ev in enumerate(evs)]


@pytest.mark.parametrize("jobs", [1, 4])
def test_a_community_board_streams_to_the_reports_of_the_whole_document(ref: Reference, jobs: int) -> None:
    path = FIXTURES / "generic_board" / "community_board.json"
    assert open_dump(path, ref).streamed
    assert sweep_source(str(path), ref, jobs=jobs).reports == _whole(path, ref)


def test_unreadable_field_values_give_the_generic_boards_warning_while_streaming(
    tmp_path: Path, ref: Reference
) -> None:
    board = json.loads((FIXTURES / "generic_board" / "community_board.json").read_text(), strict=False)
    board["records"] = board["records"][:12]
    board["records"][4]["power_w"] = "lots"
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(board))
    result = sweep_source(str(path), ref)
    assert open_dump(path, ref).streamed and result.reports == _whole(path, ref)
    [warning] = result.reports[0].warnings
    assert warning.startswith(f"{path}: 1 field value(s) could not be read and were skipped, "
                              "e.g. records[4].power_w: ")


def test_a_board_that_needs_a_mapping_is_read_whole(ref: Reference) -> None:
    path = FIXTURES / "generic_board" / "tokenarena_dump.json"
    assert not open_dump(path, ref).streamed
    assert sweep_source(str(path), ref).reports == _whole(path, ref)


def test_a_dump_is_read_once_so_cutting_it_short_mid_sweep_changes_no_report(tmp_path: Path,
                                                                             ref: Reference) -> None:
    path = write_inferencex_dump(tmp_path / "shrinking.json", 400)
    before = sweep_source(str(path), ref).reports
    cut = path.stat().st_size // 2
    seen: list[str] = []

    def shrink(report: str) -> None:
        seen.append(report)
        with path.open("r+b") as f:
            f.truncate(cut)

    summary = run_sweep(str(path), ref, on_report=shrink)
    assert summary.records == 400
    assert [Report.model_validate_json(r) for r in seen] == before


def test_a_dump_cut_short_before_its_sweep_is_a_clear_error(tmp_path: Path, ref: Reference) -> None:
    path = write_inferencex_dump(tmp_path / "cut.json", 400)
    with path.open("r+b") as f:
        f.truncate(path.stat().st_size // 2)
    with pytest.raises(InvalidInput, match=f"^{path}: "):
        run_sweep(str(path), ref)


def test_a_board_read_whole_from_stdin_lists_its_unreadable_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    board = json.loads((FIXTURES / "generic_board" / "community_board.json").read_text(), strict=False)
    rows: list[object] = board["records"][:8]
    rows.insert(5, "not a record")
    code, out, err = run("sweep", "--json", "-", stdin=json.dumps(rows).encode(), monkeypatch=monkeypatch)
    doc = json.loads(out)
    assert (code, err) == (0, "")
    assert doc["unreadable"] == [{"record": 5, "reason": "[5]: not an object"}]
    assert doc["records"] == 8 and [r["claim"]["record_id"] for r in doc["reports"]] == [
        r["id"] for r in board["records"][:8]]


@pytest.mark.parametrize("rows_in_memory", [1 << 20, 64])
def test_the_ranking_sorts_as_its_keys_whether_its_rows_sit_in_memory_or_on_disk(
        monkeypatch: pytest.MonkeyPatch, rows_in_memory: int) -> None:
    # (severity, -roofline ratio, dump index): worst first, higher ratio first, then dump order;
    # a row past the in-memory size is read back from the summary's file the same.
    import bot.sweep as sweep

    monkeypatch.setattr(sweep, "_ROWS_IN_MEMORY", rows_in_memory)
    summary = sweep.SweepSummary(source="board.json")
    keys = [(3, -0.5, 0), (0, -16.3, 1), (3, -0.9, 2), (0, -16.3, 3), (2, -0.0, 4), (1, -2.0, 5)]
    for sev, roof, i in keys:
        summary.add(sev, roof, i, json.dumps({"record": i, "note": "ü" * 20}))
    assert summary.records == 6
    assert summary.by_verdict == {"implausible": 2, "suspicious": 1, "insufficient": 1,
                                  "consistent": 2}
    assert [json.loads(r)["record"] for r in summary.ranked_json()] == [1, 3, 5, 4, 2, 0]
    assert [json.loads(r)["record"] for r in summary.ranked_json(2)] == [1, 3]
    assert json.loads(summary.ranked_json(1)[0])["note"] == "ü" * 20
