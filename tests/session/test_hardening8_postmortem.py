"""The postmortem and the distilled playbook on what real sessions hold: the commands agents
type (pipes, backticks, globs), the tracebacks Python prints (every constructor frame is
``in __init__``), a loop polling a real address, an incident reported with only a baseline.
Each test renders the output as a reader sees it (CommonMark with GFM tables, or the HTML) and
checks the exact text."""

from __future__ import annotations

import html as html_lib
import json
import re
from datetime import datetime, timezone
from pathlib import Path

from markdown_it import MarkdownIt
from markupsafe import escape

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.conftest import run_cli
from tests.session.incident_story import _Writer

GPU = "10.1.230.174"
START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
# curl's message for exit 7 (curl lib/strerror.c, CURLE_COULDNT_CONNECT)
REFUSED = "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused"
# torch raises this from torch/cuda/__init__.py (_lazy_init) on a host whose driver is gone;
# the frames are the ones CPython prints for `python -c` importing a module that touches CUDA.
NO_DRIVER = (
    "Traceback (most recent call last):\n"
    '  File "/root/dump_served_hidden.py", line 12, in <module>\n'
    "    runner = Runner()\n"
    '  File "/root/dump_served_hidden.py", line 7, in __init__\n'
    '    self.device = torch.zeros(1).cuda()\n'
    '  File "/root/ml-env/lib/python3.12/site-packages/torch/cuda/__init__.py", line 319, in _lazy_init\n'
    "    torch._C._cuda_init()\n"
    "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU "
    "and installed a driver from http://www.nvidia.com/Download/index.aspx\n")


def _session(sid: str = "8a1b0000-0000-4000-8000-00000000cc08") -> _Writer:
    return _Writer(sid, None, START)


def _write(tmp_path: Path, writer: _Writer) -> Path:
    path = tmp_path / f"{writer.session}.jsonl"
    path.write_text("\n".join(writer.lines) + "\n", encoding="utf-8")
    return path


def _as_html(md: str) -> str:
    """The Markdown as a wiki or GitHub shows it (CommonMark plus GFM tables)."""
    return MarkdownIt("commonmark").enable("table").render(md)


def _section(rendered: str, heading: str) -> str:
    start = rendered.index(f"<h2>{heading}</h2>")
    end = rendered.find("<h2>", start + 1)
    return rendered[start:end if end != -1 else len(rendered)]


def test_a_polled_loop_shows_the_address_it_polled_not_a_template(tmp_path):
    """A health check polled while the server loads: the postmortem named it
    `ssh root@N.N.N.N 'curl -sf http://localhost:N/health'`, an address and a port nobody typed."""
    m = _session()
    m.prompt(f"EAGLE-3 on {GPU} is at 54.8 tok/s against a 90 tok/s baseline. Please find out why.")
    health = f"ssh root@{GPU} 'curl -sf http://localhost:30000/health'"
    first = [m.bash(health, REFUSED, exit_code=7)[0] for _ in range(4)][0]
    m.bash(health, "OK")
    view = postmortem_view(analyze_path(_write(tmp_path, m)))
    [poll] = [line for line in view["went_wrong"] if line.startswith("A poll failed")]
    assert poll == (f"A poll failed 4 times while waiting [msg {first}]…[msg {first + 6}] (main): "
                    f"`{health}` — {REFUSED}")
    items = {item["source"]: item["action"] for item in view["action_items"]}
    assert items[f"loop [msg {first}]"] == f"Wait on a condition instead of retrying `{health}`"


def test_a_loop_whose_runs_differ_keeps_the_template(tmp_path):
    """`sleep 5`, `sleep 10`, `sleep 20` before the same check: no one command ran three times,
    so the template (numbers masked) is what the runs had in common."""
    m = _session()
    m.prompt(f"The server on {GPU} does not come up.")
    for wait in (5, 10, 20):
        m.bash(f"sleep {wait}; curl -sf http://{GPU}:30000/health", REFUSED, exit_code=7)
    view = postmortem_view(analyze_path(_write(tmp_path, m)))
    [poll] = [line for line in view["went_wrong"] if line.startswith("A poll failed")]
    assert "`sleep N; curl -sf http://N.N.N.N:N/health`" in poll


