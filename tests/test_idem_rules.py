"""The IDEM authors' rule-based finder (``idem-rules``): scores, lemmas, matcher, IDEM numbers."""

from __future__ import annotations

import csv
import doctest
import sys
import time
from pathlib import Path

import pytest

from idiomkit.datasets import resolve_data_dir
from idiomkit.detect import create_matcher, idem_rules, wordnet_setup
from idiomkit.detect.idem_rules import (
    IdemRulesMatcher,
    f_beta,
    lemmatize_idiom,
    lemmatize_sentence,
    lemmatize_word,
    read_lemmatized_csv,
    token_gap_score,
    token_order_score,
)
from idiomkit.errors import ConfigError, DataError, MissingDependencyError
from idiomkit.evaluate.metrics import identification_scores
from idiomkit.lexicon import Lexicon, LexiconEntry, load_lexicon


@pytest.fixture(scope="module", autouse=True)
def wordnet() -> None:
    """Everything here lemmatises with WordNet: skip the module when it cannot be had."""
    try:
        wordnet_setup.ensure_wordnet()
    except MissingDependencyError as error:
        pytest.skip(f"WordNet not available: {error}")


def lexicon_of(*idioms: str) -> Lexicon:
    return Lexicon([LexiconEntry(id=f"t-{i}", idiom=idiom) for i, idiom in enumerate(idioms)])


def test_doctests() -> None:
    assert doctest.testmod(idem_rules).failed == 0
    assert doctest.testmod(wordnet_setup).failed == 0


# --- scores (hand-worked) ------------------------------------------------------------------

QUICK_FIX = ["quick", "fix"]


def test_gap_score_adjacent_words_score_one() -> None:
    # The released code's docstring example: no gap between "quick" and "fix".
    sentence = lemmatize_sentence("The broken car was a quick fix for me").split()
    assert sentence == ["the", "break", "car", "be", "a", "quick", "fix", "for", "me"]
    assert token_gap_score(QUICK_FIX, sentence) == 1.0
    assert token_order_score(QUICK_FIX, sentence) == 1.0
    assert f_beta(1.0, 1.0) == 1.0


def test_gap_score_largest_gap_scores_zero() -> None:
    # "Quick, I need someone for a fix": all 5 other words sit between the idiom's words.
    sentence = lemmatize_sentence("Quick, I need someone for a fix").split()
    assert token_gap_score(QUICK_FIX, sentence) == 0.0
    assert token_order_score(QUICK_FIX, sentence) == 1.0
    assert f_beta(0.0, 1.0) == 0.0


def test_gap_score_partial_gap() -> None:
    # gap 3 ("i need a") out of 4 non-idiom words
    assert token_gap_score(QUICK_FIX, "quick i need a fix now".split()) == pytest.approx(0.25)


def test_reversed_order() -> None:
    sentence = "the fix be quick".split()
    assert token_order_score(QUICK_FIX, sentence) == 0.0
    # bigram (fix, quick) has gap 1 ("be"); 2 non-idiom words
    assert token_gap_score(QUICK_FIX, sentence) == pytest.approx(0.5)
    assert f_beta(0.5, 0.0) == 0.0


def test_order_score_counts_idiom_bigrams() -> None:
    idiom = ["let", "off", "steam"]
    # only the order of the idiom's words counts, not what lies between them
    assert token_order_score(idiom, "he let off some steam".split()) == 1.0
    assert token_order_score(idiom, "he let some steam off".split()) == 0.0
    assert token_order_score(idiom, "steam let off".split()) == 0.5
    assert token_order_score(idiom, "steam off let".split()) == 0.0
    assert token_order_score(["fix"], "a fix".split()) == 0.0  # no idiom bigram
    assert token_order_score(QUICK_FIX, "a fix".split()) == 0.0  # no sentence bigram


