"""Hypotheses and their outcomes in the agent's own words (heuristics from TRANSCRIPTS.md
section 5; no LLM)."""

from __future__ import annotations

import re

from spec_debug.redact import _FOLDS_TO_ASCII  # the characters re.I folds to ASCII letters (with them)

_SENTENCE = re.compile(r"(?:[^.!?\n]|[.!?](?=\S))+[.!?]?")
# "could be" and "might be" guess at a cause, except before a word that rates an action
# ("it might be worth checking", "this could be useful"): agents write those all the time.
_HYPOTHESIS = re.compile(
    # ("My hypothesis was wrong", "my theory is wrong": the guess taken back, no new one)
    r"\b(?:I suspect|suspect(?:ed)? that|hypothes\w+(?! (?:was|is) (?:wrong|incorrect)\b)|"
    r"(?:likely|probably) (?:because|due to|caused by)|"
    # "Next suspect: the aux layer ids", "My main suspect is the d2t map": the guess named after its
    # label ("The main suspect was ruled out", "... is cleared": none)
    r"(?:next|main|prime|primary|first|second|third|top|new|leading|likeliest|obvious|only|current|other) "
    r"suspect(?:(?=\s*:)| (?:is|was)(?! (?:now )?(?:wrong|incorrect|cleared|ruled|fine|innocent|gone)\b))|"
    # "My first guess: the CUDA graph capture", "my best guess is", "My suspicion is that ..."
    r"my (?:(?:first|best|current|working|main|leading|initial|other|second|next|only) )?(?:guess|theory|suspicion|hunch)"
    r"(?: is(?! (?:wrong|incorrect)\b)|(?=\s*:))|most likely (?:explanation|cause|culprit)|"
    # "This suggests we should rerun the benchmark": a plan, no suspect
    r"(?:this|that|which) suggests(?! (?:that )?(?:we|I|you|to)\b)|"
    # ("It could also be the vocab mapping", "Could well be the d2t map": a second guess)
    r"(?:could|might|may)(?: also| well)? be(?! (?:worth|useful|helpful|handy|nice|good|better|best|easier|simpler|faster|interesting|"
    r"a good idea|a good time|a bit|slightly|fine|ok(?:ay)?|able|done|necessary|needed|required|as simple)\b"
    # a plan worded as "could be": "The next step could be to check the config" ("the draft may be
    # to blame", "may be to do with the layer order" guess)
    r"| to (?!blame\b|do with\b)[a-z])|"
    # "To find the root cause, let me read the log", "check the stack trace for the root cause":
    # what the agent sets out to find names no suspect
    r"(?<!find the )(?<!identify the )(?<!determine the )(?<!out the )(?<!down the )(?<!for the )"
    r"(?<!understand the )(?<!diagnose the )(?<!investigate the )(?<!to the )(?<!confirm the )(?<!verify the )root cause"
    # "The root cause is now fixed", "the issue is resolved": an outcome told, no suspect
    r"(?! (?:is|was|has been|have been) (?:now |finally |all )?(?:fixed|resolved|solved|gone|addressed)(?![\w-]| in ))"
    # "Let me check the root cause analysis doc": the document, no suspect ("Root cause analysis:
    # ..." still heads one)
    r"(?! analys[ie]s\b(?!\s*[:\u2014]))|"
    # "Let me see what the bottleneck is": a question, no suspect
    # ("The real culprit is the CUDA graph capture", "the actual problem is ...": the same guess)
    r"(?<!what )the (?:(?:real|actual) )?(?:issue|problem|bottleneck|bug|culprit) (?:is|was|may be|might be)"
    r"(?! (?:now |finally |all )?(?:fixed|resolved|solved|gone|addressed)(?![\w-]| in ))"
    # "The issue was reported by the on-call", "the problem is reproducible on gpu02": the
    # symptom's story, no suspect
    r"(?! (?:first |also |still |only |now |easily |not )?(?:reported|tracked|filed|opened|closed|seen|observed|noticed|"
    r"reproducible|reproduced|intermittent|described|documented|discussed|mentioned|visible|present|"
    r"consistent|noticeable|worse|better)\b)"
    # "It is possible that we need to restart": a plan, no suspect
    r"|(?:it'?s|it is) possible that(?! (?:we|I|you) (?:need|should|must|have to|can|could)\b))\b"
    # "I bet it is the d2t map", "I wonder if the layer ids are off by one": a guess ("I wonder if
    # we should rerun", "I wonder whether it is worth ..." plan; "Could the layer ids be off?",
    # a bare question, stays none)
    r"|\bI (?:bet|wonder (?:if|whether))\b(?! (?:we|I|you) (?:need|should|must|have to|can|could)\b)"
    r"(?! (?:it'?s|it is|it would be|this is) worth\b)"
    # "One possibility is that the draft uses the wrong layers", "Another possibility: the d2t
    # map ..." ("A possibility is to restart": a plan)
    r"|\b(?:one|another|a|the other|the main|the only) possibility (?:is|was)\b(?! (?:to|that (?:we|I|you))\b)"
    r"|\b(?:one|another) possibility\s*:"
    # "Now I understand the problem: the d2t map is absolute" names its suspect as "I see the issue:" does
    # ("Let me understand the issue: ..." plans)
    r"|\b(?:see|found|spotted|(?<!me )(?<!us )(?<!to )(?:understand|know)) the (?:issue|problem|bug|culprit)(?: here| now)?:"
    # "Turns out the d2t map was the culprit", "the stale d2t is the culprit": a suspect named (a
    # stated cause, unhedged: stated_cause; "Maybe X is the culprit" stays a guess)
    # ("That's the culprit!", "the d2t map's the culprit": the contraction as "is")
    r"|(?:\b(?:is|was)|'s) the (?:real |actual )?culprit\b"
    # "The d2t map was the problem all along.", "That is the problem.": the same, the cause word
    # ending the sentence ("That is the problem with this approach" names no suspect)
    r"|(?:\b(?:is|was)|'s) the (?:real |actual )?(?:problem|issue|bug)(?: all along)?(?=\s*(?:[.!]|$))"
    # a sentence that opens with the guess: "Possibly the hidden-state layers differ", "Probably
    # the d2t map is stale"; not a plan ("Maybe the next step is", "Perhaps it would be worth")
    # ("Hmm, maybe the d2t table holds absolute ids", "OK so perhaps the draft ...": an interjection
    # before it still opens the sentence)
    r"|(?:^|(?<=[.!?] )|(?<=\n))(?:(?:hmm*|hm+|ok(?:ay)?|so|well|wait|actually|now|and|but|oh),? (?:so,? )?)?"
    r"(?:possibly|perhaps|maybe|probably|likely),? (?:the|a|an|our|its|this|that|there)"
    r" (?!(?:next|best|easiest|simplest|quickest|first|right|better|only) )"
    # "Maybe the user wants the JSON output": a guess at what is asked, not at the fault
    r"(?!(?:users?|person|customer|requester)\b(?!'))", re.I)
