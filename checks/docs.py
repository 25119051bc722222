"""Generate docs/checks.md from the registry and the check docstrings (the docstrings are the
reference). `python -m checks.docs > docs/checks.md`; a test fails when the file is stale."""

from __future__ import annotations

import inspect

import checks.basis
import checks.verdict
from checks.models import Answer
from checks.registry import CHECKS, PLAUSIBILITY_KEYS

__all__ = ["render_checks_doc"]


def render_checks_doc() -> str:
    out = [
        "# The checks",
        "",
        "Generated from `checks/registry.py` and each check's docstring by `python -m checks.docs`;",
        "do not edit by hand. Statuses: `ok`, `flag`, `stop`, `unanswerable`, `n/a`, `plan`, `error`.",
        "",
        "## What a check returns",
        "",
        (inspect.getdoc(Answer) or "").strip(),
        "",
        "Module: `checks.basis`",
        "",
        (inspect.getdoc(checks.basis) or "").strip(),
        "",
    ]
    for check in sorted(CHECKS, key=lambda c: (c.question is None, c.question or 0)):
        title = f"Q{check.question} `{check.key}`" if check.question else f"Finding `{check.key}`"
        # Some checks document themselves on the function, some on their module (with a one-line
        # function docstring): the fuller of the two is the reference.
        docs = [inspect.getdoc(check.run) or "", inspect.getdoc(inspect.getmodule(check.run)) or ""]
        doc = max(docs, key=len)
        out += [f"## {title}", "", f"Module: `{check.run.__module__}`", "", doc.strip(), ""]
    out += ["## The verdict", "", "Module: `checks.verdict`", "",
            (inspect.getdoc(checks.verdict) or "").strip(), "",
            "Plausibility checks: " + ", ".join(f"`{k}`" for k in sorted(PLAUSIBILITY_KEYS)) + ".", ""]
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(render_checks_doc(), end="")
