"""analyze: Gemini CLI's other file tools read and edit source as Claude Code's do.

Gemini CLI's ``read_file`` of the engine's source after a failure was a pivot to reading source
(test_hardening46_fetch_pivots); its sibling tools were kind "other", never a pivot: the
batch reader ``read_many_files{paths: [...]}``, the search ``search_file_content{pattern,
path}``, ``glob`` and ``list_directory``, and the edits ``replace{file_path, old_string,
new_string}`` and ``write_file{file_path, content}`` (google-gemini/gemini-cli
docs/tools/file-system.md, packages/core/src/tools/). Claude Code's Read, Grep, Glob, Edit and
Write were classed all along."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from tests.session.test_hardening46_fetch_pivots import SOURCE, _gemini

ENGINE = "/usr/lib/python3/site-packages/sglang/srt/speculative/eagle_worker.py"
DRAFT_TEST = "/root/work/test_drafter_standalone.py"


def _second_call(tmp_path: Path, name: str, args: dict) -> Path:
    """The fetch session with its second call (after the failing run) replaced by ``name``."""
    path = _gemini(tmp_path, SOURCE)
    lines = path.read_text(encoding="utf-8").splitlines()
    last = json.loads(lines[-1])
    last["toolCalls"][0].update(id=f"{name}-2", name=name, args=args)
    last["toolCalls"][0]["result"][0]["functionResponse"].update(id=f"{name}-2", name=name)
    lines[-1] = json.dumps(last)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


READS = {
    "read_many_files": ({"paths": ["README.md", ENGINE, "docs/"]}, ENGINE),
    "search_file_content": ({"pattern": "aux_hidden_state", "path": ENGINE}, ENGINE),
    "glob": ({"pattern": "**/*eagle*.py", "path": "/usr/lib/python3/site-packages/sglang"},
             "/usr/lib/python3/site-packages/sglang"),
}


@pytest.mark.parametrize("name", READS)
def test_reading_the_engine_source_is_a_pivot_to_reading_source(tmp_path, name):
    args, shown = READS[name]
    [pivot] = analyze_path(_second_call(tmp_path, name, args)).pivots
    assert (pivot.from_category, pivot.to_category) == ("python", "read_source")
    assert pivot.summary.endswith(f"to reading source code: {name} {shown}")


def test_read_many_files_of_configs_only_inspects_configs(tmp_path):
    args = {"paths": ["/models/e3/config.json", "/models/target/config.json"]}
    [pivot] = analyze_path(_second_call(tmp_path, "read_many_files", args)).pivots
    assert pivot.to_category == "inspect_config"
    assert pivot.summary.endswith("read_many_files /models/e3/config.json")


def _edit_only(tmp_path: Path, name: str, args: dict) -> Path:
    """A session whose one prompt is answered by one edit."""
    path = _gemini(tmp_path, SOURCE)
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()][:3]
    lines[1]["content"] = [{"text": "Remove the norm before fc in the standalone test."}]
    call = lines[2]["toolCalls"][0]
    call.update(id=f"{name}-1", name=name, args=args)
    call["result"][0]["functionResponse"].update(id=f"{name}-1", name=name, response={"output": "Successfully modified"})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("name, args", [
    ("replace", {"file_path": DRAFT_TEST, "old_string": "x = norm(x)\n", "new_string": ""}),
    ("write_file", {"file_path": DRAFT_TEST, "content": "import torch\n"}),
])
def test_a_phase_of_edits_is_titled_editing_code(tmp_path, name, args):
    """As a phase of Claude Code Edit calls is. Before: "Running commands"."""
    titles = [s.title for s in analyze_path(_edit_only(tmp_path, name, args)).segments]
    assert titles[-1] == "Remove the norm before fc in the standalone test. — Editing code"
