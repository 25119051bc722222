"""Finding and ranking a post's links: records and configs first, images counted, not followed."""

from __future__ import annotations

from extractors.links import find_links, is_evidence_link, is_image_link, rank_links


def test_links_are_found_without_trailing_punctuation_or_duplicates() -> None:
    text = "see https://gist.github.com/u/abc. and (https://x.com/u/status/1), https://gist.github.com/u/abc"
    assert find_links(text) == ["https://gist.github.com/u/abc", "https://x.com/u/status/1"]


def test_boards_raw_json_and_gists_rank_before_papers_social_and_images() -> None:
    ranked = [r.url for r in rank_links([
        "https://i.redd.it/gpu.jpg",
        "https://x.com/someone/status/1",
        "https://arxiv.org/abs/2602.06036",
        "https://gist.github.com/u/abc",
        "https://selfhosted.example/api/records?id=5",
        "https://localscore.ai/result/42",
    ])]
    assert ranked[:3] == ["https://localscore.ai/result/42", "https://selfhosted.example/api/records?id=5",
                          "https://gist.github.com/u/abc"]
    assert ranked[-1] == "https://i.redd.it/gpu.jpg"


def test_evidence_links_are_records_configs_logs_and_repositories() -> None:
    assert is_evidence_link("https://github.com/org/repo/blob/main/run.sh")
    assert is_evidence_link("https://example.org/results/run1.json")
    assert not is_evidence_link("https://arxiv.org/abs/2602.06036")
    assert not is_evidence_link("https://www.reddit.com/r/LocalLLaMA/")
    assert is_image_link("https://i.imgur.com/x.png") and not is_evidence_link("https://i.imgur.com/x.png")
