"""`spec-debug explain concepts` listed the first four spellings of each concept under "also
written", and a concept's page the first six: `explain num_lookahead_tokens`,
`explain layers_to_capture`, `explain --speculative-algorithm` and `explain --max-model-len` all
worked, but neither the list nor the page named them, so a newcomer reading vLLM's or SGLang's
words could not find where they were explained (eagle3 hid 12 of its 16 spellings). The list and
each page now give every spelling `explain` takes."""

from __future__ import annotations

from spec_debug import glossary
from tests.conftest import run_cli


def _row(listing: str, name: str) -> str:
    return next(line for line in listing.splitlines() if line.startswith(f"| {name} |"))


def test_the_list_names_every_spelling_explain_takes() -> None:
    listing = run_cli("explain", "concepts").stdout
    assert _row(listing, "num speculative tokens") == (
        "| num speculative tokens | num_speculative_tokens, --num-speculative-tokens, speculative config, "
        "--speculative-config, speculative_config, speculative tokens, speculative_tokens, "
        "num_lookahead_tokens, lookahead tokens |")
    for concept in glossary.CONCEPTS:
        row = _row(listing, concept.name)
        assert all(alias in row for alias in concept.aliases), concept.name


def test_a_page_names_every_spelling() -> None:
    page = run_cli("explain", "rope").stdout
    also = page.splitlines()[2]
    assert also.endswith("context length, --context-length, --max-model-len, cos_sin_cache")
    assert also == "Also written: " + ", ".join(glossary.find_concept("rope").aliases)


def test_a_spelling_the_list_shows_is_explained() -> None:
    shown = run_cli("explain", "--speculative-algorithm")
    assert shown.code == 0
    assert shown.stdout.splitlines()[0] == "# eagle3"
