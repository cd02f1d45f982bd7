"""Hand-written variation cases for the default finder.

Each positive case names an idiom by its canonical lexicon form and the stretch of the text
that realises it (``covers``): the idiom must be among ``doc.idioms`` and the reported span must
cover that stretch. Each negative case names an idiom whose words occur in the text without
forming it: the idiom must not be among ``doc.idioms``.

Cases the matcher does not handle yet are left in on purpose (no xfail): they are the list of
what to fix.
"""

from __future__ import annotations

import pytest

from idiomkit import Finder


@pytest.fixture(scope="module")
def finder() -> Finder:
    return Finder()


def _pos(case_id: str, text: str, idiom: str, covers: str):
    return pytest.param(text, idiom, covers, id=case_id)


def _neg(case_id: str, text: str, idiom: str):
    return pytest.param(text, idiom, id=case_id)


def _describe(doc) -> str:
    return "; ".join(
        f"{s.idiom!r} -> {s.text!r} [{s.start}:{s.end}] score={s.match_score}" for s in doc.idioms
    ) or "(nothing)"


def _check_found(finder: Finder, text: str, idiom: str, covers: str) -> None:
    assert covers in text, f"bad test case: {covers!r} is not in {text!r}"
    doc = finder.find(text)
    for span in doc.idioms:
        assert text[span.start:span.end] == span.text
    matches = [s for s in doc.idioms if s.idiom == idiom]
    assert matches, f"{idiom!r} not found in {text!r}; returned: {_describe(doc)}"
    lo = text.index(covers)
    hi = lo + len(covers)
    assert any(s.start <= lo and hi <= s.end for s in matches), (
        f"{idiom!r} found in {text!r} but no span covers {covers!r}; returned: {_describe(doc)}"
    )


def _check_not_found(finder: Finder, text: str, idiom: str) -> None:
    doc = finder.find(text)
    assert idiom not in [s.idiom for s in doc.idioms], (
        f"{idiom!r} wrongly found in {text!r}; returned: {_describe(doc)}"
    )


# --- inflection ---------------------------------------------------------------------------
INFLECTION = [
    # a noun used as the verb of a phrasal idiom takes regular verb endings
    _pos("infl-noun-as-verb-duked", "The two politicians duked it out on live television.",
         "duke it out", "duked it out"),
    _pos("infl-noun-as-verb-hoofing", "After work, hoofing it through the park clears my mind.",
         "hoof it", "hoofing it"),
    # coordinated verbs inflect together, also a first verb lemminflect knows only as a noun
    _pos("infl-coordinated-wined-dined", "He'd wined and dined the hostile little girl.",
         "wine and dine", "wined and dined"),
    # a regular comparative still reads as the idiom's adjective
    _pos("infl-regular-comparative", "She got colder feet as the day approached.",
         "get cold feet", "got colder feet"),
    _pos("infl-coordinated-wining-dining", "They were wining and dining their clients.",
         "wine and dine", "wining and dining"),
    _pos("infl-past-spilled", "She spilled the beans about the party.", "spill the beans",
         "spilled the beans"),
    _pos("infl-irregular-spilt", "He has spilt the beans again.", "spill the beans",
         "spilt the beans"),
    _pos("infl-ing-spilling", "Stop spilling the beans!", "spill the beans",
         "spilling the beans"),
    _pos("infl-3sg-spills", "He always spills the beans.", "spill the beans",
         "spills the beans"),
    _pos("infl-irregular-bit", "We bit the bullet and paid.", "bite the bullet",
         "bit the bullet"),
    _pos("infl-participle-bitten", "She has bitten the bullet.", "bite the bullet",
         "bitten the bullet"),
    _pos("infl-past-form-variant-spilled", "Don't cry over spilled milk.",
         "cry over spilt milk", "cry over spilled milk"),
    _pos("infl-past-jotted", "I jotted down her number.", "jot down", "jotted down"),
    _pos("infl-irregular-went", "She went the extra mile for us.", "go the extra mile",
         "went the extra mile"),
    _pos("infl-participle-gone", "They have gone the extra mile.", "go the extra mile",
         "gone the extra mile"),
    _pos("infl-ing-going", "He is going the extra mile.", "go the extra mile",
         "going the extra mile"),
    _pos("infl-past-kicked", "The old man kicked the bucket last week.", "kick the bucket",
         "kicked the bucket"),
    _pos("infl-ing-breaking", "Breaking the ice was hard.", "break the ice",
         "Breaking the ice"),
    _pos("infl-irregular-broke", "He broke the ice with a joke.", "break the ice",
         "broke the ice"),
    _pos("ing-form-plural-feelings", "Trust your gut feelings.", "gut feeling", "gut feelings"),
    _pos("ins-determiner-in-bare-pair-sense", "That makes no sense to me.", "make sense",
         "makes no sense"),
    _pos("light-idiom-beside-loose-match-day", "We won at the end of the day.",
         "at the end of the day", "at the end of the day"),
    _pos("infl-will-as-would", "After the scandal, heads would roll.", "heads will roll",
         "heads would roll"),
    _pos("infl-going-to-noun", "They are going to town on the decorations.", "go to town",
         "going to town"),
    _pos("infl-irregular-threw", "He threw in the towel after the third round.",
         "throw in the towel", "threw in the towel"),
    _pos("infl-participle-thrown", "They have thrown in the towel.", "throw in the towel",
         "thrown in the towel"),
    _pos("infl-ing-cutting", "They were cutting corners everywhere.", "cut corners",
         "cutting corners"),
    _pos("infl-irregular-burnt", "She burnt her bridges.", "burn one's bridges",
         "burnt her bridges"),
    _pos("infl-irregular-took", "She took the bull by the horns.", "take the bull by the horns",
         "took the bull by the horns"),
    _pos("infl-spilled-for-spilt", "They were crying over spilled milk again.",
         "cry over spilt milk", "crying over spilled milk"),
    _pos("infl-plural-noun-minds", "They changed their minds.", "change one's mind",
         "changed their minds"),
    _pos("infl-plural-noun-legs", "Quit pulling their legs.", "pull someone's leg",
         "pulling their legs"),
    _pos("infl-plural-noun-hearts", "It broke our hearts.", "break someone's heart",
         "broke our hearts"),
]