def test_gap_score_duplicates_use_each_word_at_most_twice_per_occurrence() -> None:
    # recorded: quick(0) fix(0) quick(0) fix(2); bigrams by gap: (q,0,f) (f,0,q) (q,2,f)
    # each word may be used 2 x 1 times, so the third bigram is dropped: total gap 0.
    assert token_gap_score(QUICK_FIX, "quick fix quick a b fix".split()) == 1.0
    # recorded: quick(0) fix(1) quick(2) fix(0); kept (q,0,f) and (q,1,f); (f,2,q) exceeds
    # the limit for both words: total gap 1 of 3 non-idiom words.
    assert token_gap_score(QUICK_FIX, "quick a fix b c quick fix".split()) == pytest.approx(2 / 3)
    # the same word twice in a row makes no bigram
    assert token_gap_score(QUICK_FIX, "fix fix a quick".split()) == pytest.approx(0.0)
    # a repeated idiom word has a larger allowance
    idiom = ["an", "eye", "for", "an", "eye"]
    sentence = "take an eye for an eye".split()
    assert token_gap_score(idiom, sentence) == 1.0
    assert token_order_score(idiom, sentence) == 1.0


def test_gap_score_without_non_idiom_words() -> None:
    assert token_gap_score(QUICK_FIX, ["quick", "fix"]) == 1.0
    assert token_gap_score(QUICK_FIX, []) == 1.0


def test_f_beta_weights_order_more() -> None:
    assert f_beta(0.5, 1.0) == pytest.approx(2.44 * 0.5 / (1.44 * 0.5 + 1.0))
    assert f_beta(1.0, 0.5) < f_beta(0.5, 1.0)
    assert f_beta(0.8, 0.6, beta=1.0) == pytest.approx(2 * 0.8 * 0.6 / 1.4)


# --- lemmatisation -------------------------------------------------------------------------


def test_word_lemmas_follow_the_released_rules() -> None:
    assert lemmatize_word("Jotted") == "jot"
    assert lemmatize_word("yourself,") == "self"
    assert lemmatize_word("beans.") == "bean"
    assert lemmatize_word("was") == "be"  # verb exception list
    assert lemmatize_word("as") == "a"  # not in WordNet: the final "s" is dropped
    assert lemmatize_word(":(") == ""
    assert lemmatize_word("well-known") == "well known"


def test_lemmatizer_behaves_like_nltk_3_8_1() -> None:
    # NLTK <= 3.8.1 re-applied the suffix rules until a lemma was found; newer NLTK does not.
    assert lemmatize_word("feelings") == "feel"
    assert lemmatize_word("less") == "le"
    assert lemmatize_word("fell") == "fell"  # "fell" and "fall" tie on length: first wins


def test_idiom_lemmas_follow_the_notebook() -> None:
    assert lemmatize_idiom("pour someone's heart out") == "pour heart out"
    assert lemmatize_idiom("burn one's bridges") == "burn bridge"
    assert lemmatize_idiom("at cross-purposes") == "at cros purpose"
    assert lemmatize_idiom("also-ran") == "also ran"
    assert lemmatize_idiom("Christmas present") == "christma present"


# --- the matcher ---------------------------------------------------------------------------


def test_registered_and_created_by_alias() -> None:
    matcher = create_matcher("idem-rules", lexicon_of("spill the beans"))
    assert isinstance(matcher, IdemRulesMatcher)
    assert matcher.name == "idiomkit.idem_rules.v1"
    spans = matcher.match("He spilled the beans about the party.")
    assert [s.idiom for s in spans] == ["spill the beans"]


def test_finder_with_idem_rules_links_definitions() -> None:
    from idiomkit import Finder

    lexicon = Lexicon([LexiconEntry(id="x-1", idiom="spill the beans", definition="Tell.")])
    document = Finder(method="idem-rules", lexicon=lexicon).find("She spilled the beans.")
    assert [(s.idiom, s.definition, s.text) for s in document.idioms] == [
        ("spill the beans", "Tell.", "spilled the beans")
    ]


def test_span_fields_and_offsets() -> None:
    text = "Yesterday he finally spilled the beans, sadly."
    (span,) = IdemRulesMatcher(lexicon_of("spill the beans")).match(text)
    assert (span.text, span.idiom, span.idiom_id) == ("spilled the beans", "spill the beans", "t-0")
    assert text[span.start : span.end] == span.text
    assert [text[s:e] for s, e in span.token_offsets] == ["spilled", "the", "beans"]
    assert span.match_score == 1.0
    assert span.component == "idiomkit.idem_rules.v1"


