"""A forked Claude Code sub-agent (``Agent`` ``subagent_type: "fork"``, on by default since CLI
2.1.232) is briefed with the CLI's rules for every fork, then what the parent asked of this one:
``<fork-boilerplate>STOP. READ THIS FIRST. ... RULES (non-negotiable): ...</fork-boilerplate>``,
a blank line, ``Your directive: <directive>`` (the CLI's buildChildMessage; its own transcript view,
UserForkBoilerplateMessage, shows the directive alone).

Before, the fork's prompt was the whole brief: ``prompts[]`` (cut to 500 characters) held the rules
and lost the directive. Now the fork's prompt is its directive; a prompt that only mentions the tag
further in is kept whole."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.test_hardening75_claude_fork_replay import BRIEF, DIRECTIVE, FORK, OWN, _write


def _prompts(tmp_path: Path, own: list[dict]) -> list[tuple[str, str]]:
    return [(p["agent"], p["text"]) for p in analyze_path(_write(tmp_path, own)).to_json()["prompts"]]


def test_a_forks_prompt_is_its_directive(tmp_path: Path) -> None:
    assert len(BRIEF) > 500  # the rules alone filled the prompt's 500 characters
    assert _prompts(tmp_path, OWN)[1] == (FORK, DIRECTIVE)


def test_a_brief_without_the_closing_tag_is_kept_whole(tmp_path: Path) -> None:
    cut = BRIEF[:BRIEF.index("</fork-boilerplate>")]
    own = [{**OWN[0], "message": {"role": "user", "content": [OWN[0]["message"]["content"][0],
                                                              {"type": "text", "text": cut}]}}, *OWN[1:]]
    assert _prompts(tmp_path, own)[1] == (FORK, cut[:500])