# --- pronoun / possessive / reflexive slots -------------------------------------------------
SLOTS = [
    # a verb after a noun is still the verb
    _pos("slot-verb-after-plural-noun", "The kids angle for attention all day.", "angle for",
         "angle for"),
    _pos("slot-verb-after-perception-verb", "We saw the sculptor flesh out the details.",
         "flesh out", "flesh out"),
    # a final "one" after a verb in -s or "behind", "before", "upon", "about" is any object
    # (outside the span, like other final objects)
    _pos("slot-final-one-after-verb", "Don't bite the hand that feeds you.",
         "bite the hand that feeds one", "bite the hand that feeds"),
    _pos("slot-final-one-after-preposition", "She tried to put the past behind her.",
         "put the past behind one", "put the past behind"),
    _pos("slot-final-one-two-slots", "Keep your wits about you in the city.",
         "keep one's wits about one", "Keep your wits about"),
    # a final "something" after a preposition is the object the idiom ends before
    _pos("slot-trailing-something-brunt", "Carers bear the brunt of the job.",
         "bear the brunt of something", "bear the brunt of"),
    _pos("slot-trailing-something-beeline", "We made a beeline for the bar.",
         "make a beeline for something", "made a beeline for"),
    _pos("slot-poss-my", "You are pulling my leg.", "pull someone's leg", "pulling my leg"),
    _pos("slot-poss-proper-name", "He pulled John's leg.", "pull someone's leg",
         "pulled John's leg"),
    _pos("slot-poss-my-friends", "He is pulling my friend's leg.", "pull someone's leg",
         "pulling my friend's leg"),
    _pos("slot-poss-plural-the-kids", "You broke the kids' hearts.", "break someone's heart",
         "broke the kids' hearts"),
    _pos("slot-poss-her-brothers", "She broke her brother's heart.", "break someone's heart",
         "broke her brother's heart"),
    _pos("slot-poss-his", "She broke his heart.", "break someone's heart", "broke his heart"),
    _pos("slot-poss-their", "They burned their bridges with the company.", "burn one's bridges",
         "burned their bridges"),
    _pos("slot-poss-its", "The company burned its bridges.", "burn one's bridges",
         "burned its bridges"),
    _pos("slot-poss-your", "Hold your horses!", "hold one's horses", "Hold your horses"),
    _pos("slot-poss-her", "She spoke her mind.", "speak one's mind", "spoke her mind"),
    _pos("slot-poss-our", "We lost our temper.", "lose one's temper", "lost our temper"),
    _pos("slot-poss-the-teachers", "The painting caught the teacher's eye.",
         "catch someone's eye", "caught the teacher's eye"),
    _pos("slot-poss-plural-neighbours", "The noise got on the neighbours' nerves.",
         "get on someone's nerves", "got on the neighbours' nerves"),
    _pos("slot-poss-her-sisters", "She stole her sister's thunder.", "steal someone's thunder",
         "stole her sister's thunder"),
    _pos("slot-poss-proper-name-mary", "You hurt Mary's feelings.", "hurt someone's feelings",
         "hurt Mary's feelings"),
    _pos("slot-poss-his-own", "He minds his own business.", "mind one's own business",
         "minds his own business"),
    _pos("slot-someone-him", "She gave him the cold shoulder.",
         "give someone the cold shoulder", "gave him the cold shoulder"),
    _pos("slot-someone-noun-phrase", "They gave the new kids the cold shoulder.",
         "give someone the cold shoulder", "gave the new kids the cold shoulder"),
    _pos("slot-refl-himself", "He pulled himself together.", "pull oneself together",
         "pulled himself together"),
    _pos("slot-refl-herself", "She pulled herself together.", "pull oneself together",
         "pulled herself together"),
    _pos("slot-refl-themselves", "They pulled themselves together.", "pull oneself together",
         "pulled themselves together"),
    _pos("slot-refl-yourself", "Pull yourself together!", "pull oneself together",
         "Pull yourself together"),
    _pos("slot-refl-myself", "I pulled myself together.", "pull oneself together",
         "pulled myself together"),
    _pos("slot-refl-ourselves", "We pulled ourselves together.", "pull oneself together",
         "pulled ourselves together"),
    # a final reflexive is the idiom's own word: any reflexive, inside the span
    _pos("slot-refl-final-myself", "I could kick myself for missing it.", "kick oneself",
         "kick myself"),
    _pos("slot-refl-final-herself", "She was beside herself with worry.", "beside oneself",
         "beside herself"),
    _pos("slot-refl-final-in-span", "He made a fool of himself.", "make a fool of oneself",
         "made a fool of himself"),
]

