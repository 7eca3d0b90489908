"""A long, deterministic Claude Code session that retells the EAGLE-3 incident
(../shared/reference/INCIDENT.md): a Kimi-K2.5 EAGLE-3 draft at 54.8 tok/s against a
90 tok/s baseline, SSH to the GPU host 10.1.230.174, ``--speculative-num-steps 1``, the
hidden-state concatenation mismatch cat([embed, layer3, layer31]) vs
cat([layer3, layer31, layer59]), a crashing standalone test at [msg 4400], the pivot to the
speculators reference source at [msg 4401], a flag fix and a format fix.

Written in the CLI 2.1.x layout: ``<sessionId>.jsonl`` plus
``<sessionId>/subagents/agent-<id>.jsonl`` with ``.meta.json`` sidecars, a nested sub-agent
linked only by its sidecar's ``toolUseId`` (daaain/claude-code-log PR #218).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

SESSION_ID = "7e1a0000-0000-4000-8000-000000004401"
GPU = "10.1.230.174"
SSH = f"ssh root@{GPU}"
PY = "~/ml-env/bin/python"
TEST = "/tmp/test_drafter_standalone.py"
CORE = "~/ml-env/lib/python3.12/site-packages/speculators/models/eagle3/core.py"
LAUNCH = ("python -m sglang.launch_server --model-path /models/Kimi-K2.5 --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/kimi-k2.5-eagle3 --speculative-num-steps {steps} "
          "--speculative-eagle-topk 1 --speculative-num-draft-tokens {tokens} --tp 8 --port 30000")
CRASH_RESULT_SEQ = 4400
FILLER_DIRS = ["shard_%04d" % i for i in range(64)]


@dataclass
class Story:
    root: Path
    session_file: Path
    seqs: dict[str, int] = field(default_factory=dict)
    """Where the story planted each thing (message index in the trunk file)."""


class _Writer:
    def __init__(self, session: str, agent: str | None, start: datetime) -> None:
        self.lines: list[str] = []
        self.session = session
        self.agent = agent
        self.clock = start
        self.n = 0
        self.last_uuid: str | None = None

    def _env(self, kind: str) -> dict:
        self.clock += timedelta(seconds=7)
        self.n += 1
        uuid = f"{self.agent or 'main'}-{self.n:05d}"
        env = {"type": kind, "uuid": uuid, "parentUuid": self.last_uuid,
               "isSidechain": self.agent is not None, "userType": "external", "cwd": "/root/work",
               "sessionId": self.session, "version": "2.1.173",
               "timestamp": self.clock.strftime("%Y-%m-%dT%H:%M:%S.000Z")}
        if self.agent:
            env["agentId"] = self.agent
        self.last_uuid = uuid
        return env

    def _add(self, obj: dict) -> int:
        self.lines.append(json.dumps(obj))
        return len(self.lines) - 1

    def prompt(self, text: str) -> int:
        env = self._env("user")
        env["message"] = {"role": "user", "content": text if self.agent else [{"type": "text", "text": text}]}
        return self._add(env)

    def assistant(self, *blocks: dict) -> int:
        env = self._env("assistant")
        env["message"] = {"id": f"msg_{env['uuid']}", "type": "message", "role": "assistant",
                          "model": "claude-opus-4-1", "content": list(blocks),
                          "usage": {"input_tokens": 1200, "output_tokens": 80}}
        return self._add(env)

    def say(self, text: str) -> int:
        return self.assistant({"type": "text", "text": text})

    def bash(self, command: str, output: str, *, text: str | None = None, exit_code: int = 0,
             description: str | None = None) -> tuple[int, int]:
        tool_id = f"toolu_{self.agent or 'main'}_{self.n + 1:05d}"
        blocks = [{"type": "text", "text": text}] if text else []
        blocks.append({"type": "tool_use", "id": tool_id, "name": "Bash",
                       "input": {"command": command, "description": description or command[:60]}})
        call = self.assistant(*blocks)
        failed = exit_code != 0
        content = f"Exit code {exit_code}\n{output}" if failed else output
        env = self._env("user")
        env["message"] = {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tool_id, "content": content, "is_error": failed}]}
        env["toolUseResult"] = (f"Error: Exit code {exit_code}\n{output}" if failed else
                                {"stdout": output, "stderr": "", "interrupted": False, "isImage": False})
        return call, self._add(env)

    def tool(self, name: str, tool_input: dict, output: str) -> tuple[int, int]:
        tool_id = f"toolu_{self.agent or 'main'}_{self.n + 1:05d}"
        call = self.assistant({"type": "tool_use", "id": tool_id, "name": name, "input": tool_input})
        env = self._env("user")
        env["message"] = {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tool_id, "content": output, "is_error": False}]}
        return call, self._add(env)

    def spawn(self, agent_id: str, tool_id: str, description: str, prompt: str, report: str,
              *, trunk: bool) -> tuple[int, int]:
        call = self.assistant({"type": "tool_use", "id": tool_id, "name": "Agent", "input": {
            "description": description, "subagent_type": "general-purpose", "prompt": prompt}})
        env = self._env("user")
        trailer = (f"agentId: {agent_id} (use SendMessage with to: '{agent_id}' to continue this agent)\n"
                   "<usage>subagent_tokens: 5400\ntool_uses: 3\nduration_ms: 61000</usage>")
        env["message"] = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": [
            {"type": "text", "text": report}] + ([{"type": "text", "text": trailer}] if trunk else [])}]}
        if trunk:  # only the trunk's results name the agent (claude-code-log PR #218)
            env["toolUseResult"] = {"agentId": agent_id, "status": "completed"}
        return call, self._add(env)

    def raw(self, obj: dict) -> int:
        self.clock += timedelta(seconds=3)
        return self._add(obj)


def _decode_lines(n: int, tput: float, accept: float) -> str:
    out = []
    for i in range(n):
        # Alternate around the mean so the mean is exact.
        delta = 0.4 if i % 2 == 0 else -0.4
        out.append(f"[2026-03-02 08:{10 + i:02d}:00 TP0] Decode batch, #running-req: 1, #token: {900 + i}, "
                   f"token usage: 0.01, accept len: {accept:.2f}, accept rate: 0.51, cuda graph: True, "
                   f"gen throughput (token/s): {tput + delta:.2f}, #queue-req: 0")
    return "\n".join(out)


def _bench(tput: float, accept: float) -> str:
    return "\n".join([
        "============ Serving Benchmark Result ============",
        "Backend:                                 sglang",
        "Successful requests:                     64",
        f"Output token throughput (tok/s):         {tput}",
        f"Accept length:                           {accept}",
        "==================================================",
    ])


_TRACE_HEAD = (
    "Traceback (most recent call last):\n"
    f'  File "{TEST}", line 291, in <module>\n'
    "    load_and_test()\n"
    f'  File "{TEST}", line 79, in load_and_test\n'
    '    q = F.linear(attn_input, w["midlayer.self_attn.q_proj.weight"])\n'
    "        ^^^^^^^^^^^^^\n")
NAME_ERROR = _TRACE_HEAD + "NameError: name 'attn_input' is not defined"
UNBOUND = _TRACE_HEAD + "UnboundLocalError: cannot access local variable 'attn_input' where it is not associated with a value"
OOM = (
    "Traceback (most recent call last):\n"
    '  File "/root/dump_hidden.py", line 44, in <module>\n'
    "    target = AutoModelForCausalLM.from_pretrained(path, device_map='cuda:0')\n"
    '  File "/root/ml-env/lib/python3.12/site-packages/torch/nn/modules/module.py", line 1343, in to\n'
    "    return t.to(device)\n"
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 0 has a total capacity of 79.11 GiB")


def write_story(root: Path) -> Story:
    project = root / "-root-work"
    (project / SESSION_ID / "subagents").mkdir(parents=True, exist_ok=True)
    start = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
    m = _Writer(SESSION_ID, None, start)
    seqs: dict[str, int] = {}

    # -- the report -------------------------------------------------------------------
    seqs["prompt"] = m.prompt(
        "Our new EAGLE-3 draft for Kimi-K2.5 makes serving slower: about 54.8 tok/s against a 90 tok/s baseline, "
        f"although it reached 74.7% validation accuracy in training. The server runs on {GPU} (ssh as root). "
        "Please find out why.")
    m.say("I'll start on the GPU host: what is running, with which flags, and what the server log says.")
    m.bash(f"{SSH} nvidia-smi --query-gpu=name,memory.used --format=csv,noheader",
           "\n".join(["NVIDIA H100 80GB HBM3, 71234 MiB"] * 8))
    _, seqs["ps"] = m.bash(f"{SSH} 'ps -eo pid,args | grep [l]aunch_server'",
                           "4242 " + LAUNCH.format(steps=1, tokens=2))
    _, seqs["server_log"] = m.bash(f"{SSH} 'tail -n 6 /root/sglang_server.log'", _decode_lines(6, 54.8, 1.02))
    _, seqs["train_acc"] = m.bash("ssh -p 2222 ubuntu@train-node-2 'grep val_acc /data/runs/eagle3/train.log | tail -n 1'",
                                  "step 48000 | epoch 9 | val_loss=1.12 | val_acc=0.747")
    seqs["spawn_a1"], _ = m.spawn("a1flags", "toolu_spawn_a1flags", "Audit the SGLang speculative flags",
                                  "Check what each --speculative-* flag of the running server does.",
                                  "The server runs with --speculative-num-steps 1: SGLang drafts a single token "
                                  "per round, so at most two tokens are accepted per verify.", trunk=True)
    seqs["hyp_flag"] = m.say("I suspect the --speculative-num-steps 1 flag is the main bottleneck: the draft was "
                             "trained for several steps.")

    # -- fix 1: the flag ----------------------------------------------------------------
    m.bash(f"{SSH} \"sed -i 's/--speculative-num-steps 1 /--speculative-num-steps 3 /' /root/launch_eagle3.sh\"", "")
    m.bash(f"{SSH} 'nohup {LAUNCH.format(steps=3, tokens=4)} > /root/sglang_server.log 2>&1 &'", "",
           description="Relaunch SGLang with 3 draft steps")
    health = f"{SSH} 'curl -sf http://localhost:30000/health'"
    refused = "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused"
    seqs["health_1"], _ = m.bash(health, refused, exit_code=7)
    for _ in range(3):
        m.bash(health, refused, exit_code=7)
    m.bash("sleep 60", "")
    m.bash(health, "OK")
    # one request at a time: the single-stream speed the report and the Decode batch lines (#running-req: 1) give
    bench = f"{SSH} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64 --max-concurrency 1'"
    _, seqs["bench_1"] = m.bash(bench, _bench(61.2, 2.31))
    m.say("Better, but still far below the baseline. That confirms the flag was part of it, not all of it.")

    # -- fix 2: the hidden-state format --------------------------------------------------
    seqs["spawn_b2"], _ = m.spawn("b2layers", "toolu_spawn_b2layers", "Compare trained and served hidden states",
                                  "Find which target layers the draft was trained on and which SGLang feeds it.",
                                  "Training fed cat([embed_output, layer3, layer31]); SGLang captures "
                                  "cat([layer3, layer31, layer59]).", trunk=True)
    seqs["concat_trained"] = m.say("The speculators data generation built the draft input as "
                                   "cat([embed_output, layer3, layer31]) before the fc layer.")
    _, seqs["concat_served"] = m.bash(
        f"{SSH} \"grep -n 'capture' /root/sglang/python/sglang/srt/models/deepseek_v2.py\"",
        "1873:        # eagle3: hidden = torch.cat([layer3, layer31, layer59], dim=-1)\n"
        "1874:        self.layers_to_capture = [3, 31, 59]")
    seqs["hyp_format"] = m.say("The root cause is likely this hidden-state format mismatch between training and serving.")
    m.bash(f"{SSH} \"{PY} /root/set_aux_layers.py --draft /models/kimi-k2.5-eagle3 --layers 2,30,58\"",
           "wrote /models/kimi-k2.5-eagle3/config.json")
    m.bash(f"{SSH} 'nohup {LAUNCH.format(steps=3, tokens=4)} > /root/sglang_server.log 2>&1 &'", "")
    m.bash(health, "OK")
    _, seqs["bench_2"] = m.bash(bench, _bench(63.5, 2.38))
    m.say("Performance improved only marginally, suggesting deeper problems. I will test the draft outside SGLang "
          "with real training hidden states, to see whether the weights themselves are right.")
    seqs["pivot_data"], _ = m.bash(f"{SSH} 'ls /data/eagle3/hidden_states | head -n 3'",
                                   "shard_0000\nshard_0001\nshard_0002")

    # -- filler: the long middle of the session (looking through data and configs) -------
    standalone_prefix = 16  # lines the standalone phase writes before the last crashing run
    filler_end = CRASH_RESULT_SEQ - 1 - standalone_prefix
    i = 0
    while len(m.lines) < filler_end:
        if len(m.lines) >= 2000 and "compaction" not in seqs:
            seqs["compaction"] = m.raw({"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
                                        "compactMetadata": {"trigger": "auto", "preTokens": 167000},
                                        "timestamp": m.clock.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                                        "sessionId": SESSION_ID, "uuid": "compact-1", "isSidechain": False})
            continue
        if len(m.lines) >= 2500 and "snapshot" not in seqs:
            seqs["snapshot"] = m.raw({"type": "file-history-snapshot", "messageId": "x", "snapshot": {}})
            continue
        if len(m.lines) >= 2600 and "unknown" not in seqs:
            seqs["unknown"] = m.raw({"type": "future-line-type", "payload": {"anything": True}})
            continue
        if filler_end - len(m.lines) < 2:
            m.say("Enough inventory; the samples look complete.")
            continue
        shard = FILLER_DIRS[i % len(FILLER_DIRS)]
        if i % 3 == 2:
            m.say(f"Shard {shard} has the expected files; moving on.")
        else:
            m.bash(f"{SSH} 'ls -la /data/eagle3/hidden_states/{shard}'",
                   "\n".join(f"-rw-r--r-- 1 root root 22020096 Mar  1 12:{j:02d} sample_{j:05d}.pt" for j in range(4)))
        i += 1

    # -- the standalone test: crash, patch, crash, pivot ------------------------------------
    run = f"{SSH} '{PY} {TEST}'"
    copy = f"scp {TEST} root@{GPU}:/tmp/"
    n0 = len(m.lines)
    m.tool("Write", {"file_path": TEST, "content": "# standalone EAGLE-3 draft test\n"}, f"File created at {TEST}")
    m.bash(copy, "")
    _, seqs["crash_1"] = m.bash(run, NAME_ERROR, exit_code=1)
    m.tool("Edit", {"file_path": TEST, "old_string": "x", "new_string": "y"}, "ok")
    m.bash(copy, "")
    _, seqs["crash_2"] = m.bash(run, UNBOUND, exit_code=1)
    m.tool("Edit", {"file_path": TEST, "old_string": "y", "new_string": "z"}, "ok")
    m.bash(copy, "")
    seqs["run_3"], seqs["crash_3"] = m.bash(run, UNBOUND, exit_code=1)
    assert len(m.lines) - n0 == standalone_prefix + 2 and seqs["crash_3"] == CRASH_RESULT_SEQ
    seqs["pivot"], seqs["core_py"] = m.bash(
        f"{SSH} 'grep -n \"def forward\\|hidden\\|fc\\|cat\\|attn\\|norm\\|residual\\|mlp\" {CORE} | head -60'",
        "331:    def forward(\n"
        "340:        hidden_states = self.fc(hidden_states)\n"
        "357:        hidden_states = torch.cat([input_embeds, hidden_states], dim=-1)\n"
        "361:        hidden_states = self.midlayer(hidden_states, ...)",
        text="Right — I compute attn_input first, then concatenate. But the code tries to use the wrong variable. "
             "The issue is that my code computes attn_input (the normed version) before the concat. Let me check "
             "the actual speculators code to get the exact forward pass right:")
    m.say("The reference projects the three hidden states with fc, concatenates [input_embeds, fc output], and only "
          "then normalizes. I'll fix the test to follow it.")
    m.tool("Edit", {"file_path": TEST, "old_string": "z", "new_string": "w"}, "ok")
    m.bash(copy, "")
    _, seqs["standalone_ok"] = m.bash(run, "samples: 512\nstandalone top-1 accuracy: 72.4%")
    m.say("Confirmed: the draft weights are fine; the serving path is the problem.")

    # -- the real format fix and the result -----------------------------------------------
    m.bash(f"{SSH} \"{PY} /root/dump_served_hidden.py --check-order\"",
           "served:  cat([layer3, layer31, layer59])\ntrained: cat([embed_output, layer3, layer31])")
    m.bash(f"{SSH} 'cd /root/sglang && git apply /root/patches/eagle3_embed_capture.patch'", "")
    m.bash(f"{SSH} 'nohup {LAUNCH.format(steps=3, tokens=4)} > /root/sglang_server.log 2>&1 &'", "")
    m.bash(health, "OK")
    _, seqs["bench_3"] = m.bash(bench, _bench(96.8, 3.41))
    seqs["fixed"] = m.say("That fixed it: 96.8 tok/s against the 90 tok/s baseline.")
    m.raw({"type": "summary", "summary": "EAGLE-3 draft slower than baseline: num-steps flag and hidden-state format.",
           "leafUuid": m.last_uuid})

    session_file = project / f"{SESSION_ID}.jsonl"
    session_file.write_text("\n".join(m.lines) + "\n", encoding="utf-8")

    # -- sub-agents ------------------------------------------------------------------------
    sub = project / SESSION_ID / "subagents"
    a1 = _Writer(SESSION_ID, "a1flags", start + timedelta(minutes=3))
    a1.prompt("Check what each --speculative-* flag of the running server does.")
    a1.bash(f"timeout 60 {SSH} '{PY} -m sglang.launch_server --help'", "", exit_code=124)
    a1.bash(f"{SSH} \"grep -n 'speculative_num_steps' /root/sglang/python/sglang/srt/server_args.py\"",
            "512:    speculative_num_steps: Optional[int] = None")
    a1.say("With --speculative-num-steps 1 SGLang drafts a single token per round.")
    _write_agent(sub, "a1flags", a1, "toolu_spawn_a1flags", "Audit the SGLang speculative flags")

    b2 = _Writer(SESSION_ID, "b2layers", start + timedelta(minutes=20))
    b2.prompt("Find which target layers the draft was trained on and which SGLang feeds it.")
    b2.bash(f"{SSH} \"{PY} /root/dump_hidden.py --layers 3,31,59\"", OOM, exit_code=1)
    b2.spawn("c3capture", "toolu_spawn_c3capture", "Read the SGLang eagle3 capture code",
             "Where does SGLang build the draft input?", "SGLang concatenates the captured layers in id order.",
             trunk=False)
    b2.say("Training fed cat([embed_output, layer3, layer31]); SGLang captures cat([layer3, layer31, layer59]).")
    _write_agent(sub, "b2layers", b2, "toolu_spawn_b2layers", "Compare trained and served hidden states")

    c3 = _Writer(SESSION_ID, "c3capture", start + timedelta(minutes=25))
    c3.prompt("Where does SGLang build the draft input?")
    c3.bash(f"ssh -J bastion.example.net root@{GPU} \"grep -n 'torch.cat' "
            "~/ml-env/lib/python3.12/site-packages/sglang/srt/models/llama_eagle3.py\"",
            "112:        hidden_states = torch.cat([input_embeds, hidden_states], dim=-1)")
    c3.say("SGLang concatenates the captured layers in id order.")
    _write_agent(sub, "c3capture", c3, "toolu_spawn_c3capture", "Read the SGLang eagle3 capture code")
    return Story(root=project, session_file=session_file, seqs=seqs)


def _write_agent(folder: Path, agent_id: str, writer: _Writer, tool_use_id: str, description: str) -> None:
    (folder / f"agent-{agent_id}.jsonl").write_text("\n".join(writer.lines) + "\n", encoding="utf-8")
    (folder / f"agent-{agent_id}.meta.json").write_text(json.dumps(
        {"agentType": "general-purpose", "description": description, "toolUseId": tool_use_id}), encoding="utf-8")


_CACHE: dict[str, tuple[Story, object]] = {}


def analyzed_story() -> tuple[Story, object]:
    """The story written once per test process, and its analysis (shared by the test modules)."""
    if "story" not in _CACHE:
        import atexit
        import shutil
        import tempfile

        from spec_debug.session import analyze_path

        root = Path(tempfile.mkdtemp(prefix="spec-debug-story-"))
        atexit.register(shutil.rmtree, root, True)
        story = write_story(root)
        _CACHE["story"] = (story, analyze_path(story.root))
    return _CACHE["story"]


if __name__ == "__main__":  # python tests/session/incident_story.py OUT_DIR
    import sys

    story = write_story(Path(sys.argv[1]))
    print(story.session_file, json.dumps(story.seqs))
