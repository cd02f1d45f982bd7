"""Parsers for what LLMs really answer: pure functions, text in, answer out.

Models wrap JSON in code fences, use single quotes or Python's ``True``, add prose before and
after, send two objects, stop mid-string, or answer in plain words. Each parser tries, in
order: strict JSON, a lenient repair, field-by-field extraction, and last a few unambiguous
prose patterns. The answer's ``status`` says which worked:

- ``"ok"``: the field was read from JSON (strict or repaired) or a ``key: value`` line;
- ``"inferred"``: read from prose or from another field (e.g. no ``hasIdiom`` but an idiom named);
- ``"unparseable"``: nothing usable; the answer is kept and counted, never dropped.

>>> answer = parse_detection('```json\\n{"hasIdiom": true, "idiom": "spill the beans"}\\n```')
>>> answer.has_idiom, answer.idiom, answer.status
(True, 'spill the beans', 'ok')
>>> parse_detection("{'hasIdiom': False, 'idiom': None}").has_idiom
False
>>> parse_detection("I cannot help with that.").status
'unparseable'
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

OK, INFERRED, UNPARSEABLE = "ok", "inferred", "unparseable"

# -- JSON extraction ------------------------------------------------------------------------

_FENCE_RE = re.compile(r"```[ \t]*[A-Za-z0-9_-]*[ \t]*\n?(.*?)(?:```|$)", re.S)


def _key(name: object) -> str:
    """A key as compared: lower case, letters and digits only (``has_idiom`` = ``hasIdiom``)."""
    return re.sub(r"[^a-z0-9]", "", str(name).lower())


def object_candidates(text: str) -> list[str]:
    """``{...}`` substrings of ``text``, outermost first, in order; an object cut off at the end
    of the text is closed so that a truncated answer still yields its complete fields.

    >>> object_candidates('Sure! {"a": {"b": 1}} and {"c": "}"}')
    ['{"a": {"b": 1}}', '{"c": "}"}']
    >>> object_candidates('{"hasIdiom": true, "idiom": "bite the')
    ['{"hasIdiom": true, "idiom": "bite the"}']
    """
    found: list[str] = []
    depth, start, quote, escaped = 0, -1, "", False
    for i, char in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
            continue
        if char == '"' and depth > 0:
            quote = char
        elif char == "{":
            if depth == 0:
                start = i
            depth += 1
        elif char == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                found.append(text[start:i + 1])
    if depth > 0:
        found.append(text[start:] + ('"' if quote else "") + "}" * depth)
    return found


_TRAILING_COMMA_RE = re.compile(r",\s*([}\]])")
_BARE_KEY_RE = re.compile(r"([{,]\s*)([A-Za-z_][A-Za-z0-9_ ]*?)\s*:")
_PY_LITERALS = {"true": "True", "false": "False", "null": "None"}


def load_object(candidate: str) -> Any:
    """Parse one object: strict JSON, then with trailing commas removed and bare keys quoted,
    then as a Python literal (single quotes, ``True``/``None``); ``None`` when all fail.

    >>> load_object("{'hasIdiom': True, 'idiom': 'break the ice',}")
    {'hasIdiom': True, 'idiom': 'break the ice'}
    >>> load_object('{hasIdiom: false, idiom: null}')
    {'hasIdiom': False, 'idiom': None}
    >>> load_object("{not json at all") is None
    True
    """
    attempts = [candidate]
    repaired = _TRAILING_COMMA_RE.sub(r"\1", candidate)
    repaired = _BARE_KEY_RE.sub(lambda m: f'{m.group(1)}"{m.group(2).strip()}":', repaired)
    attempts.append(repaired)
    for text in attempts:
        try:
            return json.loads(text)
        except ValueError:
            pass
    python = re.sub(r"\b(true|false|null)\b", lambda m: _PY_LITERALS[m.group(1)], repaired)
    try:
        return ast.literal_eval(python)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _find_key(value: Any, keys: frozenset[str]) -> dict | None:
    """The first dict (depth first) that has one of ``keys`` (compared with :func:`_key`)."""
    if isinstance(value, dict):
        if any(_key(k) in keys for k in value):
            return value
        children: Iterable[Any] = value.values()
    elif isinstance(value, list):
        children = value
    else:
        return None
    for child in children:
        found = _find_key(child, keys)
        if found is not None:
            return found
    return None


def _objects(text: str) -> list[Any]:
    """Every parseable object in ``text`` (fenced blocks first), in order."""
    blocks = [m.group(1) for m in _FENCE_RE.finditer(text)] + [text]
    parsed: list[Any] = []
    seen: set[str] = set()
    for block in blocks:
        stripped = block.strip()
        if stripped.startswith("[") and stripped not in seen:
            seen.add(stripped)
            value = load_object(stripped)
            if value is not None:
                parsed.append(value)
        for candidate in object_candidates(block):
            if candidate in seen:
                continue
            seen.add(candidate)
            value = load_object(candidate)
            if value is not None:
                parsed.append(value)
    return parsed


def _field_regex(names: Sequence[str]) -> re.Pattern[str]:
    # "hasIdiom": "true" / 'has_idiom': yes / **Has idiom:** True / hasIdiom = false
    alternatives = "|".join(
        r"[\s_-]*".join(re.escape(part) for part in re.findall(r"[a-z]+", name))
        for name in names
    )
    return re.compile(
        rf"""(?ix) ["'*]* \b(?:{alternatives})\b ["'*]* \s* [:=] \s* \**\s*
        (?: "(?P<dq>(?:[^"\\]|\\.)*)"? | '(?P<sq>(?:[^'\\]|\\.)*)'? | (?P<bare>[^,\n}}]*) )"""
    )


