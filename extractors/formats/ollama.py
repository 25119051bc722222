"""Ollama API responses: `/api/generate` and `/api/chat`, one final object or a stream's lines.

Documented in ollama/ollama `docs/api.md` ("Generate a completion", "Response"): the final
object (`"done": true`) carries `model`, `created_at`, `total_duration`, `load_duration`,
`prompt_eval_count`, `prompt_eval_duration`, `eval_count`, `eval_duration`, and every duration
is in **nanoseconds**; the docs give the generation rate as `eval_count / eval_duration * 10^9`.
A streamed response is one object per line, every line before the last `"done": false` with no
metrics; `RawDocument` reads the lines as a list.

Mapping, each with its reason:
- tok_s = `eval_count` ÷ (`eval_duration` ÷ 1e9), kind "decode": the eval phase is generation
  only, the prompt is timed apart (`prompt_eval_*`). Read in any other unit the figure would be
  10^3 to 10^9 off, so the unit is the docs', never guessed from the value.
- `prompt_eval_duration` is the prompt's processing time: ttft_ms, the notes say so (as for
  llama-server's `prompt_ms`); `load_duration` is model loading, said in the notes, not timed.
- engine "ollama": Ollama runs llama.cpp's decode and offers no speculative decoding, which
  `checks.engines` records; the model is its tag ("llama3.1:8b"), read by the model names.
- One response is one request; `OLLAMA_NUM_PARALLEL` slots may have run beside it, so batch is
  not set.
"""

from __future__ import annotations

from typing import Any, ClassVar

from checks.models import Claim
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats.base import ToolOutputFormat
from extractors.formats.common import Notes, count, fmt, number, text

__all__ = ["OllamaResponse"]

_NS = 1e9  # Ollama's durations are nanoseconds (docs/api.md)


def _final(obj: Any) -> bool:
    """A response's final object: `done` true with the eval counters."""
    return (isinstance(obj, dict) and obj.get("done") is True and "eval_count" in obj
            and "eval_duration" in obj)


def _chunk(obj: Any) -> bool:
    """A streamed line before the last: `done` false, with a model and a created_at."""
    return isinstance(obj, dict) and obj.get("done") is False and "model" in obj and "created_at" in obj


class OllamaResponse(ToolOutputFormat):
    name: ClassVar[str] = "ollama"
    label: ClassVar[str] = "Ollama API"
    not_ours: ClassVar[str] = "not an Ollama API response with eval_count and eval_duration"

    def _find(self, data: Any) -> tuple[list[tuple[int, dict[str, Any]]], bool] | None:
        """The final objects and their places ("[3]" in a stream), and whether it is a list."""
        if _final(data):
            return [(0, data)], False
        if isinstance(data, list) and data and all(_final(o) or _chunk(o) for o in data):
            finals = [(i, o) for i, o in enumerate(data) if _final(o)]
            return (finals, True) if finals else None
        return None

    def _claims(self, doc: RawDocument, data: Any, found: Any) -> list[Claim]:
        finals, is_list = found
        return [self._response(doc, obj, f"[{i}]." if is_list else "") for i, obj in finals]

    def _response(self, doc: RawDocument, r: dict[str, Any], pre: str) -> Claim:
        b = ClaimBuilder(doc.source)
        notes = Notes()
        n_out = count(r.get("eval_count"))
        ns_out = number(r.get("eval_duration"))
        if not n_out or not ns_out or ns_out <= 0:
            raise InvalidInput(f"{doc.source}: the Ollama response has no usable eval_count and "
                               f"eval_duration (got {r.get('eval_count')!r}, {r.get('eval_duration')!r})")
        seconds = ns_out / _NS
        b.set("tok_s", n_out / seconds, field=f"{pre}eval_count/({pre}eval_duration ns)")
        b.set("tok_s_kind", "decode", field=pre + "eval_duration")
        b.set("tokens_generated", n_out, field=pre + "eval_count")
        b.set("output_tokens", n_out, field=pre + "eval_count")
        b.set("wall_seconds", seconds, field=pre + "eval_duration")
        prompt_n = count(r.get("prompt_eval_count"))
        prompt_ns = number(r.get("prompt_eval_duration"))
        if prompt_n is not None:
            b.set("input_tokens", prompt_n, field=pre + "prompt_eval_count")
        if prompt_ns is not None and prompt_ns >= 0:
            b.set("ttft_ms", prompt_ns / 1e6, field=pre + "prompt_eval_duration")
            b.set("ttft_empty", False, field=pre + "prompt_eval_duration")
            notes.add("TTFT is the prompt_eval_duration (the prompt's processing time)",
                      pre + "prompt_eval_duration")
            if prompt_n and prompt_ns > 0:
                notes.add(f"prompt processing {fmt(prompt_n / (prompt_ns / _NS))} tok/s over "
                          f"{prompt_n} tokens", pre + "prompt_eval_count", pre + "prompt_eval_duration")
        load_ns = number(r.get("load_duration"))
        if load_ns is not None and load_ns > 0:
            notes.add(f"model load {fmt(load_ns / _NS)} s, not in the rate", pre + "load_duration")
        b.set("engine", "ollama", field=f"({self.name})")
        b.set("model", text(r.get("model")), field=pre + "model")
        b.set("date", text(r.get("created_at")), field=pre + "created_at")
        notes.apply(b)
        return b.build()
