"""Review (session 10): attacks on four new rules. Each strict xfail asserts the CORRECT behaviour and fails today (a
defect); each plain test is an attack the code withstands (a guard). The defects 1-3 below were found by this review
and fixed the same session (the tests that were strict xfails are now plain tests); the one xfail left is check 1's
(a stated sub-section need only be printed in the cited chunk).

1. ``legal_rag.verify.verbatim_move`` (fa525c8/7e2ac25): a sentence naming no section, failing where cited, moves
   to another section of the same Act when one run covers 80% of its words there. The run is allowed to leave out
   the 20% that carry the law: the offence's name before a punishment clause that many sections print ("Whoever
   cheats" + 305's seven-year clause), or the "not" of an Exception ("Culpable homicide is [not] murder if ...").
2. ``legal_rag.verify.is_heading`` (5f8b53b): a cited passage's title is dropped as a heading even when the title
   is itself a rule of law ("Facts admitted need not be proved.", BSA 53); a one-sentence answer is then withheld
   as if it had failed verification.
3. ``legal_rag.generate.window`` / ``build_prompt``: once the repeated lead of a chunk is cut, a proviso,
   Explanation or clause of the open sub-section left in front of the next marker is labelled with the next
   sub-section ("BNSS 479(2)" over 479(1)'s third proviso); a repeat whose showing passage is then dropped for the
   token budget is shown nowhere; a lead is cut because another sub-section prints the same words (BNSS 419).
4. System rule 7 with verify's check 1 (grammar ``legal_rag.law.refs``): "section 316(5)" on the chunk printing
   (4) and (5) verifies; "section 316(4)" with (5)'s words and punishment is removed.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from legal_rag.config import load_settings
from legal_rag.generate.prompt import build_prompt, passage_label
from legal_rag.generate.window import shown_sub, shown_texts
from legal_rag.types import Draft, Hit, StatuteRef
from legal_rag.verify import check_claim, is_heading, reattributed, verbatim_move, verify

from tests.generate.fakes import BNS_304, hits, judgment, statute


def none(ref):
    return set()


def given(*chunks) -> tuple[Hit, ...]:
    return tuple(Hit(c, 1.0 - i / 100, "rrf", i) for i, c in enumerate(chunks, 1))


def part(index, act, section, k):
    chunks = index.by_ref(act, section)
    found = [c for c in chunks if c.part == k]
    if not found:
        pytest.fail(f"{act} {section} has no chunk {k} any more: {[c.id for c in chunks]}")
    return found[0]


# ============================================================ 1. verbatim_move: false law moved and verified

EXT7 = ("shall be punished with imprisonment of either description for a term which may extend to seven years, and "
        "shall also be liable to fine")
EXT3 = ("shall be punished with imprisonment of either description for a term which may extend to three years, and "
        "shall also be liable to fine")
E1_NOT_DROPPED = ("Culpable homicide is murder if the offender, whilst deprived of the power of self-control by grave "
                  "and sudden provocation, causes the death of the person who gave the provocation or causes the "
                  "death of any other person by mistake or accident")
E2_NOT_DROPPED = ("Culpable homicide is murder if the offender in the exercise in good faith of the right of private "
                  "defence of person or property, exceeds the power given to him by law and causes the death of the "
                  "person against whom he is exercising such right of defence without premeditation")
ILL_NOT_DROPPED = ("A believing in good faith that he can by no other means prevent himself from being horsewhipped, "
                   "shoots Z dead, and A has committed murder")

# (claim, cited (act, section, part), the other given passage) -- each claim is false law:
MOVES = [
    # simple cheating is BNS 318(2), three years; the seven years are BNS 305's (theft in a dwelling house)
    pytest.param(f"Whoever cheats {EXT7}", ("BNS", "318", 3), ("BNS", "305", 0), id="cheating-7y-to-BNS305"),
    # simple theft is BNS 303(2), three years
    pytest.param(f"Whoever commits theft {EXT7}", ("BNS", "303", 8), ("BNS", "305", 0), id="theft-7y-to-BNS305"),
    # robbery is BNS 309(4), ten years; three years are snatching's, 304(2)
    pytest.param(f"Whoever commits robbery {EXT3}", ("BNS", "309", 3), ("BNS", "304", 0), id="robbery-3y-to-BNS304"),
    # simple cheating, three years; five years are criminal breach of trust's, 316(2)
    pytest.param("Whoever cheats shall be punished with imprisonment of either description for a term which may "
                 "extend to five years, or with fine, or with both", ("BNS", "318", 4), ("BNS", "316", 5),
                 id="cheating-5y-to-BNS316(2)"),
    # IPC simple cheating is IPC 417 (one year); seven years are IPC 420's, for inducing delivery of property
    pytest.param(f"Whoever cheats {EXT7}", ("IPC", "415", 0), ("IPC", "420", 0), id="IPC-cheating-7y-to-IPC420"),
    # Exceptions 1 and 2 of BNS 101 with their "not" dropped: the opposite of the law
    pytest.param(E1_NOT_DROPPED, ("BNS", "103", 0), ("BNS", "101", 2), id="exception-1-negation-dropped"),
    pytest.param(E2_NOT_DROPPED, ("BNS", "103", 0), ("BNS", "101", 6), id="exception-2-negation-dropped"),
    # the illustration to Exception 2 ends "A has not committed murder, but only culpable homicide"
    pytest.param(ILL_NOT_DROPPED, ("BNS", "103", 0), ("BNS", "101", 6), id="illustration-negation-dropped"),
]


@pytest.mark.slow
@pytest.mark.parametrize("claim, cited, other", MOVES)
def test_real_attack_sentences_fail_where_cited(real_index, claim, cited, other):
    """Precondition of the xfails below (kept separate so that they fail only for the move): each false sentence
    fails against the passage the model cited, and the other passage prints 80% of its words in one run."""
    ps = given(part(real_index, *cited), part(real_index, *other))
    assert check_claim(claim, [ps[0]], none, sections=real_index.by_ref)
    v = verify(Draft("q", f"{claim} [1].", passages=ps), equivalents=none, sections=real_index.by_ref)
    assert v.checks[0].status == "unsupported"  # re-attribution off: removed


@pytest.mark.slow
@pytest.mark.parametrize("claim, cited, other", MOVES)
def test_real_false_law_is_not_moved_across_sections(real_index, claim, cited, other):
    ps = given(part(real_index, *cited), part(real_index, *other))
    v = verify(Draft("q", f"{claim} [1].", passages=ps), equivalents=none, reattribute=True,
               sections=real_index.by_ref)
    assert v.checks[0].status == "unsupported" and not v.checks[0].moved_from, v.problems


CHEAT_318_4 = ("Whoever cheats and thereby dishonestly induces the person deceived to deliver any property to any person, "
               "or to make, alter or destroy the whole or any part of a valuable security, shall be punished with "
               f"imprisonment of either description for a term which may extend to seven years, and shall also be "
               f"liable to fine")


@pytest.mark.slow
def test_real_a_move_never_crosses_acts(real_index):
    """Guard: BNS 318(4)'s words cited to IPC 415 beside BNS 318's chunk, and "Whoever cheats ... seven years" cited
    to BNS 318 beside IPC 420: neither is moved to the other Act."""
    ps = given(part(real_index, "IPC", "415", 0), part(real_index, "BNS", "318", 4))
    assert check_claim(CHEAT_318_4, [ps[1]], none, sections=real_index.by_ref) == ()  # it is BNS 318(4)'s text
    assert verbatim_move(CHEAT_318_4, (1,), ps, none, sections=real_index.by_ref) == ()
    v = verify(Draft("q", f"{CHEAT_318_4} [1].", passages=ps), equivalents=none, reattribute=True,
               sections=real_index.by_ref)
    assert v.checks[0].status == "unsupported" and not v.checks[0].moved_from
    ps = given(part(real_index, "BNS", "318", 3), part(real_index, "IPC", "420", 0))
    assert reattributed(f"Whoever cheats {EXT7}", (1,), ps, none, sections=real_index.by_ref) == ()


@pytest.mark.slow
def test_real_a_copy_with_its_punishment_changed_is_not_moved(real_index):
    """Guard: BNS 104's words with "ten years" for its death or life: fails at 104 too, not moved."""
    claim = ("Whoever, being under sentence of imprisonment for life, commits murder, shall be punished with "
             "imprisonment which may extend to ten years, which shall mean the remainder of that person's natural life")
    ps = given(part(real_index, "BNS", "103", 0), part(real_index, "BNS", "104", 0))
    assert verbatim_move(claim, (1,), ps, none, sections=real_index.by_ref) == ()
    v = verify(Draft("q", f"{claim} [1].", passages=ps), equivalents=none, reattribute=True,
               sections=real_index.by_ref)
    assert v.checks[0].status == "unsupported"