# "The fix worked only partially: 61 tok/s", "that works a bit better": still short of a fix.
# "This works around the OOM": a workaround, which says nothing of whether the guess was right.
# "The issue is indeed caused by a missing colon" (SWE-agent, after its guess "... is likely due to a
# missing colon"): the guess found true; not asked ("Is it indeed the flag?")
# "My suspicion was correct", "the first guess was right": the guess found true.
_CONFIRMED = re.compile(r"\b(?:(?:my|our|the|that|this) (?:(?:first|initial|original|earlier|main|current|working) )?"
                        r"(?:suspicion|guess|theory|hypothesis|hunch) (?:was|is) (?:correct|right)(?![\w-])|"
                        # ("That did it: 182 tok/s", "that did the trick", "this solved it")
                        r"confirmed|confirms|that (?:fixed|was) it|(?:that|this) (?:did it(?! for\b)|did the trick|solved it)|verified that|(?:the fix|that|this) (?:works|worked)(?! before| earlier| previously| until| around| only| partly| partially| somewhat| a bit| a little)"
                        r"|(?:is|was|are|were) indeed(?![^.!?\n]*\?))\b",
                        re.I)
# "The d2t map is fine.", "Nope, not the d2t map.": a suspect named and cleared, opening its
# sentence. Such a sentence rules out only an open guess it shares a topic word with (analysis):
# "The server is fine." or "Not the best approach." clears no guess of the d2t map.
_NOT_THE_SUSPECT = (r" (?!(?:best|right|first|only|same|whole|end|case|point|way|most|least|cause|issue|problem|culprit"
                    r"|bottleneck)\b)[\w-]+(?: [\w-]+){0,3}(?=\s*[.!])")
_NAMED_OUT_TEXT = (
    # ("Never mind, the d2t map is fine.", "Scratch that: ...": the guess taken back before it)
    r"(?:^|(?<=[.!?] )|(?<=\n))(?:(?:nope|no|nah|ok(?:ay)?|so|well|hmm+|good|never ?mind|scratch that|actually)[,:]? )?"
    r"{checked}"
    # ("If the d2t map is fine, acceptance should be high": a condition, nothing cleared)
    r"(?:(?!(?:it|that|this|everything|all|which|now|i|we|you|if|when|whether|unless|once|assuming|provided)\b)"
    r"(?:the )?[\w-]+(?: [\w-]+){0,3}"
    # ("My suspicion was correct", "the first guess was fine": the guess found true, not a suspect cleared)
    r"(?<!suspicion)(?<!guess)(?<!theory)(?<!hypothesis)(?<!hunch)"
    r" (?:is|are|was|were|looks?|looked|seems?) (?:all |just |perfectly )?"
    # "The d2t map is correct.", "the layer ids are OK": cleared as "fine" clears ("correct to me"
    # too); "fine now", "correct now" tell a change that worked, not a guess found wrong
    r"(?:fine(?! (?:to|for|but|until|except)\b)|ok(?:ay)?(?! (?:to|for|but|until|except)\b)(?![\w-])"
    r"|correct(?! (?:for|but|until|except)\b)(?![\w-]))(?! now\b)"
    # "The d2t map checks out.", "the d2t map is not to blame", "... was a red herring"
    r"|(?:(?!(?:it|that|this|everything|all|which|now|i|we|you|if|when|whether|unless|once|assuming|provided)\b)"
    r"(?:the )?[\w-]+(?: [\w-]+){0,3}) (?:(?:checks|checked) out(?=\s*[.!;])"
    r"|(?:(?:is|are|was|were)n't|(?:is|are|was|were) not) to blame|(?:is|are|was|were) (?:just |only |all )?(?:a )?red herrings?"
    # "The server is not the problem.": that subject cleared, no guess of the d2t map
    r"|(?:(?:is|are|was|were)n't|(?:is|are|was|were) not) the (?:(?:real|actual) )?(?:cause|issue|problem|culprit|bottleneck))"
    # ("It's not the d2t map.", "Still 94 tok/s, so it's not the CUDA graphs.": the same, its
    # subject a pronoun, at the head of the sentence or of a clause after a comma)
    r"|(?:it(?:'s|\u2019s| is| was) )?not the" + _NOT_THE_SUSPECT + ")"
    r"|(?<=[,;] )(?:(?:so|then|and),? )?it(?:'s|\u2019s| is| was) not the" + _NOT_THE_SUSPECT)
# "I confirmed that the server is not the issue.", "Verified: the d2t map is fine.": the check told
# before the subject it cleared, which still names what it clears (was: the newest open guess,
# whatever it named, ruled out by the server; and the d2t map found fine confirmed the d2t guess)
_CHECKED = r"(?:i (?:have |'ve |also |just |now )?)?(?:confirmed|verified|checked|double-checked|made sure)(?:[,:]| that| and)? "
_NAMED_OUT = re.compile(_NAMED_OUT_TEXT.replace("{checked}", f"(?:{_CHECKED})?"), re.I)
# A confirmation that is all of a suspect cleared: "I confirmed that the d2t map is fine." ("Confirmed:
# the draft weights are fine; the serving path is the problem." confirms the serving path)
_CHECKED_OUT = re.compile(f"(?:{_NAMED_OUT_TEXT.replace('{checked}', _CHECKED)})(?=\\s*(?:[.!,]|$))", re.I)
_RULED_OUT_TAIL = re.compile(
    # ("That rules it out", "ruled that out": the guess named by a pronoun between)
    r"\b(?:rule[sd] (?:(?:it|that|this|them) )?out|no (?:change|difference|improvement|effect)"
    # "No change needed in the launch script": nothing to do, no suspect ruled out
    r"(?!s? (?:is |are |was |were )?(?:needed|required|necessary)\b)|"
    r"(?:did not|didn't|does not|doesn't) (?:help|change anything|make a difference)|"
    # ("That's not the real culprit": the last guess taken back as well)
    r"(?:(?:is|was)n't|(?:is|was) not|not) the (?:(?:real|actual) )?(?:cause|issue|problem|culprit|bottleneck)|"
    # "The d2t map is not to blame", "the layer ids were a red herring": the suspect cleared
    r"(?:(?:is|are|was|were)n't|(?:is|are|was|were) not) to blame|"
    r"(?:\b(?:is|are|was|were)|'s) (?:just |only |all |probably )?(?:a )?red herrings?|"
    # "So that is not it", "That wasn't it": the last guess taken back
    r"\b(?:that|this)(?:'s| is| was)(?: not|n't) it(?![\w'-])|"
    # "Actually, I was wrong about the layers", "I was wrong earlier: the OOM was not the CUDA graph
    # capture": the agent takes its guess back
    # "My theory about num_speculative_tokens was wrong": what it was about between
    r"(?:\bi|hypothesis|theory|guess|suspicion|assumption)(?: (?:about|on|regarding) [^.!?\n,;:]{1,60}?)?"
    r" was wrong(?! to\b))\b", re.I)