def test_span_uses_the_tightest_group_and_hyphen_pieces() -> None:
    matcher = IdemRulesMatcher(lexicon_of("last minute"))
    text = "At the last-minute, the last plan changed a minute later."
    (span,) = matcher.match(text)
    # tg = 1 - 1/7 (gaps kept: 0 and 1), to = 1
    assert span.match_score == pytest.approx(f_beta(6 / 7, 1.0))
    assert span.text == "last-minute"
    assert [text[s:e] for s, e in span.token_offsets] == ["last", "minute"]


def test_hyphenated_sentence_words_are_lemmatised_whole() -> None:
    # As in the released finder: "well-known" is lemmatised as the string "well known" (no
    # WordNet entry, kept), while the idiom's "known" becomes "know": no match.
    assert lemmatize_sentence("a well-known fact") == "a well known fact"
    assert lemmatize_idiom("well known") == "well know"
    assert IdemRulesMatcher(lexicon_of("well known")).match("a well-known fact") == []


def test_threshold_is_strict_and_configurable() -> None:
    text = "quick I need a fix now"  # tg 0.25, to 1.0, F ≈ 0.4485
    lexicon = lexicon_of("quick fix")
    assert IdemRulesMatcher(lexicon).match(text) == []
    (span,) = IdemRulesMatcher(lexicon, threshold=0.4).match(text)
    assert span.match_score == pytest.approx(f_beta(0.25, 1.0))
    # F-beta must be *above* the threshold: a perfect match is not above 1.0
    assert IdemRulesMatcher(lexicon, threshold=1.0).match("a quick fix") == []


def test_single_word_idioms_never_match() -> None:
    assert IdemRulesMatcher(lexicon_of("fix", "quick fix")).match("a quick fix")[0].idiom == (
        "quick fix"
    )
    assert IdemRulesMatcher(lexicon_of("fix")).match("a fix") == []


def test_ranking_by_score_then_longer_idiom() -> None:
    lexicon = lexicon_of("quick fix", "cold feet", "get cold feet", "began to")
    text = "A quick, cheap fix: he began to get cold feet."
    spans = IdemRulesMatcher(lexicon, threshold=0.5).match(text)
    # three perfect matches (longest first, then lexicon order), then the gapped "quick fix"
    assert [s.idiom for s in spans] == ["get cold feet", "cold feet", "began to", "quick fix"]
    assert [s.match_score for s in spans][:3] == [1.0, 1.0, 1.0]
    assert 0.5 < spans[3].match_score < 1.0


def test_lemmatized_mapping_overrides_forms() -> None:
    matcher = IdemRulesMatcher(lexicon_of("spill the beans"), lemmatized={"spill the beans": "x y"})
    assert matcher.match("He spilled the beans.") == []
    assert [s.idiom for s in matcher.match("x y")] == ["spill the beans"]


@pytest.mark.parametrize(
    "params",
    [{"beta": 0}, {"beta": True}, {"threshold": 1.5}, {"threshold": "high"},
     {"lemmatized": "file.csv"}, {"keep_nested": "yes"}, {"legacy_morphy": 1}],
)
def test_bad_parameters_raise_on_first_use(params) -> None:
    matcher = IdemRulesMatcher(lexicon_of("quick fix"), **params)  # no error yet
    with pytest.raises(ConfigError) as info:
        matcher.match("a quick fix")
    assert info.value.code == "E401"


def test_unknown_parameters_are_ignored_and_keep_nested_has_no_effect() -> None:
    lexicon = lexicon_of("cold feet", "get cold feet")
    text = "He got cold feet."
    a = IdemRulesMatcher(lexicon, keep_nested=False, some_other_param=3).match(text)
    b = IdemRulesMatcher(lexicon, keep_nested=True).match(text)
    assert [s.idiom for s in a] == [s.idiom for s in b] == ["get cold feet", "cold feet"]


