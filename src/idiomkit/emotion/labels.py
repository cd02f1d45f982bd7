"""The 36 IDEM emotions, their polarity and the paper's coarse mapping, as data.

IDEM (section 3.1, Figure 1) takes 36 of the 60 emotions of the TU Delft emotion typology
(Fokkinga and Desmet, 2022): 22 negative, 14 positive. The paper maps them onto seven coarse
types commonly used in NLP (Anger, Boredom, Sadness, Desire, Remorse, Fear, Joy).

>>> len(EMOTIONS), len(NEGATIVE), len(POSITIVE)
(36, 22, 14)
>>> coarse("Resentment"), polarity("Resentment")
('Anger', 'negative')
>>> coarse("Surprise"), polarity("Surprise")
('Joy', 'positive')
"""

from __future__ import annotations

import difflib

#: negative emotions in the order of the paper's Figure 1
NEGATIVE: tuple[str, ...] = (
    "Anger", "Resentment", "Frustration", "Hate", "Disgust", "Boredom", "Reluctance", "Sadness",
    "Pity", "Loneliness", "Humiliation", "Longing", "Envy", "Guilt", "Regret", "Shame", "Fear",
    "Anxiety", "Doubt", "Desperation", "Confusion", "Shock",
)
#: positive emotions in the order of the paper's Figure 1
POSITIVE: tuple[str, ...] = (
    "Pleasure", "Serenity", "Relief", "Happiness", "Lust", "Affection", "Gratitude",
    "Admiration", "Pride", "Determination", "Fascination", "Surprise", "Excitement", "Hope",
)
#: the 36 labels; the index of a label here is its class index in every idiomkit emotion model
EMOTIONS: tuple[str, ...] = NEGATIVE + POSITIVE

#: the paper's coarse-grained types (section 3.1), each with its fine-grained emotions
COARSE: dict[str, tuple[str, ...]] = {
    "Anger": ("Anger", "Resentment", "Frustration", "Hate", "Disgust"),
    "Boredom": ("Boredom", "Reluctance"),
    "Sadness": ("Sadness", "Pity", "Loneliness", "Humiliation"),
    "Desire": ("Longing", "Envy"),
    "Remorse": ("Guilt", "Regret", "Shame"),
    "Fear": ("Fear", "Anxiety", "Doubt", "Desperation", "Confusion", "Shock"),
    "Joy": ("Pleasure", "Serenity", "Relief", "Happiness", "Lust", "Affection", "Gratitude",
            "Admiration", "Pride", "Determination", "Fascination", "Surprise", "Excitement",
            "Hope"),
}
_COARSE_OF = {fine: group for group, members in COARSE.items() for fine in members}

#: one-line descriptions written for idiomkit (not the typology's own text), used to score
#: sentences against labels (the prompt-style configuration) and shown in reports
DESCRIPTIONS: dict[str, str] = {
    "Anger": "feeling furious and hostile because of a wrong",
    "Resentment": "feeling bitter about being treated unfairly",
    "Frustration": "feeling annoyed and stuck because something blocks your goals",
    "Hate": "feeling intense dislike and hostility towards someone",
    "Disgust": "feeling repulsed by something offensive or distasteful",
    "Boredom": "feeling weary and uninterested because nothing engages you",
    "Reluctance": "feeling unwilling and hesitant to do something",
    "Sadness": "feeling unhappy and sorrowful about a loss",
    "Pity": "feeling sorry for someone else's suffering",
    "Loneliness": "feeling isolated and missing company",
    "Humiliation": "feeling degraded and embarrassed in front of others",
    "Longing": "yearning for something or someone you miss",
    "Envy": "wanting what someone else has",
    "Guilt": "feeling responsible for having done wrong",
    "Regret": "wishing you had acted differently in the past",
    "Shame": "feeling that you are a bad or unworthy person",
    "Fear": "being afraid of a threat or danger",
    "Anxiety": "feeling nervous and worried about what might happen",
    "Doubt": "feeling uncertain whether something is true or will work",
    "Desperation": "feeling hopeless and ready to try anything",
    "Confusion": "not understanding what is going on",
    "Shock": "being stunned by something sudden and upsetting",
    "Pleasure": "enjoying something that feels good",
    "Serenity": "feeling calm and peaceful",
    "Relief": "feeling relaxed because a worry or danger has passed",
    "Happiness": "feeling glad and content",
    "Lust": "feeling strong sexual desire",
    "Affection": "feeling warm fondness and love for someone",
    "Gratitude": "feeling thankful for help or a kindness",
    "Admiration": "respecting and looking up to someone's qualities",
    "Pride": "feeling pleased about an achievement",
    "Determination": "feeling resolved to reach a goal despite obstacles",
    "Fascination": "being intensely interested and captivated",
    "Surprise": "being amazed by something unexpected",
    "Excitement": "feeling eager and thrilled about what is coming",
    "Hope": "expecting and wishing that something good will happen",
}


def is_emotion(label: str) -> bool:
    """Whether ``label`` is one of the 36 emotions, spelled exactly (no case folding).

    >>> is_emotion("Pride"), is_emotion("pride"), is_emotion("Disappointment")
    (True, False, False)
    """
    return label in _COARSE_OF


def coarse(label: str) -> str:
    """The paper's coarse type of a fine-grained emotion (``KeyError`` for any other label)."""
    return _COARSE_OF[label]


def polarity(label: str) -> str:
    """``"positive"`` or ``"negative"`` (Figure 1); ``KeyError`` for a label outside the 36."""
    if label not in _COARSE_OF:
        raise KeyError(label)
    return "negative" if label in NEGATIVE else "positive"


def closest_emotion(label: str) -> str | None:
    """The emotion a malformed label most resembles, for an error message; ``None`` if none.

    It is only ever a hint to the user: idiomkit never maps a label on its own.

    >>> closest_emotion("Emotion: Loneliness"), closest_emotion("frustration")
    ('Loneliness', 'Frustration')
    >>> closest_emotion("Disappointment") is None
    True
    """
    cleaned = label.strip()
    for emotion in EMOTIONS:
        if cleaned.casefold() == emotion.casefold() or cleaned.endswith(f": {emotion}"):
            return emotion
    match = difflib.get_close_matches(cleaned, EMOTIONS, n=1, cutoff=0.8)
    return match[0] if match else None
