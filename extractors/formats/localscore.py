"""LocalScore (localscore.ai, Mozilla Builders) benchmark runs.

Three shapes (cjpais/LocalScore `src/db/queries.ts`,
`src/pages/api/results.ts`, `src/db/schema.ts`):
- `GET /api/results` list rows: a `benchmark_runs` row (`id, avg_prompt_tps, avg_gen_tps,
  avg_ttft_ms, performance_score, created_at`) joined with `accelerator` (a name string),
  `accelerator_type`, `model{id,name,params,quant,variantId}`, `runtime{name,version,commit_hash}`
  and `system{…}`; older deployments return `model` as a string and `quantization` beside it;
- the per-run detail (`getBenchmarkResult`): the same object plus `results[]`, one row per test
  (`name` "pp1024+tg16", `n_prompt, n_gen, avg_time_ms, power_watts, prompt_tps, gen_tps,
  ttft_ms, …`);
- the CLI's `POST /api/results` body: `system_info, accelerator_info, runtime_info,
  results_summary{avg_prompt_tps, avg_gen_tps, avg_ttft_ms, performance_score}, results[…]`.

Quirks:
- `avg_gen_tps` is llamafile's generation speed, prompt excluded: tok_s_kind "decode", batch 1.
- Power exists only per test. When tests are present, the claim takes the most generation-heavy
  test (highest n_gen share, pp16+tg1536 in the standard suite) for tok/s, power and TTFT, so the
  three describe the same work; the provenance names the test.
- `runtime.commit_hash` is quoted in the span, not appended to the version: a "+hash" suffix is
  what a private fork looks like (Q4), and llamafile builds are not forks.
- `model.params` is a raw parameter count; it is stored in billions (`units.to_billions`, which
  also reads the export's "8000 M").
- `accelerator_memory_gb` is the card's memory as the client saw it (23.59 GB for a 24 GB RTX
  3090): kept beside the hardware row, never in place of it.
- Power is self-reported by the client (nvidia-smi or the OS); the power method says so.
"""

from __future__ import annotations

from typing import Any, ClassVar
from urllib.parse import urlsplit

from checks.models import Claim
from extractors.builder import ClaimBuilder
from extractors.errors import InvalidInput
from extractors.formats.base import RecordsFormat
from extractors.formats.units import to_billions, to_gigabytes
from extractors.formats.values import BadValue, read_key, to_float, to_int, to_rate, to_text

__all__ = ["LocalScore"]

_POWER_METHOD = "self-reported by the LocalScore client during the test"


def _is_run(row: Any) -> bool:
    return (isinstance(row, dict) and "avg_gen_tps" in row
            and ("accelerator" in row or "accelerator_name" in row)
            and ("model" in row or "model_name" in row or "runtime" in row))


def _is_submission(row: Any) -> bool:
    return (isinstance(row, dict) and isinstance(row.get("results_summary"), dict)
            and "avg_gen_tps" in row["results_summary"]
            and ("accelerator_info" in row or "runtime_info" in row))


class LocalScore(RecordsFormat):
    name: ClassVar[str] = "localscore"
    label: ClassVar[str] = "LocalScore"
    row_word: ClassVar[str] = "run"
    not_found: ClassVar[str] = "no LocalScore runs found"
    none_read: ClassVar[str] = "LocalScore run could not be read"

    def _is_row(self, row: Any) -> bool:
        return _is_run(row)

    def _is_single(self, obj: Any) -> bool:
        # The CLI's upload body (POST /api/results) is a whole document, never a row of a list.
        return _is_run(obj) or _is_submission(obj)

    def _parse_row(self, source: str, row: Any, path: str) -> Claim:
        if _is_submission(row):
            return _parse_submission(source, row)
        if _is_run(row):
            return _parse_run(source, row, path)
        raise InvalidInput("not a LocalScore run (no avg_gen_tps/accelerator/model)")


class _Put:
    """Set claim fields from one object, naming the offending key when a value is unusable."""

    def __init__(self, b: ClaimBuilder, obj: dict[str, Any], base: str) -> None:
        self.b, self.obj, self.base = b, obj, base

    def __call__(self, field: str, key: str, conv: Any, span: str | None = None) -> Any:
        out = read_key(self.obj, key, conv, _p(self.base, key))
        self.b.set(field, out, field=_p(self.base, key), span=span)
        return out


