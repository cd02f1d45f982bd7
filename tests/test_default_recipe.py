"""The default classifier's recipe: holding idioms out to measure it on idioms it never saw."""

from __future__ import annotations

from idiomkit.classify.default import hold_out_idioms, idiom_key
from idiomkit.classify.formats import Item


def _sources() -> dict[str, dict[str, list[Item]]]:
    idioms = ["spill the beans", "kick the bucket", "break the ice", "piece of cake",
              "under the weather", "bite the bullet", "cost an arm and a leg", "hit the sack",
              "let the cat out of the bag", "once in a blue moon"]

    def items(source: str, split: str, k: int) -> list[Item]:
        return [Item(f"{source} {split} {n}: {idiom}.", idiom, label=n % 2)
                for n, idiom in enumerate(idioms * k)]
    return {"a": {"train": items("a", "train", 3), "dev": items("a", "dev", 1),
                  "test": items("a", "test", 1)},
            "b": {"train": items("b", "train", 2), "dev": [], "test": items("b", "test", 1)}}


def test_idiom_key_ignores_slots_articles_and_inflection():
    assert idiom_key("spill the beans") == idiom_key("Spilled one's beans")
    assert idiom_key("kick the bucket") != idiom_key("spill the beans")


def test_hold_out_idioms_is_idiom_disjoint_seeded_and_loses_nothing():
    sources = _sources()
    rest, unseen = hold_out_idioms(sources, 0.2, seed=0)
    held = {idiom_key(i.idiom) for items in unseen.values() for i in items}
    kept = {idiom_key(i.idiom) for parts in rest.values() for items in parts.values()
            for i in items}
    assert len(held) == 2 and not held & kept  # a fifth of the 10 idioms, in no split left
    for source, parts in sources.items():  # every item is either kept or held out, once
        total = sum(len(items) for items in parts.values())
        assert total == sum(len(items) for items in rest[source].values()) \
            + len(unseen[source])
    assert hold_out_idioms(sources, 0.2, seed=0) == (rest, unseen)
    other = {idiom_key(i.idiom) for items in hold_out_idioms(sources, 0.2, seed=1)[1].values()
             for i in items}
    assert other != held  # another seed, other idioms