# --- inserted determiners, adjectives, adverbs ----------------------------------------------
INSERTIONS = [
    _pos("ins-adjective-blatant", "She called my blatant bluff.", "call someone's bluff",
         "called my blatant bluff"),
    _pos("ins-particle-shift-whole", "He poured out his whole heart to a friend.",
         "pour one's heart out", "poured out his whole heart"),
    _pos("ins-adjective-proverbial", "He broke the proverbial ice.", "break the ice",
         "broke the proverbial ice"),
    # ... but with a possessive slot its noun agrees with the possessor
    _pos("ins-possessive-plural-noun", "They cheered at the top of their voices.",
         "at the top of one's voice", "at the top of their voices"),
    # "me" for "my" in British speech
    _pos("ins-me-as-possessive", "Gets on me nerves, that does.", "get on someone's nerves",
         "Gets on me nerves"),
    # the other way round an article may change
    _pos("ins-definite-for-indefinite", "Europe stood at the crossroads of history.",
         "at a crossroads", "at the crossroads"),
    # a verb takes a quantifier with its object
    _pos("ins-quantifier-after-verb", "Her new job raised many eyebrows.", "raise eyebrows",
         "raised many eyebrows"),
    # a name can be a verb idiom's object ("caught Jack on the hop")
    _pos("ins-name-as-object", "The offer caught Jack on the hop.", "caught on the hop",
         "caught Jack on the hop"),
    _pos("ins-determiner-all", "She spilled all the beans.", "spill the beans",
         "spilled all the beans"),
    _pos("ins-adjective-big", "We finally bit the big bullet.", "bite the bullet",
         "bit the big bullet"),
    _pos("ins-adjective-poor", "Stop pulling my poor leg.", "pull someone's leg",
         "pulling my poor leg"),
    _pos("ins-determiner-all-his", "He burned all his bridges.", "burn one's bridges",
         "burned all his bridges"),
    _pos("ins-adverb-right", "You hit the nail right on the head.", "hit the nail on the head",
         "hit the nail right on the head"),
    _pos("ins-adverb-adjective", "They turned a completely blind eye to it.", "turn a blind eye",
         "turned a completely blind eye"),
    _pos("ins-adjective-long-idiom", "He let the proverbial cat out of the bag.",
         "let the cat out of the bag", "let the proverbial cat out of the bag"),
    _pos("ins-adjective-old", "They finally buried the old hatchet.", "bury the hatchet",
         "buried the old hatchet"),
    _pos("ins-adverb-firmly", "She took the bull firmly by the horns.",
         "take the bull by the horns", "took the bull firmly by the horns"),
    _pos("ins-adjective-political", "She did not want to rock the political boat.",
         "rock the boat", "rock the political boat"),
    _pos("ins-adjective-financial", "The board pulled the financial plug.", "pull the plug",
         "pulled the financial plug"),
    _pos("ins-object-particle-shift", "He jotted it down.", "jot down", "jotted it down"),
    _pos("ins-article-swap-close", "Keep a close eye on him.", "keep an eye on",
         "Keep a close eye on"),
    _pos("ins-light-object-particle", "She found it out last week.", "find out",
         "found it out"),
    _pos("ins-light-adverb", "My old car has finally had it.", "have had it",
         "has finally had it"),
    _pos("ins-relative-in-reversed-bare-pair", "These are the corners that he cut.",
         "cut corners", "corners that he cut"),
    _pos("ins-adverb-before-verb-it", "He really blew it this time.", "blow it", "blew it"),
    _pos("ins-intensifier-so", "It got so out of hand that we left early.", "get out of hand",
         "got so out of hand"),
]

# --- passive and fronted order --------------------------------------------------------------
PASSIVE_FRONTED = [
    _pos("pass-were-spilled-by", "The beans were spilled by his sister.", "spill the beans",
         "beans were spilled"),
    _pos("pass-have-been-spilt", "The beans have been spilt.", "spill the beans",
         "beans have been spilt"),
    _pos("pass-adverb-buried", "The hatchet was finally buried.", "bury the hatchet",
         "hatchet was finally buried"),
    _pos("pass-ice-broken", "The ice was broken by a joke.", "break the ice",
         "ice was broken"),
    _pos("pass-cat-let-out", "The cat was let out of the bag.", "let the cat out of the bag",
         "cat was let out of the bag"),
    _pos("pass-bluff-called", "His bluff was called.", "call someone's bluff",
         "bluff was called"),
    _pos("pass-tables-turned", "The tables were turned.", "turn the tables",
         "tables were turned"),
    _pos("pass-line-drawn", "The line has to be drawn somewhere.", "draw the line",
         "line has to be drawn"),
    _pos("pass-corners-cut", "Corners were cut to save money.", "cut corners",
         "Corners were cut"),
    _pos("pass-law-laid-down", "The law was laid down.", "lay down the law",
         "law was laid down"),
    _pos("pass-blind-eye-turned", "A blind eye was turned to the abuse.", "turn a blind eye",
         "blind eye was turned"),
    _pos("pass-heart-broken", "Her heart was broken by him.", "break someone's heart",
         "heart was broken"),
    _pos("pass-towel-thrown-in", "The towel was thrown in.", "throw in the towel",
         "towel was thrown in"),
    _pos("pass-new-ground-broken", "New ground was broken.", "break new ground",
         "New ground was broken"),
    _pos("front-relative-clause", "The beans that she spilled caused a scandal.",
         "spill the beans", "beans that she spilled"),
    _pos("front-topicalised-hatchet", "The hatchet they buried long ago.",
                     "bury the hatchet", "hatchet they buried"),
    _pos("front-cleft-bluff", "It was my bluff that she called.", "call someone's bluff",
         "bluff that she called"),
    _pos("front-tables-had-turned", "The tables had finally turned on him.", "turn the tables",
         "tables had finally turned"),
    _pos("front-topicalised-comma", "His heart, he poured out to a friend.",
         "pour one's heart out", "heart, he poured out"),
]