def test_empty_and_punctuation_only_text() -> None:
    matcher = IdemRulesMatcher(lexicon_of("quick fix"))
    assert matcher.match("") == []
    assert matcher.match(" -- :( ") == []


# --- WordNet setup -------------------------------------------------------------------------


def test_lexnames_constant_matches_wordnet() -> None:
    lines = wordnet_setup.LEXNAMES.splitlines()
    assert len(lines) == 45
    assert lines[0] == "00\tadj.all\t3" and lines[-1] == "44\tadj.ppl\t3"
    # The shared folder keeps a copy of the file Debian omits, beside data/.
    try:
        shared = resolve_data_dir().parent / "wordnet" / "lexnames"
    except DataError:
        return
    if shared.is_file():
        assert shared.read_text(encoding="utf-8") == wordnet_setup.LEXNAMES


needs_debian_wordnet = pytest.mark.skipif(
    not (wordnet_setup.DEBIAN_WORDNET_DIR / "data.noun").is_file(), reason="no wordnet-base"
)


@needs_debian_wordnet
def test_install_from_debian_files_copies_and_adds_lexnames(tmp_path) -> None:
    target = tmp_path / "wordnet"
    wordnet_setup._install_from(wordnet_setup.DEBIAN_WORDNET_DIR, target)
    for name in wordnet_setup.WORDNET_FILES:
        assert (target / name).is_file(), name
    assert (target / "lexnames").read_text(encoding="utf-8") == wordnet_setup.LEXNAMES


@pytest.mark.slow
@needs_debian_wordnet
@pytest.mark.filterwarnings("ignore:The multilingual functions")
def test_install_from_debian_files_loads_in_nltk(tmp_path, monkeypatch) -> None:
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    # recent NLTK only opens corpora under its data path
    monkeypatch.setattr(nltk.data, "path", [*nltk.data.path, str(tmp_path)])

    target = tmp_path / "wordnet"
    wordnet_setup._install_from(wordnet_setup.DEBIAN_WORDNET_DIR, target)
    reader = WordNetCorpusReader(str(target), None)
    assert reader.get_version() == "3.0"
    assert reader.morphy("jotted", "v") == "jot"