_RULED_OUT_HEAD = re.compile(_NAMED_OUT_TEXT.replace("{checked}", ""), re.I)
# Where _RULED_OUT_HEAD may start: its branches open with "^" (no re.M: the text's start only),
# a look behind at "[.!?] " or "\n", and one at "[,;] ". Each such start is the end of a match
# of this (they cannot overlap: none ends in a character another opens with).
_HEAD_STARTS = re.compile(r"[.!?,;] |\n")


class _RuledOut:
    """``re.compile(_RULED_OUT_HEAD.pattern + "|" + _RULED_OUT_TAIL.pattern, re.I)``, exactly
    (its ``search`` and ``finditer``), without trying the head at every character: the head's
    sentence-start alternation, a look behind tried at each position, was most of what the
    pattern cost on prose (~390k instructions a KB). The alternation's leftmost match is at the
    first position either side matches at, the head's where both do (its branches come first);
    the head is tried only where it can start (above). Neither side can match empty; the
    look behinds and ``\b`` of a ``match(text, pos)`` see the text before ``pos``, and its "^"
    matches at the string's start only, as in a search from 0."""

    __slots__ = ()
    pattern = _RULED_OUT_HEAD.pattern + "|" + _RULED_OUT_TAIL.pattern

    @staticmethod
    def _next(text: str, pos: int) -> re.Match | None:
        tail = _RULED_OUT_TAIL.search(text, pos)
        bound = tail.start() if tail is not None else len(text)
        head_match = _RULED_OUT_HEAD.match
        if pos == 0 and (m := head_match(text, 0)) is not None:
            return m
        start = pos - 2 if pos >= 2 else 0  # a start at ``pos`` itself ends a "[.!?,;] " before it
        for s in _HEAD_STARTS.finditer(text, start, bound):
            at = s.end()
            if at > bound:
                break
            if at >= pos and (m := head_match(text, at)) is not None:
                return m
        return tail

    def search(self, text: str, pos: int = 0) -> re.Match | None:
        return self._next(text, pos)

    def finditer(self, text: str):
        pos = 0
        while (m := self._next(text, pos)) is not None:
            yield m
            pos = m.end()


_RULED_OUT = _RuledOut()


# "I haven't confirmed", "not verified that", "not ruled out yet", "yet to be confirmed": the
# words of an outcome under a negation settle nothing.
# "Nothing rules it out yet", "nothing confirms it": none either.
_NEGATED = re.compile(r"(?:\b(?:not|never|yet to be|unable to|cannot|nothing)|n't)\s+(?:(?:been|be|yet|fully|really)\s+)*$", re.I)


# "If that works, ...", "Check whether that works", "Hopefully that fixed it", "I want to make sure
# that works", "Not sure that was it": an outcome supposed, hoped for or still to be checked (the
# word just before it, lowered; "sure" after "make" or "not").
_SUPPOSING = frozenset(("if", "once", "whether", "when", "unless", "until", "hopefully", "unsure"))
# "This confirms nothing yet", "We have confirmed none of it"
_NOTHING_AFTER = re.compile(r"\s+(?:nothing|none)\b", re.I)


def _supposed(text: str, at: int) -> bool:
    """The word just before ``at`` (with whitespace between) supposes what follows."""
    words = text[max(0, at - 16):at].split()
    if not words or not text[at - 1:at].isspace():
        return False
    last = words[-1].lower()
    return last in _SUPPOSING or (last == "sure" and len(words) > 1 and words[-2].lower() in ("make", "not"))


def _in_if_clause(text: str, at: int) -> bool:
    """The sentence around ``at`` opens with "If" ("If the issue is indeed the flag, ...")."""
    lo = max(0, at - 200)
    start = max(text.rfind(". ", lo, at), text.rfind("? ", lo, at), text.rfind("! ", lo, at), text.rfind("\n", lo, at))
    start = start + 1 if start >= 0 else lo
    return text[start:at].lstrip()[:3].lower() == "if "


def _sentence_start(text: str, at: int) -> int:
    lo = max(0, at - 200)
    start = max(text.rfind(". ", lo, at), text.rfind("? ", lo, at), text.rfind("! ", lo, at), text.rfind("\n", lo, at))
    return start + 1 if start >= 0 else lo


# "I will verify that the fix works", "Let me confirm that this works", "To confirm the fix works,
# I rerun the benchmark": a check the agent means to make, its outcome still to come (was a
# confirmation, the guess closed before anything was measured). "I ran it to verify: the fix
# works" and "I verified that the fix works" are no plan.
_PLANNED_CHECK = re.compile(
    r"(?:\b(?:let me|let's|let us|i'll|i will|we'll|we will|i need to|we need to|i want to|i'd like to|"
    r"i'm going to|we're going to|i am going to|i should|we should)|^\W*to)\s+(?:\w+\s+){0,2}?"
    r"(?:verify|confirm|check|test|see|ensure|make sure|validate|double-check)\b[^.!?;:,]*$", re.I)


def _affirmed(pattern: re.Pattern, text: str) -> bool:
    """``pattern`` matches somewhere in ``text`` without a negation or a supposition just before
    it ("not", "if", "whether"), "nothing" just after it, an "If" opening its sentence, or a
    check still to make before it in its sentence ("Let me verify that")."""
    for m in pattern.finditer(text):
        if not _NEGATED.search(text, max(0, m.start() - 40), m.start()) and not _supposed(text, m.start()) \
                and not _NOTHING_AFTER.match(text, m.end()) and not _in_if_clause(text, m.start()) \
                and not _PLANNED_CHECK.search(text[_sentence_start(text, m.start()):m.start()]) \
                and not _asked(text, m.end()):
            return True
    return False


_SENTENCE_END = re.compile(r"[.!?\n]")


def _asked(text: str, at: int) -> bool:
    """The sentence holding ``at`` is a question: "Has this been confirmed?", "Was that not the
    issue?" (the "indeed" of _CONFIRMED rules its own out)."""
    end = _SENTENCE_END.search(text, at, at + 300)
    return end is not None and end.group() == "?"


def sentences_matching(text: str, pattern: re.Pattern, limit: int = 3, affirmed: bool = False) -> list[str]:
    cue = _CUES.get(pattern)
    if cue is not None and not _cues_apply(text):
        cue = None
    out = []
    for m in _SENTENCE.finditer(text):
        sentence = m.group(0).strip()
        if not sentence or (cue is not None and not cue(sentence.lower())):
            continue  # (a sentence without a literal of the pattern cannot match it: see _CUES)
        if _affirmed(pattern, sentence) if affirmed else pattern.search(sentence):
            out.append(sentence[:300])
            if len(out) >= limit:
                break
    return out


