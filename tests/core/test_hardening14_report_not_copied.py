"""The reports say what a run did not copy whole, file by file, and how to keep it.

A fetch step over its limit recorded `fetch_skipped` / `fetch_cut` in run.json and one long
message, and an output artifact cut at the artifact limit was named only in run.json: report.md
and report.html had no table of them and no artifact links, so a reader took a cut log for the
whole log. Now both reports hold "Files not copied whole" (each file, its size, what happened,
how to raise the limit) and "Artifacts" (each artifact as a link, with what it lacks beside it).
Real local runs; the checkpoint shards are sparse files (stat says 1 GiB, the disk holds nothing).
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path
from urllib.parse import unquote

from tests.conftest import only_run, run_cli
from tests.core.test_record_faults import _in_private_tmpfs, needs_tmpfs

GIB = 1024**3


def sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


def md_table(markdown: str, heading: str) -> list[list[str]]:
    """The rows of the table under `## heading`, as cells."""
    section = markdown.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("|---")]
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows[1:]]


def html_links(page: str) -> list[str]:
    # the artifact links, not the in-page links of each finding to its step (#step-N, #output-N)
    return [html.unescape(href) for href in re.findall(r'<a href="([^"#][^"]*)"', page)]


def test_a_checkpoint_over_the_fetch_limit_is_listed_with_its_size_and_the_way_to_keep_it(tmp_path, write_playbook):
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    for shard in ("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"):
        sparse(ckpt / shard, GIB)
    (ckpt / "config.json").write_text('{"architectures": ["LlamaForCausalLMEagle3"]}\n')
    playbook = write_playbook(f"""
name: grab
steps:
  - id: draft
    fetch:
      src: ["{ckpt}/model-*.safetensors", "{ckpt}/config.json"]
      dest: draft
    artifact_limit: 1M
""")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert "Traceback" not in result.stderr, result.stderr
    run_dir, _ = only_run(out)
    markdown = (run_dir / "report.md").read_text()

    rows = md_table(markdown, "Files not copied whole")
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        ("`local`", "draft", f"`{ckpt}/model-00001-of-00002.safetensors`", "1.0 GiB"),
        ("`local`", "draft", f"`{ckpt}/model-00002-of-00002.safetensors`", "1.0 GiB"),
    ]
    assert all(r[4] == "not copied: over the step's fetch limit of 1.0 MiB" for r in rows)
    # 2 GiB skipped on top of the 1 MiB limit: a limit that copies them all.
    assert "- step draft: set `artifact_limit: 3G` on the step (`0` copies all), or run with `--artifact-limit 3G`" in markdown

    # The file that came is a link that leads to it, with nothing said against it.
    (artifact,) = md_table(markdown, "Artifacts")
    assert artifact[:2] == ["`local`", "draft"] and artifact[3] == ""
    href = re.fullmatch(r"\[.*\]\((.*)\)", artifact[2]).group(1)
    assert (run_dir / unquote(href)).read_text() == (ckpt / "config.json").read_text()

    page = (run_dir / "report.html").read_text()
    assert "Files not copied whole" in page
    assert page.count("not copied: over the step&#39;s fetch limit of 1.0 MiB") == 2
    assert "set artifact_limit: 3G on the step" in page
    (link,) = html_links(page)
    assert (run_dir / unquote(link)).read_text() == (ckpt / "config.json").read_text()


def test_a_file_longer_than_its_size_said_is_listed_as_cut(tmp_path, write_playbook):
    # /proc files stat as 0 bytes and hold more: the copy stops at the limit.
    playbook = write_playbook("""
name: grab
steps:
  - id: cpus
    fetch: {src: /proc/self/mountinfo, dest: proc}
    artifact_limit: 100
""")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert "Traceback" not in result.stderr, result.stderr
    run_dir, record = only_run(out)
    (step,) = record["steps"]
    assert step["facts"]["fetch_cut"], step  # the fault this test is about did happen
    markdown = (run_dir / "report.md").read_text()
    (row,) = md_table(markdown, "Files not copied whole")
    assert row[2] == "`/proc/self/mountinfo`" and row[3] == "first 100 bytes kept"
    assert row[4].startswith("cut: it held more than its size said")
    (artifact,) = md_table(markdown, "Artifacts")
    assert artifact[3] == "only the first 100 bytes of /proc/self/mountinfo: it held more"


def test_an_output_cut_at_the_artifact_limit_says_so_beside_its_link(tmp_path, write_playbook):
    playbook = write_playbook("""