def test_missing_wordnet_says_what_to_install(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(wordnet_setup, "_ready", False)
    monkeypatch.setattr(wordnet_setup, "_wordnet_loads", lambda reset=False: False)
    with pytest.raises(MissingDependencyError) as info:
        wordnet_setup.ensure_wordnet(debian_dir=tmp_path / "nothing")
    assert info.value.code == "E502"
    assert "apt-get install wordnet-base" in info.value.message


def test_missing_nltk_says_what_to_install(monkeypatch) -> None:
    monkeypatch.setattr(wordnet_setup, "_ready", False)
    monkeypatch.setitem(sys.modules, "nltk", None)
    with pytest.raises(MissingDependencyError) as info:
        wordnet_setup.ensure_wordnet()
    assert info.value.code == "E501"
    assert "pip install 'idiomkit[idem]'" in info.value.message


# --- IDEM data -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def idem_dir(shared_data_dir) -> Path:
    root = shared_data_dir
    folder = root / "idem"
    if not (folder / "idem_test.csv").is_file():
        pytest.skip(f"no idem/idem_test.csv in the data directory {root}")
    return folder


@pytest.fixture(scope="module")
def idem_test(idem_dir) -> list[tuple[str, str]]:
    with open(idem_dir / "idem_test.csv", encoding="utf-8", newline="") as handle:
        return [(row["sentence"], row["idiom"]) for row in csv.DictReader(handle)]


@pytest.fixture(scope="module")
def slide_lexicon() -> Lexicon:
    """The 5,000 SLIDE idioms, in SLIDE order: the IDEM authors' lexicon."""
    entries = [e for e in load_lexicon() if e.id.startswith("slide-")]
    assert len(entries) == 5000
    return Lexicon(entries, name="slide")


def naive_find(lexicon: Lexicon, forms: list[list[str]], text: str) -> list[tuple[str, float]]:
    """The released finder's loop, written out: every idiom, lexicon order."""
    words = lemmatize_sentence(text).split()
    found = []
    for entry, idiom_words in zip(lexicon, forms, strict=True):
        if all(word in words for word in idiom_words):
            tg = token_gap_score(idiom_words, words)
            to = token_order_score(idiom_words, words)
            score = f_beta(tg, to, 1.2)
            if score > 0.9:
                found.append((entry.idiom, score))
    return found


@pytest.mark.data
def test_inverted_index_equals_naive_loop(idem_test, slide_lexicon) -> None:
    matcher = IdemRulesMatcher(slide_lexicon)
    position = {entry.idiom: i for i, entry in enumerate(slide_lexicon)}
    forms = [lemmatize_idiom(entry.idiom).split() for entry in slide_lexicon]
    extra = ["quick I need a fix", "", "a well-known fact, well known", "an eye for an eye"]
    for text in [sentence for sentence, _ in idem_test[:200]] + extra:
        spans = matcher.match(text)
        got = sorted(((s.idiom, s.match_score) for s in spans), key=lambda p: position[p[0]])
        assert got == naive_find(slide_lexicon, forms, text), text
        for span in spans:
            assert text[span.start : span.end] == span.text
            assert all(span.start <= s < e <= span.end for s, e in span.token_offsets)


@pytest.mark.data
def test_lemmatised_idioms_reproduce_the_released_file(idem_dir, slide_lexicon) -> None:
    path = idem_dir / "lexicon" / "idiomLexicon_lemmatized.csv"
    if not path.is_file():
        pytest.skip(f"{path} missing")
    released = read_lemmatized_csv(path)
    assert list(released) == [entry.idiom for entry in slide_lexicon]
    same = sum(lemmatize_idiom(idiom) == form for idiom, form in released.items())
    assert same == 5000


#: the released code with the 5,000-idiom lexicon on IDEM test (measured; paper: 76.95/94.13)
RELEASED = {"precision": 0.555, "recall": 0.914, "f1": 0.691}
RELEASED_IDEM_IDIOMS = {"precision": 0.705, "recall": 0.914, "f1": 0.796}


@pytest.mark.data
@pytest.mark.parametrize("forms", ["ours", "released"])
def test_idem_test_all_candidate_metrics(idem_dir, idem_test, slide_lexicon, forms) -> None:
    lemmatized = None
    if forms == "released":
        path = idem_dir / "lexicon" / "idiomLexicon_lemmatized.csv"
        if not path.is_file():
            pytest.skip(f"{path} missing")
        lemmatized = read_lemmatized_csv(path)
    matcher = IdemRulesMatcher(slide_lexicon, lemmatized=lemmatized)
    started = time.perf_counter()
    predictions = [[span.idiom for span in matcher.match(text)] for text, _ in idem_test]
    seconds = time.perf_counter() - started
    gold = [idiom for _, idiom in idem_test]
    assert len(gold) == 956
    scores = identification_scores(predictions, gold)
    for key, value in RELEASED.items():
        assert scores[key] == pytest.approx(value, abs=0.02), key
    # limited to the 2,029 idioms IDEM generated sentences for
    idem_idioms = {e.idiom for e in slide_lexicon if "idem_id" in e.extra}
    assert len(idem_idioms) == 2029
    limited = identification_scores([[p for p in ps if p in idem_idioms] for ps in predictions],
                                    gold)
    for key, value in RELEASED_IDEM_IDIOMS.items():
        assert limited[key] == pytest.approx(value, abs=0.02), key
    assert seconds < 20


def test_idiomkit_supplement_entries_are_not_matched(wordnet) -> None:
    """The authors' code knows SLIDE's idioms; idiomkit's own supplement is left out."""
    lexicon = Lexicon([LexiconEntry(id="s-0", idiom="spill the beans", source="SLIDE"),
                       LexiconEntry(id="i-0", idiom="couch potato", source="idiomkit")])
    text = "The couch potato spilled the beans."
    assert [s.idiom for s in IdemRulesMatcher(lexicon).match(text)] == ["spill the beans"]