# --- hyphen and spacing ---------------------------------------------------------------------
HYPHENS = [
    _pos("hyph-spaced-down-to-earth", "She is very down to earth.", "down-to-earth",
         "down to earth"),
    _pos("hyph-hyphenated-down-to-earth", "She is very down-to-earth.", "down-to-earth",
         "down-to-earth"),
    _pos("hyph-eye-opener", "The trip was an eye-opener.", "eye-opener", "eye-opener"),
    _pos("hyph-spaced-eye-opener", "The trip was an eye opener.", "eye-opener", "eye opener"),
    _pos("hyph-closed-eyeopener", "The trip was an eyeopener.", "eye-opener", "eyeopener"),
    _pos("hyph-spaced-up-to-date", "Keep the records up to date.", "up-to-date", "up to date"),
    _pos("hyph-spaced-last-ditch", "A last ditch effort.", "last-ditch", "last ditch"),
    _pos("hyph-hyphenated-over-the-top", "His speech was a bit over-the-top.", "over the top",
         "over-the-top"),
    _pos("hyph-hyphenated-behind-the-scenes", "A behind-the-scenes look at the show.",
         "behind the scenes", "behind-the-scenes"),
    _pos("hyph-hyphenated-last-minute", "A last-minute change.", "last minute", "last-minute"),
    _pos("hyph-spaced-tongue-in-cheek", "It was a tongue in cheek remark.", "tongue-in-cheek",
         "tongue in cheek"),
    _pos("hyph-hyphenated-top-notch", "The service was top-notch.", "top notch", "top-notch"),
    _pos("hyph-closed-halfbaked", "A halfbaked plan.", "half-baked", "halfbaked"),
    _pos("hyph-hyphenated-face-to-face", "They met face-to-face.", "face to face",
         "face-to-face"),
    # compounds with an article inside are one unit: the article is part of it
    _pos("hyph-compound-with-article", "She always follows the rules by-the-book.",
         "by-the-book", "by-the-book"),
    _pos("hyph-compound-dyed-in-the-wool", "He is a dyed-in-the-wool artist.",
         "dyed-in-the-wool", "dyed-in-the-wool"),
    # an open noun compound may be written closed
    _pos("hyph-closed-headhunter", "She was recruited by a top headhunter.", "head hunter",
         "headhunter"),
    _pos("hyph-closed-cakewalk", "The marathon was a cakewalk for her.", "cake walk",
         "cakewalk"),
]

# --- list idioms: their commas (and a serial comma) belong to them ----------------------------
LISTS = [
    _pos("list-tag-as-written", "It cost five dollars and change.", "and change",
         "and change"),
    _pos("list-long-tag-takes-subject", "Just pay the fine and you can be done with it.",
         "and be done with it", "and you can be done with it"),
    _pos("list-serial-comma", "He believed her lies hook, line, and sinker.",
         "hook, line and sinker", "hook, line, and sinker"),
    _pos("list-as-written", "I cannot support that idea in any way, shape, or form.",
         "in any way, shape, or form", "in any way, shape, or form"),
    _pos("list-judge-jury", "He acts as judge, jury, and executioner at home.",
         "judge, jury and executioner", "judge, jury, and executioner"),
    _pos("list-blood-sweat", "They won through their blood, sweat, and tears.",
         "blood, sweat and tears", "blood, sweat, and tears"),
]

# --- objects and determiners where the dictionary form has none -----------------------------
OBJECTS = [
    # an object slot may stay empty: "keep in mind" is "keep something in mind", not "keep in"
    _pos("object-slot-empty", "Keep in mind that the store closes early.",
         "keep something in mind", "Keep in mind"),
    _pos("object-before-prep", "They worked to bring the corrupt politician to justice.",
         "bring to justice", "bring the corrupt politician to justice"),
    _pos("object-bring-to-bear", "They brought immense pressure to bear on her.",
         "bring to bear", "brought immense pressure to bear"),
    _pos("det-fills-possessive", "The hero came to the aid of the townspeople.",
         "come to someone's aid", "came to the aid"),
    _pos("pronoun-object-light-phrasal-verb", "We will take them on next season.", "take on",
         "take them on"),
    _pos("noun-of-phrasal-verb", "Their break up was hard on everyone.", "break up",
         "break up"),
    _pos("phrasal-verb-after-subject-noun", "Prices hike up every winter.", "hike up",
         "hike up"),
]

# --- "one" as a subject slot ------------------------------------------------------------------
SUBJECTS = [
    _pos("subject-one-as-i", "After that talk I finally know where I stand with her.",
         "know where one stands", "know where I stand"),
    _pos("subject-one-as-we", "It is important to know where we stand.",
         "know where one stands", "know where we stand"),
]

