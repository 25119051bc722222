"""`claimcheck reference`: the reference rows, each with its source and the date it was checked."""

from __future__ import annotations

from typing import Any

from checks.reference import Reference, normalise_name
from extractors.errors import UsageError

__all__ = ["render_reference"]

_TABLES = {"gpu": "hardware", "model": "models", "format": "formats", "method": "methods", "power": "power_bands"}
_LOOKUP = {"gpu": "gpu", "model": "model", "format": "format", "method": "method"}


def _summary(table: str, row: Any) -> str:
    if table == "hardware":
        tdp = f"{row.tdp_w:g} W" if row.tdp_w else "no board power"
        if row.tdp_w and row.max_power_w and row.max_power_w > row.tdp_w:
            tdp += f" (boards up to {row.max_power_w:g} W)"
        return f"{row.bandwidth_gbs:g} GB/s, {row.memory_gb:g} GB, {tdp}, {row.kind}"
    if table == "models":
        kind = f"MoE, {row.params_active_b:g}B active" if row.moe and row.params_active_b else "dense"
        return f"{row.params_total_b:g}B params, {kind}"
    if table == "formats":
        return f"{row.nominal_bits:g} bits nominal, {row.effective_bits:g} effective ({row.family})"
    if table == "methods":
        official = row.official_als()
        best = row.best_published_al()
        lo, hi = (min(official), max(official)) if official else (0.0, 0.0)
        rng = ("no official AL" if not official else
               f"official AL {lo:g}" if lo == hi else f"official AL {lo:g}–{hi:g}")
        return f"{rng}; best published {best.al:g}" if best else rng
    return f"{row.low:.0%}–{row.high:.0%} of board power at batch-1 decode"


def _row_line(item: dict[str, Any]) -> str:
    """One nested row (a published AL, a recipe) on one line, its source last."""
    source = item.get("source")
    rest = ", ".join(f"{k} {v}" for k, v in item.items() if k != "source" and v is not None)
    return f"{rest} ({source})" if source else rest


def render_reference(ref: Reference, which: str, name: str | None) -> tuple[str, Any]:
    table = _TABLES[which]
    if name:
        row = getattr(ref, _LOOKUP[which])(name) if which in _LOOKUP else next(
            (r for r in ref.power_bands if r.name.lower() == name.lower()), None)
        if row is None:
            known = ", ".join(r.name for r in ref.table(table))
            raise UsageError(f"no {which} named {name!r} in the reference tables; known: {known}")
        data = row.model_dump(exclude_none=True)
        lines = [f"{row.name}: {_summary(table, row)}"]
        if normalise_name(name) not in {normalise_name(n) for n in (row.name, *row.aliases)}:
            lines.append(f"  matched: {name!r} read as {row.name} (words that only describe the build set aside)")
        for k, v in data.items():
            if k == "name" or v in ([], {}):
                continue
            if isinstance(v, list) and v and isinstance(v[0], dict):
                lines.append(f"  {k}:")
                lines += [f"    - {_row_line(item)}" for item in v]
            elif isinstance(v, dict) and v and all(isinstance(x, dict) for x in v.values()):
                lines.append(f"  {k}:")
                lines += [f"    - {name}: {_row_line(item)}" for name, item in v.items()]
            else:
                lines.append(f"  {k}: {', '.join(map(str, v)) if isinstance(v, list) else v}")
        return "\n".join(lines) + "\n", data
    rows = ref.table(table)
    lines = [f"{len(rows)} {table} rows (sources: claimcheck reference {which} NAME)"]
    for row in rows:
        flag = "  [unverified: " + ", ".join(row.unverified) + "]" if row.unverified else ""
        lines.append(f"  {row.name:<28} {_summary(table, row)}{flag}")
    return "\n".join(lines) + "\n", [r.model_dump(exclude_none=True) for r in rows]