def test_commands_with_pipes_and_backticks_show_as_typed(tmp_path):
    """`python3 dump.py --pid `cat pid` | tee log`: in a list item an escaped pipe inside a code
    span was shown as `\\|`, and the command's own backticks ended the code span early."""
    m = _session()
    m.prompt(f"EAGLE-3 on {GPU} is slow.")
    check = "ssh root@gpu01 'python3 /root/dump.py --pid `cat /tmp/sgl.pid` | tee /tmp/d.log'"
    assert len(check) <= 80  # the action item cuts longer ones
    first = [m.bash(check, NO_DRIVER, exit_code=1)[0] for _ in range(3)][0]
    path = _write(tmp_path, m)
    md_file, html_file = tmp_path / "pm.md", tmp_path / "pm.html"
    assert run_cli("analyze", str(path), "-o", str(md_file)).code == 0
    assert run_cli("analyze", str(path), "--format", "html", "-o", str(html_file)).code == 0
    rendered = _as_html(md_file.read_text(encoding="utf-8"))
    shown = html_lib.escape(check, quote=False)
    # What went wrong (a list item) and the action items (a table cell): the same code text
    wrong = _section(rendered, "Lessons learned")
    assert (f'<a href="#msg-{first}">[msg {first}]</a>…<a href="#msg-{first + 4}">[msg {first + 4}]</a> (main): '
            f"<code>{shown}</code> — RuntimeError</li>") in wrong
    actions = _section(rendered, "Action items")
    assert f"<td>Read the error before re-running <code>{shown}</code>: it failed 3 times with RuntimeError</td>" in actions
    page, shown = html_file.read_text(encoding="utf-8"), escape(check)  # the HTML escapes quotes too
    assert f"<td>Read the error before re-running <code>{shown}</code>: it failed 3 times with RuntimeError</td>" in page
    assert f"(main): <code>{shown}</code> — RuntimeError</li>" in page


def test_traceback_paths_and_globs_are_not_read_as_emphasis(tmp_path):
    """`torch/cuda/__init__.py` rendered as torch/cuda/<strong>init</strong>.py, and two globs
    in one command (`ls /models/*/config.json /data/*/`) as italics between them."""
    m = _session()
    m.prompt(f"The dump script crashes on {GPU}; check the models too.")
    _, crash = m.bash(f"ssh root@{GPU} '~/ml-env/bin/python /root/dump_served_hidden.py'", NO_DRIVER, exit_code=1)
    globs = f"ssh root@{GPU} 'ls /models/*/config.json /data/eagle3/*/ | head [1]'"
    listing, _ = m.bash(globs, "ls: cannot access '/data/eagle3/*/': No such file or directory", exit_code=2)
    md = render_postmortem(analyze_path(_write(tmp_path, m)), "md")
    rendered = _as_html(md)
    support = _section(rendered, "Supporting information")
    assert "<strong>" not in support.replace("<strong>[msg", "") and "<em>" not in support
    assert ("RuntimeError Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and "
            "installed a driver from http://www.nvidia.com/Download/index.aspx "
            "(/root/ml-env/lib/python3.12/site-packages/torch/cuda/__init__.py:319)") in support
    assert re.search(re.escape(f"command on {GPU}: {html_lib.escape(globs, quote=False)}") + "(;|</li>)", support)
    assert f'id="msg-{crash}"' in support and f'id="msg-{listing}"' in support


def test_the_main_session_is_not_called_a_failed_sub_agent(tmp_path):
    m = _session()
    m.prompt(f"nvidia-smi fails on {GPU}.")
    for _ in range(2):
        m.bash(f"ssh root@{GPU} nvidia-smi",
               "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.", exit_code=9)
    wrong = postmortem_view(analyze_path(_write(tmp_path, m)))["went_wrong"]
    # before: "Sub-agent main failed."
    assert not any(line.startswith("Sub-agent main") for line in wrong)
    assert wrong[-1] == "Every tool call of the main session failed (2)."


def test_a_report_with_only_a_baseline_says_so(tmp_path):
    """The user gave the no-speculation baseline and nothing was measured with the draft: the
    Impact section said no numbers were found at all, and dropped the 90 tok/s."""
    m = _session()
    prompt = m.prompt(f"Serving Kimi-K2.5 on {GPU} without speculation gives a 90 tok/s baseline. With the EAGLE-3 "
                      "draft it feels slower. Please check.")
    m.bash(f"ssh root@{GPU} nvidia-smi", "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.",
           exit_code=9)
    analysis = analyze_path(_write(tmp_path, m))
    md = render_postmortem(analysis, "md")
    assert ("## Impact\n\nBaseline without speculation: 90 tok/s "
            f"[[msg {prompt}]](#msg-{prompt}). No throughput, acceptance or accuracy reading with speculation "
            "was found in the session.\n") in md
    assert ("- Throughput with speculation was not measured; the baseline without it is 90 tok/s "
            f"[[msg {prompt}]](#msg-{prompt}).") in md
    page = render_postmortem(analysis, "html")
    assert (f'<p>Baseline without speculation: 90 tok/s <a href="#msg-{prompt}">[msg {prompt}]</a>. No throughput, '
            "acceptance or accuracy reading with speculation was found in the session.</p>") in page