# --- contractions ---------------------------------------------------------------------------
CONTRACTIONS = [
    _pos("contr-cant", "I can't stand him.", "can't stand", "can't stand"),
    _pos("contr-cannot", "I cannot stand him.", "can't stand", "cannot stand"),
    _pos("contr-can-not", "I can not stand him.", "can't stand", "can not stand"),
    _pos("contr-couldnt", "She couldn't help it.", "can't help", "couldn't help"),
    _pos("contr-its", "It's about time you called.", "it's about time", "It's about time"),
    _pos("contr-it-is-about-time", "It is about time you called.", "it's about time",
         "It is about time"),
    _pos("contr-it-is-all-good", "It is all good.", "it's all good", "It is all good"),
    _pos("contr-do-not", "Do not hold your breath.", "don't hold your breath",
         "Do not hold your breath"),
    _pos("contr-you-are", "You are telling me!", "you're telling me", "You are telling me"),
    _pos("contr-couldnt-with-pronoun-slot", "He made him an offer he couldn't refuse.",
         "an offer one can't refuse", "offer he couldn't refuse"),
    _pos("contr-cannot-with-pronoun-slot", "It was an offer they cannot refuse.",
         "an offer one can't refuse", "offer they cannot refuse"),
    # text tokenised beforehand (corpora such as the BNC): the clitic stands apart
    _pos("contr-pretokenised-possessive", "He pulled his sister 's leg again .",
         "pull someone's leg", "pulled his sister 's leg"),
    _pos("contr-pretokenised-somebody-s", "Sometimes you catch somebody 's eye and laugh .",
         "catch someone's eye", "catch somebody 's eye"),
    _pos("contr-pretokenised-curly", "She pulled her brother ’s leg .", "pull someone's leg",
         "pulled her brother ’s leg"),
    _pos("contr-pretokenised-plural-possessive", "It was a hornets ' nest of protest .",
         "hornet's nest", "hornets ' nest"),
    _pos("contr-pretokenised-plural-possessive-slot", "It got on the neighbours ' nerves .",
         "get on someone's nerves", "got on the neighbours ' nerves"),
]

# --- letter case ----------------------------------------------------------------------------
CASE = [
    _pos("case-upper-bare", "SPILL THE BEANS", "spill the beans", "SPILL THE BEANS"),
    _pos("case-upper-sentence", "HE SPILLED THE BEANS ABOUT IT.", "spill the beans",
         "SPILLED THE BEANS"),
    _pos("case-title-bare", "Spill The Beans", "spill the beans", "Spill The Beans"),
    _pos("case-title-irregular", "He Bit The Bullet", "bite the bullet", "Bit The Bullet"),
    _pos("case-upper-possessive", "SHE POURED HER HEART OUT.", "pour one's heart out",
         "POURED HER HEART OUT"),
    _pos("case-title-possessive", "Hold Your Horses!", "hold one's horses", "Hold Your Horses"),
    _pos("case-title-hyphenated", "Down-To-Earth People", "down-to-earth", "Down-To-Earth"),
]

# --- British and American spelling ---------------------------------------------------------

SPELLING = [
    _pos("spelling-british-text", "She passed her exams with flying colours.",
         "with flying colors", "with flying colours"),
    _pos("spelling-american-text", "It's a gray area for most lawyers.", "grey area",
         "gray area"),
    _pos("spelling-inflected", "He curried favour with the new boss.", "curry favor",
         "curried favour"),
    _pos("spelling-re-ending", "The issue is now front and centre.", "front and center",
         "front and centre"),
    _pos("spelling-plural", "We went to kick the tyres on a few used cars.", "kick the tires",
         "kick the tyres"),
]

# --- curly apostrophes ----------------------------------------------------------------------
CURLY = [
    _pos("curly-possessive-name", "She called John\u2019s bluff.", "call someone's bluff",
         "called John\u2019s bluff"),
    _pos("curly-cant", "I can\u2019t stand him.", "can't stand", "can\u2019t stand"),
    _pos("curly-its", "It\u2019s about time.", "it's about time", "It\u2019s about time"),
    _pos("curly-dont", "Don\u2019t hold your breath.", "don't hold your breath",
         "Don\u2019t hold your breath"),
    _pos("curly-youre", "You\u2019re telling me!", "you're telling me",
         "You\u2019re telling me"),
    _pos("curly-plural-possessive", "The noise got on the neighbours\u2019 nerves.",
         "get on someone's nerves", "got on the neighbours\u2019 nerves"),
    _pos("curly-plural-possessive-kids", "You broke the kids\u2019 hearts.",
         "break someone's heart", "broke the kids\u2019 hearts"),
    _pos("curly-possessive-friends", "He\u2019s pulling my friend\u2019s leg.",
         "pull someone's leg", "pulling my friend\u2019s leg"),
]

# --- other common ways of writing the dictionary form ----------------------------------------
WRITTEN = [
    # a simile without its first "as"
    _pos("written-simile-no-as", "The king was sharp as a needle in such matters.",
         "as sharp as a needle", "sharp as a needle"),
    _pos("written-simile-no-as-fronted", "Quick as a flash, the doctor had cut the cord.",
         "as quick as a flash", "Quick as a flash"),
    _pos("written-simile-hyphenated", "The dry-as-dust scholar said nothing.", "as dry as dust",
         "dry-as-dust"),
    _pos("written-simile-full", "It's as flat as a pancake here.", "as flat as a pancake",
         "as flat as a pancake"),
    # an -s genitive without its apostrophe
    _pos("written-genitive-no-apostrophe-name", "They found his Achilles heel at last.",
         "Achilles' heel", "Achilles heel"),
    _pos("written-genitive-no-apostrophe-plural", "That is just an old wives tale.",
         "old wives' tale", "old wives tale"),
    _pos("written-genitive-no-apostrophe-sake", "For goodness sake, stop it.",
         "for goodness' sake", "goodness sake"),
    # "never" for "not", and no "not" before a prepositional phrase
    _pos("written-never-for-not", "I never slept a wink that night.", "not sleep a wink",
         "never slept a wink"),
    _pos("written-no-not-before-phrase", "He would never in a month of Sundays agree.",
         "not in a month of Sundays", "in a month of Sundays"),
]

