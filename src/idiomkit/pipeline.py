"""The analysis pipeline: find candidates → classify each in context → keep what is figurative
→ read the sentence's emotion.

The finder (:class:`~idiomkit.finder.Finder`) returns lexicon matches, each with its
definition; the classifier (:class:`~idiomkit.classify.FigurativeClassifier`) sets
``p_figurative`` and ``label`` (``figurative`` when ``p_figurative >= threshold``) on each.
The span tagger (:class:`~idiomkit.detect.tagger.SpanTagger`, the shipped default unless
``tagger=None``) adds, as further candidates, the idioms it finds where no lexicon candidate is
(``source`` ``"tagger"``, no lexicon entry; ``confidence`` its score); the classifier judges
them like the others. Only sentences with candidates reach the classifier, and the candidates
of one sentence share its forward pass. Literal candidates are dropped unless
``keep_literal``. The emotion model
(:class:`~idiomkit.emotion.EmotionModel`, the shipped default unless ``emotion=None``) sets
``Document.emotion`` (label and top scores), told the first figurative idiom of each text
(models with an idiom-aware input read it; the shipped default reads the sentence alone).
When they run in NumPy over MiniLM, the models hand each other the token states of the layers
they share instead of computing them again (:class:`~idiomkit.models.runtime.SharedStates`).

>>> analyzer = Analyzer(keep_literal=True)
>>> text = "After months of pressure, the minister finally spilled the beans to the press."
>>> [s.label for s in analyzer.analyze(text).idioms]
['figurative']
>>> [s.label for s in analyzer.analyze("She spilled the beans all over the kitchen floor.").idioms]
['literal']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .classify.formats import Item
from .document import Document
from .errors import check_param
from .finder import Finder
from .models.runtime import SharedStates
from .text.pieces import piece_around, pieces

FIGURATIVE = "figurative"
LITERAL = "literal"


#: texts per chunk when the emotion model reuses the classifier's states (about 45 MB of states
#: for 1,000 IDEM-length sentences)
SHARED_CHUNK = 1024


class Analyzer:
    """Finder + literal/figurative classifier + span tagger (+ emotion).

    ``classifier`` is a loaded classifier or a model name/folder (``default``: the shipped
    one); ``threshold`` overrides the model's own decision threshold. ``tagger`` is a loaded
    :class:`~idiomkit.detect.tagger.SpanTagger`, a tagger name/folder, or None (lexicon
    candidates only).
    """

    def __init__(self, classifier: Any = "default", *, finder: Finder | None = None,
                 threshold: float | None = None, keep_literal: bool = False,
                 method: str = "default", lexicon: str | Path | None = None,
                 keep_nested: bool = False, emotion: Any = "default",
                 emotion_top: int = 3, tagger: Any = "default") -> None:
        from .classify.model import FigurativeClassifier

        if threshold is not None:
            check_param("Analyzer", "threshold", threshold,
                        isinstance(threshold, (int, float)) and 0 <= threshold <= 1,
                        "a float in [0, 1]")
        self.finder = finder or Finder(method=method, lexicon=lexicon, keep_nested=keep_nested)
        if isinstance(classifier, (str, Path)):
            classifier = FigurativeClassifier.load(classifier)
        self.classifier = classifier
        self.threshold = classifier.config.threshold if threshold is None else float(threshold)
        self.keep_literal = keep_literal
        if isinstance(emotion, (str, Path)):
            from .emotion.model import EmotionModel

            emotion = EmotionModel.load(emotion)
        #: the emotion model, or None (no ``Document.emotion``)
        self.emotion = emotion
        check_param("Analyzer", "emotion_top", emotion_top,
                    isinstance(emotion_top, int) and 1 <= emotion_top <= 36, "an int in 1..36")
        self.emotion_top = emotion_top
        if isinstance(tagger, (str, Path)):
            from .detect.tagger import SpanTagger

            tagger = SpanTagger.load(tagger)
        #: the span tagger that adds idioms the lexicon lacks, or None (lexicon only)
        self.tagger = tagger
        #: token states the classifier, the tagger and the emotion model hand each other (they
        #: read MiniLM's first layers unchanged; None: not shared; set it to None to compute
        #: them for each model, as ``bench analyze``'s baseline does)
        self.shared_states = SharedStates.between(*self._runtimes())

    def _runtimes(self) -> list[Any]:
        """The encoder runtimes of the classifier, the emotion model and the tagger (those set)."""
        return [r for r in (getattr(self.classifier, "backend", None),
                            getattr(self.emotion, "runtime", None),
                            getattr(self.tagger, "runtime", None)) if r is not None]

    def analyze(self, text: str, id: Any = None) -> Document:
        """Find and classify the idioms of one text."""
        return self.analyze_many([text], ids=[id])[0]

    def analyze_many(self, texts: Sequence[str], ids: Sequence[Any] | None = None,
                     *, batch_size: int = 32) -> list[Document]:
        """Find and classify the idioms of many texts (batched across texts).

        With shared states, texts go through in chunks of :data:`SHARED_CHUNK`, so the states
        kept between the models stay a few tens of MB."""
        if self.shared_states is None:
            return self._analyze_many(texts, ids, batch_size)
        docs: list[Document] = []
        for start in range(0, len(texts), SHARED_CHUNK):
            chunk = slice(start, start + SHARED_CHUNK)
            with self.shared_states.attached(*self._runtimes()):
                docs += self._analyze_many(texts[chunk], None if ids is None else ids[chunk],
                                           batch_size)
        return docs

    def _analyze_many(self, texts: Sequence[str], ids: Sequence[Any] | None,
                      batch_size: int) -> list[Document]:
        docs = [self.finder.find(text, id=None if ids is None else ids[i])
                for i, text in enumerate(texts)]
        if self.tagger is not None:
            self.add_tagged(docs, batch_size=batch_size)
        items, where = [], []
        # a long text is read in the sentence pieces around each candidate
        window = getattr(getattr(self.classifier, "config", None), "max_length", None) or 10**9
        for d, doc in enumerate(docs):
            parts = pieces(doc.text, window)
            for s, span in enumerate(doc.idioms):
                text, start = piece_around(doc.text, parts, span.start, span.end)
                items.append(Item(text, span.idiom or span.text,
                                  span=(span.start - start, span.end - start),
                                  definition=span.definition))
                where.append((d, s))
        probs = self.classifier.predict_proba(items, batch_size=batch_size)
        for (d, s), p in zip(where, probs):
            span = docs[d].idioms[s]
            span.p_figurative = round(float(p), 6)
            span.label = FIGURATIVE if p >= self.threshold else LITERAL
        if self.emotion is not None:
            self.add_emotion(docs, batch_size=batch_size)
        if not self.keep_literal:
            for doc in docs:
                doc.idioms = [span for span in doc.idioms if span.label == FIGURATIVE]
        return docs

    def add_tagged(self, docs: Sequence[Document], *, batch_size: int = 32) -> None:
        """Add the tagger's spans that overlap no lexicon candidate, as candidates for the
        classifier to judge like the others (``confidence`` is the tagger's score; no lexicon
        entry, so no ``idiom`` and no definition)."""
        from .document import Span

        component = f"tagger:{self.tagger.name}"
        tagged = self.tagger.tag([doc.text for doc in docs], batch_size=batch_size)
        for doc, spans in zip(docs, tagged):
            found = [(s.start, s.end) for s in doc.idioms]
            for t in spans:
                if any(t.start < end and t.end > start for start, end in found):
                    continue
                doc.idioms.append(Span(
                    start=t.start, end=t.end, text=doc.text[t.start:t.end],
                    confidence=t.score, source="tagger",
                    component=component, token_offsets=[(t.start, t.end)]))

    def add_emotion(self, docs: Iterable[Document], *, batch_size: int = 32) -> None:
        """Set ``doc.emotion`` on each document, telling the model its first figurative idiom."""
        from .emotion.model import to_emotion

        docs = list(docs)
        firsts = [next((s for s in doc.idioms if s.label == FIGURATIVE), None) for doc in docs]
        probs = self.emotion.predict_proba(
            [doc.text for doc in docs], [s.idiom or None if s else None for s in firsts],
            [s.definition if s else None for s in firsts], batch_size=batch_size)
        for doc, row in zip(docs, probs):
            doc.emotion = to_emotion(row, self.emotion_top)