def field_value(text: str, names: Sequence[str]) -> str | None:
    """The value of the first ``name: value`` pair in ``text`` for any of ``names`` (lower case
    words), quoted or bare; ``None`` when there is none.

    >>> field_value('"hasIdiom": "true", "idiom": "under the weather', ["has idiom"])
    'true'
    >>> field_value('"idiom": "under the weather', ["idiom"])
    'under the weather'
    >>> field_value("**Idiom:** once in a blue moon", ["idiom"])
    'once in a blue moon'
    """
    match = _field_regex(names).search(text)
    if match is None:
        return None
    for group in ("dq", "sq", "bare"):
        value = match.group(group)
        if value is not None:
            return value.replace('\\"', '"').strip()
    return None


# -- value coercion -------------------------------------------------------------------------

_TRUE_WORDS = frozenset({"true", "yes", "y", "t", "1", "correct", "present", "contains"})
_FALSE_WORDS = frozenset({"false", "no", "n", "f", "0", "none", "null", "absent", "nil"})
_EMPTY_TEXT = frozenset({"", "none", "null", "n/a", "na", "nil", "-", "no idiom", "nothing",
                         "not applicable", "no", "false", "undefined", "unknown"})


def as_bool(value: Any) -> bool | None:
    """A yes/no value as a bool: ``True``, ``"true"``, ``"Yes."``, ``1`` … ; ``None`` if unclear.

    >>> [as_bool(v) for v in (True, "true", "Yes.", 1, "FALSE", "no", 0, None, "maybe", ["true"])]
    [True, True, True, True, False, False, False, None, None, True]
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return bool(value) if value in (0, 1) else None
    if isinstance(value, (list, tuple)) and value:
        return as_bool(value[0])
    if not isinstance(value, str):
        return None
    words = re.findall(r"[a-z0-9]+", value.lower())
    if not words:
        return None
    if words[0] in _TRUE_WORDS:
        return True
    if words[0] in _FALSE_WORDS:
        return False
    return None


def as_text(value: Any) -> str | None:
    """A text field: stripped of quotes; ``None`` for empty, null-like or missing values.

    >>> [as_text(v) for v in ('"spill the beans"', "None", "", None, ["kick the bucket", "x"], 3)]
    ['spill the beans', None, None, None, 'kick the bucket', '3']
    """
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (list, tuple)):
        return as_text(value[0]) if value else None
    if isinstance(value, dict):
        return as_text(next(iter(value.values()), None))
    text = str(value).strip().strip("\"'“”‘’`").strip()
    return None if text.lower().rstrip(".") in _EMPTY_TEXT else text


def _lookup(obj: dict, keys: frozenset[str]) -> tuple[bool, Any]:
    for name, value in obj.items():
        if _key(name) in keys:
            return True, value
    return False, None


# -- IdioTS detection -----------------------------------------------------------------------

_HAS_IDIOM_KEYS = frozenset({"hasidiom", "hasanidiom", "containsidiom", "containsanidiom",
                             "isidiom", "isidiomatic", "idiomatic", "idiompresent"})
_IDIOM_KEYS = frozenset({"idiom", "idiomaticexpression", "expression", "idioms"})
_MEANING_KEYS = frozenset({"meaning", "definition", "idiommeaning"})
_EXPLANATION_KEYS = frozenset({"explanation", "elaboration", "reason", "reasoning"})
_DETECTION_KEYS = _HAS_IDIOM_KEYS | _IDIOM_KEYS | _MEANING_KEYS | _EXPLANATION_KEYS

_NO_IDIOM_RE = re.compile(
    r"\b(?:(?:there\s+is|there's|i\s+see|i\s+find|i\s+found)\s+no\s+idiom"
    r"|no\s+idiom(?:atic\s+expression)?s?\s+(?:is\s+|was\s+|are\s+)?(?:present|found|detected|in)"
    r"|(?:does|do)\s*(?:not|n't)\s+(?:contain|have|include)\s+(?:an?\s+|any\s+)?idiom"
    r"|(?:is|are)\s*(?:not|n't)\s+(?:an?\s+|any\s+)?idiom(?:atic)?"
    r"|there\s+(?:are|were)\s+no\s+idiom)\b",
    re.I,
)
_IDIOM_NAMED_RE = re.compile(
    r"""\b(?:(?:contains|uses|has|includes|is)\s+(?:the|an|a)|the)\s+idiom(?:atic\s+expression)?
    (?:\s+(?:is|here\s+is|used\s+is))?\s*:?\s*["'“‘](?P<idiom>[^"'”’]+)["'”’]""",
    re.I | re.X,
)
_LEADING_YES_NO_RE = re.compile(r"^\W*(?P<word>yes|no)\b", re.I)


@dataclass(frozen=True)
class DetectionAnswer:
    """An IdioTS answer: the four JSON fields, and how they were read (module docstring)."""

    has_idiom: bool | None
    idiom: str | None = None
    meaning: str | None = None
    explanation: str | None = None
    status: str = OK
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "hasIdiom": self.has_idiom, "idiom": self.idiom, "meaning": self.meaning,
            "explanation": self.explanation, "status": self.status, "note": self.note,
        }


def parse_detection(text: str | None) -> DetectionAnswer:
    """Read an answer to the IdioTS prompt (fields hasIdiom, idiom, meaning, explanation).

    >>> answer = parse_detection('Sure: {"hasIdiom": "false", "idiom": ""} Hope it helps!')
    >>> answer.has_idiom, answer.idiom, answer.status
    (False, None, 'ok')
    >>> parse_detection('{"idiom": "hit the sack", "meaning": "go to bed"}').status
    'inferred'
    >>> parse_detection("No, there is no idiom in this sentence.").has_idiom
    False
    """
    if text is None or not text.strip():
        return DetectionAnswer(None, status=UNPARSEABLE, note="empty answer")
    objects = [o for o in (_find_key(v, _DETECTION_KEYS) for v in _objects(text)) if o]
    with_flag = [o for o in objects if _lookup(o, _HAS_IDIOM_KEYS)[0]]
    notes = []
    if len(objects) > 1:
        notes.append(f"{len(objects)} objects; the first with hasIdiom used")
    if with_flag or objects:
        chosen = (with_flag or objects)[0]
        flags = {as_bool(_lookup(o, _HAS_IDIOM_KEYS)[1]) for o in with_flag}
        if len(flags - {None}) > 1:
            notes.append("objects disagree on hasIdiom")
        has_idiom_field, idiom = _lookup(chosen, _HAS_IDIOM_KEYS), _lookup(chosen, _IDIOM_KEYS)
        return _from_fields(
            has_idiom_field[1], idiom[1], _lookup(chosen, _MEANING_KEYS)[1],
            _lookup(chosen, _EXPLANATION_KEYS)[1], notes,
            idiom_stated=idiom[0],
        )
    # No parseable object: key-value pairs anywhere (truncated JSON, YAML, Markdown).
    values = [field_value(text, names) for names in (
        ["has idiom", "has an idiom", "contains idiom", "is idiomatic"], ["idiom"],
        ["meaning", "definition"], ["explanation"],
    )]
    if any(v is not None for v in values):
        return _from_fields(*values, notes + ["read field by field"],
                            idiom_stated=values[1] is not None)
    return _from_prose(text)


def _from_fields(flag: Any, idiom: Any, meaning: Any, explanation: Any,
                 notes: list[str], *, idiom_stated: bool) -> DetectionAnswer:
    """An answer from its fields; ``idiom_stated``: the answer had an idiom field (maybe empty)."""
    has_idiom = as_bool(flag)
    named = as_text(idiom)
    status = OK
    if has_idiom is None:
        # hasIdiom missing or unreadable: an idiom named means yes, an explicit null means no
        if named is not None:
            has_idiom, status = True, INFERRED
            notes.append("hasIdiom missing; inferred from the idiom field")
        elif idiom_stated:
            has_idiom, status = False, INFERRED
            notes.append("hasIdiom missing; inferred from an empty idiom field")
        else:
            status = UNPARSEABLE
            notes.append("no hasIdiom and no idiom field")
    return DetectionAnswer(has_idiom, named, as_text(meaning), as_text(explanation), status,
                           "; ".join(notes))


def _from_prose(text: str) -> DetectionAnswer:
    named = _IDIOM_NAMED_RE.search(text)
    if _NO_IDIOM_RE.search(text) and not named:
        return DetectionAnswer(False, status=INFERRED, note="read from prose (no idiom)")
    if named:
        return DetectionAnswer(True, idiom=named.group("idiom").strip(), status=INFERRED,
                               note="read from prose (idiom named)")
    leading = _LEADING_YES_NO_RE.match(text)
    if leading:
        return DetectionAnswer(leading.group("word").lower() == "yes", status=INFERRED,
                               note="read from prose (leading yes/no)")
    return DetectionAnswer(None, status=UNPARSEABLE, note="no JSON, no field, no yes/no")


# -- IDEM emotion -----------------------------------------------------------------------

#: adjectives small models answer with instead of the label noun
EMOTION_ADJECTIVES = {
    "angry": "Anger", "anxious": "Anxiety", "bored": "Boredom", "confused": "Confusion",
    "desperate": "Desperation", "determined": "Determination", "disgusted": "Disgust",
    "doubtful": "Doubt", "envious": "Envy", "jealous": "Envy", "excited": "Excitement",
    "fascinated": "Fascination", "afraid": "Fear", "scared": "Fear", "fearful": "Fear",
    "frustrated": "Frustration", "grateful": "Gratitude", "guilty": "Guilt",
    "happy": "Happiness", "hopeful": "Hope", "humiliated": "Humiliation", "lonely": "Loneliness",
    "proud": "Pride", "regretful": "Regret", "relieved": "Relief", "reluctant": "Reluctance",
    "resentful": "Resentment", "sad": "Sadness", "serene": "Serenity", "ashamed": "Shame",
    "shocked": "Shock", "surprised": "Surprise",
}
_EMOTION_KEYS = frozenset({"emotion", "label", "answer", "emotionlabel", "sentiment"})
_CUE_RE = r"(?:emotion|answer|label)[^.\n:]{0,30}?(?:is|:|would\s+be|=)\s*\W{0,3}"


@dataclass(frozen=True)
class EmotionAnswer:
    """A zero-shot emotion answer: one of the allowed labels, or ``None``."""

    label: str | None
    status: str = OK
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "status": self.status, "note": self.note}


def _label_regex(words: Iterable[str]) -> re.Pattern[str]:
    ordered = sorted(words, key=len, reverse=True)  # longest first
    return re.compile(r"\b(" + "|".join(re.escape(w) for w in ordered) + r")\b", re.I)


def parse_emotion(text: str | None, labels: Sequence[str]) -> EmotionAnswer:
    """Read which of ``labels`` an answer names.

    One label named (or a JSON ``emotion`` field) is the answer; when several are named, the
    one after a cue such as "the emotion is" wins; adjectives ("angry") map to their label
    (status ``inferred``). An answer that lists many labels without a cue is unparseable.

    >>> labels = ["Anger", "Fear", "Happiness", "Sadness"]
    >>> parse_emotion("Sadness", labels).label
    'Sadness'
    >>> parse_emotion('{"emotion": "anger"}', labels).label
    'Anger'
    >>> parse_emotion("It is not fear; the emotion expressed is happiness.", labels).label
    'Happiness'
    >>> parse_emotion("The speaker sounds angry.", labels)
    EmotionAnswer(label='Anger', status='inferred', note='adjective')
    >>> parse_emotion("Anger, Fear, Happiness or Sadness", labels).status
    'unparseable'
    """
    if text is None or not text.strip():
        return EmotionAnswer(None, UNPARSEABLE, "empty answer")
    canonical = {label.lower(): label for label in labels}
    for value in _objects(text):
        obj = _find_key(value, _EMOTION_KEYS)
        if obj is not None:
            named = as_text(_lookup(obj, _EMOTION_KEYS)[1])
            if named and named.lower() in canonical:
                return EmotionAnswer(canonical[named.lower()])
    label_re = _label_regex(canonical)
    cued = re.search(_CUE_RE + label_re.pattern, text, re.I)
    if cued:
        return EmotionAnswer(canonical[cued.group(1).lower()])
    named = list(dict.fromkeys(m.group(1).lower() for m in label_re.finditer(text)))
    if len(named) == 1:
        return EmotionAnswer(canonical[named[0]])
    if len(named) > 1:
        first_line = list(dict.fromkeys(
            m.group(1).lower() for m in label_re.finditer(text.strip().splitlines()[0])))
        if len(first_line) == 1 and len(named) <= 3:
            return EmotionAnswer(canonical[first_line[0]], note="first line")
        return EmotionAnswer(None, UNPARSEABLE, f"{len(named)} labels named, no cue")
    adjectives = {word: label for word, label in EMOTION_ADJECTIVES.items()
                  if label.lower() in canonical}
    found = list(dict.fromkeys(
        adjectives[m.group(1).lower()] for m in _label_regex(adjectives).finditer(text)
    )) if adjectives else []
    if len(found) == 1:
        return EmotionAnswer(canonical[found[0].lower()], INFERRED, "adjective")
    return EmotionAnswer(None, UNPARSEABLE, "no allowed label named")


# -- IDEM data generation -------------------------------------------------------------------


@dataclass(frozen=True)
class GenerationAnswer:
    """Sentences generated for one idiom: kept ``(sentence, label)`` pairs, and those dropped
    because their label is not allowed (IDEM dropped labels outside its 36) or missing."""

    items: tuple[tuple[str, str], ...] = ()
    dropped: tuple[tuple[str, str], ...] = ()
    unlabelled: tuple[str, ...] = ()
    status: str = OK
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "items": [list(i) for i in self.items], "dropped": [list(d) for d in self.dropped],
            "unlabelled": list(self.unlabelled), "status": self.status, "note": self.note,
        }


_ITEM_RE = re.compile(r"^\s*(?:\d+\s*[.):-]|[-*•])\s+")
_LABEL_PATTERNS = (
    # ... (Emotion: Joy)  /  ... [Joy]  /  ... (Joy)
    re.compile(r"^(?P<s>.+?)\s*[(\[]\s*(?:emotion|label)?\s*:?\s*(?P<l>[A-Za-z][A-Za-z ]{1,30}?)"
               r"\s*[)\]]\s*\.?\s*$", re.I),
    # ... - Emotion: Joy  /  ... | Joy  /  ... — Joy
    re.compile(r"^(?P<s>.+?)(?:\s+[-–—|]+|\s*[–—|]+)\s*(?:\*{0,2}(?:emotion|label)\*{0,2}\s*:)?"
               r"\s*\**(?P<l>[A-Za-z][A-Za-z ]{1,30}?)\**\s*\.?\s*$", re.I),
    # ... Emotion: Joy
    re.compile(r"^(?P<s>.+?)\s+\**(?:emotion|label)\**\s*:\s*\**\s*(?P<l>[A-Za-z][A-Za-z ]{1,30}?)"
               r"\**\s*\.?\s*$", re.I),
    # Joy: sentence
    re.compile(r"^\**(?P<l>[A-Za-z][A-Za-z ]{1,30}?)\**\s*:\s*(?P<s>.+[.!?\"”])\s*$"),
)
_LABEL_LINE_RE = re.compile(r"^\W*(?:emotion|label)\W*:\s*\**(?P<l>[A-Za-z][A-Za-z ]{1,30}?)"
                            r"\**\s*\.?\s*$", re.I)
_SENTENCE_PREFIX_RE = re.compile(r"^\W*sentence\s*\d*\W*:\s*", re.I)
_SENTENCE_KEYS = frozenset({"sentence", "text", "example"})
_GEN_LABEL_KEYS = frozenset({"emotion", "label", "emotionlabel"})


def _clean_sentence(text: str) -> str:
    text = _SENTENCE_PREFIX_RE.sub("", _ITEM_RE.sub("", text.strip()))
    return text.strip().strip("*").strip().strip("\"“”").strip()


def parse_generation(text: str | None, labels: Sequence[str]) -> GenerationAnswer:
    """Read generated ``(sentence, emotion)`` pairs from a JSON list, a numbered list with the
    label in brackets or after a dash, ``Sentence:``/``Emotion:`` line pairs, or a Markdown
    table. Labels are matched to ``labels`` case-insensitively; others are dropped (counted).

    >>> answer = parse_generation(
    ...     "Here you go:\\n1. She let the cat out of the bag. (Emotion: Regret)\\n"
    ...     "2. He let the cat out of the bag at dinner - Joy", ["Regret", "Shame"])
    >>> answer.items
    (('She let the cat out of the bag.', 'Regret'),)
    >>> answer.dropped
    (('He let the cat out of the bag at dinner', 'Joy'),)
    """
    if text is None or not text.strip():
        return GenerationAnswer(status=UNPARSEABLE, note="empty answer")
    canonical = {label.lower(): label for label in labels}
    pairs = _pairs_from_json(text) or _pairs_from_table(text) or _pairs_from_lines(text)
    items, dropped, unlabelled = [], [], []
    for sentence, label in pairs:
        if not sentence:
            continue
        if label is None:
            unlabelled.append(sentence)
        elif label.strip().lower() in canonical:
            items.append((sentence, canonical[label.strip().lower()]))
        else:
            dropped.append((sentence, label.strip()))
    status = OK if items or dropped else UNPARSEABLE
    return GenerationAnswer(tuple(items), tuple(dropped), tuple(unlabelled), status,
                            "" if status == OK else "no labelled sentence found")


def _pairs_from_json(text: str) -> list[tuple[str, str | None]]:
    pairs: list[tuple[str, str | None]] = []
    for value in _objects(text):
        records = value if isinstance(value, list) else [value]
        if isinstance(value, dict):
            nested = [v for v in value.values() if isinstance(v, list)]
            records = nested[0] if nested else [value]
        for record in records:
            if not isinstance(record, dict):
                continue
            found_s, sentence = _lookup(record, _SENTENCE_KEYS)
            if not found_s:
                continue
            label = as_text(_lookup(record, _GEN_LABEL_KEYS)[1])
            pairs.append((_clean_sentence(str(sentence)), label))
        if pairs:
            return pairs
    return pairs


def _pairs_from_table(text: str) -> list[tuple[str, str | None]]:
    rows = [line.strip().strip("|").split("|") for line in text.splitlines()
            if line.strip().startswith("|")]
    rows = [[c.strip() for c in row] for row in rows if not set("".join(row)) <= set("-: ")]
    if len(rows) < 2 or len(rows[0]) < 2:
        return []
    header = [_key(c) for c in rows[0]]
    s_col = next((i for i, h in enumerate(header) if h in _SENTENCE_KEYS), None)
    l_col = next((i for i, h in enumerate(header) if h in _GEN_LABEL_KEYS), None)
    if s_col is None or l_col is None:
        return []
    return [(_clean_sentence(r[s_col]), as_text(r[l_col])) for r in rows[1:]
            if len(r) > max(s_col, l_col)]


def _pairs_from_lines(text: str) -> list[tuple[str, str | None]]:
    pairs: list[tuple[str, str | None]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        label_only = _LABEL_LINE_RE.match(line)
        if label_only:
            if pairs and pairs[-1][1] is None:  # "Sentence: …" then "Emotion: …"
                pairs[-1] = (pairs[-1][0], label_only.group("l"))
            continue
        body = _ITEM_RE.sub("", line)
        is_item = body != line or _SENTENCE_PREFIX_RE.match(line) is not None
        for pattern in _LABEL_PATTERNS:
            match = pattern.match(body)
            if match and len(match.group("l").split()) <= 3:
                pairs.append((_clean_sentence(match.group("s")), match.group("l")))
                break
        else:
            if is_item:
                pairs.append((_clean_sentence(body), None))
    return pairs


__all__ = [
    "INFERRED",
    "OK",
    "UNPARSEABLE",
    "DetectionAnswer",
    "EmotionAnswer",
    "GenerationAnswer",
    "as_bool",
    "as_text",
    "field_value",
    "load_object",
    "object_candidates",
    "parse_detection",
    "parse_emotion",
    "parse_generation",
]

