"""The relevance check (issue 14): which cited provisions answer the question asked, and the body's order."""

from legal_rag.generate.extractive import compose
from legal_rag.generate.relevance import RELATED_HEADING, Anchors, anchors, arrange, blocks
from legal_rag.law.question import QuestionAnalysis, QuestionRef
from legal_rag.types import Draft, HeadLine, StatuteRef as R
from legal_rag.verify import relevant, to_answer, verify

from tests.generate.fakes import BNS_318, IPC_420, JUDGMENT, hits, judgment, statute
from tests.statutes import BNS_85

BNS_111 = ("(4) Any person who is a member of an organised crime syndicate shall be punished with imprisonment for a "
           "term which shall not be less than five years but which may extend to imprisonment for life, and shall "
           "also be liable to fine which shall not be less than five lakh rupees.")
IPC_316 = ("Whoever does any act under such circumstances, that if he thereby caused death he would be guilty of "
           "culpable homicide, and does by such act cause the death of a quick unborn child, shall be punished with "
           "imprisonment of either description for a term which may extend to ten years, and shall also be liable "
           "to fine.")
CRPC_316 = ("Except as provided in sections 306 and 307, no influence, by means of any promise or threat or "
            "otherwise, shall be used to an accused person to induce him to disclose or withhold any matter within "
            "his knowledge.")
BNS_316_1 = ("(1) Whoever, being in any manner entrusted with property, dishonestly misappropriates or converts to his "
             "own use that property, commits criminal breach of trust.\nIllustration\n"
             "(a) A dishonestly appropriates the money of Z entrusted to him.")
BNS_86 = "For the purposes of section 85, \u201ccruelty\u201d means\u2014 (a) any wilful conduct which is likely to drive the woman to commit suicide;"


class Table:
    """Stand-in for the concordance: the BPR&D rows IPC 498A -> BNS 85 + BNS 86 and IPC 420 <-> BNS 318(4)."""

    ROWS = {R("IPC", "498A"): (R("BNS", "85"), R("BNS", "86")), R("BNS", "85"): (R("IPC", "498A"),),
            R("IPC", "420"): (R("BNS", "318", ("4",)),), R("BNS", "318", ("4",)): (R("IPC", "420"),),
            R("BNS", "318"): (R("IPC", "415"), R("IPC", "417"), R("IPC", "420"))}

    def counterparts(self, ref):
        return self.ROWS.get(ref, ())


def qref(ref, text, how="named", successors=(), predecessors=()):
    return QuestionRef(ref, text, (0, len(text)), how, successors, predecessors)


def answered(question, passages, analysis, head, concordance=Table()):
    draft = Draft(question, compose(question, passages), passages=tuple(passages), generator="extractive")
    answer = to_answer(draft, verify(draft, equivalents=lambda r: set()))
    return answer, relevant(answer, head, analysis, concordance)


def test_anchors_are_the_head_its_pair_the_pairs_counterparts_and_the_named_sections():
    head = (HeadLine(R("BNS", "85"), "BNS 85 ...", counterparts=(R("IPC", "498A"),)),)
    a = anchors(QuestionAnalysis("What is cruelty under section 85 BNS?", refs=(qref(R("BNS", "85"), "section 85 BNS"),)),
                head, Table())
    assert a.refs == (R("BNS", "85"), R("IPC", "498A"), R("BNS", "86"))
    assert a.answers(R("BNS", "86", ("a",))) and not a.answers(R("BNS", "80", ("1",))) and not a.answers(None)
    assert anchors(QuestionAnalysis("punishment for murder"), ()).refs == ()
    assert Anchors().answers(R("BNS", "111"))  # nothing to judge against: everything answers


def test_each_head_line_is_followed_by_its_pair_before_the_next_line():
    """Two readings of a bare number (or two sections named): line 1, its official pair, then line 2 and its pair,
    so the quotes follow the lines they support."""
    head = (HeadLine(R("BNS", "115", ("2",)), "Reading 1 ...", counterparts=(R("IPC", "323"),)),
            HeadLine(R("BNS", "323"), "Reading 2 ...", counterparts=(R("IPC", "424"),)))
    assert anchors(QuestionAnalysis("Is 323 cognizable?"), head).refs == (
        R("BNS", "115", ("2",)), R("IPC", "323"), R("BNS", "323"), R("IPC", "424"))


