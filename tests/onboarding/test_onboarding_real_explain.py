"""`spec-debug explain` on a team's own playbook: a `run: |` block with backticks and pipes,
Jinja in the command and in probe args, a regex expectation, requires/when/retries/until,
unicode, and 60 steps. The Markdown is parsed with markdown-it-py (CommonMark + tables, as
tests/core/test_report_real_outputs.py does) and the HTML with the stdlib parser: what a
reader sees must be the command as written."""

from __future__ import annotations

from html.parser import HTMLParser

from markdown_it import MarkdownIt

from tests.conftest import run_cli

COMMAND = (
    "nvidia-smi --query-gpu=name,memory.used --format=csv\n"
    "echo \"kernel `uname -r`\" | tee -a /tmp/notes\n"
    "python -c 'import torch; print(torch.__version__)' {{ python_flags }}"
)
REGEX = r"memory\.used \[MiB\]|\d+ *MiB"

PLAYBOOK = f"""
name: user_check
description: A team's own checks before a rollout.
vars:
  server_cmdline: "python -m sglang.launch_server --model-path m | tee /tmp/server.log"
  engine: sglang
  python_flags: "-X utf8"
steps:
  - id: gpu_state
    title: GPU state
    why: A busy GPU makes every number in this run wrong.
    run: |
{chr(10).join('      ' + line for line in COMMAND.splitlines())}
    requires: [engine]
    when: "engine == 'sglang'"
    retries: 2
    until: "'MiB' in stdout"
    timeout: 30
    expect:
      - matches: '{REGEX}'
      - not_contains: "`nvidia-smi` not found"
  - id: flags
    title: Flags of the “prod” server
    probe: launch_flags
    with:
      server_cmdline: "{{{{ server_cmdline }}}} --speculative-num-steps 3"
"""


def _inline_codes(tokens) -> list[str]:
    return [child.content for t in tokens if t.type == "inline" for child in (t.children or []) if child.type == "code_inline"]


def test_user_playbook_walkthrough_markdown(tmp_path):
    playbook = tmp_path / "user.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("explain", str(playbook))
    assert result.code == 0, result.stderr
    tokens = MarkdownIt("commonmark").enable("table").parse(result.stdout)
    # Before: the three lines went into one inline span that the backticks around `uname -r`
    # closed early; now the command is one code block, exactly as written.
    blocks = [t.content for t in tokens if t.type == "fence"]
    assert blocks == [COMMAND + "\n"]
    codes = _inline_codes(tokens)
    assert REGEX in codes  # not `\|`: a backslash in a code span is printed
    assert "`nvidia-smi` not found" in codes
    assert "engine == 'sglang'" in codes and "'MiB' in stdout" in codes
    assert "{{ server_cmdline }} --speculative-num-steps 3" in codes
    # The vars table keeps its three columns although a default holds a |.
    rows = [t for t in tokens if t.type == "tr_open"]
    cells = [t for t in tokens if t.type in ("td_open", "th_open")]
    assert len(cells) == 3 * len(rows) == 3 * 4
    assert "is tried up to 3 times" in result.stdout  # retries: 2 is three attempts
    assert "Flags of the “prod” server" in result.stdout


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.pre_code: list[str] = []
        self.codes: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        if tag == "code":
            self.codes.append("")

    def handle_endtag(self, tag):
        self.stack.pop()

    def handle_data(self, data):
        if self.stack[-2:] == ["pre", "code"]:
            self.pre_code.append(data)
        elif self.stack and self.stack[-1] == "code":
            self.codes[-1] += data
        else:
            self.text.append(data)


def test_user_playbook_walkthrough_html(tmp_path):
    playbook = tmp_path / "user.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("explain", str(playbook), "--format", "html")
    assert result.code == 0, result.stderr
    page = _Collect()
    page.feed(result.stdout)
    assert "".join(page.pre_code) == COMMAND
    assert REGEX in page.codes
    # Catalog texts write code in backticks; before, the page showed the backticks literally.
    assert "--speculative-num-steps 1" in page.codes
    assert not any("`--speculative" in t for t in page.text)


def test_sixty_step_playbook(tmp_path):
    steps = "".join(
        f"  - id: s{i:02d}\n    title: Step {i}\n    why: Check {i}.\n    run: echo {i}\n" for i in range(60)
    )
    playbook = tmp_path / "long.yaml"
    playbook.write_text("name: long\nsteps:\n" + steps)
    result = run_cli("explain", str(playbook))
    assert result.code == 0, result.stderr
    tokens = MarkdownIt("commonmark").parse(result.stdout)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]
    assert headings == [f"{i + 1}. Step {i} (`s{i:02d}`)" for i in range(60)]
    assert [t.content for t in tokens if t.type == "fence"] == [f"echo {i}\n" for i in range(60)]


