"""Near misses of the shell fast paths (round 63): each input must still be read as the full
scan reads it."""

from spec_debug.session import extract, shell
from spec_debug.session.events import Event


def test_single_quoted_tail_is_one_word():
    assert shell.split_words("ssh -p 22 root@gpu01 'ls -la /data/x'") == ["ssh", "-p", "22", "root@gpu01", "ls -la /data/x"]
    assert shell.split_words("'tail -n 5 x.log'") == ["tail -n 5 x.log"]
    assert shell.split_words("ssh gpu01 ''") == ["ssh", "gpu01", ""]


def test_quote_glued_to_a_word_or_followed_by_more_is_scanned():
    # the quote glues onto the word before it: one word
    assert shell.split_words("echo a'b c'") == ["echo", "ab c"]
    # more after the closing quote, or another quote inside
    assert shell.split_words("ssh h 'a b' x") == ["ssh", "h", "a b", "x"]
    assert shell.split_words("ssh h 'a' 'b'") == ["ssh", "h", "a", "b"]
    # syntax before the quote: the operator is a word of its own
    assert shell.split_words("cd /x && ssh h 'ls'") == ["cd", "/x", "&&", "ssh", "h", "ls"]


def test_newline_inside_the_quoted_tail_stays_in_it():
    assert shell.split_words("ssh h 'a\nb'", shell._WORD_LINES) == ["ssh", "h", "a\nb"]


def test_every_branch_program_of_parse_target_is_reaching():
    assert shell._SHELLS <= shell._REACHING
    assert shell.parse_target("watch -n 5 ssh gpu01 nvidia-smi").host == "gpu01"
    assert shell.parse_target("ls -la; ssh gpu02 'tail x.log'").host == "gpu02"
    assert shell.parse_target("ls -la /data") == shell.Target(inner="ls -la /data")


def test_categorize_gates_keep_each_kind():
    assert shell.categorize("ssh h 'python -m sglang.launch_server --model m'") == "launch_server"
    assert shell.categorize("vllm serve m --port 8000") == "launch_server"
    assert shell.categorize("python -m vllm.entrypoints.openai.api_server --model m") == "launch_server"
    assert shell.categorize("ssh h nvidia-smi") == "gpu_status"
    assert shell.categorize("gpustat -i 1") == "gpu_status"
    assert shell.categorize("ssh h 'cat /opt/site-packages/x/__init__.py'") == "read_source"
    assert shell.categorize("tail -n 50 /var/logs/server") == "logs"
    assert shell.categorize("tail -n 50 server.log") == "logs"
    assert shell.categorize("ls -la /data/eagle3") == "inspect_config"
    assert shell.categorize("docker logs -f sglang") == "logs"
    assert shell.categorize("fuser -vk 30000/tcp") == "stop_process"
    assert shell.categorize("sudo bash -c 'tail -n 50 x.log'") == "logs"


def _call(command, seq=1):
    return Event("s", seq, "main", "assistant", "tool_call", 0, "Bash", f"t{seq}", command)


def test_a_repeated_command_gives_the_same_facts():
    first = extract.extract(_call("ssh gpu01 'tail -n 200 /root/sglang_server.log'"), True)
    again = extract.extract(_call("ssh gpu01 'tail -n 200 /root/sglang_server.log'", 2), True)
    assert again == first
    assert (first.category, first.template, first.target.host) == ("logs", "ssh gpuN 'tail -n N /root/sglang_server.log'", "gpu01")