# Cheap tests on the lowered text before any regex runs over a long message: a cue word of
# the patterns is in it. Each test is one scan of the text (under callgrind, ``in`` costs ~3
# instructions a character, sre's search for a literal prefix ~8, for a set of first characters
# ~60), so the tests are ``in``, and the words with a letter most texts lack are behind a test
# for that letter (``"b" in low`` is a memchr: a fifth of a scan, call included). The words with a
# common start are found with _followed behind an ``in`` of the start: one scan where it is in no
# text, and a test of what follows each place of it where it is (just where a search for
# ``stem(?:tail|...)`` matches).


def _followed(low: str, stem: str, tails: tuple[str, ...]) -> bool:
    """Whether ``low`` holds ``stem`` right before one of ``tails`` (where the pattern
    ``stem(?:tail1|tail2|...)`` would match)."""
    at = low.find(stem)
    while at >= 0:
        if low.startswith(tails, at + len(stem)):
            return True
        at = low.find(stem, at + 1)
    return False


def _preceded(low: str, word: str, heads: tuple[str, ...]) -> bool:
    """Whether ``low`` holds ``word`` right after one of ``heads`` (where ``(?:head1|...)word``
    would match)."""
    at = low.find(word)
    while at >= 0:
        if low.endswith(heads, 0, at):
            return True
        at = low.find(word, at + 1)
    return False


_GUESS_WORDS = ("guess", "theory", "suspicion", "hunch")
# "my guess", "my (first|best|current|...) guess|theory|suspicion|hunch"
_MY_GUESS_TAILS = _GUESS_WORDS + tuple(f"{which} {word}" for which in (
    "first", "best", "current", "working", "main", "leading", "initial", "other", "second", "next", "only")
    for word in _GUESS_WORDS)
# "could be", "could also be", "could well be" (and "might", "may")
_BE_TAILS = ("be", "also be", "well be")
# "no change", "no difference", "no improvement", "no effect"
_NO_TAILS = ("change", "difference", "improvement", "effect")
# "the (real|actual)? (issue|problem|bottleneck|bug|culprit)"
_THE_CULPRIT = re.compile("the (?:(?:real|actual) )?(?:issue|problem|bottleneck|bug|culprit)").search
_THE = ("the ", "the real ", "the actual ")


def _hypothesis_cue(low: str) -> bool:
    """One of "suspect", "hypothes", "likely", "probably", "suggests", "possib(ly|le that|ility)", "perhaps", "maybe", "could (also|well) be",
    "might (also|well) be", "may (also|well) be", "root cause", "my (first|best|...) guess|theory|suspicion|hunch", "the issue", "the problem", "the bottleneck",
    "the bug", "the culprit", "i wonder", "i bet" is in ``low``."""
    if "suspect" in low or "hypothes" in low or "likely" in low or "suggests" in low or "perhaps" in low \
            or "root cause" in low or "i wonder" in low:
        return True
    if "b" in low:
        # the words with a "b": "probably", "possib...", "maybe", "(could|might|may) ... be", "i bet",
        # "the problem", "the bottleneck", "the bug" (and the issue, the culprit: one scan for all)
        if "probably" in low or "maybe" in low or "i bet" in low \
                or "possib" in low and _followed(low, "possib", ("ly", "le that", "ility")) \
                or "could " in low and _followed(low, "could ", _BE_TAILS) \
                or "might " in low and _followed(low, "might ", _BE_TAILS) \
                or "may " in low and _followed(low, "may ", _BE_TAILS) or _THE_CULPRIT(low) is not None:
            return True
    elif "issue" in low and _preceded(low, "issue", _THE) or "culprit" in low and _preceded(low, "culprit", _THE):
        return True  # (no "b": "the (real|actual)? issue|culprit" are the words of _THE_CULPRIT left)
    return "m" in low and "my " in low and _followed(low, "my ", _MY_GUESS_TAILS)


def _outcome_cue(low: str) -> bool:
    """One of "confirm", "fixed", "was it", "verified", "help", "not the|it", "n't the|it",
    "change anything", "a difference", "ruled out", "rules out", "no change", "no difference",
    "no improvement", "no effect", "works", "worked", "indeed", "was wrong", "fine", " correct", " ok"
    (each a word), "s right", "did it", "did the trick", "solved it", "t to blame", "red herring",
    "cks out", "checked out" is in ``low``."""
    if "help" in low or "fine" in low or "indeed" in low or "was it" in low or "was wrong" in low or "s right" in low \
            or "red herring" in low or "change anything" in low or "a difference" in low \
            or "work" in low and _followed(low, "work", ("s", "ed")) or "not " in low and _followed(low, "not ", ("the", "it")) \
            or "did " in low and _followed(low, "did ", ("it", "the trick")) or "no " in low and _followed(low, "no ", _NO_TAILS):
        return True
    # "rule[ds] (it|that|this|them)? out", "cks out", "checked out": each holds " out"
    if " out" in low and (_RULED_OUT_WORDS(low) is not None or "cks out" in low or "checked out" in low):
        return True
    if " correct" in low and _CORRECT(low) is not None or " ok" in low and _OK(low) is not None:
        return True
    return "m" in low and ("confirm" in low or "t to blame" in low) or "x" in low and "fixed" in low \
        or "v" in low and ("verified" in low or "solved it" in low) or "'" in low and ("n't the" in low or "n't it" in low)


# "correct" and "ok" as a word of their own: "correctly", "correctness", "okay-ish" clear nothing
# (a cue that passed on them would run _RULED_OUT, 120 us a KB, over the text for nothing)
_CORRECT = re.compile(r" correct(?![\w-])").search
_OK = re.compile(r" ok(?:ay)?(?![\w-])").search
_RULED_OUT_WORDS = re.compile("rule[ds] (?:(?:it|that|this|them) )?out").search
_NOT_THE_CAUSE = re.compile("t the (?:(?:real|actual) )?(?:cause|issue|problem|culprit|bottleneck)").search


def _confirmed_cue(low: str) -> bool:
    """A literal of every branch of _CONFIRMED, lowered, is in ``low``: "confirmed",
    "confirms", "that fixed it", "that was it", "verified that", "(the) fix work(s|ed)",
    "that work(s|ed)", "this work(s|ed)", "(is|was|are|were) indeed", "(is|was) correct|right"
    (each holding "s correct", "s right"), "(that|this) did it", "did the trick", "solved it"."""
    return "s right" in low or "indeed" in low or "s correct" in low or "did " in low and _followed(low, "did ", ("it", "the trick")) \
        or "that was it" in low or "that work" in low or "this work" in low \
        or "m" in low and "confirm" in low and _followed(low, "confirm", ("ed", "s")) \
        or "x" in low and ("that fixed it" in low or "fix work" in low) \
        or "v" in low and ("solved it" in low or "verified that" in low)


def named_ruled_out(sentence: str) -> bool:
    """``sentence`` (an outcome) clears a suspect it names: "The d2t map is fine.", "Not the d2t map."."""
    return _NAMED_OUT.search(sentence) is not None