@pytest.mark.slow
def test_real_an_exception_copied_with_a_punishment_is_not_moved(real_index):
    """Guard: Exception 1 of BNS 101 word for word (its "not" kept) plus "and shall be punished with death": the
    Exception prints no punishment, so the sentence is not moved there."""
    e1 = E1_NOT_DROPPED.replace("homicide is murder", "homicide is not murder")
    claim = f"{e1}, and the offender shall be punished with death"
    ps = given(part(real_index, "BNS", "103", 0), part(real_index, "BNS", "101", 2))
    assert verbatim_move(claim, (1,), ps, none, sections=real_index.by_ref) == ()


def test_judgments_are_never_moved_from_or_to():
    """Guard: a sentence citing a judgment is never moved, and a judgment is never the target of a move, however
    word for word the copy."""
    text = ("The appellant was convicted under section 420 of the Indian Penal Code and the High Court held that the "
            "ingredients of cheating were not made out.")
    claim = ("The High Court held that the ingredients of cheating were not made out as there was no dishonest "
             "inducement at the inception")
    judg = judgment("caseA", "A v. State", text + " " + claim + ".")
    law = statute("BNS", "318", "Cheating.", "(2) Whoever cheats shall be punished with imprisonment of either "
                  "description for a term which may extend to three years, or with fine, or with both.")
    other = statute("BNS", "103", "Punishment for murder.", "(1) Whoever commits murder shall be punished with death.")
    assert verbatim_move(claim, (1,), hits(law, judg), none) == ()
    assert verbatim_move(claim, (2,), hits(judg, other), none) == ()


