"""The generic leaderboard adapter: a self-hosted community board dump and a mapped board."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checks.models import Claim
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats import detect
from extractors.formats.accelmark import AccelMark
from extractors.formats.base import Format
from extractors.formats.board_mapping import load_board_mappings
from extractors.formats.generic_board import GenericBoard
from extractors.formats.inferencex import InferenceX
from extractors.formats.localscore import LocalScore
from extractors.formats.mlperf import MLPerf
from tests.seed_claims import NOTES

FIXTURES = Path(__file__).parents[1] / "fixtures"
BOARD = FIXTURES / "generic_board" / "community_board.json"
ARENA = FIXTURES / "generic_board" / "tokenarena_dump.json"
SEED_CMD = ("python -m sglang.launch_server --model-path nvidia/Qwen3.6-27B-NVFP4 "
            "--speculative-algorithm DFLASH --speculative-draft-model-path z-lab/Qwen3.6-27B-DFlash "
            "--speculative-num-draft-tokens 56 --speculative-dflash-block-size 56")


def load(path: Path, source: str | None = None) -> RawDocument:
    return RawDocument(path.read_bytes(), source=source or path.name)


@pytest.fixture(scope="module")
def board_claims() -> tuple[list[Claim], RawDocument]:
    doc = load(BOARD, "https://board.example/api/records")
    return GenericBoard().parse(doc), doc


def by_id(claims: list[Claim], record_id: str) -> Claim:
    return next(c for c in claims if c.record_id == record_id)


# ----------------------------------------------------------------------------------- detection

MINE: dict[str, Format] = {"inferencex": InferenceX(), "localscore": LocalScore(), "accelmark": AccelMark(),
        "mlperf": MLPerf()}
OWN_FIXTURES = [(fmt, p) for fmt in [*MINE, "generic_board"]
                for p in sorted((FIXTURES / fmt).glob("*")) if p.suffix in (".json", ".csv", ".txt")]


@pytest.mark.parametrize("fmt,path", OWN_FIXTURES, ids=[p.name for _, p in OWN_FIXTURES])
def test_each_fixture_is_detected_as_its_own_format(fmt: str, path: Path) -> None:
    doc = load(path)
    found = detect(doc)
    assert found is not None and found.name == fmt
    specific = {name for name, adapter in MINE.items() if adapter.sniff(doc)}
    assert specific == ({fmt} if fmt in MINE else set())


@pytest.mark.parametrize("path", [FIXTURES / "localscore" / "submission.json"])
def test_generic_shape_match_never_steals_a_specific_board(path: Path) -> None:
    doc = load(path)
    assert GenericBoard().sniff(doc)  # ordinary spellings: it would read as a generic board
    found = detect(doc)
    assert found is not None and found.name == "localscore"  # but the specific adapter comes first


# ----------------------------------------------------------------------- the community board

def test_raw_control_character_is_parsed_leniently_and_noted(board_claims: tuple[list[Claim], RawDocument]) -> None:
    _, doc = board_claims
    with pytest.raises(json.JSONDecodeError):
        json.loads(BOARD.read_text(encoding="utf-8"))
    assert any("raw control characters" in w and "parsed leniently" in w for w in doc.warnings)


def test_every_record_of_the_dump_becomes_a_claim(board_claims: tuple[list[Claim], RawDocument]) -> None:
    claims, _ = board_claims
    records = json.loads(BOARD.read_text(encoding="utf-8"), strict=False)["records"]
    assert len(records) >= 200
    assert len(claims) == len(records)
    assert all(c.tok_s and c.hardware and c.model for c in claims)


def test_window_56_record_is_the_seed_headline(board_claims: tuple[list[Claim], RawDocument]) -> None:
    claims, _ = board_claims
    c = by_id(claims, "r-56")
    assert (c.hardware, c.model, c.weight_format) == ("RTX 5090", "Qwen3.6-27B", "NVFP4")
    assert (c.engine, c.engine_version) == ("sglang", "0.5.4+dflash.a91f3e")
    assert (c.batch, c.tokens_generated, c.wall_seconds, c.tok_s) == (1, 2048, 0.969, 2103.6)
    assert c.power_w == 99.6
    assert c.ttft_ms is None and c.ttft_empty is True
    assert (c.speculative, c.spec_method, c.spec_window, c.acceptance_length) == (
        True, "DFlash", 56, 56.0)
    assert c.launch_command == SEED_CMD
    assert c.notes == NOTES  # the BEL is gone, the words are not
    assert (c.submitter, c.date) == ("speedrunner", "2026-11-20")


def test_window_56_provenance_names_each_json_path(board_claims: tuple[list[Claim], RawDocument]) -> None:
    claims, _ = board_claims
    c = by_id(claims, "r-56")
    i = next(n for n, x in enumerate(claims) if x.record_id == "r-56")
    expected = {"tok_s": "tok_s", "hardware": "gpu", "weight_format": "quant",
                "spec_window": "num_draft_tokens", "acceptance_length": "al",
                "power_w": "power_w", "ttft_empty": "ttft_ms", "wall_seconds": "seconds",
                "tokens_generated": "tokens", "notes": "notes", "launch_command": "launch_command"}
    for field, key in expected.items():
        assert c.provenance[field].field == f"records[{i}].{key}"
        assert c.provenance[field].source == "https://board.example/api/records"
    assert set(c.filled()) <= set(c.provenance)


@pytest.mark.parametrize("rid,window,al,low,high,tok_s", [
    ("r-512", 512, None, 231.0, 292.0, 4691),
    ("r-256", 256, None, 174.0, 240.0, 4547),
    ("r-56", 56, 56.0, None, None, 2103.6),
    ("r-24", 24, None, None, None, 1074),
])
def test_the_seed_window_batch_has_its_windows_and_als(board_claims: tuple[list[Claim], RawDocument], rid: str, window: int, al: float | None, low: float | None, high: float | None,
                                                       tok_s: float) -> None:
    claims, _ = board_claims
    c = by_id(claims, rid)
    assert (c.submitter, c.hardware, c.spec_method) == ("speedrunner", "RTX 5090", "DFlash")
    assert c.spec_window == window
    assert c.spec_window_convention is not None
    assert "num_draft_tokens" in c.spec_window_convention
    assert (c.acceptance_length, c.acceptance_length_low, c.acceptance_length_high) == (al, low, high)
    assert c.tok_s == tok_s


def test_window_24_rerun_keeps_its_method(board_claims: tuple[list[Claim], RawDocument]) -> None:
    claims, _ = board_claims
    c = by_id(claims, "r-24")
    assert (c.temperature, c.repeats, c.cooldown_s) == (0.0, 6, 15.0)
    assert c.ttft_empty is False


def test_the_batch_is_four_runs_by_one_submitter(board_claims: tuple[list[Claim], RawDocument]) -> None:
    claims, _ = board_claims
    batch = [c for c in claims if c.submitter == "speedrunner"]
    windows = [c.spec_window for c in batch if c.spec_window is not None]
    assert len(windows) == len(batch) and sorted(windows) == [24, 56, 256, 512]


def test_honest_autoregressive_record_is_plain_decode(board_claims: tuple[list[Claim], RawDocument]) -> None:
    claims, _ = board_claims
    c = by_id(claims, "r-0979")
    assert (c.hardware, c.model, c.tok_s, c.speculative) == ("RTX 5090", "Qwen3.6-27B", 79.0, False)
    assert c.spec_window is None and c.acceptance_length is None


def test_honest_speculative_records_stay_under_their_window(board_claims: tuple[list[Claim], RawDocument]) -> None:
    claims, _ = board_claims
    honest = [c for c in claims if c.speculative and c.submitter != "speedrunner"]
    assert len(honest) >= 10
    assert all(c.acceptance_length is not None and c.spec_window is not None
               and c.acceptance_length < c.spec_window for c in honest)


def test_a_self_hosted_copy_on_another_host_reads_the_same() -> None:
    data = BOARD.read_bytes()
    a = GenericBoard().parse(RawDocument(data, source="https://board.example/api/records"))
    b = GenericBoard().parse(RawDocument(data, source="http://10.0.0.5:8080/export.json"))
    assert [c.model_dump(exclude={"provenance"}) for c in a] == [
        c.model_dump(exclude={"provenance"}) for c in b]
    assert {p.field for p in a[0].provenance.values()} == {p.field for p in b[0].provenance.values()}


def test_single_record_endpoint_of_the_board() -> None:
    records = json.loads(BOARD.read_text(encoding="utf-8"), strict=False)["records"]
    one = next(r for r in records if r["id"] == "r-512")
    doc = RawDocument(json.dumps({"record": one}).encode(), source="https://board.example/r/r-512")
    (claim,) = GenericBoard().parse(doc)
    assert claim.tok_s == 4691 and claim.provenance["tok_s"].field == "record.tok_s"


# --------------------------------------------------------------------------- the mapped board

def test_mapped_board_is_not_readable_by_the_alias_table_alone() -> None:
    doc = load(ARENA)
    assert not GenericBoard(mappings=[]).sniff(doc)
    assert GenericBoard().sniff(doc)


def test_mapped_board_fields_and_provenance() -> None:
    doc = load(ARENA, "https://tokenarena.example/api/v2/export")
    claims = GenericBoard().parse(doc)
    assert len(claims) == 5
    c = claims[0]
    assert (c.hardware, c.hardware_count, c.model, c.weight_format) == (
        "RTX 4090", 1, "Qwen/Qwen3-8B", "Q4_K_M")
    assert (c.engine, c.engine_version) == ("llama.cpp", "b6823")
    assert (c.tok_s, c.tok_s_kind, c.batch) == (128.4, "decode", 1)
    assert (c.ttft_ms, c.tokens_generated, c.wall_seconds, c.power_w) == (92.0, 512, 3.988, 312.5)
    assert (c.submitter, c.record_id, c.date) == ("mika_h", "ta-7001", "2026-10-02T18:22:00Z")
    assert c.speculative is False
    assert c.provenance["tok_s"].field == "payload.submissions[0].perf.gen_rate"
    assert c.provenance["tok_s_kind"].field == "board mapping 'tokenarena' constants.tok_s_kind"


def test_mapped_board_spec_k_is_vllm_convention() -> None:
    c = GenericBoard().parse(load(ARENA))[1]
    assert (c.spec_method, c.spec_window, c.acceptance_length) == ("eagle3", 4, 2.61)
    assert c.spec_window_convention is not None
    assert c.spec_window_convention.startswith("'k' 3 + 1 bonus token")
    assert c.provenance["spec_window"].field == "payload.submissions[1].spec.k"


def test_mapped_board_alternative_paths_and_empty_ttft() -> None:
    claims = GenericBoard().parse(load(ARENA))
    assert claims[2].model == "Mistral Small 3.2 24B"  # net.title when net.repo is absent
    assert claims[2].submitter == "Ola N."
    assert claims[3].ttft_empty is True and claims[3].ttft_ms is None


def test_mapped_board_unreadable_value_is_skipped_with_a_warning() -> None:
    doc = load(ARENA)
    claims = GenericBoard().parse(doc)
    assert claims[4].power_w is None and claims[4].tok_s == 301.6
    assert any("rig.board_draw: 'n/a' is not a number" in w for w in doc.warnings)


def test_new_board_is_a_config_entry_not_code(tmp_path: Path) -> None:
    mapping = tmp_path / "mine.json"
    mapping.write_text(json.dumps({"boards": [{
        "name": "basement-bench", "records_path": "out",
        "fields": {"tok_s": "r.tg", "hardware": "hw.which", "spec_method": "sd.kind",
                   "num_draft_tokens": "sd.blk"}}]}))
    doc = RawDocument(json.dumps({"out": [{"r": {"tg": 61.5}, "hw": {"which": "RTX 3090"},
                                           "sd": {"kind": "dflash", "blk": 16}}]}).encode(),
                      source="http://192.168.1.20/bench.json")
    assert not GenericBoard().sniff(doc)
    board = GenericBoard(mapping_files=[mapping])
    (claim,) = board.parse(doc)
    assert (claim.tok_s, claim.hardware, claim.spec_window) == (61.5, "RTX 3090", 16)
    assert claim.provenance["spec_window"].field == "out[0].sd.blk"


def test_url_breaks_a_tie_between_two_boards_of_the_same_shape() -> None:
    arena = next(m for m in load_board_mappings() if m.name == "tokenarena")
    twin = arena.model_copy(update={"name": "arena-mirror", "url_pattern": r"mirror\.example",
                                    "constants": {"tok_s_kind": "output"}})
    board = GenericBoard(mappings=[arena, twin])
    at_mirror = board.parse(load(ARENA, "https://mirror.example/api/"))
    elsewhere = board.parse(load(ARENA, "https://third.example/api/"))
    assert at_mirror[0].tok_s_kind == "output"
    assert elsewhere[0].tok_s_kind == "decode"  # first entry whose shape matches


# ------------------------------------------------------------------------------ broken content

def test_board_url_with_its_records_missing_is_invalid_input() -> None:
    doc = RawDocument(b'{"payload": {"error": "rate limited"}}',
                      source="https://tokenarena.example/api/v2/export")
    assert GenericBoard().sniff(doc)
    with pytest.raises(InvalidInput, match="board 'tokenarena' keeps its records at "
                                           "'payload.submissions'"):
        GenericBoard().parse(doc)


def test_records_without_any_readable_throughput_is_invalid_input() -> None:
    doc = RawDocument(json.dumps({"records": [{"gpu": "RTX 4090", "tok_s": "fast"},
                                              {"gpu": "RTX 3090", "tok_s": None}]}).encode())
    with pytest.raises(InvalidInput, match=r"2 record\(s\).*none with a readable throughput"):
        GenericBoard().parse(doc)


@pytest.mark.parametrize("body", [b"not json at all", b'{"a": 1}', b"[1, 2, 3]"])
def test_no_records_array_is_invalid_input_and_not_sniffed(body: bytes) -> None:
    doc = RawDocument(body)
    assert not GenericBoard().sniff(doc)
    with pytest.raises(InvalidInput):
        GenericBoard().parse(doc)


def test_a_row_that_is_not_an_object_is_skipped_and_counted() -> None:
    doc = RawDocument(json.dumps({"results": [{"gpu": "RTX 4090", "tok_s": 100}, "oops"]}).encode())
    (claim,) = GenericBoard().parse(doc)
    assert claim.tok_s == 100
    assert any("results[1]: not an object" in w for w in doc.warnings)


def test_sniff_reads_the_rows_it_tries_once_for_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rows `sniff` read by the alias table to recognise the board are not read again by
    `parse` of the same document: the claims (and the skipped-value warning) are the ones a
    parse without the sniff gives, and a second parse reads afresh."""
    import extractors.formats.generic_board as gb

    data = json.dumps({"records": [
        {"gpu": "RTX 4090", "model": "Llama-3.1-8B", "tok_s": 120.5, "batch": "many"},
        {"gpu": "RTX 3090", "model": "Llama-3.1-8B", "tok_s": 98.0},
    ]}).encode()
    plain = GenericBoard().parse(RawDocument(data, source="board.json"))
    calls: list[str] = []
    real = gb.map_record

    def counted(record: dict[str, object], prefix: str, *args: object, **kwargs: object) -> None:
        calls.append(prefix)
        real(record, prefix, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(gb, "map_record", counted)
    doc = RawDocument(data, source="board.json")
    board = GenericBoard()
    assert board.sniff(doc)
    assert calls == ["records[0]"]
    claims = board.parse(doc)
    assert calls == ["records[0]", "records[1]"]
    assert claims == plain
    assert [c.tok_s for c in claims] == [120.5, 98.0]
    assert claims[0].provenance["tok_s"].field == "records[0].tok_s"
    assert doc.warnings == ["board.json: 1 field value(s) could not be read and were skipped, "
                            "e.g. records[0].batch: 'many' is not a number"]
    assert doc.sniffed == {}
    assert board.parse(doc) == plain
    assert calls == ["records[0]", "records[1]", "records[0]", "records[1]"]