def test_prose_lines_open_no_heading_and_fetch_reads_right(tmp_path):
    # "# of steps" is how people write "number of steps"; a "---" under the description's
    # first line is a common separator. Both turned prose into headings before.
    playbook = tmp_path / "why.yaml"
    playbook.write_text(
        "name: whyp\ndescription: |\n  Checks the draft.\n  ---\n  Owner: infra\nsteps:\n  - id: a\n    why: |\n"
        "      The server must use the trained depth.\n      # of steps must match the draft's TTT steps.\n"
        "      - one list item stays a list\n"
        "    fetch:\n      src: [/var/log/sglang.log, \"/tmp/a b`c`.json\"]\n"
    )
    result = run_cli("explain", str(playbook))
    assert result.code == 0, result.stderr
    tokens = MarkdownIt("commonmark").parse(result.stdout)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings == ["Walkthrough: `whyp`", "1. a (`a`)"]
    text = "".join(c.content for t in tokens if t.type == "inline" for c in t.children if c.type == "text")
    assert "# of steps must match" in text and "---" in text
    assert any(t.type == "bullet_list_open" for t in tokens)
    assert _inline_codes(tokens)[-2:] == ["/var/log/sglang.log", "/tmp/a b`c`.json"]
    # A fetch runs no command: "the command exits with code 0" described something that never runs.
    assert "the command exits with code 0" not in result.stdout
    assert "every file is copied" in result.stdout


def test_list_and_bool_values_read_as_the_playbook_wrote_them(tmp_path):
    # Aux layer ids are lists in real playbooks (hidden_state_format's layers); before, the
    # walkthrough showed Python's repr (['2'] style, True) instead of the YAML the author wrote.
    playbook = tmp_path / "vals.yaml"
    playbook.write_text(
        # Arguments forward_source reads (a probe refuses one it never reads: hardening74).
        "name: vals\nvars:\n  layers: [2, 18, 33]\n  strict: true\nsteps:\n  - id: a\n    probe: forward_source\n"
        "    with: {reference_files: [2, 18, 33], engine: false}\n"
    )
    result = run_cli("explain", str(playbook))
    assert result.code == 0, result.stderr
    codes = _inline_codes(MarkdownIt("commonmark").enable("table").parse(result.stdout))
    assert codes.count("[2, 18, 33]") == 2
    assert "true" in codes and "false" in codes
    assert "True" not in codes and "False" not in codes


def test_placeholders_in_prose_stay_visible(tmp_path):
    # "<dir>" placeholders are how a why says what to pass; CommonMark read them as HTML tags
    # and the rendered walkthrough said "--var draft_model=" with nothing after it.
    playbook = tmp_path / "ph.yaml"
    playbook.write_text(
        "name: ph\ndescription: Pass `--var draft_model=<dir>`; see <https://docs.sglang.ai>.\nsteps:\n"
        "  - id: a\n    title: Config of <model>\n    why: Needs --var target_model=<dir> first.\n    run: echo\n"
    )
    result = run_cli("explain", str(playbook))
    assert result.code == 0, result.stderr
    html = MarkdownIt("commonmark").render(result.stdout)
    assert "--var target_model=&lt;dir&gt; first." in html
    assert "Config of &lt;model&gt;" in html
    assert "<code>--var draft_model=&lt;dir&gt;</code>" in html  # a code span is left as written
    assert '<a href="https://docs.sglang.ai">' in html  # and an autolink stays a link


def test_on_failure_stop_is_told(tmp_path):
    # A newcomer stepping through must know that a failure here ends the host's run.
    playbook = tmp_path / "stop.yaml"
    playbook.write_text("name: stop\nsteps:\n  - id: a\n    run: 'false'\n    on_failure: stop\n  - id: b\n    run: echo\n")
    result = run_cli("explain", str(playbook))
    assert result.code == 0, result.stderr
    section_a = result.stdout.split("## 2.")[0]
    assert "stops this host's run when it fails" in section_a
    assert "stops this host's run" not in result.stdout.split("## 2.")[1]


def test_the_run_command_it_suggests_works(tmp_path):
    # Before: "spec-debug run team_check --host HOST" for ./my checks.yaml, which run refuses
    # (only shipped playbooks are found by name). The suggested command must run as printed.
    import shlex

    from tests.onboarding.test_onboarding_real_stepthrough import REPO

    (tmp_path / "my checks.yaml").write_text("name: team_check\nsteps:\n  - id: a\n    run: echo ok\n")
    env = {"PYTHONPATH": str(REPO)}
    result = run_cli("explain", "my checks.yaml", cwd=tmp_path, env=env)
    assert result.code == 0, result.stderr
    tokens = MarkdownIt("commonmark").parse(result.stdout)
    suggested = next(c for c in _inline_codes(tokens) if c.startswith("spec-debug run ") and not c.endswith("--step"))
    argv = shlex.split(suggested.replace("HOST", "local"))[1:] + ["--out", str(tmp_path / "runs")]
    ran = run_cli(*argv, cwd=tmp_path, env=env)
    assert ran.code == 0, ran.stderr
    assert "spec-debug run perf_regression --host HOST" in run_cli("explain", "perf_regression").stdout