def test_a_clause_two_given_sections_print_is_moved_to_neither():
    """Guard: the same punishment clause printed by two given sections of the Act: the move is ambiguous and none
    is made."""
    clause = f"Whoever commits theft in a dwelling house {EXT7}."
    a = statute("BNS", "305", "Theft in a dwelling house.", clause)
    b = statute("BNS", "306", "Theft by clerk or servant.", f"Whoever commits theft in a dwelling house {EXT7}, and the "
                "property shall be forfeited.")
    cited = statute("BNS", "303", "Theft.", "(1) Whoever, intending to take dishonestly any movable property "
                    "commits theft.")
    claim = f"Whoever commits theft in a dwelling house {EXT7}"
    assert check_claim(claim, [hits(a)[0]], none) == () and check_claim(claim, [hits(b)[0]], none) == ()
    assert verbatim_move(claim, (1,), hits(cited, a, b), none) == ()


# ============================================================ 2. is_heading: a title that is a rule of law

STATEMENT_TITLES = [
    pytest.param("BSA", "53", "Facts admitted need not be proved", id="BSA-53"),
    pytest.param("BSA", "25", "Admissions not conclusive proof, but may estop", id="BSA-25"),
    pytest.param("BNSS", "58", "Person arrested not to be detained more than twenty-four hours", id="BNSS-58"),
]


@pytest.mark.slow
@pytest.mark.parametrize("act, section, title", STATEMENT_TITLES)
def test_real_the_title_sentence_passes_every_check(real_index, act, section, title):
    """Precondition of the xfail below: the title sentence is the passage's own words, a rule of law, and passes
    every check against it."""
    c = part(real_index, act, section, 0)
    assert re.sub(r"\W+", " ", c.title).strip().lower() == re.sub(r"\W+", " ", title).strip().lower()
    assert check_claim(title, [given(c)[0]], none, sections=real_index.by_ref) == ()