def test_the_header_keeps_sessions_and_hosts_apart(tmp_path):
    m = _session()
    m.prompt(f"EAGLE-3 on {GPU} is slow.")
    m.bash(f"ssh root@{GPU} nvidia-smi", "| NVIDIA H200 |")
    md = render_postmortem(analyze_path(_write(tmp_path, m)), "md")
    header = next(line for line in md.splitlines() if line.startswith("**Status:**"))
    # before: "...08:00:21.000Z)· **Hosts:**"
    assert re.search(r"\) · \*\*Hosts:\*\* `10\.1\.230\.174`$", header), header


def _sshd_session(tmp_path: Path, user: str, port: int) -> Path:
    """A session that reached its GPU host with `ssh -p PORT USER@127.0.0.1`, found sglang
    missing there and changed approach to list what the host has."""
    m = _session("8a1b0000-0000-4000-8000-00000000dd08")
    m.prompt("EAGLE-3 on the GPU host is slow; check what is installed there.")
    check = f"ssh -p {port} {user}@127.0.0.1 'python3 -c \"import sglang; print(sglang.__version__)\"'"
    m.bash(check, "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
                  "ModuleNotFoundError: No module named 'sglang'", exit_code=1)
    m.bash(f"ssh -p {port} {user}@127.0.0.1 'ls -d /tmp'", "/tmp")
    return _write(tmp_path, m)


def test_the_distilled_host_reaches_the_sessions_user_and_port(tmp_path):
    """The session typed `ssh -p PORT root@HOST`; the playbook said "e.g. --host HOST", which
    goes to port 22 as whoever runs it. Run as written, the suggestion must reach the host."""
    import getpass

    from tests.sshd_fixture import (
        ClientKey,
        ClientSetup,
        SshServer,
        sshd_available,
        write_ssh_config,
    )
    if not sshd_available():
        import pytest
        pytest.skip("OpenSSH sshd not installed")
    key = ClientKey.create(tmp_path / "client")
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    setup = ClientSetup(home=home, key=key, config=home / ".ssh" / "config", known_hosts=home / ".ssh" / "known_hosts")
    with SshServer(tmp_path / "sshd", [key]) as server:
        setup.trust(server)
        # the key and known_hosts for the address; the port comes from --host alone
        write_ssh_config(setup.config, {"127.0.0.1": {"IdentityFile": str(key.path), "IdentitiesOnly": "yes",
                                                      "UserKnownHostsFile": str(setup.known_hosts)}})
        user = getpass.getuser()
        playbook = tmp_path / "playbook.yaml"
        made = run_cli("distill", str(_sshd_session(tmp_path, user, server.port)), "-o", str(playbook))
        assert made.code == 0, made.stderr
        description = " ".join(playbook.read_text(encoding="utf-8").split())
        destination = f"{user}@127.0.0.1:{server.port}"
        assert f"e.g. --host {destination}." in description, description
        env = {"HOME": str(home), "SSH_AUTH_SOCK": ""}
        ran = run_cli("run", str(playbook), "--host", destination, "--out", str(tmp_path / "runs"), "--json", env=env)
    record = json.loads(ran.stdout)
    steps = {s["id"]: s for s in record["steps"]}
    assert ran.code != 3, ran.stderr
    # the first step ran on the host and failed there as in the session; the second passed
    assert [s["status"] for s in record["steps"]] == ["failed", "passed"], ran.stderr
    assert "ModuleNotFoundError: No module named 'sglang'" in record["steps"][0]["stderr"]
    assert steps and record["steps"][1]["stdout"] == "/tmp\n"


def test_an_ipv6_host_is_suggested_in_a_form_the_host_parser_reads(tmp_path):
    """`ssh root@2001:db8::5` is how ssh(1) takes a bare IPv6 address; `--host 2001:db8::5`,
    as the playbook suggested, is refused ("cannot parse host")."""
    from spec_debug.runner.hosts import resolve_hosts
    from spec_debug.session.distill import distill_playbook
    m = _session()
    m.prompt("EAGLE-3 on our IPv6-only GPU host is slow.")
    m.bash("ssh root@2001:db8::5 'tail -n 3 /root/sglang_server.log'", NO_DRIVER, exit_code=1)
    m.bash("ssh root@2001:db8::5 'nvidia-smi'", "NVIDIA H200, 143771 MiB")
    description = distill_playbook(analyze_path(_write(tmp_path, m)))["description"]
    destination = re.search(r"e\.g\. --host (\S+)\.$", description).group(1)
    assert destination == "root@[2001:db8::5]"
    [spec] = resolve_hosts([destination], [], None, None)
    assert (spec.address, spec.user, spec.port) == ("2001:db8::5", "root", None)


# SGLang's bench_serving summary (python/sglang/bench_serving.py), as INCIDENT.md's session read it
BENCH = ("============ Serving Benchmark Result ============\n"
         "Backend:                                 sglang\n"
         "Successful requests:                     64\n"
         "Output token throughput (tok/s):         54.8\n"
         "Accept length:                           1.42\n")