name: flood
steps:
  - id: flood
    run: head -c 3000000 /dev/zero | tr '\\0' 'x'
    artifact_limit: 1M
""")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert "Traceback" not in result.stderr, result.stderr
    run_dir, record = only_run(out)
    (step,) = record["steps"]
    ((path, dropped),) = step["capped_artifacts"].items()
    kept = (run_dir / path).stat().st_size
    markdown = (run_dir / "report.md").read_text()

    (row,) = md_table(markdown, "Files not copied whole")
    assert row[2] == f"`{path}`" and row[3].endswith(" dropped")
    assert "its middle dropped" in row[4]
    assert "- step flood: set `artifact_limit:` on the step (`0` keeps all) or run with `--artifact-limit`" in markdown

    (artifact,) = md_table(markdown, "Artifacts")
    assert artifact[2] == f"[{path}]({path})"
    mib = dropped / 2**20
    assert artifact[3] == f"cut at the artifact limit: {mib:.1f} MiB dropped from its middle"
    assert kept + dropped >= 3_000_000

    # The raw output's summary no longer calls the artifact the full output.
    assert "<summary>local / flood (truncated; the artifact keeps its head and end only: see Artifacts)</summary>" in markdown
    assert "full output in artifacts" not in markdown

    page = (run_dir / "report.html").read_text()
    assert html_links(page) == [path]
    assert "full output in artifacts" not in page
    assert f"cut at the artifact limit: {mib:.1f} MiB dropped from its middle" in page


def test_an_artifact_path_that_leads_out_of_the_run_folder_is_no_link(tmp_path, write_playbook):
    # run.json is anyone's file: a report rendered from it must not link elsewhere.
    playbook = write_playbook("name: one\nsteps:\n  - id: hello\n    run: echo hello\n")
    out = tmp_path / "runs"
    run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    hostile = ["//evil.example/x.log", "../../etc/passwd", "/etc/passwd", "javascript:alert(1)", "artifacts/local/a b#c?.log"]
    record["steps"][0]["artifacts"] = hostile
    (run_dir / "run.json").write_text(json.dumps(record))
    page = run_cli("report", str(run_dir), "--format", "html").stdout
    assert html_links(page) == ["javascript%3Aalert%281%29", "artifacts/local/a%20b%23c%3F.log"]
    for path in hostile:
        assert html.escape(path) in page


@needs_tmpfs
def test_a_file_refused_for_the_controllers_free_disk_says_so_not_raise_the_limit(tmp_path, write_playbook):
    # A 4G limit on a 100 MB disk: raising the limit would not have copied the shard.
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    sparse(ckpt / "model.safetensors", GIB)
    playbook = write_playbook(f"name: grab\nsteps:\n  - id: draft\n    fetch: {{src: {ckpt}/model.safetensors}}\n    artifact_limit: 4G\n")
    disk, saved = tmp_path / "disk", tmp_path / "saved"
    cli = f"{sys.executable} -m spec_debug run {playbook} --host local --out {disk}/runs"
    proc = _in_private_tmpfs(disk, "size=100m", f"{cli}; rc=$?; cp -r {disk}/runs {saved}; exit $rc", tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    run_dir, record = only_run(saved)
    assert record["steps"][0]["facts"]["fetch_disk_bound"] == [str(ckpt / "model.safetensors")]
    markdown = (run_dir / "report.md").read_text()
    (row,) = md_table(markdown, "Files not copied whole")
    assert row[3] == "1.0 GiB" and row[4] == "not copied: the controller's disk has too little free space"
    assert "- step draft: free space on the controller's disk, or pass `--out DIR` on a bigger one" in markdown
    assert "artifact_limit:" not in markdown.split("## Files not copied whole", 1)[1].split("\n## ", 1)[0]


def test_a_run_step_capturing_a_fact_named_like_the_fetch_facts_renders_as_usual(tmp_path, write_playbook):
    playbook = write_playbook("""
name: names
steps:
  - id: counts
    run: echo "fetch_cut=5 fetch_skipped=none"
    capture:
      - {regex: 'fetch_cut=(\\d+)', name: fetch_cut, type: int}
      - {regex: 'fetch_skipped=(\\w+)', name: fetch_skipped}
""")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert result.code == 0, result.stderr
    run_dir, record = only_run(out)
    assert record["steps"][0]["facts"] == {"fetch_cut": 5, "fetch_skipped": "none"}
    markdown = (run_dir / "report.md").read_text()
    assert "Files not copied whole" not in markdown and "## Artifacts" not in markdown
