"""Round 30 review: a --config flag file past 100,000 bytes as JSON is sent without its comment and
blank lines (a4c4a2ff), which must leave every flag's value as the engines' yaml.safe_load reads
it. The first cut dropped every blank or `#` line outside a `key: |` block scalar, and so changed
values: a double-quoted chat template spanning lines lost its blank lines (each one a line break:
'x\\ny' became 'x y') and its lines starting with `#` (text inside the quotes), a plain scalar's
blank line likewise, and a block scalar behind a tag or an anchor (`chat-template: !!str |`) lost
its `#` lines. Now those lines are kept, and the padding comments still go."""

from __future__ import annotations

import json

import yaml

from spec_debug.probes import launch_flags

FLAGS = """model: meta-llama/Llama-3.1-8B-Instruct
served-model-name: llama  # the name clients use
speculative-config:
  # the drafter
  method: eagle3
  model: yuhuili/EAGLE3-LLaMA3.1-Instruct-8B

  num_speculative_tokens: 3
"""
QUOTED = 'chat-template: "{% for m in messages %}\n\n  # {{ m.role }}\n  {{ m.content }}{% endfor %}"\n'
TAGGED = "tool-parser-plugin-doc: !!str |\n  # a heading of the text\n  the rest\n"
ANCHORED = "override-generation-config: &gen >-\n  # kept\n  text\n"
PLAIN = "download-dir: /models/a\n\n  b\n"


def test_values_of_a_large_flag_file_are_kept_as_yaml_reads_them(tmp_path):
    text = FLAGS + "# tuned for the 8 x H100 pool, see runbook\n" * 2_600 + QUOTED + TAGGED + ANCHORED + PLAIN
    assert len(json.dumps(text)) > launch_flags.MAX_SENT_FLAG_TEXT
    flags = tmp_path / "serve.yaml"
    flags.write_text(text)
    out = launch_flags.run({"server_cmdline": f"vllm serve meta-llama/Llama-3.1-8B-Instruct --config {flags}"})
    sent = out["config_file"]
    read = yaml.safe_load(sent["text"])
    assert read == yaml.safe_load(text)
    # were 'x y'-style values: the quoted template's line breaks and '# {{ m.role }}', the block's '#' lines
    assert read["chat-template"] == "{% for m in messages %}\n# {{ m.role }} {{ m.content }}{% endfor %}"
    assert read["tool-parser-plugin-doc"] == "# a heading of the text\nthe rest\n"
    assert read["override-generation-config"] == "# kept text"
    assert read["download-dir"] == "/models/a\nb"
    assert sent["dropped_comment_lines"] == 2_600 + 2  # the padding, '# the drafter' and a blank line


def test_edges_of_yaml_lines():
    """Each text read alike whole and with its comment and blank lines dropped."""
    texts = [
        "a: 'it''s\n\n  # y'\nb: 1\n",  # single quotes: '' is no close
        'a: "x\\"\n\n  # y"\nb: 1\n',  # an escaped double quote is no close
        "a: [x\n\n  y]\n",  # a flow spanning lines
        'a: {"k":"x\n\n  y"}\n',
        "a:\n  - x\n\n    y\n  - z\n",  # an item's plain scalar
        "k: http://h/x#frag\n# c\n\nv: a # c\n",  # '#' in a URL, a trailing comment
        "k: v\n  - \"q\nk2: \"a b\n# c\n  c\"\n",  # '- "q' continues 'v': no quote opens
        "k: &a\n  n: \"x\n\n  y\"\n",  # a key with only an anchor opens a block
        "a:\n  - - |\n      # t\n      y\n",
        "a: |\r\n  # t\r\n  y\r\nb: 1\r\n",
    ]
    for text in texts:
        assert yaml.safe_load(launch_flags.flag_lines(text)) == yaml.safe_load(text), text
    assert launch_flags.flag_lines("s:\n  # c\n\n  a: 1\n  # c\n  b: 2\n# c\nc: 3\n") == "s:\n  a: 1\n  b: 2\nc: 3\n"