def test_a_benchmark_under_timeout_keeps_its_time_limit(tmp_path):
    """`timeout -k 10 600 CMD` (coreutils: -k takes a value) became a 10 s step timeout that
    killed the ten-minute benchmark; `timeout 10m CMD` got none."""
    from spec_debug.playbook import load_playbook_text
    from spec_debug.session.distill import distill_playbook, dump_playbook
    m = _session()
    m.prompt(f"EAGLE-3 on {GPU} is at 54.8 tok/s against a 90 tok/s baseline. Please find out why.")
    bench = ("timeout -k 10 600 python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64 "
             "--dataset-name random --random-input-len 512")
    m.bash(f"ssh root@{GPU} '{bench}'", BENCH)
    m.bash(f"ssh root@{GPU} 'timeout 10m python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 8'",
           BENCH.replace("64", "8"))
    doc = distill_playbook(analyze_path(_write(tmp_path, m)))
    limits = {s["run"]: s.get("timeout") for s in doc["steps"]}
    assert limits[bench] == 610
    assert limits["timeout 10m python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 8"] == 600
    assert [s.timeout for s in load_playbook_text(dump_playbook(doc), "p.yaml").steps] == [610, 600]


DATA = Path(__file__).resolve().parent / "data_h8" / "postmortem"


def test_a_screenshot_pasted_alone_is_not_the_report(tmp_path):
    """A Codex turn holding only an image is a prompt with no text: the postmortem was titled
    "Postmortem: " and began "The session started from this report [msg 2]: “”"."""
    out = tmp_path / "pm.md"
    result = run_cli("analyze", str(DATA), "-o", str(out))
    assert result.code == 0, result.stderr
    md = out.read_text(encoding="utf-8")
    assert md.startswith("# Postmortem: That is the Grafana panel: decode throughput on gpu01 dropped when we "
                         "enabled EAGLE-3…\n")  # cut after a whole word, not in "Fi…"
    assert ("- The session started from this report [[msg 5]](#msg-5): “That is the Grafana panel: decode "
            "throughput on gpu01 dropped when we enabled EAGLE-3. Find out why.”\n") in md
    assert "“”" not in md and "prompt: ;" not in md
    assert "| [[msg 3]](#msg-3) |" not in md  # no timeline row for the image turn


def test_a_playbook_name_with_spaces_is_refused_as_the_option_it_is(tmp_path):
    """`--name "GPU smoke test"`: the error pointed at line 2 of the output file, which was
    never written, after the whole transcript had been read."""
    playbook = tmp_path / "playbook.yaml"
    session = _sshd_session(tmp_path, "root", 2222)
    from spec_debug.session.distill import distill_playbook
    assert distill_playbook(analyze_path(session))["steps"]  # a session that distills
    result = run_cli("distill", str(session), "-o", str(playbook), "--name", "EAGLE-3 slow decode!")
    assert result.code == 2
    assert result.stderr == ("error: --name 'EAGLE-3 slow decode!' is not a playbook name\n"
                             "  hint: one word of letters, digits, _ . - (it names the run folders): "
                             "--name EAGLE-3_slow_decode\n")
    assert not playbook.exists()


def test_a_script_sent_to_ssh_in_a_heredoc_is_distilled_as_the_script(tmp_path):
    """`ssh HOST << 'EOF'` + lines + `EOF` is how agents run a multi-line check on a host. The
    playbook's step was `< < EOF cat ... EOF` (the redirection read as the remote command),
    which no shell runs; it must run the script, and `python3 - <<'PY'` with its heredoc."""
    import subprocess

    import yaml
    work = tmp_path / "eagle3"
    work.mkdir()
    (work / "config.json").write_text('{"draft_vocab_size": 32000, "target_hidden_size": 7168}\n', encoding="utf-8")
    (work / "server.log").write_text("accept len: 1.42\naccept len: 1.40\n", encoding="utf-8")
    script = f"cd {work}\ngrep -c 'accept len' server.log\npython3 -c \"import json; print(json.load(open('config.json'))['vocab'])\""
    reader = f"import json\nprint(sorted(json.load(open('{work}/config.json'))))"
    m = _session()
    m.prompt("EAGLE-3 on gpu01 accepts almost nothing. Check the draft config and the server log.")
    m.bash(f"ssh root@gpu01 << 'EOF'\n{script}\nEOF",
           "2\nTraceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nKeyError: 'vocab'", exit_code=1)
    m.bash(f"ssh root@gpu01 python3 - <<'PY'\n{reader}\nPY",
           "['draft_vocab_size', 'target_hidden_size']")
    m.bash("ssh root@gpu01 nvidia-smi", "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.",
           exit_code=9)
    playbook = tmp_path / "playbook.yaml"
    made = run_cli("distill", str(_write(tmp_path, m)), "-o", str(playbook))
    assert made.code == 0, made.stderr
    steps = yaml.safe_load(playbook.read_text(encoding="utf-8"))["steps"]
    assert [s["provenance"]["seq"] for s in steps][:2] == [1, 3]
    assert "<<" not in steps[0]["run"] and steps[0]["run"].endswith("['vocab'])\"")
    assert steps[1]["run"].startswith("python3 - <<'PY'\n") and steps[1]["run"].endswith("\nPY")
    ran = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    record = json.loads(ran.stdout)
    # each step does on the host what the session's script did there
    for done, original in zip(record["steps"], (script, f"python3 - <<'PY'\n{reader}\nPY")):
        expected = subprocess.run(["bash", "-c", original], capture_output=True, text=True, timeout=30, check=False)
        assert (done["stdout"], done["exit_code"]) == (expected.stdout, expected.returncode)
    assert record["steps"][0]["stdout"] == "2\n" and "KeyError: 'vocab'" in record["steps"][0]["stderr"]
    assert record["steps"][1]["stdout"] == "['draft_vocab_size', 'target_hidden_size']\n"