# --- several idioms in one text: each must be reported -------------------------------------
_THREE = "She spilled the beans and then he kicked the bucket. Break a leg!"
MULTIPLE = [
    _pos("multi-two-sentences-first", "She spilled the beans. He kicked the bucket.",
         "spill the beans", "spilled the beans"),
    _pos("multi-two-sentences-second", "She spilled the beans. He kicked the bucket.",
         "kick the bucket", "kicked the bucket"),
    _pos("multi-three-idioms-beans", _THREE, "spill the beans", "spilled the beans"),
    _pos("multi-three-idioms-bucket", _THREE, "kick the bucket", "kicked the bucket"),
    _pos("multi-three-idioms-leg", _THREE, "break a leg", "Break a leg"),
    _pos("multi-conjunction-bullet", "We bit the bullet and went the extra mile.",
         "bite the bullet", "bit the bullet"),
    _pos("multi-conjunction-mile", "We bit the bullet and went the extra mile.",
         "go the extra mile", "went the extra mile"),
    _pos("multi-comma-horses", "Hold your horses, don't spill the beans.",
         "hold one's horses", "Hold your horses"),
    _pos("multi-comma-beans", "Hold your horses, don't spill the beans.",
         "spill the beans", "spill the beans"),
]

# --- negatives: the words occur but do not form the idiom -----------------------------------
NEGATIVES = [
    # a final reflexive must be there: "fall over oneself" is not "fall over"
    _neg("neg-final-reflexive-missing", "The cat fell over the wall.", "fall over oneself"),
    # ... but where it is the idiom's own word, it must be there
    _neg("neg-up-to-something-needs-something", "It is up to you now.", "up to something"),
    # a phrasal verb written as one word is another word ("standby", "workout")
    _neg("neg-closed-phrasal-verb", "Keep the generator on standby.", "stand by"),
    _neg("neg-sentence-boundary-beans", "He spilled it. The beans were cold.", "spill the beans"),
    _neg("neg-far-apart-beans", "She spilled coffee on the table while the kids ate their beans.",
         "spill the beans"),
    _neg("neg-semicolon-beans", "The beans were in the pot; nobody spilled anything.",
         "spill the beans"),
    _neg("neg-relative-clause-commas-beans",
         "The beans, which I bought at the market this morning, and the rice spilled.",
         "spill the beans"),
    _neg("neg-sentence-boundary-bucket", "He kicked the ball. The bucket was empty.",
         "kick the bucket"),
    _neg("neg-far-apart-bucket",
         "The bucket stood by the door while the horse kicked wildly at the fence behind the "
         "barn.", "kick the bucket"),
    _neg("neg-conjunction-bullet",
         "The dog bit the postman and the police found a bullet in the wall.", "bite the bullet"),
    _neg("neg-sentence-boundary-ice", "He broke the window. The ice on the lake was thin.",
         "break the ice"),
    _neg("neg-many-words-ice", "The ice in the freezer of the old house near the station broke.",
         "break the ice"),
    _neg("neg-sentence-boundary-leg", "He pulled the rope. My leg hurts.", "pull someone's leg"),
    _neg("neg-far-apart-leg",
         "My leg was sore after I pulled the heavy cart up the long steep hill yesterday.",
         "pull someone's leg"),
    _neg("neg-sentence-boundary-bluff", "She called her mother. The bluff overlooked the sea.",
         "call someone's bluff"),
    _neg("neg-sentence-boundary-heart", "He poured the milk. Her heart was racing.",
         "pour one's heart out"),
    _neg("neg-scrambled-heart", "Out in the garden, his heart sank as the rain poured.",
         "pour one's heart out"),
    _neg("neg-many-words-heart",
         "Her heart was out of rhythm after she poured concrete all day.",
         "pour one's heart out"),
    _neg("neg-sentence-boundary-hatchet", "They buried the dog. The hatchet was rusty.",
         "bury the hatchet"),
    _neg("neg-ing-form-fixed-going", "We would not have gone if we had realised.",
         "have someone going"),
    _neg("neg-ing-form-fixed-edge", "The knife cut the edge of the table.", "cutting edge"),
    _neg("neg-particle-before-verb-outs", "The fund missed out on a windfall.", "on the outs"),
    _neg("neg-particle-after-noun-works", "Nobody should be forced to work in such conditions.",
         "in the works"),
    _neg("neg-particle-before-verb-grind", "It suited them down to the ground.", "grind down"),
    _neg("neg-determiner-in-bare-pair-times", "At the time, nobody knew.", "at times"),
    _neg("neg-article-dropped-compound-field", "They want to level the playing field.",
         "play the field"),
    _neg("neg-article-dropped-compound-go", "We would not have gone if we had known.",
         "have a go"),
    _neg("neg-particle-noun-ups", "They walked up and down the beach.", "ups and downs"),
    _neg("neg-conditional-is-fixed", "I think I will call her tomorrow.", "I would"),
    _neg("neg-future-going-to", "It is going to be a great time.", "go to"),
    _neg("neg-sentence-boundary-boat", "I miss you. The boat left at noon.", "miss the boat"),
    _neg("neg-far-apart-boat",
         "The boat sailed past the harbour while we were missing our friends.", "miss the boat"),
    _neg("neg-three-sentences-nail", "He hit the wall. The nail was loose. Her head hurt.",
         "hit the nail on the head"),
    _neg("neg-sentence-boundary-mile", "We go. The extra mile was long.", "go the extra mile"),
    _neg("neg-far-apart-towel",
         "He threw the ball in the pool and dried himself with a towel.", "throw in the towel"),
    _neg("neg-conjunction-corners", "The room had four corners and he cut the cake.",
         "cut corners"),
    _neg("neg-sentence-boundary-earth", "The plane came down. Earth was far below.",
         "down-to-earth"),
    _neg("neg-sentence-boundary-cant-stand", "I can't. Stand up!", "can't stand"),
    _neg("neg-reversed-sack", "The sack was heavy so he hit it.", "hit the sack"),
    _neg("neg-conjunction-piece-of-cake", "A piece of the pie and a cake.", "piece of cake"),
    _neg("neg-object-between-bridges", "They burned the leaves near their bridges.",
         "burn one's bridges"),
    _neg("neg-wrong-order-blind-eye", "The blind man turned his eye.", "turn a blind eye"),
    _neg("neg-wrong-order-beans", "Beans spill.", "spill the beans"),
    _neg("neg-wrong-order-bullet", "The bullet bit him.", "bite the bullet"),
    _neg("neg-wrong-order-bucket", "A bucket kicked the boy.", "kick the bucket"),
    _neg("neg-wrong-order-boat", "The boat misses nobody.", "miss the boat"),
    # an idiom of light words only takes no word inside, bar one object before a particle
    _neg("neg-light-object-and-particle", "You should take him down to the station.",
         "take to"),
    _neg("neg-light-clause-inside", "I can see where it went.", "can it"),
    _neg("neg-light-auxiliary-inside", "The thing will be ready.", "the thing is"),
    _neg("neg-light-inverted-question", "What are you doing?", "you what"),
    _neg("neg-demonstrative-in-bare-pair", "He was the president at that time.", "at times"),
    _neg("neg-demonstrative-this-in-bare-pair", "At this time we know nothing.", "at times"),
    # the one word a light phrasal verb lets in is its object, not another phrase's word
    _neg("neg-light-noun-inside", "The funeral will take place on Monday.", "take on"),
    _neg("neg-light-adjective-inside", "Go easy on him, he is new.", "go on"),
    _neg("neg-light-other-particle-inside", "They always look down on us.", "look on"),
    # an idiom led by a conjunction is a tag said as one block
    _neg("neg-tag-idiom-word-inside", "We will end up rich and completely change our lives.",
         "and change"),
    _neg("neg-tag-idiom-reversed", "Prices change and they rise.", "and change"),
    # a past form in the dictionary form is fixed: no present or base forms
    _neg("neg-past-form-fixed-done", "Well, it does not matter now.", "well done"),
    _neg("neg-past-form-fixed-fed", "The farmer feeds up the calves.", "fed up"),
    # after a determiner, a phrasal verb's verb is a noun and its particle a preposition
    _neg("neg-noun-then-preposition-hike", "We took a hike up a trail.", "hike up"),
    _neg("neg-noun-then-preposition-drop", "Figures show a drop in crime rates.", "drop in"),
    _neg("neg-noun-then-preposition-take", "They gave their take on the show.", "take on"),
    # a suppletive comparative is another word: "best" is no form of "good", "elder" of "old"
    _neg("neg-suppletive-best", "It was nominated for Best Pop Vocal Album.", "for good"),
    _neg("neg-suppletive-better", "Of course he had, but better play safe.", "but good"),
    _neg("neg-suppletive-elder", "We met an elder flame of hers.", "old flame"),
    # a prepositional phrase does not move apart
    _neg("neg-preposition-fronted", "Years ago, our house was built on the rear of the lot.",
         "on the house"),
    # a name inside an idiom with no slot for it makes another phrase
    _neg("neg-name-inside-zone", "The festival is celebrated in the North zone.", "in the zone"),
    _neg("neg-name-inside-bay", "After a decade at Catfish Bay, the contest moved.", "at bay"),
    # a quantifier inside a bare pair led by a preposition makes another phrase, and so does
    # an article inside one led by a particle
    _neg("neg-quantifier-in-bare-pair-times", "He remains calm at all times.", "at times"),
    _neg("neg-quantifier-in-bare-pair-days", "She was in hospital for several days.", "for days"),
    _neg("neg-article-in-particle-pair-state", "There are five orchestras in the state.",
         "in state"),
    # a phrasal verb's verb after a number or a determiner is a noun; its particle or
    # preposition then leads a noun phrase
    _neg("neg-noun-after-number", "There was a 5% drop in sales last year.", "drop in"),
    _neg("neg-noun-before-preposition", "The angle for this shot is wrong.", "angle for"),
    # a preposition inside a bare pair led by a particle makes another phrase
    _neg("neg-bare-pair-preposition-inside", "They were sitting up in front of the stage.",
         "up front"),
    # a final "one" after another word is the number
    _neg("neg-final-one-number", "I got it in two.", "get it in one"),
    # a preposition fills no possessive slot
    _neg("neg-preposition-in-possessive-slot", "Portman began acting at age 12.",
         "act one's age"),
    # an idiom led by a preposition is fixed: no other form of its words
    _neg("neg-prepositional-phrase-fixed-works", "The answer lies in the work of ants.",
         "in the works"),
    _neg("neg-prepositional-phrase-fixed-rest", "She visits Libby at her resting spot.",
         "at rest"),
    _neg("neg-prepositional-phrase-fixed-late", "In some of his later writings he agreed.",
         "of late"),
    # a leading "as" or "not" drops only where the rest is still the idiom: no short simile
    # without its comparison, no "not" phrase of one content word
    _neg("neg-written-no-as-needs-both", "Sharp as they were, they lost.", "as sharp as a needle"),
    _neg("neg-written-no-not-one-word", "It went bad overnight.", "not bad"),
    _neg("neg-written-never-one-word", "He never had a chance.", "not a chance"),
    # "a" for "the" in an idiom led by a preposition means any such thing
    _neg("neg-indefinite-for-definite-table", "The video shows cash passed under a table.",
         "under the table"),
    _neg("neg-indefinite-for-definite-road", "The caravan was stopped on a road near the town.",
         "on the road"),
]

