"""law.read: a question read once into a typed Question, its notices and its route (the official tables, no index)."""

from __future__ import annotations

from typing import get_args

import pytest

from legal_rag.errors import InputTooLongError, LegalRagError
from legal_rag.law import Schedule, date_notice, read_question
from legal_rag.law.followup import NO_PREVIOUS, Turn
from legal_rag.law.read import Route
from legal_rag.types import StatuteRef


@pytest.fixture
def read(conc):
    def go(text, **kw):
        return read_question(text, concordance=conc, schedule=Schedule(()), limit=kw.pop("limit", 2000), **kw)

    return go


def test_a_statute_question_is_read_once_with_no_notice(read):
    q = read("What is the punishment for cheating under Section 420 IPC?")
    assert q.route == "statute" and q.notices == () and q.task is None
    assert q.text == q.asked == q.analysis.question
    assert StatuteRef("IPC", "420") in {r.ref for r in q.analysis.refs}


def test_the_question_is_put_in_normal_form_and_bounded(read):
    assert read("What is IPC \u096a\u0968\u0966?").asked == "What is IPC 420?"  # Devanagari digits
    with pytest.raises(InputTooLongError):
        read("x" * 30, limit=20)
    with pytest.raises(LegalRagError, match="empty question"):
        read("   ")


def test_an_impossible_date_is_a_notice_never_a_date(read):
    q = read("On 31.02.2024 my client was booked for theft. Which section applies?")
    assert [n.kind for n in q.notices] == ["date"]
    assert q.notices[0].text == date_notice(["31.02.2024"])
    assert q.analysis.offence_date is None


def test_a_question_in_a_script_we_do_not_read_is_refused_and_a_mixed_one_is_narrowed(read):
    refused = read("धारा क्या है सजा बताइए कृपया")
    assert refused.route == "language" and [n.kind for n in refused.notices] == ["language"]
    mixed = read("IPC 420 की सजा क्या है?")
    assert mixed.route == "statute" and [n.kind for n in mixed.notices] == ["language"]
    assert mixed.text == "IPC 420" and mixed.asked != mixed.text


def test_a_follow_up_is_read_as_a_question_about_the_previous_provision(read):
    q = read("and what about the punishment?", previous=Turn("What does BNS 318(4) say?",
                                                             (StatuteRef("BNS", "318", ("4",)),)))
    assert [n.kind for n in q.notices] == ["follow-up"] and "BNS 318(4)" in q.notices[0].text
    assert q.text.endswith("(BNS 318(4))") and q.route == "statute"
    assert q.assumed == (StatuteRef("BNS", "318", ("4",)),)
    alone = read("and what about the punishment?")
    assert [n.kind for n in alone.notices] == ["follow-up"] and alone.notices[0].text == NO_PREVIOUS
    assert alone.text == alone.asked and alone.assumed == ()
    own = read("What does BNS 318(4) say?")
    assert own.notices == () and own.assumed == ()


def test_judgment_routes(read):
    held = read("Which judgment held that a dying declaration can be the sole basis of conviction?")
    assert held.route == "judgment" and held.task.kind == "holding"
    cited = read("What did the Supreme Court hold in (2019) 5 SCC 9999?",
                 citation_finder=lambda text: ("(2019) 5 SCC 9999",) if "9999" in text else ())
    assert cited.route == "judgment" and cited.task.kind == "citation"
    beside = read("Is section 302 IPC discussed in (2019) 5 SCC 9999?",
                  citation_finder=lambda text: ("(2019) 5 SCC 9999",) if "9999" in text else ())
    assert beside.route == "cited statute" and beside.task.kind == "citation"


def test_every_route_has_one_answerer():
    from legal_rag.answer import ANSWERERS

    assert set(ANSWERERS) == set(get_args(Route))