def test_a_phase_boundary_link_leads_to_what_happened_there(tmp_path):
    """The Phases section links each phase's first and last message; an entry for a context
    compaction (a `system` line, claude-code-log's compact_boundary) said only "referenced above"."""
    m = _session()
    m.prompt(f"EAGLE-3 on {GPU} is at 54.8 tok/s against a 90 tok/s baseline. Please find out why.")
    m.bash(f"ssh root@{GPU} 'ps -eo args | grep [l]aunch_server'", "python -m sglang.launch_server --tp 8")
    compaction = m.raw({"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
                        "compactMetadata": {"trigger": "auto", "preTokens": 167000}, "timestamp": "2026-03-02T09:00:00.000Z",
                        "sessionId": m.session, "uuid": "compact-1", "isSidechain": False})
    m.bash(f"ssh root@{GPU} 'tail -n 3 /root/sglang_server.log'", "[2026-03-02 09:00:01] Decode batch, #running-req: 1")
    md = render_postmortem(analyze_path(_write(tmp_path, m)), "md")
    phases = md[md.index("## Phases"):md.index("## Agents")]
    assert f"[[msg {compaction}]](#msg-{compaction})" in phases
    [entry] = [line for line in md.splitlines() if line.startswith(f'- <a id="msg-{compaction}"></a>')]
    assert entry == (f'- <a id="msg-{compaction}"></a>**[msg {compaction}]** (main): phase 2 starts: After context '
                     f"compaction — Reading logs on {GPU}")
    assert "referenced above" not in md


def test_a_secret_passed_by_reference_stays_a_reference(tmp_path):
    """`HF_TOKEN=$HF_TOKEN cmd` and `export HF_TOKEN=$(cat FILE)` keep the token off the command
    line. The playbook made each a secret var the user had to pass, and turned the second into
    `export HF_TOKEN={{ hf_token }} {{ token }})`, which bash refuses (an unmatched `)`)."""
    import yaml
    token_file = tmp_path / "hf_token"
    token_file.write_text("hf_" + "q" * 34 + "\n", encoding="utf-8")
    length = "python3 -c 'import os; print(len(os.environ[\"HF_TOKEN\"]))'"
    by_env = f"HF_TOKEN=$HF_TOKEN {length}"
    by_file = f"export HF_TOKEN=$(cat {token_file}) && {length}"
    unset = "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nKeyError: 'HF_TOKEN'"
    m = _session()
    m.prompt("The draft download from the Hub fails on the GPU host; check the token first.")
    m.bash(by_env, unset, exit_code=1)
    m.bash(f"ls -la {tmp_path}", "hf_token")
    m.bash(by_file, "Traceback (most recent call last):\n  File \"<frozen os>\", line 679, in __getitem__\n"
                    "KeyError: 'HF_TOKEN'", exit_code=1)
    m.bash("nvidia-smi -L", "GPU 0: NVIDIA H200 (UUID: GPU-0f0e)")
    playbook = tmp_path / "playbook.yaml"
    made = run_cli("distill", str(_write(tmp_path, m)), "-o", str(playbook))
    assert made.code == 0, made.stderr
    doc = yaml.safe_load(playbook.read_text(encoding="utf-8"))
    runs = {s["provenance"]["seq"]: s for s in doc["steps"]}
    assert runs[1]["run"] == by_env and "requires" not in runs[1]
    assert runs[5]["run"] == "export HF_TOKEN=$(cat {{ hf_token }}) && " + length
    assert doc["vars"]["hf_token"] == str(token_file)
    ran = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json",
                  env={"HF_TOKEN": "hf_" + "z" * 20})
    done = {s["id"]: s for s in json.loads(ran.stdout)["steps"]}
    assert [done[s["id"]]["stdout"] for s in (runs[1], runs[5])] == ["23\n", "37\n"], ran.stderr


