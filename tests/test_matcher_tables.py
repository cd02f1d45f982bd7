"""The matcher's precomputed compile tables: current, equivalent to compiling live, and
ignored when stale."""

from __future__ import annotations

import gzip
import json

import pytest

from idiomkit.detect import lexicon_matcher as lm
from idiomkit.detect.matcher_tables import (
    MatcherTables,
    bundled_tables_path,
    current_tables,
    fingerprint,
    read_tables,
    save_tables,
)
from idiomkit.lexicon import Lexicon, LexiconEntry, load_lexicon


def _compiled(matcher: lm.LexiconMatcher):
    """Everything a compile produces, comparable across matchers."""
    matcher._compile()
    entries = {form: tuple((key, bit, tuple((mask, p.entry_index, tuple(p.items))
                                            for mask, _, p in patterns))
                           for key, bit, patterns in found)
               for form, found in matcher._form_entries.items()}
    return entries, [vars(p) for p in matcher._patterns], matcher._lexicon_stats


def test_bundled_tables_are_current():
    """`idiomkit lexicon build` must be rerun when the lexicon or the matcher's code changes."""
    stamp, bundled = read_tables(bundled_tables_path())
    assert stamp == fingerprint(), "stale matcher tables: run `idiomkit lexicon build`"
    fresh = json.loads(json.dumps(lm.compute_tables(load_lexicon()).to_dict()))
    assert fresh["items"] == bundled.items
    assert fresh["forms"] == bundled.forms
    assert fresh["verb_forms"] == bundled.verb_forms
    assert fresh["readings"] == bundled.readings


def test_compiling_from_the_bundled_tables_equals_compiling_live():
    lexicon = load_lexicon()
    from_tables = lm.LexiconMatcher(lexicon, include_filtered=True)
    live = lm.LexiconMatcher(lexicon, include_filtered=True, tables=MatcherTables())
    assert _compiled(from_tables) == _compiled(live)
    assert not any(vars(from_tables.computed).values())  # nothing asked of lemminflect
    assert live.computed.forms["spill"] == ["spill", "spilled", "spilling", "spills", "spilt"]


def _lexicon(*idioms: str) -> Lexicon:
    return Lexicon([LexiconEntry(id=f"t{i}", idiom=idiom) for i, idiom in enumerate(idioms)])


def test_idioms_missing_from_the_tables_are_computed(tmp_path):
    old = _lexicon("spill the beans", "cotton to", "wine and dine")
    tables = lm.compute_tables(old)
    path = save_tables(tables, tmp_path / "tables.json.gz")
    new = _lexicon("spill the beans", "duke it out", "wine and dine", "pull someone's leg")
    partial = lm.LexiconMatcher(new, tables=current_tables(path))
    live = lm.LexiconMatcher(new, tables=MatcherTables())
    assert _compiled(partial) == _compiled(live)
    assert set(partial.computed.items) == {"duke it out", "pull someone's leg"}
    assert partial.match("They duked it out.")[0].idiom == "duke it out"


def test_saved_tables_round_trip_byte_for_byte(tmp_path):
    tables = lm.compute_tables(_lexicon("spill the beans", "hit the sack"))
    first = save_tables(tables, tmp_path / "a.json.gz").read_bytes()
    stamp, again = read_tables(tmp_path / "a.json.gz")
    assert stamp == fingerprint()
    assert save_tables(again, tmp_path / "b.json.gz").read_bytes() == first


@pytest.mark.parametrize("content", [b"", b"not gzip", None])
def test_stale_or_broken_tables_are_ignored(tmp_path, content):
    path = tmp_path / "tables.json.gz"
    if content is None:  # written for other code: another fingerprint
        save_tables(lm.compute_tables(_lexicon("spill the beans")), path)
        data = read_tables(path)[1].to_dict() | {"fingerprint": "0" * 64}
        path.write_bytes(gzip.compress(json.dumps(data).encode()))
    else:
        path.write_bytes(content)
    tables = current_tables(path)
    assert not any(vars(tables).values())
    assert not any(vars(current_tables(tmp_path / "missing.json.gz")).values())
