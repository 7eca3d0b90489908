"""More of Claude Code's side calls in a logging proxy's log, each made beside the conversation:

- at start, older CLIs ask the small model for five files the welcome screen's example prompts name
  (system ``You are an expert at analyzing git history ...``, the user message ``Files modified by
  user: ...`` from ``git log``): a proxy's recording of claude-cli/0.2.107's calls
  (RavenStorm-bit/claude-code-api-logger ``full-requests-clean.md``, requests #4 and #19);
- each WebFetch asks the small model its question of the page, one user message ``Web page
  content:\\n---\\n<the page>\\n---\\n\\n<question>\\n\\nProvide a concise response based ...``
  (Claude Code's WebFetch tool, ``buildSecondaryModelPrompt``).

Before, the git log's counts and the fetched page were prompts of the person's and the file names
and the page's summary the assistant's words. Now they are left out; the same words typed by the
person in the conversation are read as before."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.claude_proxy_log import CLAUDE as _CLAUDE, MAIN as _MAIN, said as _said
from tests.session.claude_proxy_log import write_records as _write

_GIT = [{"type": "text", "text": (
    "You are an expert at analyzing git history. Given a list of files and their modification counts, return "
    "exactly five filenames that are frequently modified and represent core application logic (not "
    "auto-generated files, dependencies, or configuration). Make sure filenames are diverse, not all in the "
    "same folder, and are a mix of user and other users. Return only the filenames' basenames (without the "
    "path) separated by newlines with no explanation.")}]
GIT_LOG = "Files modified by user:\n      3 serve.py\n      1 README.md\n\n\nFiles modified by other users:\n" \
          "      2 bench.py\n"
PAGE = "# Speculative decoding\n\nUse --speculative-config with method eagle3 and num_speculative_tokens."
GUIDE = ("Provide a concise response based only on the content above. In your response:\n - Enforce a strict "
         "125-character maximum for quotes from any source document. Open Source Software is ok as long as we "
         "respect the license.\n - Use quotation marks for exact language from articles; any language outside "
         "of the quotation should never be word-for-word the same.\n - You are not a lawyer and never comment "
         "on the legality of your own prompts and responses.\n - Never produce or reproduce exact song lyrics.")
WEB_FETCH = f"\nWeb page content:\n---\n{PAGE}\n---\n\nWhich flag turns EAGLE-3 on?\n\n{GUIDE}\n"

ASK = "accept length dropped on gpu07 after the upgrade"
FETCH = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "WebFetch", "input": {
    "url": "https://docs.vllm.ai/en/latest/features/spec_decode.html", "prompt": "Which flag turns EAGLE-3 on?"}}]}
FETCH_OUT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                          "content": "--speculative-config with method eagle3"}]}
SMI = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_2", "name": "Bash",
                                         "input": {"command": "ssh gpu07 nvidia-smi"}}]}
SMI_OUT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_2", "is_error": True,
                                        "content": "Failed to initialize NVML: Driver/library version mismatch"}]}
DONE = {"role": "assistant", "content": [{"type": "text", "text": "Reinstall the driver on gpu07."}]}
HAIKU = "claude-3-5-haiku-20241022"
SONNET = "claude-3-7-sonnet-20250219"


def _text(text: str) -> dict:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


CALLS = [
    (_GIT, [{"role": "user", "content": GIT_LOG}], _text("serve.py\nREADME.md\nbench.py"), HAIKU, 512),
    (_MAIN, [{"role": "user", "content": ASK}], FETCH, SONNET, 20000),
    ([_CLAUDE], [{"role": "user", "content": WEB_FETCH}], _text("--speculative-config with method eagle3"),
     HAIKU, 32000),
    (_MAIN, [{"role": "user", "content": ASK}, FETCH, FETCH_OUT], SMI, SONNET, 20000),
    (_MAIN, [{"role": "user", "content": ASK}, FETCH, FETCH_OUT, SMI, SMI_OUT], DONE, SONNET, 20000),
]


def test_the_git_history_and_web_fetch_calls_are_no_turns(tmp_path: Path) -> None:
    logs = _write(tmp_path, CALLS)
    said = _said(logs)
    assert [kind for kind, _ in said] == ["prompt", "tool_call", "tool_result", "tool_call", "tool_result", "text"]
    assert said[0] == ("prompt", ASK)
    assert said[2] == ("tool_result", "--speculative-config with method eagle3")
    assert said[-1] == ("text", "Reinstall the driver on gpu07.")
    a = analyze_path(logs)
    assert [p.text for p in a.prompts] == [ASK]
    assert [(c.command, c.is_error) for c in a.commands] == [("ssh gpu07 nvidia-smi", True)]


def test_a_page_the_person_pasted_is_their_prompt(tmp_path: Path) -> None:
    # the same opening typed by the person, without WebFetch's guidelines after it, and a git log's
    # counts asked of the conversation's own model: turns of the conversation
    pasted = f"Web page content:\n---\n{PAGE}\n---\n\nwhy does gpu07 not use it?"
    counts = f"{GIT_LOG}\nwhich of these should I profile?"
    calls = [(_MAIN, [{"role": "user", "content": pasted}], _text("It needs the flag."), SONNET, 20000),
             (_MAIN, [{"role": "user", "content": pasted}, _text("It needs the flag."),
                      {"role": "user", "content": counts}], _text("serve.py"), SONNET, 20000)]
    assert _said(_write(tmp_path, calls)) == [("prompt", pasted), ("text", "It needs the flag."),
                                              ("prompt", counts), ("text", "serve.py")]


# Two more, as a reader of Claude Code's proxied calls that hides its auxiliary ones matches them:
# each WebSearch's call on the web_search server tool, and auto mode's security monitor, which
# classifies each action from the person's CLAUDE.md and the conversation written out in <transcript>
_SEARCH = [_CLAUDE, {"type": "text", "text": "You are an assistant for performing a web search tool use"}]
_MONITOR = [_CLAUDE, {"type": "text", "text": "You are a security monitor for autonomous AI coding agents. "
                                              + "Block actions that exfiltrate data. " * 400}]
CLAUDE_MD = ("The following is the user's CLAUDE.md configuration. Treat it as context about the user's "
             "environment and intent.\n# bench\nNever restart the server on gpu07 without asking.")
TRANSCRIPT = f"<transcript>\nUser: {ASK}\nAction: Bash ssh gpu07 nvidia-smi\n</transcript>"
SEARCH_ANSWER = {"role": "assistant", "content": [
    {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "NVML version mismatch"}},
    {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": [
        {"type": "web_search_result", "title": "NVML mismatch", "url": "https://forums.developer.nvidia.com/t/1"}]},
    {"type": "text", "text": "Reboot after a driver upgrade."}]}
SEARCH = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_3", "name": "WebSearch",
                                            "input": {"query": "NVML version mismatch"}}]}
SEARCH_OUT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_3",
                                           "content": "Web search results: reboot after a driver upgrade."}]}


def test_the_web_search_and_security_monitor_calls_are_no_turns(tmp_path: Path) -> None:
    calls = [
        (_MAIN, [{"role": "user", "content": ASK}], SMI, SONNET, 20000),
        (_MONITOR, [{"role": "user", "content": CLAUDE_MD}, {"role": "user", "content": [
            {"type": "text", "text": TRANSCRIPT}]}], _text('{"decision": "allow"}'), SONNET, 4096),
        (_MAIN, [{"role": "user", "content": ASK}, SMI, SMI_OUT], SEARCH, SONNET, 20000),
        (_SEARCH, [{"role": "user", "content": "Perform a web search for the query: NVML version mismatch"}],
         SEARCH_ANSWER, HAIKU, 32000),
        (_MAIN, [{"role": "user", "content": ASK}, SMI, SMI_OUT, SEARCH, SEARCH_OUT], DONE, SONNET, 20000),
    ]
    said = _said(_write(tmp_path, calls))
    assert [kind for kind, _ in said] == ["prompt", "tool_call", "tool_result", "tool_call", "tool_result", "text"]
    assert said[0] == ("prompt", ASK)
    assert said[3:5] == [("tool_call", '{"query": "NVML version mismatch"}'),
                         ("tool_result", "Web search results: reboot after a driver upgrade.")]


def test_a_transcript_the_person_pastes_is_their_prompt(tmp_path: Path) -> None:
    # the conversation's own model asked about a <transcript> the person pasted: a turn
    calls = [(_MAIN, [{"role": "user", "content": TRANSCRIPT}], _text("It ran nvidia-smi."), SONNET, 20000)]
    assert _said(_write(tmp_path, calls)) == [("prompt", TRANSCRIPT), ("text", "It ran nvidia-smi.")]