def test_output_to_a_folder_names_a_file_this_command_writes(tmp_path):
    """`-o out/` for a playbook was told "name a file, e.g. out/report.md", once the whole
    transcript had been read."""
    out = tmp_path / "out"
    out.mkdir()
    made = run_cli("distill", str(_sshd_session(tmp_path, "root", 2222)), "-o", str(out))
    assert (made.code, made.stderr) == (3, (f"error: cannot write {out}: it is a folder\n"
                                            f"  hint: name a file, e.g. {out / 'playbook.yaml'}\n"))
    page = run_cli("analyze", str(DATA), "--format", "html", "-o", str(out))
    assert page.stderr == f"error: cannot write {out}: it is a folder\n  hint: name a file, e.g. {out / 'postmortem.html'}\n"
    assert list(out.iterdir()) == []


def test_a_long_timeline_keeps_its_end(tmp_path):
    """A benchmark rerun 120 times (two readings each): the timeline was cut at 200 rows and
    ended before the fix and the reading that confirmed it."""
    m = _session()
    m.prompt(f"EAGLE-3 on {GPU} is at 54.8 tok/s against a 90 tok/s baseline. Please find out why.")
    bench = f"ssh root@{GPU} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"
    for i in range(120):
        m.bash(bench, BENCH.replace("54.8", f"{54 + i % 3}.8"))
    _, fixed = m.bash(bench, BENCH.replace("54.8", "96.8").replace("1.42", "3.41"))
    view = postmortem_view(analyze_path(_write(tmp_path, m)))
    timeline = view["timeline"]
    assert len(timeline) == 201 and timeline[0]["kind"] == "prompt"
    [gap] = [row for row in timeline if row["seq"] is None]
    assert gap is timeline[100] and gap["kind"] == "…"
    left_out = re.fullmatch(r"(\d+) rows left out, from \[msg (\d+)\] to \[msg (\d+)\]", gap["text"])
    assert int(left_out.group(2)) == timeline[99]["seq"] and int(left_out.group(3)) == timeline[101]["seq"]
    assert int(left_out.group(1)) > 40  # 242 readings, a prompt and a phase
    assert [(r["seq"], r["text"]) for r in timeline[-2:]] == [
        (fixed, f"throughput 96.8 tok/s on {GPU}"), (fixed, f"accept_length 3.41 tokens on {GPU}")]
    for fmt in ("md", "html"):  # the gap row renders without a link of its own
        assert "rows left out, from" in render_postmortem(analyze_path(_write(tmp_path, m)), fmt)


def test_a_path_named_like_a_jinja_literal_stays_the_path(tmp_path):
    """`/srv/flags/true` became the var `true`: `cat {{ true }}` renders as `cat true` (Jinja's
    literal), and `/data/none` as an empty argument."""
    import yaml
    flags, data = tmp_path / "flags", tmp_path / "data"
    flags.mkdir()
    (flags / "true").write_text("speculative=on\n", encoding="utf-8")
    (data / "none").mkdir(parents=True)
    (data / "none" / "shard_0000.pt").write_bytes(b"")
    m = _session()
    m.prompt("The draft sees no training data on gpu01.")
    m.bash(f"cat {flags}/true", "cat: " + str(flags) + "/true: Permission denied", exit_code=1)
    m.bash("nvidia-smi -L", "GPU 0: NVIDIA H200 (UUID: GPU-0f0e)")
    m.bash(f"ls {data}/none", f"ls: cannot access '{data}/none': No such file or directory", exit_code=2)
    m.bash("ps -eo pid,args | grep [s]glang", "4242 python -m sglang.launch_server --tp 8")
    playbook = tmp_path / "playbook.yaml"
    assert run_cli("distill", str(_write(tmp_path, m)), "-o", str(playbook)).code == 0
    doc = yaml.safe_load(playbook.read_text(encoding="utf-8"))
    ran = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    by_seq = {s["provenance"]["seq"]: s["id"] for s in doc["steps"]}
    done = {s["id"]: s for s in json.loads(ran.stdout)["steps"]}
    assert done[by_seq[1]]["stdout"] == "speculative=on\n", done[by_seq[1]]["stderr"]
    assert done[by_seq[5]]["stdout"] == "shard_0000.pt\n"
    assert {doc["vars"][k] for k in ("true_2", "none_2")} == {f"{flags}/true", f"{data}/none"}


