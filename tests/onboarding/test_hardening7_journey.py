"""Day one, by the book: a new engineer follows README.md and docs/*.md literally.

Each test is one place where the book and the tool disagreed: a YAML example that did not
load, a playbook list cut mid-sentence, a step-through that said nothing about a skip or ran
answers into the next line, and a demo that could not be stepped through.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spec_debug.cli import app
from spec_debug.playbook.loader import load_playbook, shipped_playbook_names

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"


def _yaml_examples(doc: Path) -> list[tuple[int, str]]:
    """(line, text) of each ```yaml block; a block of steps (`- id: ...`) is wrapped in a
    playbook as a reader would paste it under `steps:`."""
    text = doc.read_text()
    examples = []
    for match in re.finditer(r"```yaml\n(.*?)```", text, re.S):
        body = match.group(1)
        line = text.count("\n", 0, match.start()) + 2
        if body.startswith("name:"):
            examples.append((line, body))
        elif body.lstrip().startswith("- id:"):
            steps = "".join("  " + l + "\n" for l in body.splitlines())
            examples.append((line, "name: example\nvars: {server_log: '', port: '30000', python: python3, "
                                   "draft_model: ''}\nsteps:\n" + steps))
    return examples


@pytest.mark.parametrize("line,example", _yaml_examples(DOCS / "playbooks.md"),
                         ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_every_playbook_example_in_the_docs_validates(tmp_path, line, example):
    # The capture example had `run: grep -o 'accept len: ...'` unquoted: ': ' in a plain YAML
    # value starts a mapping, and the pasted example failed with a YAML syntax error.
    path = tmp_path / "example.yaml"
    path.write_text(example)
    result = CliRunner().invoke(app, ["playbooks", "validate", str(path)])
    assert result.exit_code == 0, f"docs/playbooks.md:{line}: {result.output}"


@pytest.mark.parametrize("name", shipped_playbook_names())
def test_playbooks_list_shows_a_whole_sentence_for_each_playbook(name):
    # `playbooks list` shows the description's first line; three of four were cut
    # mid-sentence ("... which does the server feed it? The").
    result = CliRunner().invoke(app, ["playbooks", "list"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    first = load_playbook(name).playbook.description.strip().splitlines()[0].strip()
    assert first[-1] in ".?!", f"{name}: first line {first!r} stops mid-sentence"
    row = next(l for l in result.output.splitlines() if f" {name} " in l)
    assert first in row


WALK = """
name: walk
steps:
  - id: look
    title: Where am I
    why: Shows the Python and the GPUs.
    probe: host_info
  - id: second
    why: Reads the launch flags.
    run: echo second-ran
  - id: third
    why: Runs after the skip.
    run: echo third-ran
"""


def test_step_through_with_scripted_answers_reads_like_a_session(tmp_path):
    (tmp_path / "walk.yaml").write_text(WALK)
    proc = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", "walk.yaml", "--host", "local", "--step", "--out", "runs"],
        input="r\ns\nr\n", capture_output=True, text=True, cwd=tmp_path, timeout=60,
        env={"COLUMNS": "120", "PATH": "/usr/bin:/bin", "HOME": str(Path.home())},
    )
    assert proc.returncode == 0, proc.stderr
    out = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stdout + proc.stderr)
    # A probe's command is an opaque zipapp line: the panel says what the probe does.
    assert "Probe: host_info - Python, OS, GPUs" in out
    # Piped answers are echoed after the question, so the next line starts on its own.
    assert "quit (q)? r\n" in out and "quit (q)? s\n" in out
    # A skip is acknowledged on screen, as it is in the record.
    assert "→ second skipped (your choice)" in out
    record = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())
    assert [s["status"] for s in record["steps"]] == ["passed", "skipped", "passed"]


def test_the_demo_can_be_stepped_through_and_explains_what_it_cannot_check(tmp_path):
    # README's "New engineer" story steps through perf_regression on gpu01, a host a newcomer
    # does not have; the demo host is on every machine. Quitting ends the walk as `run --step`
    # does (exit 3, the record kept). The SD004 note asked for --var values that `demo` does not
    # take: the demo now says why the step could not look.
    # launch_flags, engine, configs; skip the slow vocab and hidden_layout; reference_forward; quit
    answers = "r\nr\nr\ns\ns\nr\nq\n"
    proc = subprocess.run(
        [sys.executable, "-m", "spec_debug", "demo", "--step", "--out", "runs"],
        input=answers, capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={"COLUMNS": "120", "PATH": "/usr/bin:/bin", "HOME": str(Path.home())},
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 3, out
    assert "Why: The cheapest bug is in the command line." in out
    assert "no server runs" in out
    # A probe step that ran and found SD101 was announced as "passed: everything this step
    # checks looks healthy", right above the error.
    assert "→ launch_flags ran; its checks found a problem:\n  SD101 (error)" in out
    assert "launch_flags passed: everything" not in out
    assert re.search(r"not checked on the simulated host \(reference_forward\): .*not installed", out), out
    assert "SD101" in out and "SD201" in out
    record = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())
    assert record["status"] == "aborted"
    assert record["command_line"] == ["spec-debug", "demo", "--step"]
    ran = {s["id"]: s["status"] for s in record["steps"]}
    assert ran["vocab"] == ran["hidden_layout"] == "skipped" and "drafter_eval" not in ran


def test_walkthrough_shows_a_playbook_finding_title_in_words(tmp_path):
    # `spec-debug explain host_smoke` printed "SD901 (warning): Less than {{ min_free_gb }} GB
    # free on {{ host }}": Jinja to a newcomer who has not run anything yet.
    result = CliRunner().invoke(app, ["explain", "host_smoke"])
    assert result.exit_code == 0, result.output
    # (not the vars table's row: min_free_gb's note names SD901 too)
    failing = [l for l in result.output.splitlines() if "SD901" in l and not l.startswith("| ")]
    assert failing and all("{{" not in l for l in failing), failing
    assert "Less than 20 GB free on HOST" in failing[0]
    # With --var, the default is what the walkthrough cannot know: a user playbook's own var.
    playbook = tmp_path / "mine.yaml"
    playbook.write_text("name: mine\nvars: {limit: ''}\nsteps:\n  - id: a\n    run: echo 1\n"
                        "    expect:\n      - that: facts.x is defined\n        finding:\n"
                        "          code: SD950\n          title: 'x above {{ vars.limit }} on {{ host }} ({{ facts.x }})'\n")
    result = CliRunner().invoke(app, ["explain", str(playbook), "--json"])
    assert result.exit_code == 0, result.output
    titles = [c["title"] for s in json.loads(result.output)["steps"] for c in s["codes"]]
    assert titles == ["x above LIMIT on HOST (X)"]


def test_the_report_template_example_in_the_docs_renders_a_real_record(tmp_path, monkeypatch):
    # `report --template` was documented by one line in README; a first template written as
    # `{{ run_id }}` failed with "'run_id' is undefined". docs/reports.md names what a template
    # sees; its example must render a record the tool wrote.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pb.yaml").write_text("name: pb\nsteps:\n  - id: a\n    run: 'false'\n")
    runner = CliRunner()
    ran = runner.invoke(app, ["run", "pb.yaml", "--host", "local", "--out", "runs"])
    assert ran.exit_code == 1, ran.output
    run_dir = next((tmp_path / "runs").iterdir())
    doc = (DOCS / "reports.md").read_text()
    template = re.search(r"```jinja\n(.*?)```", doc, re.S).group(1)
    (tmp_path / "brief.j2").write_text(template)
    result = runner.invoke(app, ["report", str(run_dir), "--template", "brief.j2"])
    assert result.exit_code == 0, result.output
    record = json.loads((run_dir / "run.json").read_text())
    assert result.output.startswith(f"{record['run_id']} failed: ")
    assert "SD001 error local Step 'a' failed" in result.output
    # Every name the doc promises is one the renderer gives.
    names = re.search(r"and these ready-made views: (.*?)\. A name", doc, re.S).group(1)
    for name in re.findall(r"`(\w+)`", names):
        (tmp_path / "n.j2").write_text("{{ %s is defined }}" % name)
        shown = runner.invoke(app, ["report", str(run_dir), "--template", "n.j2"])
        assert shown.output.strip().startswith("True"), (name, shown.output)
    # And every name the renderer gives is one the doc promises: a view added to the report and
    # not to this list (charts, host_warnings, rerender, verdict_class were) a template writer
    # could only find by a typo, in the undefined-name hint.
    (tmp_path / "n.j2").write_text("{{ no_such_name }}")
    unknown = runner.invoke(app, ["report", str(run_dir), "--template", "n.j2"])
    assert unknown.exit_code == 2, unknown.output
    given = re.search(r"the others: ([\w, ]+)", " ".join(unknown.output.split())).group(1).split(", ")
    assert {"verdict_text", "findings_sorted", "artifacts"} <= set(given)
    assert sorted(set(given) - set(re.findall(r"`(\w+)`", names))) == []


@pytest.mark.parametrize("name", shipped_playbook_names())
def test_every_shipped_var_says_what_it_means(name):
    # The walkthrough's vars table showed defaults only ("(empty: steps that need it are
    # skipped)" even for server_cmdline, which is found on the host when empty); what each var
    # means was a YAML comment nobody saw. `explain --json` now carries it as var_notes.
    result = CliRunner().invoke(app, ["explain", name, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data["var_notes"]) == set(data["vars"]), f"{name}: vars without a note"
    assert all(note.strip() and "#" not in note for note in data["var_notes"].values())


def test_var_notes_of_a_user_playbook_and_of_one_without_comments(tmp_path):
    from spec_debug.explain import var_notes

    path = tmp_path / "p.yaml"
    path.write_text('name: p\nvars:   # inputs\n  port: "30000"   # the server port\n\n  flags: ""\n'
                    '  url: "http://x/#frag"\nsteps:\n  - id: a   # not a var\n    run: echo\n')
    assert var_notes(str(path), ["port", "flags", "url"]) == {"port": "the server port"}
    assert var_notes(str(tmp_path / "missing.yaml"), ["port"]) == {}


def _complete(words: str, cwd: Path) -> list[str]:
    import os

    env = {**os.environ, "_SPEC_DEBUG_COMPLETE": "complete_bash", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - 1)}
    script = "import sys; sys.argv[0] = 'spec-debug'; from spec_debug.cli import main; main()"
    proc = subprocess.run([sys.executable, "-c", script], env=env, cwd=cwd, capture_output=True, text=True, timeout=60)
    return proc.stdout.split()


def test_completion_offers_playbook_files_and_codes_as_typed(tmp_path):
    # README: "Shell completion (playbook names, finding codes)". `run` and `explain` take a
    # file, but the completer replaced the shell's file completion and offered no file; and
    # `findings sd2<TAB>` offered nothing although `findings sd201` works.
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "playbooks" / "kimi_regression.yaml").write_text("name: k\nsteps: []\n")
    (tmp_path / "playbooks" / "notes.txt").write_text("")
    assert _complete("spec-debug run play", tmp_path) == ["playbooks/"]
    assert _complete("spec-debug explain playbooks/", tmp_path) == ["playbooks/kimi_regression.yaml"]
    assert _complete("spec-debug run perf", tmp_path) == ["perf_regression"]
    assert _complete("spec-debug findings sd20", tmp_path) == ["sd201", "sd202", "sd203", "sd204"]