POSITIVE_GROUPS = {
    "inflection": INFLECTION,
    "slots": SLOTS,
    "insertions": INSERTIONS,
    "passive_fronted": PASSIVE_FRONTED,
    "hyphens": HYPHENS,
    "lists": LISTS,
    "subjects": SUBJECTS,
    "objects": OBJECTS,
    "contractions": CONTRACTIONS,
    "case": CASE,
    "spelling": SPELLING,
    "curly": CURLY,
    "written": WRITTEN,
    "multiple": MULTIPLE,
}
#: every positive case, one test each (ids name the variation type)
POSITIVES = [case for group in POSITIVE_GROUPS.values() for case in group]


@pytest.mark.parametrize(("text", "idiom", "covers"), POSITIVES)
def test_positive_cases(finder, text, idiom, covers):
    _check_found(finder, text, idiom, covers)


@pytest.mark.parametrize(("text", "idiom"), NEGATIVES)
def test_negatives(finder, text, idiom):
    _check_not_found(finder, text, idiom)


def test_keep_nested_adds_to_the_default_choice(finder):
    nested = Finder(keep_nested=True)
    texts = [case.values[0] for case in POSITIVES]
    texts += ["He decided to go all out for the final.", "In this day and age, it is hard."]
    grew = 0
    for text in texts:
        plain = [(s.start, s.end, s.idiom) for s in finder.find(text).idioms]
        more = [(s.start, s.end, s.idiom) for s in nested.find(text).idioms]
        assert more[:len(plain)] == plain, text  # the same choices, first and in order
        grew += len(more) > len(plain)
    assert grew >= 2
    assert [s.idiom for s in nested.find("He decided to go all out for the final.").idioms][:2] \
        == ["go all out", "all out"]
    # the shorter way of writing an entry, inside its full form, is not listed again
    assert [s.idiom for s in nested.find("The king was as sharp as a needle.").idioms] \
        == ["as sharp as a needle"]