def _hung_server(m: _Writer) -> None:
    """The server hangs; the session checks it is alive, restarts it, then reads its journal
    (systemd's unit log: `journalctl -u`)."""
    m.prompt(f"The EAGLE-3 server on {GPU} hangs: requests time out. Please find out why.")
    m.bash(f"ssh root@{GPU} 'curl -sf -m 5 http://localhost:30000/health'",
           "curl: (28) Operation timed out after 5001 milliseconds with 0 bytes received", exit_code=28)
    m.bash(f"ssh root@{GPU} 'kill -0 $(cat /tmp/sglang.pid) && echo alive'", "alive")
    m.bash(f"ssh root@{GPU} 'nvidia-smi --query-compute-apps=pid,used_memory --format=csv'",
           "pid, used_memory [MiB]\n4242, 70000 MiB")
    m.bash(f"ssh root@{GPU} 'systemctl restart sglang && systemctl status sglang --no-pager | head -n 3'",
           "Job for sglang.service failed because the control process exited with error code.", exit_code=1)
    m.bash(f"ssh root@{GPU} 'journalctl -u sglang -n 20 --no-pager'",
           "sglang[4242]: RuntimeError: CUDA error: an illegal memory access was encountered")


def test_a_distilled_playbook_does_not_restart_the_server(tmp_path):
    """The restart that failed and sent the session to the journal was a step of the
    "diagnostic" playbook: run against production it restarts the service."""
    import yaml
    m = _session()
    _hung_server(m)
    playbook = tmp_path / "playbook.yaml"
    made = run_cli("distill", str(_write(tmp_path, m)), "-o", str(playbook))
    assert made.code == 0, made.stderr
    runs = [s["run"] for s in yaml.safe_load(playbook.read_text(encoding="utf-8"))["steps"]]
    assert runs == ["curl -sf -m 5 http://localhost:30000/health", "kill -0 $(cat {{ sglang_pid }}) && echo alive",
                    "journalctl -u sglang -n 20 --no-pager"]
    assert made.stderr.endswith(
        "left out 1 command that changes the host: `systemctl restart sglang && systemctl status sglang "
        "--no-pa…` [msg 7] (systemctl restart)\n")


def test_a_session_whose_turning_points_all_change_the_host_says_so(tmp_path):
    m = _session()
    m.prompt(f"GPU 0 on {GPU} is stuck at 100% with no process.")
    m.bash(f"ssh root@{GPU} 'nvidia-smi --gpu-reset -i 0'",
           "Unable to reset GPU 00000000:18:00.0 because it's being used by some other process", exit_code=255)
    m.bash(f"ssh root@{GPU} 'sudo kill -9 4242'", "")
    made = run_cli("distill", str(_write(tmp_path, m)), "-o", str(tmp_path / "playbook.yaml"))
    assert (made.code, made.stderr) == (2, (
        "error: nothing to distill: every command that led to a finding or a change of approach changes the host "
        "(`nvidia-smi --gpu-reset -i 0` [msg 1] (nvidia-smi --gpu-reset), `sudo kill -9 4242` [msg 3] (kill))\n  hint: a playbook only diagnoses; write the fix as a runbook step by hand\n"))


# Commands from EAGLE-3 debugging sessions: what restarts, kills, installs or overwrites, and the
# look-alikes that only read (signal 0, `nvidia-smi dmon -c` counting samples, a quoted '>').
CHANGES = {
    "pkill -f 'sglang::scheduler'": "pkill",
    "sudo -u ubuntu kill -9 $(pgrep -f launch_server)": "kill",
    "systemctl restart sglang": "systemctl restart",
    "docker restart sglang-eagle3": "docker restart",
    "kubectl rollout restart deploy/sglang -n infer": "kubectl restart",
    "python3 -m pip install -U 'sglang[all]==0.5.2'": "pip install",
    "nvidia-smi -i 0 --gpu-reset": "nvidia-smi --gpu-reset",
    "echo 3 > /proc/sys/vm/drop_caches": "writes /proc/sys/vm/drop_caches",
    "sed -i 's/num_steps 1/num_steps 3/' /root/launch.sh": "sed -i",
    "tmux send-keys -t sglang C-c": "tmux send-keys",
    "cd /root/sglang && git checkout v0.5.2": "git checkout",
    "rm -rf ~/.cache/flashinfer": "rm",
    "sudo fuser -k /dev/nvidia0": "fuser -k",
    "docker compose -f serve.yml restart": "docker restart",
    "cat > /root/launch.sh <<'EOF'\npython -m sglang.launch_server --speculative-num-steps 3\nEOF": "writes /root/launch.sh",
}
READS = ["kill -0 $(cat /tmp/sglang.pid) && echo alive", "nvidia-smi dmon -s u -c 5", "grep -c '>' /root/sglang_server.log",
         "docker ps --format '{{.Names}}'", "kubectl rollout status deploy/sglang -n infer",
         "systemctl status sglang --no-pager", "python -m sglang.bench_serving --port 30000 > /tmp/bench.txt 2>&1",
         "git -C /root/sglang log --oneline -5", "pip show sglang", "journalctl -u sglang -n 50 | tee /dev/null",
         "fuser -v /dev/nvidia*", "mount | grep nfs", "docker compose -f serve.yml logs --tail 50", "crontab -l",
         # a Python body is no shell: `> 1` compares, `kill` is a name
         ("python3 - <<'PY'\nimport json\ncfg = json.load(open('/root/eagle3/config.json'))\n"
          "kill = cfg['num_hidden_layers'] > 1\nprint(kill)\nPY")]


