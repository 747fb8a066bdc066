from legal_rag.cite import cite, parse_marker, remove_bad_markers, strip_markers
from legal_rag.types import StatuteRef

from tests.generate.fakes import JUDGMENT, cheating_hits, hits, judgment
from tests.statutes import BNS_318_4


def test_markers_resolve_to_the_passages_given():
    hs = cheating_hits()
    c = cite("Cheating is defined in BNS 318 [1]. Murder is punished with death [2][3].", hs)
    assert [s.markers for s in c.sentences] == [(1,), (2, 3)]
    assert [(x.marker, x.chunk_id, x.source, x.pages) for x in c.citations] == [
        (1, "BNS-318-0-test", "BNS_test.pdf", (87, 88)), (2, "BNS-103-0-test", "BNS_test.pdf", (31, 31)),
        (3, "IPC-420-0-test", "IPC_test.pdf", (77, 77))]
    assert all(x.support == "unchecked" for x in c.citations) and c.problems == ()
    assert c.citations[0].sentence == "Cheating is defined in BNS 318."


def test_a_marker_to_a_passage_not_given_is_a_problem_never_a_citation():
    hs = cheating_hits()
    c = cite("Cheating is punished [1]. It is also a tort [7]. See [0].", hs)
    assert [x.marker for x in c.citations] == [1]
    assert len(c.problems) == 2 and "[7]" in c.problems[0] and "(1..3)" in c.problems[0]
    assert c.sentences[1].markers == () and c.sentences[1].bad_markers == (7,)
    assert remove_bad_markers("A [1, 7]. B [9].", hs) == "A [1]. B ."


def test_lists_and_ranges():
    assert parse_marker("1, 3-5") == [1, 3, 4, 5]
    c = cite("Both codes punish cheating [1-3].", cheating_hits())
    assert [x.marker for x in c.citations] == [1, 2, 3]
    assert strip_markers("Cheating [1, 2].") == "Cheating."


def test_quote_and_sub_section_precision():
    hs = cheating_hits()
    c = cite(f"\u201c{BNS_318_4.upto('the person deceived')}\u201d [1]", hs)
    assert c.citations[0].ref == StatuteRef("BNS", "318", ("4",))
    assert c.citations[0].quote.startswith("(4) Whoever cheats")
    c = cite("Under BNS 318(2) cheating carries up to three years [1].", hs)
    assert c.citations[0].ref == StatuteRef("BNS", "318", ("2",))
    c = cite("Cheating means deceiving a person to deliver property [1].", hs)
    assert c.citations[0].ref == StatuteRef("BNS", "318") and "deceiving any person" in c.citations[0].quote
    c = cite("Under section 318(2) cheating carries up to three years [1].", hs)  # no Act named: the passage's
    assert c.citations[0].ref == StatuteRef("BNS", "318", ("2",))


def test_sub_section_of_another_act_does_not_refine():
    """The old local pattern took any "318(2)" in the sentence; the law grammar reads IPC 318(2), not BNS 318(2)."""
    c = cite("Under IPC 318(2) cheating carries up to three years [1].", cheating_hits())
    assert c.citations[0].ref == StatuteRef("BNS", "318")


def test_judgment_citation_has_no_statute_ref():
    hs = hits(judgment("sc-1", "A v. State", JUDGMENT))
    c = cite("The High Court held that cheating was not made out [1].", hs)
    assert c.citations[0].ref is None and c.citations[0].pages == (3, 4)
    assert "ingredients of cheating" in c.citations[0].quote


def test_reading_order_numbers_the_cited_passages_as_first_cited_then_the_rest():
    from legal_rag.cite import reading_order
    from legal_rag.text import renumber

    four = [*cheating_hits(), *hits(judgment("C1", "A v. B", "The appeal is dismissed."))]
    numbers = reading_order("Murder [3]. Cheating [1, 3]. See [2020] 11 S.C.R. 1 and [9].", four)
    assert numbers == {3: 1, 1: 2, 2: 3, 4: 4}
    assert renumber("Murder [3]. Cheating [1, 3]. See [2020] 11 S.C.R. 1.", numbers) == \
        "Murder [1]. Cheating [2, 1]. See [2020] 11 S.C.R. 1."
    assert reading_order("No marker at all.", four) == {1: 1, 2: 2, 3: 3, 4: 4}
    # a citation whose sentence the text no longer shows comes after the text's, before the uncited passages
    assert reading_order("Cheating [2].", four, cited=[2, 4]) == {2: 1, 4: 2, 1: 3, 3: 4}
    assert renumber("A [1]. B [3]. C [2, 3].", {1: 1, 3: 2}, {2}, "[x]") == "A [1]. B [2]. C [2][x]."