@pytest.mark.slow
@pytest.mark.parametrize("act, section, title", STATEMENT_TITLES)
def test_real_a_title_that_states_a_rule_ships(real_index, act, section, title):
    c = part(real_index, act, section, 0)
    v = verify(Draft("q", f"{title}. [1]", passages=given(c)), equivalents=none, sections=real_index.by_ref)
    assert v.checks[0].status == "supported" and "withheld" not in v.text, v.text


def test_a_label_is_dropped_but_a_statement_beginning_like_a_title_is_checked():
    """Guard: "Explanation." is dropped; a sentence that is the title plus words is a statement and is checked (and
    removed when false); a heading beside a verified statement does not withhold the answer."""
    text = ("Facts admitted need not be proved.\n53. No fact need be proved in any proceeding which the parties "
            "thereto or their agents agree to admit at the hearing.\nExplanation.—A test label.")
    c = statute("BSA", "53", "Facts admitted need not be proved.", text)
    ps = tuple(hits(c))
    assert is_heading("Explanation.", ps) and not is_heading("Facts admitted need not be proved at trial", ps)
    v = verify(Draft("q", "Explanation. [1] No fact need be proved in any proceeding which the parties agree to "
                          "admit at the hearing [1].", passages=ps), equivalents=none)
    assert [c.status for c in v.checks] == ["heading", "supported"] and "withheld" not in v.text
    false = verify(Draft("q", "Facts admitted need not be proved, except for murder punished with death [1].",
                         passages=ps), equivalents=none)
    assert false.checks[0].status == "unsupported"


# ============================================================ 3. windows and prompt: labels, lost text, numbering

# (act, section, the chunk shown, the chunk before it, question or None for whole passages, the wrong label)
MISLABELS = [
    # 479(1)'s third proviso (detention never beyond the maximum term) and Explanation, then (2): labelled 479(2)
    pytest.param("BNSS", "479", 1, 0, None, "2", id="BNSS-479(1)-proviso-as-(2)"),
    # 480(1)'s proviso (no bail without hearing the Public Prosecutor for death/life/7 years), then (2)
    pytest.param("BNSS", "480", 2, 1, None, "2", id="BNSS-480(1)-proviso-as-(2)"),
    # 189(1)(e) and 189(1)'s Explanation, then (2): labelled 189(2)
    pytest.param("BNS", "189", 1, 0, "Unlawful assembly.", "2", id="BNS-189(1)(e)-as-(2)"),
    # 8(5)(c) "one year in any other case", then (6): labelled 8(6)
    pytest.param("BNS", "8", 3, 2, None, "6", id="BNS-8(5)(c)-as-(6)"),
]


@pytest.mark.slow
@pytest.mark.parametrize("act, section, k, prev, question, wrong", MISLABELS)
def test_real_the_mislabelled_passages_show_text_of_the_sub_section_before(real_index, act, section, k, prev,
                                                                          question, wrong):
    """Precondition of the xfail below: what the passage shows (its repeated lead cut) begins with text printed
    before its marker ``(wrong)``: a proviso, Explanation or clause of the sub-section before."""
    c, p = part(real_index, act, section, k), part(real_index, act, section, prev)
    shown = shown_texts([c, p], question)[0]
    marker = re.search(rf"(?m)^\({wrong}\)\s", shown)
    assert marker and shown[:marker.start()].strip(), shown[:200]
    assert shown[:marker.start()].strip()[:60] in c.text


@pytest.mark.slow
@pytest.mark.parametrize("act, section, k, prev, question, wrong", MISLABELS)
def test_real_a_passage_showing_two_sub_sections_gets_no_single_label(real_index, act, section, k, prev, question,
                                                                    wrong):
    c, p = part(real_index, act, section, k), part(real_index, act, section, prev)
    shown = shown_texts([c, p], question)[0]
    assert shown_sub(c, shown) != wrong, passage_label(c, shown_sub(c, shown))


