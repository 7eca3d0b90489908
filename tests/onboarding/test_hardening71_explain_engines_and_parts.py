"""What a new engineer types first: `spec-debug explain sglang`, `vllm`, `specforge`,
`speculators`, `lm_head`, `rope`. Each was "no playbook file 'sglang'" (`speculators`: "the
concept 'eagle3'?"), though every finding report names these words. Each is a concept now that
says what the thing is in spec-debug's world and names the codes and steps that touch it (facts
from ../shared/reference/EAGLE3.md)."""

from __future__ import annotations

import json

import pytest

from spec_debug import glossary
from tests.conftest import run_cli

# topic typed -> (concept, codes it must send the reader to, words its page must say)
EXPECTED = {
    "sglang": ("sglang", {"SD101", "SD202", "SD701", "SD709"},
               ["--speculative-algorithm EAGLE3", "midlayer.*", "hot_token_id", "accept len", "launch_flags"]),
    "vllm": ("vllm", {"SD201", "SD301", "SD701"},
             ["--speculative-config", "draft_id_to_target_id", "no + 1", "Mean acceptance length", "vllm serve DRAFT_DIR"]),
    "speculators": ("speculators", {"SD701", "SD601", "SD709"},
                    ["layers.0.*", "reference_forward", "spec-debug drafter eval", "norm_before_residual"]),
    "specforge": ("specforge", {"SD202", "SD705"},
                  ["midlayer.*", "[1, N//2−1, N−4]", "vocab_mapping.pt", "data_{i}.ckpt"]),
    "lm_head": ("lm_head", {"SD303", "SD302"}, ["[DV, H]", "i + d2t[i]", "perf_regression's vocab step"]),
    "rope": ("rope", {"SD703", "SD702"}, ["rope_theta", "rope_scaling", "max_position_embeddings", "--max-model-len"]),
}


@pytest.mark.parametrize("topic", sorted(EXPECTED))
def test_the_first_words_a_newcomer_types_are_concepts(topic: str) -> None:
    name, codes, words = EXPECTED[topic]
    result = run_cli("explain", topic)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith(f"# {name}\n")
    for code in codes:
        assert f"- {code}: " in result.stdout.split("## Finding codes", 1)[1]
    for word in words:
        assert word in result.stdout, word
    data = json.loads(run_cli("explain", topic, "--json").stdout)
    assert data["name"] == name and codes <= set(data["codes"])


@pytest.mark.parametrize(("typed", "name"), [
    ("SGLang", "sglang"), ("python -m sglang.launch_server", "sglang"), ("vllm serve", "vllm"),
    ("SpecForge", "specforge"), ("Eagle3SpeculatorConfig", "speculators"), ("lm head", "lm_head"),
    ("lm_head.weight", "lm_head"), ("rope_theta", "rope"), ("YaRN", "rope"), ("--context-length", "rope"),
])
def test_their_other_spellings(typed: str, name: str) -> None:
    concept = glossary.find_concept(typed)
    assert concept is not None and concept.name == name


def test_a_launch_flag_with_its_value() -> None:
    result = run_cli("explain", "--max-model-len", "32768")
    assert result.code == 0 and result.stdout.startswith("# rope\n")


def test_the_index_lists_them() -> None:
    listing = run_cli("explain", "concepts").stdout
    for name, _, _ in EXPECTED.values():
        assert f"| {name} |" in listing


def _engines_section(topic: str) -> str:
    text = run_cli("explain", topic).stdout
    return text.split("## In the engines", 1)[1].split("## What goes wrong", 1)[0]


def test_the_norm_flag_releases_are_the_engine_tables() -> None:
    """The release from which an engine reads each norm flag of a speculators config (the rows
    the SD701 check reads: spec_debug/eagle3/engines.py) is the release the concept names: the
    first text said SGLang reads none of them, while the table has fc_norm and norm_output from
    0.5.12 and norm_before_fc from 0.5.17."""
    import re

    from spec_debug.eagle3.engines import CONVENTIONS

    def version(text: str | None) -> tuple[int, ...]:
        return tuple(int(part) for part in (text or "0").split("."))

    for engine in ("sglang", "vllm"):
        section = _engines_section(engine)
        rows = sorted((r for r in CONVENTIONS if r.engine == engine and r.aspect == "honoured_flags_speculators"
                       and not getattr(r, "architectures", None)), key=lambda r: version(r.since))
        read: set[str] = set()
        for row in rows:
            for flag in sorted(set(row.value) - read):
                said = rf"{flag}`?[^;,.]{{0,40}}?from (?:{engine} )?{re.escape(str(row.since))}"
                assert re.search(said, section), (engine, flag, row.since, section)
            read |= set(row.value)
        if "norm_before_residual" not in read:
            assert "norm_before_residual never" in section, section
