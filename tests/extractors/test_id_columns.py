"""A CSV/TSV row's id column names the record in `sweep` output, human and JSON (issue 13, part 12).

Spellings seen on real boards: `id` (LocalScore), `run` and `test_num` (spreadsheet exports of
benchmark runs), `submission_id` (MLPerf-style tables), `run_id`, `test_id`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bot.test_cli import run


@pytest.mark.parametrize("column", ["run", "test_num", "submission_id", "id", "run_id", "test_id"])
@pytest.mark.parametrize("sep", [",", "\t"])
def test_the_id_column_names_the_record_in_sweep_output(tmp_path: Path, column: str,
                                                        sep: str) -> None:
    rows = [[column, "gpu", "model", "tok_s"], ["r-7", "RTX 4090", "Llama 3.1 8B", "100"],
            ["r-8", "RTX 3090", "Llama 3.1 8B", "90"]]
    path = tmp_path / ("runs.csv" if sep == "," else "runs.tsv")
    path.write_text("\n".join(sep.join(r) for r in rows) + "\n")
    code, out, err = run("sweep", "--jobs", "1", str(path))
    assert (code, err) == (0, "")
    assert "consistent   r-7 · RTX 4090 · Llama 3.1 8B" in out
    assert "consistent   r-8 · RTX 3090 · Llama 3.1 8B" in out
    doc = json.loads(run("sweep", "--jobs", "1", "--json", str(path))[1])
    assert sorted(r["record_id"] for r in doc["ranked"]) == ["r-7", "r-8"]
    assert sorted(r["claim"]["record_id"] for r in doc["reports"]) == ["r-7", "r-8"]
