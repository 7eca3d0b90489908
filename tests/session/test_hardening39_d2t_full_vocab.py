"""analyze: a draft with the target's whole vocabulary needs no d2t, and saying so is no SD301.

SD301 is a draft vocabulary *smaller* than the target's with no d2t tensor (the catalog). Before,
any asserted "no d2t" fired it: an agent that read a full-vocabulary draft's config and wrote "The
checkpoint has no d2t because draft_vocab_size == vocab_size (128256), so no map is needed." got
an SD301 error, and "Root causes found: SD301" in the postmortem.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from spec_debug.session.spec_facts import text_observations
from tests.session.incident_story import _Writer

KEYS = "['fc.weight', 'lm_head.weight', 'midlayer.hidden_norm.weight', 'midlayer.input_layernorm.weight', 'norm.weight']"
CONFIG = '{"architectures": ["LlamaForCausalLMEagle3"], "draft_vocab_size": 128256, "vocab_size": 128256}'


def _analyze(tmp_path, conclusion: str):
    m = _Writer("9a1b0000-0000-4000-8000-00000000a039", None, datetime(2026, 3, 4, 9, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 accept length is low on gpu07, is the vocab map broken?")
    m.bash("ssh gpu07 \"python3 -c 'from safetensors import safe_open; "
           "print(sorted(safe_open(\\\"/models/draft/model.safetensors\\\", \\\"pt\\\").keys()))'\"", KEYS)
    m.bash("ssh gpu07 cat /models/draft/config.json", CONFIG)
    m.say(conclusion)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def test_no_d2t_for_a_full_vocabulary_draft_is_no_finding(tmp_path):
    analysis = _analyze(tmp_path, "The checkpoint has no d2t because draft_vocab_size == vocab_size (128256), "
                                  "so no map is needed. The vocab map is not the problem.")
    assert [f.code for f in analysis.findings] == []
    assert "Root causes found" not in " ".join(postmortem_view(analysis)["summary"])


def test_the_same_words_for_a_smaller_draft_vocabulary_still_count(tmp_path):
    analysis = _analyze(tmp_path, "The checkpoint has no d2t although draft_vocab_size (32000) != vocab_size "
                                  "(128256), so draft ids are served as target ids.")
    assert [(f.code, f.severity) for f in analysis.findings] == [("SD301", "error")]


def test_each_sentence_is_judged_on_its_own():
    def codes(text):
        return [o.code for o in text_observations(text)]
    assert codes("There is no d2t: the draft keeps the full vocabulary, so none is needed.") == []
    assert codes("No d2t here: the draft uses the target's vocabulary.") == []
    # an excused sentence does not hide a later one that states the fault
    assert codes("Checkpoint A has no d2t because its vocab is the same as the target. "
                 "The d2t of checkpoint B is missing, with a 32000-token vocab.") == ["SD301"]
    assert codes("Without d2t the draft ids equal the target ids, which is wrong for a 32000-token draft.") == ["SD301"]