def test_a_bare_number_counts_only_in_the_reading_the_head_chose_and_its_sub_section_is_strict():
    readings = tuple(qref(r, "316(2)", "bare") for r in (R("IPC", "316", ("2",)), R("BNS", "316", ("2",))))
    head = (HeadLine(R("BNS", "316", ("2",)), "BNS 316(2) ...", counterparts=(R("IPC", "406"),)),)
    a = anchors(QuestionAnalysis("Is 316(2) bailable?", refs=readings), head)
    assert a.refs == (R("BNS", "316", ("2",)), R("IPC", "406"))
    assert not a.answers(R("BNS", "316", ("1",))) and a.answers(R("BNS", "316")) and not a.answers(R("IPC", "316"))
    # not written in the question: the head's sub-section does not exclude the rest of its section
    b = anchors(QuestionAnalysis("Is criminal breach of trust bailable?"), head)
    assert b.answers(R("BNS", "316", ("1",)))
    # no head: every reading of the bare number is named
    assert anchors(QuestionAnalysis("Is 316(2) bailable?", refs=readings), ()).refs == tuple(r.ref for r in readings)


def test_same_number_other_acts_and_another_sub_section_are_related_when_316_2_is_asked():
    passages = hits(statute("IPC", "316", "Causing death of quick unborn child.", IPC_316),
                    statute("CrPC", "316", "No influence to be used to induce disclosure.", CRPC_316),
                    statute("BNS", "316", "Criminal breach of trust.", BNS_316_1), stage="lookup")
    readings = (qref(R("BNS", "316", ("2",)), "316(2)", "bare"),)
    head = (HeadLine(R("BNS", "316", ("2",)), "BNS 316(2) ...", counterparts=(R("IPC", "406"),)),)
    before, after = answered("Is 316(2) bailable?", passages, QuestionAnalysis("Is 316(2) bailable?", refs=readings),
                             head)
    assert "\u201c" in before.text and RELATED_HEADING not in before.text
    assert after.text.startswith(RELATED_HEADING)
    assert "\u201c" not in after.text  # related provisions are named, not quoted as the answer
    assert {str(c.ref) for c in after.citations} == {"IPC 316", "CrPC 316", "BNS 316(1)"}
    assert all(c.related and c.support == "supported" for c in after.citations)


def test_the_body_follows_the_head_todays_law_first_and_organised_crime_is_related():
    passages = hits(statute("IPC", "420", "Cheating and dishonestly inducing delivery of property.", IPC_420),
                    statute("BNS", "111", "Organised crime.", BNS_111),
                    statute("BNS", "318", "Cheating.", BNS_318))
    head = (HeadLine(R("BNS", "318", ("4",)), "BNS 318(4) ...", counterparts=(R("IPC", "420"),)),)
    q = "My client was cheated by someone who promised a job. What is the maximum punishment?"
    before, after = answered(q, passages, QuestionAnalysis(q), head)
    assert before.text.splitlines()[0].startswith("IPC 420")
    lines = after.text.splitlines()
    assert lines[0].startswith("BNS 318") and lines[0].endswith("[3]")
    ipc = next(i for i, ln in enumerate(lines) if ln.startswith("IPC 420"))
    assert lines.index(RELATED_HEADING) > ipc and lines[-1].startswith("BNS 111(4) - Organised crime [2]")
    assert "organised crime syndicate" in before.text and "organised crime syndicate" not in after.text
    assert [c.related for c in after.citations if c.ref.section == "111"] == [True]
    assert not any(c.related for c in after.citations if c.ref.section != "111")
    # every sentence still carries its verified support; the quotes quoted as the answer are unchanged
    assert all(c.support == "supported" for c in after.citations)
    kept = {(c.marker, c.sentence) for c in before.citations if c.ref.section != "111"}
    assert kept <= {(c.marker, c.sentence) for c in after.citations}