def test_what_changes_a_host_is_told_from_what_reads_it():
    from spec_debug.session.distill import changes_host
    assert {command: changes_host(command) for command in CHANGES} == CHANGES
    assert [command for command in READS if changes_host(command)] == []


def test_a_postmortem_on_a_stdout_that_is_not_utf8(tmp_path):
    """`PYTHONIOENCODING=ascii` (or a latin-1 locale): printing "·", "→" or the session's own
    "é" ended `analyze` in a UnicodeEncodeError traceback."""
    result = run_cli("analyze", str(DATA), env={"PYTHONIOENCODING": "ascii"})
    assert result.code == 0 and "Traceback" not in result.stderr, result.stderr
    assert result.stdout.startswith("# Postmortem: That is the Grafana panel")
    assert "**Status:** draft from `spec-debug analyze` · **Sessions:**" in result.stdout


def test_the_gpu_host_in_a_url_typed_locally_is_a_var(tmp_path):
    """`curl http://10.1.230.174:30000/get_server_info` typed on the laptop: the playbook kept
    the address, so `--hosts gpu[01:08]` asked the same server eight times."""
    import yaml
    m = _session()
    m.prompt(f"EAGLE-3 on {GPU} is at 54.8 tok/s against a 90 tok/s baseline. Please find out why.")
    m.bash(f"ssh root@{GPU} 'ps -eo args | grep [l]aunch_server'",
           "python -m sglang.launch_server --model-path /models/Kimi-K2.5 --speculative-algorithm EAGLE3 "
           "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2 --host 0.0.0.0")
    m.bash(f"curl -s -m 2 http://{GPU}:30000/get_server_info | head -c 300",
           f"curl: (7) Failed to connect to {GPU} port 30000 after 3 ms: Connection refused", exit_code=7)
    m.bash(f"ssh root@{GPU} nvidia-smi -L", "GPU 0: NVIDIA H200 (UUID: GPU-0f0e)")
    playbook = tmp_path / "playbook.yaml"
    assert run_cli("distill", str(_write(tmp_path, m)), "-o", str(playbook)).code == 0
    doc = yaml.safe_load(playbook.read_text(encoding="utf-8"))
    [curl] = [s for s in doc["steps"] if s.get("run", "").startswith("curl")]
    assert curl["run"] == "curl -s -m 2 http://{{ host_10_1_230_174 }}:30000/get_server_info | head -c 300"
    assert doc["vars"]["host_10_1_230_174"] == GPU  # the session's value by default
    ran = run_cli("run", str(playbook), "--host", "local", "--var", "host_10_1_230_174=127.0.0.1",
                  "--out", str(tmp_path / "runs"), "--json")
    [done] = [s for s in json.loads(ran.stdout)["steps"] if s["id"] == curl["id"]]
    assert done["command"] == "curl -s -m 2 http://127.0.0.1:30000/get_server_info | head -c 300"


def test_a_command_that_follows_its_output_gets_a_time_limit(tmp_path):
    """`tail -f` ran in the session until the agent's Bash tool gave up ("Command timed out
    after 2m 0.0s"); as a step without a timeout the run waited on it forever."""
    from spec_debug.playbook import load_playbook_text
    from spec_debug.session.distill import distill_playbook, dump_playbook
    m = _session()
    m.prompt(f"EAGLE-3 on {GPU} is at 54.8 tok/s against a 90 tok/s baseline. Please find out why.")
    m.bash(f"ssh root@{GPU} 'tail -f /root/sglang_server.log'", "Command timed out after 2m 0.0s", exit_code=124)
    m.bash(f"ssh root@{GPU} 'watch -n 1 nvidia-smi'", "Command timed out after 2m 0.0s", exit_code=124)
    m.bash(f"ssh root@{GPU} 'ps -eo pid,args | grep [l]aunch_server'", "4242 python -m sglang.launch_server --tp 8")
    doc = distill_playbook(analyze_path(_write(tmp_path, m)))
    by_run = {s["run"]: s for s in doc["steps"]}
    # `watch` draws with curses and stops at once without a terminal (a step over ssh has no
    # TERM): the step runs the watched command once, and needs no time limit.
    tail, watch = by_run["tail -f {{ sglang_server_log }}"], by_run["nvidia-smi"]
    assert (tail["timeout"], "timeout" in watch) == (30, False)
    assert tail["why"].endswith("It runs until stopped (tail -f): the step stops it after 30 s.")
    assert "timeout" not in by_run["ps -eo pid,args | grep [l]aunch_server"]
    steps = {s.id: s.timeout for s in load_playbook_text(dump_playbook(doc), "p.yaml").steps}
    assert steps[tail["id"]] == 30