def _ruled_out_cue(low: str) -> bool:
    """A literal of every branch of _RULED_OUT, lowered, is in ``low``: "rule[ds] (it|that|...)
    out", "no change" (difference, improvement, effect), "(did|does) not" or "(did|does)n't"
    before "help", "change anything", "make a difference" (each holds "t help" and so on),
    and "(is|was)n't", "(is|was) not" or "not" before "the cause" (issue, problem, culprit,
    bottleneck), each holding "t the cause" and so on, "was wrong", "(that|this)('s| is| was)
    (not|n't) it", each holding "t it", and a named suspect cleared: "fine", " correct", " ok"
    (each a word), "not the", "(is|was)n't/not to blame" (holding "t to blame"), "red herring",
    "check(s|ed) out" (holding "cks out" or "checked out")."""
    return "fine" in low or "not the" in low or "t it" in low or "was wrong" in low or "t help" in low \
        or "no " in low and _followed(low, "no ", _NO_TAILS) or _NOT_THE_CAUSE(low) is not None or "red herring" in low \
        or "t change anything" in low or "t make a difference" in low \
        or " out" in low and (_RULED_OUT_WORDS(low) is not None or "cks out" in low or "checked out" in low) \
        or " correct" in low and _CORRECT(low) is not None or " ok" in low and _OK(low) is not None \
        or "m" in low and "t to blame" in low


# Each pattern's cue test: every branch of the pattern holds one of the cue's literals (ASCII
# letters, spaces, an apostrophe), so where the pattern matches, each literal's characters
# match case-insensitively; when each of those is ASCII, the lowered text holds the literal
# as written. A regex over a 1 KB message costs 40-160 us, a cue 1-3 us.
_CUES = {_HYPOTHESIS: _hypothesis_cue, _CONFIRMED: _confirmed_cue, _RULED_OUT: _ruled_out_cue}


def _cues_apply(text: str) -> bool:
    """Every character of ``text`` that IGNORECASE matches to an ASCII letter is one, so the
    cue tests hold wherever a pattern matches: no İ, ı, ſ or Kelvin sign (whose lower() is not
    the letter they match, or which the literal would not find)."""
    if text.isascii():
        return True
    for char, _ in _FOLDS_TO_ASCII:  # İ and ı to i, ſ to s, K (Kelvin) to k
        if char in text:
            return False
    return True


# "Root cause: ...", "The root cause was ...", "Root cause found: ...", "Found the root cause:
# ...", "... was the root cause", "The problem was ...": the agent states what it established (a
# closing summary, most often, its label in bold or a heading: "**Root cause:** ...", "## Root
# cause"), no guess ("The issue is that ...", what it is looking at, is one); "the root cause
# might be", "I think the root cause is", "to find the root cause:" and a question are still
# guesses or plans.
_STATED_CAUSE = re.compile(
    r"^[\s#*_>\-\u2022\d.)]*(?:(?:so|the|final|actual|real|overall|in short|summary)\W+){0,3}(?:root cause\b"
    r"(?:\s+(?:found|identified|confirmed|established))?[\s*_]*(?:[:\u2014]|-\s|\b(?:is|was)\b|$)"
    r"|(?:problem|issue|bug|culprit|bottleneck) was\b)"
    r"|\b(?:found|identified|established|pinned down) the (?:actual |real )?root cause\s*[:\u2014]"
    r"|(?:\b(?:is|was)|'s) the (?:actual |real )?(?:root cause|culprit)\b"
    r"|(?:\b(?:is|was)|'s) the (?:real |actual )?(?:problem|issue|bug)(?: all along)?(?=\s*(?:[.!]|$))", re.I)
_HEDGED = re.compile(
    r"\?|\b(?:might|may|could|would|probably|likely|possibl[ey]|perhaps|maybe|suspect\w*|guess|think|"
    r"believe|seems?|appears?|if|whether|potential|candidate|unclear|unknown|not|no|still|yet|find|look|"
    r"investigat\w*|determine|need|let me|let's|until)\b|n't\b", re.I)


# "That was the culprit.", "Yep, this is the root cause": the cause named by a pronoun alone (the
# last guess). Only looked for in a stated cause with no topic word, so it costs the hot path nothing.
_PRONOUN_CAUSE = re.compile(r"^\W*(?:(?:so|yes|yep|yeah|ok(?:ay)?|and|well|indeed|right)\W+)?(?:that|this|it)"
                            r"(?:'s|\s+is|\s+was)\s+(?:indeed\s+)?the\s+(?:actual\s+|real\s+)?"
                            r"(?:root\s+cause|culprit|problem|issue|bug)(?:\s+all\s+along)?\W*$",
                            re.I)


def pronoun_cause(sentence: str) -> bool:
    """``sentence`` (a stated cause) names the cause by "that", "this" or "it" alone."""
    return _PRONOUN_CAUSE.match(sentence) is not None


def stated_cause(sentence: str) -> bool:
    """``sentence`` (a hypothesis sentence) states an established root cause, unhedged."""
    return _STATED_CAUSE.search(sentence) is not None and _HEDGED.search(sentence) is None


# A "could/might/may be" that is a plan, not a claimed cause: the question of a check ("I will
# check whether the draft could be loaded", "let me see if the config might be wrong") and a
# forecast of how an action will go ("The build may be slow", "this might take..." is no match
# already). Both are only looked for in a sentence that matched, so they cost the hot path
# nothing.
_MODAL_BE = re.compile(r"\b(?:could|might|may)(?: also| well)? be\b", re.I)
_CHECK_QUESTION = re.compile(
    r"\b(?:check|checking|checks|see|seeing|verify|verifying|test|testing|confirm|confirming|find out|"
    r"figure out|determine|make sure|ensure|inspect|inspecting|look at|looking at)\s+(?:whether|if)\b[^.!?;,]*$", re.I)
_FORECAST = re.compile(
    r"(?:\b(?:build|builds|compil\w*|download\w*|install\w*|upload|step|command|job|run|startup|warm-?up|load|"
    r"loading|benchmark|sweep|this|that|it)\s+(?:could|might|may)(?: also| well)? be\s+(?:(?:a bit|quite|very|rather|too)\s+)?"
    r"(?:slow|slower|long|longer|large|larger|big|bigger|heavy|expensive|time-consuming|quick|quicker|a while)\b"
    # "This could be a long-running benchmark", "the sweep might be a long one": the action's length
    # ("This could be a slow path in the draft kernel", "a large mismatch": a fault guessed)
    r"|\b(?:build|builds|compil\w*|download\w*|install\w*|upload|step|command|job|run|startup|warm-?up|load|"
    r"loading|benchmark|sweep|this|that|it)\s+(?:could|might|may)(?: also| well)? be\s+an?\s+(?:(?:bit|very|quite|rather)\s+)?"
    r"(?:long-running|long|longer|lengthy|slow|slower|large|big|heavy|expensive|time-consuming|quick)\s+"
    r"(?:one|run|job|build|download|install\w*|benchmark|wait|process|step|operation|task|compil\w*|sweep|load|upload|"
    r"transfer|copy|command)\b)"
    r"(?![^.!?]*\b(?:because|due to|caused|why)\b)", re.I)