def _parse_run(source: str, row: dict[str, Any], path: str) -> Claim:
    b = ClaimBuilder(source)
    put = _Put(b, row, path)
    tests = row.get("results")
    if tests is not None:
        if not isinstance(tests, list):
            raise InvalidInput(f"'{_p(path, 'results')}' should be a list of tests")
        _from_test(b, tests, _p(path, "results"))
    put("tok_s", "avg_gen_tps", to_rate, span="avg_gen_tps: mean generation speed over the tests")
    b.set("tok_s_kind", "decode", field=_p(path, "avg_gen_tps"))
    # llamafile generates one sequence per test: the generation speed is one user's rate.
    put("per_user_tok_s", "avg_gen_tps", to_rate, span="avg_gen_tps: one sequence per test")
    put("ttft_ms", "avg_ttft_ms", to_float)
    put("hardware", "accelerator", to_text)
    put("hardware", "accelerator_name", to_text)
    put("hardware_memory_gb", "accelerator_memory_gb", to_gigabytes)
    model = row.get("model")
    if isinstance(model, dict):
        mput = _Put(b, model, _p(path, "model"))
        mput("model", "name", to_text)
        mput("weight_format", "quant", to_text)
        mput("params_total_b", "params", to_billions)
    else:
        put("model", "model", to_text)
        put("model", "model_name", to_text)
    put("weight_format", "quantization", to_text)
    put("weight_format", "model_quant", to_text)
    runtime = row.get("runtime")
    if isinstance(runtime, dict):
        _runtime(b, runtime, _p(path, "runtime"))
    put("record_id", "id", to_text)
    put("date", "created_at", to_text)
    _common(b, source, row.get("id"))
    return b.build()


def _parse_submission(source: str, body: dict[str, Any]) -> Claim:
    b = ClaimBuilder(source)
    tests = body.get("results")
    if tests is not None:
        if not isinstance(tests, list):
            raise InvalidInput("'results' should be a list of tests")
        _from_test(b, tests, "results")
        for i, t in enumerate(tests):
            if isinstance(t, dict):
                tput = _Put(b, t, f"results[{i}]")
                tput("model", "model_name", to_text)
                tput("weight_format", "model_quant_str", to_text)
                tput("params_total_b", "model_n_params", to_billions)
                break
    summary = body["results_summary"]
    sput = _Put(b, summary, "results_summary")
    sput("tok_s", "avg_gen_tps", to_rate, span="avg_gen_tps: mean generation speed over the tests")
    b.set("tok_s_kind", "decode", field="results_summary.avg_gen_tps")
    sput("per_user_tok_s", "avg_gen_tps", to_rate, span="avg_gen_tps: one sequence per test")
    sput("ttft_ms", "avg_ttft_ms", to_float)
    acc = body.get("accelerator_info")
    if isinstance(acc, dict):
        _Put(b, acc, "accelerator_info")("hardware", "name", to_text)
        _Put(b, acc, "accelerator_info")("hardware_memory_gb", "memory_gb", to_gigabytes)
    runtime = body.get("runtime_info")
    if isinstance(runtime, dict):
        _runtime(b, runtime, "runtime_info")
    _common(b, source, None)
    return b.build()


def _from_test(b: ClaimBuilder, tests: list[Any], base: str) -> None:
    """tok/s, power, TTFT and token counts from the most generation-heavy test."""
    best: tuple[float, int, int] | None = None
    for i, t in enumerate(tests):
        if not isinstance(t, dict) or t.get("gen_tps") is None:
            continue
        try:
            n_gen, n_prompt = to_int(t.get("n_gen") or 0), to_int(t.get("n_prompt") or 0)
        except BadValue as exc:
            raise BadValue(f"'{base}[{i}]' token counts: {exc}") from None
        key = (n_gen / (n_gen + n_prompt) if n_gen + n_prompt else 0.0, n_gen, -i)
        if best is None or key > best:
            best = key
    if best is None:
        return
    i = -best[2]
    t, tpath = tests[i], f"{base}[{i}]"
    name = str(t.get("name") or f"test {i}")
    put = _Put(b, t, tpath)
    put("tok_s", "gen_tps", to_rate, span=f"test {name}: gen_tps (most generation-heavy test)")
    b.set("tok_s_kind", "decode", field=_p(tpath, "gen_tps"))
    if put("power_w", "power_watts", to_rate, span=f"test {name}: power_watts") is not None:
        b.set("power_method", _POWER_METHOD, field=_p(tpath, "power_watts"))
    put("ttft_ms", "ttft_ms", to_float, span=f"test {name}: ttft_ms")
    put("input_tokens", "n_prompt", to_int, span=f"test {name}")
    put("output_tokens", "n_gen", to_int, span=f"test {name}")


def _runtime(b: ClaimBuilder, runtime: dict[str, Any], base: str) -> None:
    put = _Put(b, runtime, base)
    put("engine", "name", to_text)
    commit = runtime.get("commit_hash")
    put("engine_version", "version", to_text,
        span=f"{runtime.get('version')} (commit {commit})" if commit else None)


def _common(b: ClaimBuilder, source: str, run_id: Any) -> None:
    b.set("batch", 1, field="(LocalScore runs one stream: llamafile, batch 1)")
    b.set("concurrency", 1, field="(LocalScore runs one stream: llamafile, batch 1)")
    b.set("speculative", False, field="(LocalScore runs plain llamafile generation)")
    parts = urlsplit(source)
    if run_id is not None and parts.scheme in ("http", "https") and parts.netloc:
        b.set("source_url", f"{parts.scheme}://{parts.netloc}/result/{run_id}", field="id",
              span="result page of this run")


def _p(base: str, key: str) -> str:
    return f"{base}.{key}" if base else key