@pytest.mark.slow
def test_real_the_prompt_no_longer_labels_479_1_s_proviso_as_2(real_index):
    """Guard (the review's end-to-end case, fixed in ``shown_sub``): BNSS 479's second chunk, its lead cut, shows
    479(1)'s third proviso and (2): it is labelled "BNSS 479", so rule 7 gives the model no "(2)" to copy."""
    c, p = part(real_index, "BNSS", "479", 1), part(real_index, "BNSS", "479", 0)
    build = build_prompt("How long can an undertrial be detained?", [Hit(c, 1.0, "rrf", 1), Hit(p, 0.9, "rrf", 2)],
                         load_settings().prompts_dir, compact=False)
    assert "[1] BNSS 479(2) " not in build.messages[1][1] and "[1] BNSS 479 " in build.messages[1][1]


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason=(
    "check 1 accepts any sub-section the cited chunk prints, whatever part the sentence's words come from: "
    "'section 479(2)' with 479(1)'s proviso's words verifies (a sub-section stated must be the part described)"))
def test_real_a_sub_section_the_words_do_not_describe_is_removed(real_index):
    c, p = part(real_index, "BNSS", "479", 1), part(real_index, "BNSS", "479", 0)
    build = build_prompt("How long can an undertrial be detained?", [Hit(c, 1.0, "rrf", 1), Hit(p, 0.9, "rrf", 2)],
                         load_settings().prompts_dir, compact=False)
    claim = ("Under section 479(2) of the BNSS, no such person shall in any case be detained during the period of "
             "investigation, inquiry or trial for more than the maximum period of imprisonment provided for the said "
             "offence under that law")
    v = verify(Draft("q", f"{claim} [1].", passages=build.passages), equivalents=none, sections=real_index.by_ref)
    assert v.checks[0].status == "unsupported"


@pytest.mark.slow
def test_real_passages_of_one_sub_section_or_none_are_labelled_right(real_index):
    """Guards: BNS 316's last chunk (the tail of (3), then (4) and (5)) shown whole is labelled BNS 316, not
    316(5); shown for a (4)-and-(5) question, neither; a judgment and an IPC section without sub-sections never get
    a sub-section label; BNS 308's chunk that opens in (5) and prints (6) gets none."""
    c6 = part(real_index, "BNS", "316", 6)
    assert shown_sub(c6, c6.text) is None
    t = shown_texts([c6], "criminal breach of trust by a clerk or servant or by a banker or agent punishment")[0]
    assert "(4) Whoever" in t and "(5) Whoever" in t and shown_sub(c6, t) is None
    c308 = part(real_index, "BNS", "308", 3)
    assert shown_sub(c308, c308.text) is None
    for act, section in (("IPC", "420"), ("IPC", "302"), ("IPC", "307")):
        for c in real_index.by_ref(act, section):
            assert shown_sub(c, c.text) is None and passage_label(c, shown_sub(c, c.text)).startswith(f"{act} {section} ")
    j = judgment("caseA", "A v. State", "(1) The appellant was convicted.\n(2) The appeal is dismissed.")
    assert shown_sub(j, j.text) is None


TAIL_109 = ("caused to any person by such act, the offender\nshall be liable either to imprisonment for life, or to such "
            "punishment as is hereinbefore\nmentioned.")
OPEN_109 = ("109. (1) Whoever does any act with such intention or knowledge, and under such circumstances that, if he "
            "by that act caused death, he would be guilty of murder, shall be punished with imprisonment of either "
            "description for a term which may extend to ten years, and shall also be liable to fine; and if hurt is\n"
            + TAIL_109)


def _tail_and_first():
    at = OPEN_109.index(TAIL_109)  # the chunker's overlap, by position in the section (Chunk.span)
    tail = dataclasses.replace(statute("BNS", "109", "Attempt to murder.", TAIL_109), id="BNS-109-1-test", part=1,
                               meta=(("open", "1"),), span=(at, at + len(TAIL_109)))
    first = dataclasses.replace(statute("BNS", "109", "Attempt to murder.", OPEN_109), span=(0, len(OPEN_109)))
    return tail, first, statute("BNS", "304", "Snatching.", BNS_304)


def _words(messages):
    return sum(len(c.split()) for _, c in messages)


def test_a_repeat_whose_showing_passage_is_dropped_for_the_budget_is_shown_or_dropped():
    tail, first, other = _tail_and_first()
    q, pdir = "attempt to commit murder", load_settings().prompts_dir
    whole = build_prompt(q, hits(tail, other, first), pdir)
    assert [h.chunk.id for h in whole.repeats] == [tail.id]  # the rule works when nothing is dropped
    build = build_prompt(q, hits(tail, other, first), pdir, count_tokens=_words, budget=_words(whole.messages) - 5)
    assert [h.chunk.id for h in build.dropped] == [first.id]
    shown_ids = {h.chunk.id for h in build.passages}
    assert all(any(s.chunk.ref.section == r.chunk.ref.section and s.chunk.id in shown_ids for s in build.passages)
               for r in build.repeats)


