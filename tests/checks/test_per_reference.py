"""checks.physics.figures.per_reference: a table-wide fact computed once per loaded reference."""

from __future__ import annotations

from checks.physics import smallest_active_share
from checks.physics.figures import per_reference
from checks.reference import Reference, load_reference


def test_computed_once_per_reference_and_again_for_another() -> None:
    calls: list[int] = []

    @per_reference
    def models(ref: Reference) -> int:
        calls.append(id(ref))
        return len(ref.models)

    ref = load_reference()
    fewer = ref.model_copy(update={"models": ref.models[:1]})
    assert [models(ref), models(ref), models(fewer), models(fewer)] == [len(ref.models)] * 2 + [1, 1]
    assert calls == [id(ref), id(fewer)]


def test_a_reference_without_moes_has_no_smallest_share_after_one_with() -> None:
    ref = load_reference()
    assert smallest_active_share(ref) is not None
    dense = ref.model_copy(update={"models": [m for m in ref.models if not m.moe]})
    assert smallest_active_share(dense) is None
    assert smallest_active_share(ref) is not None


def test_a_reference_with_facts_kept_still_pickles() -> None:
    """A sweep sends its reference to the workers: the facts kept on it travel with it."""
    import pickle

    ref = load_reference()
    share = smallest_active_share(ref)
    again = pickle.loads(pickle.dumps(ref))
    assert smallest_active_share(again) == share