# "The checkpoint could be loaded by SGLang", "the two runs could be compared directly", "this
# could be fixed by a relaunch": "could be" before a neutral participle says what was or is
# possible, no suspect ("the weights could be corrupted", "the old map could be loaded instead"
# guess: a participle that is a fault is not listed, and "instead", "wrong" or a reason after it
# keeps the guess).
_ABILITY = re.compile(
    r"\bcould(?: also| well)? be\s+(?:(?:successfully|directly|easily|safely|quickly|fully|then|now|also)\s+)?"
    r"(?:loaded|compared|tested|checked|verified|measured|benchmarked|reproduced|run|done|fixed|solved|resolved|"
    r"improved|addressed|tried|installed|built|compiled|imported|launched|started|reached|opened|read|parsed|"
    r"downloaded|found|achieved|avoided|skipped|tuned|served|evaluated|profiled|inspected|printed|logged)\b"
    r"(?![^.!?]*\b(?:instead|incorrectly|wrong(?:ly)?|twice|because|due to|caused)\b)", re.I)


# "Let me look for any hooks or components that might be relevant", "search for files which could
# be related": what a search sets out to find, no suspect ("The aux layer ids might be relevant",
# said of a named subject, stays a guess). Only looked for in a sentence that matched.
_SOUGHT = re.compile(
    r"\b(?:look|looking|search|searching|grep|grepping|scan|scanning|find|finding|check|checking|read|reading)\b"
    r"[^.!?;:]*?\b(?:that|which)\s+(?=(?:could|might|may)(?: also| well)? be\s+(?:relevant|related)\b)", re.I)


# "This could be a big problem.", "That might be a serious issue for production": a worry about
# what is seen, of no subject but "this"/"that"/"it", and nothing said after it: no guess at a
# cause ("This could be a problem with the d2t map", "The d2t map could be a big problem", "That
# could be a problem: the vocab map is stale", "... if the layer ids are off" still guess).
_WORRY = re.compile(
    r"\b(?:this|that|it|which)\s+(?:could|might|may)(?: also| well)? be\s+an?\s+"
    r"(?:(?:big|bigger|real|serious|major|huge|potential|significant|nasty)\s+)?(?:problem|issue|concern|risk|headache)"
    r"(?:\s+(?:for (?:us|users|production|prod|deployment|later)|later(?: on)?|down the (?:line|road)|in production"
    r"|going forward|at scale|long[- ]term))?\s*[.!]*\s*$", re.I)


def _planned_only(sentence: str) -> bool:
    """Every guess-word of ``sentence`` is a "could/might/may be" of a check's question, of a
    forecast, of what was possible ("could be loaded") or of a worry ("this could be a big
    problem"): the sentence claims no cause."""
    found = False
    worry = _WORRY.search(sentence)
    for m in _MODAL_BE.finditer(sentence):
        if _CHECK_QUESTION.search(sentence, 0, m.start()) is None and not any(
                f.start() <= m.start() < f.end() for f in _FORECAST.finditer(sentence)) \
                and _ABILITY.match(sentence, m.start()) is None \
                and not any(f.end() == m.start() for f in _SOUGHT.finditer(sentence)) \
                and not (worry is not None and worry.start() <= m.start() < worry.end()):
            return False
        # the sentence with this modal blanked out must match no other branch of the pattern
        sentence = sentence[:m.start()] + " " * (m.end() - m.start()) + sentence[m.end():]
        found = True
    return found and _HYPOTHESIS.search(sentence) is None


# A fault said of a subject: "... is the problem", "... are wrong", "... is not being applied".
_FAULT = (r"(?:probably |likely |actually |still |just |definitely |clearly )?(?:the (?:real |actual |root )?"
          r"(?:problem|issue|cause|culprit|bug|bottleneck)\b(?! (?:is|was) (?:now )?(?:fixed|gone|resolved|solved))"
          r"|wrong|broken|incorrect|stale|misconfigured|mismatched|buggy|corrupt(?:ed)?|off by one|to blame|at fault"
          r"|(?:not|n't) (?:being )?(?:loaded|applied|used|honou?red|passed|set|read) (?:correctly|properly|at all)\b)")
# The agent's opinion of what is at fault, in words _HYPOTHESIS does not hold: "I think the d2t map
# is wrong", "It looks like the layer ids are off by one", "This points to the d2t map". Not a plan
# or an opinion of something sound: "I think we should rerun", "It looks like the server started",
# "This points to the docs", "The symlink points to the new checkpoint".
_OPINION = re.compile(
    r"\bI (?:think|believe|reckon)(?: that)?,? (?!(?:we|I|you|they|it'?s|it is|it would|it might|this is)\b)"
    r"(?:the |our |its |this |that )?[\w.'/-]+(?: [\w.'/-]+){0,5}? (?:is|are|was|were) " + _FAULT +
    r"|\b(?:it )?(?:looks|seems|appears) (?:like|as if|as though|that) (?!(?:we|I|you|they)\b)"
    r"(?:the |our |its |this |that )?[\w.'/-]+(?: [\w.'/-]+){0,5}? (?:is|are|was|were|has been|have been) " + _FAULT +
    r"|(?:^|(?<=[.!?] )|(?<=\n)|(?<=, )|(?<=; ))(?:(?:so|and|ok(?:ay)?|hmm+|well),? )?(?:this|that|which|everything|all (?:of )?(?:this|that)"
    r"|the (?:evidence|data|numbers|results?|profile|trace|logs?|pattern|symptoms?))"
    r" (?:strongly |clearly |also |all )?(?:points|pointed|hints|hinted) (?:to|at|towards?) "
    r"(?!(?:the |a |an )?(?:docs?|documentation|readme|file|folder|directory|path|url|link|page|section|line|repo|same|"
    r"right|correct|expected|latest|new|old|next|first|second|fix|solution|answer|need|fact|way|conclusion)\b"
    r"|(?:nothing|something|anything|it|this|that|them|what|where|how|why)\b)"
    r"(?:the |a |an |our |its )?(?=[a-z])[\w.'/-]+", re.I)


# A literal of every branch of _OPINION, lowered (only agent text is read for opinions, beside
# scan_metrics over the same text: these finds are a small part of its cost).
# (" points ", not "point": "checkpoint", "endpoint" are in most texts of the field)
_OPINION_CUES = ("i think", "i believe", "i reckon", "looks ", "seems ", "appears ", " points ", " pointed ", " hint")
_OPINION_END = re.compile(r"[.!?](?!\S)|\n")