@pytest.mark.slow
def test_real_a_lead_printed_by_another_sub_section_is_not_cut(real_index):
    c, other = part(real_index, "BNSS", "419", 2), part(real_index, "BNSS", "419", 0)
    assert c.text.startswith("any Court other than a High Court")
    shown = shown_texts([c, other], None)
    assert shown[0].startswith("any Court other than a High Court"), shown[0][:80]


@pytest.mark.slow
def test_real_prompt_numbers_follow_build_passages_with_repeats_and_budget(real_index):
    """Guard: with a repeat left out and passages dropped for the budget, every [n] of the prompt is the n-th of
    ``build.passages``, labelled as that chunk, and ``build.numbers`` is 1..n."""
    c109 = real_index.by_ref("BNS", "109")
    pool = [c109[1], part(real_index, "BNS", "305", 0), c109[0], part(real_index, "BNS", "316", 6),
            part(real_index, "BNS", "318", 4), part(real_index, "IPC", "420", 0)]
    pdir = load_settings().prompts_dir
    for q in ("attempt to commit murder", "criminal breach of trust by a banker", None):
        for budget in (None, 400, 250):
            kw = {} if budget is None else {"count_tokens": _words, "budget": budget}
            build = build_prompt(q or "cheating", [Hit(c, 1.0, "rrf", i) for i, c in enumerate(pool, 1)], pdir,
                                 compact=q is not None, **kw)
            user = build.messages[1][1]
            heads = re.findall(r"(?m)^\[(\d+)\] (.*?) - ", user)
            assert [int(n) for n, _ in heads] == list(range(1, len(build.passages) + 1)) == list(build.numbers)
            for (n, label), h in zip(heads, build.passages):
                assert label.startswith(str(h.chunk.ref)), (n, label, h.chunk.id)
            assert len(build.passages) + len(build.dropped) + len(build.repeats) == len(pool)


# ============================================================ 4. system rule 7 and check 1

W316_5 = ("whoever, being in any manner entrusted with property in his capacity of a public servant or in the way of "
          "his business as a banker, merchant or agent commits criminal breach of trust in respect of that property, "
          "shall be punished with imprisonment for life, or with imprisonment of either description for a term which "
          "may extend to ten years, and shall also be liable to fine")


@pytest.mark.slow
def test_real_rule_7_sub_section_named_as_the_label_verifies_and_a_wrong_one_is_removed(real_index):
    """Guard: BNS 316's last chunk prints (4) (clerk or servant: seven years) and (5) (public servant, banker ...:
    life or ten years). "Under section 316(5) ..." with (5)'s words verifies; "Under section 316(4) ..." with the
    same words and punishment is removed, the answer withheld."""
    c6 = part(real_index, "BNS", "316", 6)
    assert "(4) Whoever" in c6.text and "(5) Whoever" in c6.text
    right = verify(Draft("q", f"Under section 316(5) of the BNS, {W316_5} [1].", passages=given(c6)),
                   sections=real_index.by_ref)
    assert right.checks[0].status == "supported", right.problems
    wrong = verify(Draft("q", f"Under section 316(4) of the BNS, {W316_5} [1].", passages=given(c6)),
                   sections=real_index.by_ref)
    assert wrong.checks[0].status == "unsupported" and "withheld" in wrong.text
    assert [(f.check, f.where) for f in wrong.checks[0].failures] == [("punishment part", "BNS 316(4)")]
    # the label the model is told when the composed head names 316(5): "BNS 316(5)", over (5) alone
    t = shown_texts([c6], "criminal breach of trust by a public servant or banker",
                    focus=(StatuteRef("BNS", "316", ("5",)),))[0]
    assert t.startswith("(5) Whoever") and "(4) Whoever" not in t
    assert passage_label(c6, shown_sub(c6, t)).startswith("BNS 316(5) ")
