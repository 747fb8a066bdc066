"""``legal_rag.verify.verbatim_move`` and ``reattributed``: a sentence naming no section, failing where cited, moves to
another section of the same Act only when one run covers its words there -- never when the run leaves out the words
that carry the law: the offence's name before a punishment clause that many sections print ("Whoever cheats" +
BNS 305's seven-year clause), or the "not" of an Exception ("Culpable homicide is [not] murder if ..."). Never
across Acts, never from or to a judgment, never to one of two sections printing the same clause.

The ``real_`` tests read chunks of the session's real-corpus index (``real_index``, slow)."""

from __future__ import annotations

import pytest

from legal_rag.types import Draft
from legal_rag.verify import check_claim, reattributed, verbatim_move, verify

from tests.generate.fakes import hits, judgment, statute
from tests.real_chunks import given, part
from tests.real_chunks import no_equivalents as none
from tests.statutes import BNS_104, BNS_318_2, BNS_318_4, SEVEN_YEARS_AND_FINE, THREE_YEARS_AND_FINE


EXT7, EXT3 = str(SEVEN_YEARS_AND_FINE), str(THREE_YEARS_AND_FINE)
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
    pytest.param(BNS_318_2.replace("three years", "five years").removeprefix("(2) ").removesuffix("."),
                 ("BNS", "318", 4), ("BNS", "316", 5), id="cheating-5y-to-BNS316(2)"),
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
    """Precondition of the test below (kept separate so that it fails only for the move): each false sentence
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

# BNS 318(4)'s words less its signed-or-sealed clause
CHEAT_318_4 = (BNS_318_4.removeprefix("(4) ").removesuffix(".")
               .replace(", or anything which is signed or sealed, and which is capable of being converted into a "
                        "valuable security", ""))

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
    claim = BNS_104.replace("with death or with imprisonment for life,", "with imprisonment which may extend to "
                            "ten years,").removesuffix(".")
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
    law = statute("BNS", "318", "Cheating.", BNS_318_2)
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