def test_a_head_at_a_sub_section_the_question_did_not_write_answers_with_its_sections_pairs():
    head = (HeadLine(R("BNS", "318", ("4",)), "BNS 318(4) ...", counterparts=(R("IPC", "420"),)),)
    a = anchors(QuestionAnalysis("punishment for cheating"), head, Table())
    assert a.refs[:2] == (R("BNS", "318", ("4",)), R("IPC", "420")) and a.answers(R("IPC", "415"))
    assert a.firm and not a.strict
    named = (qref(R("BNS", "318", ("4",)), "BNS 318(4)"),)
    b = anchors(QuestionAnalysis("punishment under BNS 318(4)", refs=named), head, Table())
    assert not b.answers(R("IPC", "415")) and not b.answers(R("BNS", "318", ("2",))) and b.answers(R("IPC", "420"))


def test_on_a_suggestion_from_the_facts_related_provisions_keep_their_quotes():
    passages = hits(statute("BNS", "318", "Cheating.", BNS_318), statute("BNS", "111", "Organised crime.", BNS_111),
                    stage="lookup")
    head = (HeadLine(R("BNS", "318", ("4",)), "Suggested from the facts (applied in 5 of the 10 most similar "
                     "judgments; text match 1): BNS 318(4) ...", counterparts=(R("IPC", "420"),)),)
    q = "Someone promised my client a job, took money and vanished. Which sections apply and what is the punishment?"
    marks = anchors(QuestionAnalysis(q), head, Table())
    assert not marks.firm
    before, after = answered(q, passages, QuestionAnalysis(q), head)
    related = after.text[after.text.index(RELATED_HEADING):]
    assert "BNS 111(4) - Organised crime [2]" in related and "organised crime syndicate" in related
    assert "organised crime syndicate" not in after.text[:after.text.index(RELATED_HEADING)]
    assert {c.related for c in after.citations if c.ref.section == "111"} == {True}


def test_nothing_to_judge_against_leaves_the_answer_as_it_was():
    passages = hits(statute("BNS", "111", "Organised crime.", BNS_111), judgment("c1", "A v. B", JUDGMENT))
    before, after = answered("punishment for organised crime", passages, QuestionAnalysis("x"), ())
    assert after is before


def test_a_models_prose_keeps_its_related_lines_verbatim_under_the_related_part():
    passages = hits(statute("BNS", "318", "Cheating.", BNS_318), statute("BNS", "111", "Organised crime.", BNS_111),
                    judgment("c1", "A v. B", JUDGMENT))
    text = ("A member of an organised crime syndicate faces at least five years [2].\n"
            "The High Court held that cheating was not made out [3].\n"
            "Cheating is punished with up to seven years [1].")
    marks = Anchors((R("BNS", "318", ("4",)),))
    got = arrange(text, passages, marks, extractive=False)
    assert got.text.splitlines() == [text.splitlines()[1], text.splitlines()[2], RELATED_HEADING,
                                     text.splitlines()[0]]  # the prose keeps its order
    assert got.related == (R("BNS", "111"),) and got.text[got.related_from:].startswith(RELATED_HEADING)
    assert [b.refs for b in blocks(text, passages, False)] == [(R("BNS", "111"),), (), (R("BNS", "318"),)]


def test_exports_say_related():
    from legal_rag.export import citation_records
    from legal_rag.export.formats import doc_from_json, to_json, to_markdown

    passages = hits(statute("BNS", "318", "Cheating.", BNS_318), statute("BNS", "111", "Organised crime.", BNS_111),
                    stage="lookup")
    head = (HeadLine(R("BNS", "318", ("4",)), "BNS 318(4) ...", counterparts=(R("IPC", "420"),)),)
    q = "What is the maximum punishment for cheating?"
    _, after = answered(q, passages, QuestionAnalysis(q), head)
    recs = {r.marker: r for r in citation_records(after)}
    assert recs[2].related and not recs[1].related
    from legal_rag.export import build_doc

    doc = build_doc(after)
    assert "related provision, not the answer to the question" in to_markdown(doc)
    assert [r.related for r in doc_from_json(to_json(doc)).records] == [r.related for r in doc.records]