def _opinions(text: str, low: str) -> list[str]:
    """The sentences of ``text`` that match _OPINION: only those around a cue of it are read (the
    phrases are common, the opinions rare: no split of the whole text)."""
    if len(low) != len(text) or not _cues_apply(text):
        return sentences_matching(text, _OPINION, 3)  # (offsets of the lowered text are not the text's)
    # Where each cue is first, in the order of _OPINION_CUES (-1: nowhere). A cue is looked for
    # after the first place of a start it shares with others ("i ", " point": any place of the cue
    # is one of the start's), or not at all where a letter of it is in no word (memchr).
    mine, point = "i " in low, " point" in low
    if not (mine or point or "looks " in low or "appears " in low or " hint" in low or "m" in low and "seems " in low):
        return []
    firsts = (low.find("i think") if mine else -1, low.find("i believe") if mine and "b" in low else -1,
              low.find("i reckon") if mine else -1, low.find("looks "), low.find("seems "), low.find("appears "),
              low.find(" points ") if point else -1, low.find(" pointed ") if point else -1, low.find(" hint"))
    out: list[tuple[int, str]] = []
    tries = 24  # (a text that says "it looks like" 500 times has its guesses in the first of them)
    for cue, at in zip(_OPINION_CUES, firsts):
        while at >= 0 and len(out) < 6 and tries:
            tries -= 1
            start = _sentence_start(text, at)
            end = _OPINION_END.search(text, at)
            stop = end.end() if end is not None else len(text)
            sentence = text[start:stop].strip()
            if _OPINION.search(sentence) is not None and all(s != sentence[:300] for _, s in out):
                out.append((start, sentence[:300]))
            at = low.find(cue, stop)
    return [s for _, s in sorted(out)][:3]


def hypotheses(text: str, low: str | None = None) -> list[str]:
    """``low`` is ``text.lower()`` when the caller has it already."""
    if low is None:
        low = text.lower()
    found = []
    if _hypothesis_cue(low) and _HYPOTHESIS.search(text) is not None:
        found = [s for s in sentences_matching(text, _HYPOTHESIS, 6) if not _planned_only(s)][:3]
    if len(found) < 3 and (opinions := _opinions(text, low)):
        opinions = [s for s in opinions if s not in found]
        if opinions:
            found = sorted(found + opinions, key=text.find)[:3]
    return found


# "I confirmed the server is listening on port 30000", "Verified that the GPUs are idle": a
# confirmation that a service or machine is in a working state, a step of the check (the server
# must be up to be measured), no answer to a guess at why the draft underperforms. Only looked
# for in an outcome's sentence, so it costs the hot path nothing.
_SERVICE_STATE = re.compile(
    r"\b(?:server|servers|service|process|processes|endpoint|port|daemon|container|job|gpus?|node|host|engine)\b"
    r"[^.!?;:]{0,60}?\b(?:is|are|was|were)\s+(?:now\s+|still\s+)?(?:listening|running|up|ready|healthy|reachable|"
    r"responding|alive|started|available|visible|free|idle)\b"
    r"|\b(?:server|service|endpoint|port|daemon)\b[^.!?;:]{0,30}?\b(?:responds|answers|listens)\b"
    # "Confirmed the download finished", "verified the build completed": a step done
    r"|\b(?:download|install|installation|build|copy|transfer|upload|compilation)\b[^.!?;:]{0,30}?"
    r"\b(?:finished|completed|succeeded|is done|was done|is complete)\b", re.I)


# "I confirmed the regression: 55 tok/s", "Confirmed the issue reproduces on gpu02", "the
# benchmark confirms the slowdown is still there": the symptom measured again, no answer to a
# guess at its cause (a guess "confirmed" by it was shown as found).
_SYMPTOM_AGAIN = re.compile(
    r"\b(?:confirm\w*|verified)\b[^.!?;]{0,60}?(?:\b(?:regression|slowdown|reproduc\w*|persists|still)\b"
    r"|\bthe (?:issue|problem|bug|symptom) (?:is real|exists)\b)", re.I)


# "I confirmed the tokenizer loads fine", "Verified that the chat template renders correctly": a
# subject other than the guess's found sound, a step of the check, no answer to a guess naming
# none of its words (was: it settled the newest guess, shown as confirmed by the tokenizer). Not
# "it", "that" or "everything" ("That fixed it, everything works fine": the fix measured). Only
# looked for in an outcome's sentence, so it costs the hot path nothing.
_SOUND = re.compile(
    r"\b(?!(?:it|that|this|everything|all|fix|which|now|suspicion|guess|theory|hypothesis|hunch)\b)[\w-]+\s+(?:(?:still|now|also)\s+)?"
    r"(?:loads?|loaded|works?|worked|runs?|ran|renders?|rendered|parses?|parsed|imports?|imported|is|are|was|"
    r"were|looks?|looked)\s+(?:(?:just|all|perfectly)\s+)?(?:fine|ok(?:ay)?|correct(?:ly)?|properly|as expected|"
    r"good|without (?:errors?|issues?|problems?))\b", re.I)
_FIX_SAID = re.compile(r"\b(?:fixed|fixes|solved|resolved|that was it|the fix)\b", re.I)


def sound_subject(sentence: str) -> bool:
    """``sentence`` (an outcome) confirms that something it names loads, works or is fine, and
    tells no fix."""
    return _SOUND.search(sentence) is not None and _FIX_SAID.search(sentence) is None


# "The issue is that my code computes attn_input before the concat", "my test script loads the
# wrong shard": a guess at the agent's own code (a standalone test, a repro), which the served
# model's throughput does not run. Only looked for in a guess an outcome would settle, so it costs
# the hot path nothing.
_OWN_CODE = re.compile(
    r"\b(?:my|our) (?:own )?(?:standalone )?(?:code|script|test|tests|test script|repro|reproducer|harness|snippet|"
    r"re-?implementation|implementation)\b", re.I)


_RETRACTION_WORDS = frozenset(("actually", "earlier", "scratch", "assumption", "suspicion", "okay", "hmm", "wait",
                               "said", "thought"))


def retracted_subject(sentence: str) -> frozenset | None:
    """What a retraction ("I was wrong about the port number", "My guess was wrong") takes back, in
    topic words (empty: naming nothing, the last guess); None for a sentence that takes nothing
    back."""
    if "was wrong" not in sentence.lower():
        return None
    return topic_words(sentence) - _RETRACTION_WORDS


def own_code(sentence: str) -> bool:
    """``sentence`` (a hypothesis) is about the agent's own code: its test, script or repro."""
    return _OWN_CODE.search(sentence) is not None


def symptom_again(sentence: str) -> bool:
    """``sentence`` (an outcome) confirms the symptom is there, not a suspect."""
    return _SYMPTOM_AGAIN.search(sentence) is not None


def service_state(sentence: str) -> bool:
    """``sentence`` (an outcome) confirms that a server, process, port or GPU is up or free, or
    that a download, install or build finished."""
    return _SERVICE_STATE.search(sentence) is not None