def test_headline_example(finder):
    text = "He poured out his whole heart to a friend."
    doc = finder.find(text)
    assert doc.idioms, "nothing found"
    best = doc.idioms[0]
    assert best.idiom == "pour one's heart out", _describe(doc)
    assert best.text == "poured out his whole heart"
    assert (best.start, best.end) == (3, 29)
    assert text[best.start:best.end] == best.text
    assert [text[a:b] for a, b in best.token_offsets][0] == "poured"
    assert [text[a:b] for a, b in best.token_offsets][-1] == "heart"


def test_a_verb_it_idiom_is_one_block():
    """Even as a bare candidate (no scorer, overlaps kept): in "kick myself for missing it"
    "it" is the object of "missing", not part of "kick it"."""
    candidates = Finder(scorer=None, keep_nested=True)
    found = [s.idiom for s in candidates.find("I could kick myself for missing it.").idioms]
    assert found == ["kick oneself"]
    assert [s.text for s in candidates.find("He really blew it.").idioms] == ["blew it"]


def test_a_hyphenated_compound_inflects_only_at_its_end():
    """"had been" is not "has-been", nor "knew it all" "a know-it-all"; a plural inside
    stays ("sticks-in-the-mud")."""
    candidates = Finder(scorer=None, keep_nested=True)

    def found(text: str) -> set[str]:
        return {s.idiom for s in candidates.find(text).idioms}

    assert "has-been" not in found("It had been a long day.")
    assert "has-been" in found("He is a has-been.")
    assert "a know-it-all" not in found("The old man knew it all.")
    assert "a know-it-all" in found("Nobody likes a know-it-all.")
    assert "stick-in-the-mud" in found("They are real sticks-in-the-mud.")


def test_a_genitive_fills_the_possessive_slot_as_a_pronoun_does():
    """"John's", "everyone's", "the old man's" are someone's, as "his" is: no inserted word.
    A word that is not a possessor still costs ("his left leg")."""
    candidates = Finder(scorer=None, keep_nested=True)

    def score(text: str, idiom: str) -> float:
        return max(s.match_score for s in candidates.find(text).idioms if s.idiom == idiom)

    pronoun = score("The noise got on his nerves.", "get on someone's nerves")
    for text in ("The noise got on everyone's nerves.", "The noise got on the old man's nerves.",
                 "The noise got on my friend's nerves.", "The noise got on the kids' nerves."):
        assert score(text, "get on someone's nerves") == pronoun == 1.0, text
    assert score("She pulled John's leg.", "pull someone's leg") == 1.0
    assert score("She pulled his left leg.", "pull someone's leg") < 1.0


def test_case_idioms_are_in_the_lexicon(finder):
    """Every idiom the cases name is a lexicon entry the default finder matches."""
    entries = {}
    for entry in finder.lexicon:
        entries.setdefault(entry.idiom, []).append(entry)
    named = {p.values[1] for p in POSITIVES}
    named |= {p.values[1] for p in NEGATIVES}
    named.add("pour one's heart out")
    missing = sorted(i for i in named if i not in entries)
    assert not missing, f"not in the lexicon: {missing}"
    filtered = sorted(i for i in named if all(e.filter_out for e in entries[i]))
    assert not filtered, f"marked filter_out in the lexicon: {filtered}"


def test_case_counts():
    assert len(INFLECTION) >= 10
    assert len(SLOTS) >= 10
    assert len(INSERTIONS) >= 8
    assert len(PASSIVE_FRONTED) >= 5
    assert len(HYPHENS) >= 5
    assert len(CONTRACTIONS) >= 5
    assert len(CASE) >= 4
    assert len(CURLY) >= 3
    assert len(NEGATIVES) >= 15
    ids = [p.id for p in POSITIVES] + [p.id for p in NEGATIVES]
    assert len(ids) == len(set(ids)), "duplicate case ids"