def outcome(text: str, low: str | None = None) -> tuple[str, ...] | None:
    """``("confirmed" | "ruled_out", sentence)`` when the text settles something; a confirmation
    with a suspect ruled out beside it is ``("confirmed", sentence, ruled_out_sentence)``."""
    if low is None:
        low = text.lower()
    if not _outcome_cue(low):
        return None
    plain = _cues_apply(text)
    for kind, pattern, cue in (("confirmed", _CONFIRMED, _confirmed_cue), ("ruled_out", _RULED_OUT, _ruled_out_cue)):
        # (_affirmed finds a match or says False: a search before it would scan the text twice)
        if (not plain or cue(low)) and _affirmed(pattern, text):
            found = sentences_matching(text, pattern, 1, affirmed=True)
            sentence = found[0] if found else ""
            # "I confirmed that the vocab mapping is not the issue": what was confirmed is
            # that the suspect is innocent.
            if kind == "confirmed" and (_affirmed(_RULED_OUT, sentence) or _CHECKED_OUT.search(sentence) is not None):
                return "ruled_out", sentence
            if kind == "confirmed" and (not plain or _ruled_out_cue(low)) and _affirmed(_RULED_OUT, text):
                # "Confirmed: num_speculative_tokens 3 keeps up. The CUDA graph sizes were not the
                # issue.": one suspect found, another ruled out in the same text (was: only the
                # first told, which confirmed the CUDA graph guess it named nothing of)
                other = [s for s in sentences_matching(text, _RULED_OUT, 2, affirmed=True) if s != sentence]
                if other:
                    return kind, sentence, other[0]
            return kind, sentence
    return None


def why_text(text: str, limit: int = 320) -> str:
    """The reasoning just before a command: the last sentences of the agent's text."""
    tail = text[-(limit + 1):]
    # Runs on every text and thinking block. The normalised text's last ``limit`` characters
    # are the tail's own when the tail has no whitespace but single spaces inside it: then
    # the whole text need not be split and joined (3.4 us -> 1.8 us on a 450-character block),
    # and a text no longer than ``limit`` is its own normalised form.
    if limit > 0 and _single_spaced(tail):
        if len(tail) <= limit:
            return tail  # (the whole text)
        cut, before = tail[1:], tail[0]
    else:
        text = " ".join(text.split())
        if len(text) <= limit:
            return text
        cut, before = text[-limit:], text[-limit - 1]
    dot = cut.find(". ")
    if 0 <= dot < limit // 2:
        return cut[dot + 2:]
    # no sentence starts in the first half: start at a word, not inside one ("IDIA-SMI 550" of
    # "NVIDIA-SMI 550", "lier I saw" of "Earlier I saw"); a word longer than _WORD_CUT stays cut
    if cut[:1] == " ":  # (the window opens at a space: the word after it)
        cut, starts = cut[1:], before in _STOPS
    elif before == " ":  # (only a normalised text: a single-spaced tail does not start with one)
        starts = text[-limit - 2:-limit - 1] in _STOPS
    else:
        space = cut.find(" ", 0, _WORD_CUT)
        cut, starts = cut[space + 1:] if space >= 0 else cut, False
    # A start inside a sentence is marked "..." (ASCII: one character that is not makes every
    # kept why Python's two-byte form, +63 MB peak RSS on the 500 MB bench). A capitalised word
    # there ("SGLang expects them to be absolute ids", of "because the speculators loader in
    # SGLang expects ...") read as a whole sentence, in the distilled step's why as here.
    return cut if starts else "..." + cut


_STOPS = frozenset(".!?")


_WORD_CUT = 40
"""How much of a cut word :func:`why_text` drops to start at the next one."""

# Each printable ASCII byte to itself, every other byte to one that is not ASCII.
_PRINTABLE_ASCII = bytes(c if 32 <= c < 127 else 128 for c in range(256))


def _single_spaced(text: str) -> bool:
    """``text`` is ASCII with no whitespace but single spaces between its words: ``str.split``
    and a join with spaces give it back. For ASCII, being printable rules out every other
    character ``str.split`` splits on; the bytes' translation through _PRINTABLE_ASCII is ASCII
    where ``text.isprintable()`` is True, at half its cost (a table lookup a byte, where
    isprintable looks up each character's Unicode record)."""
    return text.isascii() and text.encode().translate(_PRINTABLE_ASCII).isascii() and text[:1] != " " \
        and text[-1:] != " " and "  " not in text


_WORD = re.compile(r"[a-z0-9][a-z0-9_]*")
# Words of any sentence, and the words that make a sentence a guess or an outcome: none says
# what the guess is about.
_NOT_TOPIC = frozenset((
    "the", "that", "this", "these", "those", "then", "than", "there", "their", "they", "them", "was", "were",
    "is", "are", "been", "being", "be", "not", "and", "but", "with", "from", "for", "into", "onto", "over",
    "under", "after", "before", "about", "also", "just", "only", "very", "much", "more", "most", "some", "any",
    "all", "each", "both", "other", "again", "still", "now", "here", "what", "which", "when", "where", "while",
    "why", "how", "its", "it's", "has", "have", "had", "having", "does", "did", "done", "doing", "can",
    "could", "would", "should", "might", "may", "must", "will", "our", "out", "off", "one", "two", "we", "you",
    "your", "his", "her", "him", "she", "because", "since", "due", "so", "too", "yet", "between", "my",
    "confirmed", "confirm", "confirms", "confirming", "verified", "verify", "ruled", "rules", "rule", "fixed",
    "fix", "works", "worked", "work", "issue", "problem", "cause", "caused", "causes", "root", "suspect",
    "suspected", "likely", "probably", "hypothesis", "guess", "theory", "culprit", "bug", "wrong", "right",
    "fine", "looks", "look", "seems", "seem", "think", "sure", "indeed", "definitely", "clearly",
    # ("the real culprit", "the actual problem": said of the cause, not what it is)
    "real", "actual",
))


def topic_words(sentence: str) -> frozenset:
    """What a hypothesis or an outcome is about: its words of three letters or more, lower
    case, without the words every guess and outcome has, a plural's "s" dropped."""
    words = set()
    for word in _WORD.findall(sentence.lower()):
        if len(word) < 3 or word in _NOT_TOPIC:
            continue
        words.add(word[:-1] if len(word) > 4 and word.endswith("s") and not word.endswith("ss") else word)
    return frozenset(words)


_ANY_WORD = re.compile(r"[a-z0-9_]+")


def guess_words(sentence: str) -> tuple[str, ...]:
    """The words of a guess in order, lower case, without those every guess and outcome has
    (:data:`_NOT_TOPIC`) and "i": two sayings of one guess have the same."""
    return tuple(w for w in _ANY_WORD.findall(sentence.lower()) if w != "i" and w not in _NOT_TOPIC)
