"""The court and years a judgment question asks for, and the court a judgment's header names
(legal_rag.law.courts)."""

import pytest

from legal_rag.law.courts import COURTS, court_named, read_constraint, same_court


@pytest.mark.parametrize("q, court, lo, hi", [
    ("any High Court decisions under BNSS 482 in 2025?", "High Court", 2025, 2025),
    ("a 2025 High Court bail order under BNSS 480", "High Court", 2025, 2025),
    ("Which BNS 103 judgments did the Supreme Court give in 2026?", "Supreme Court of India", 2026, 2026),
    ("Delhi High Court judgments since 2024 on BNSS 483", "Delhi High Court", 2024, None),
    ("judgments between 2023 and 2025 under BNS 103", None, 2023, 2025),
    ("judgments from 2023 to 2025 on IPC 420", None, 2023, 2025),
    ("decisions of the P&H HC in 2024-2025", "Punjab and Haryana High Court", 2024, 2025),
    ("judgments before 2024 on IPC 420", None, None, 2023),
    ("cases after 2023 until 2025 on BNS 318", None, 2024, 2025),
    ("SC rulings on BNSS 480 from 2024 onwards", "Supreme Court of India", 2024, None),
    ("orders of the Bombay HC citing BNS 103", "Bombay High Court", None, None),
    ("What did the Supreme Court hold on the defence of insanity?", "Supreme Court of India", None, None),
])
def test_court_and_years_read(q, court, lo, hi):
    c = read_constraint(q)
    assert (c.court, c.year_from, c.year_to) == (court, lo, hi)
    assert bool(c) and c.said and all(s in q for s in c.said)


@pytest.mark.parametrize("q", [
    "cases on section 103 of the Bharatiya Nyaya Sanhita, 2023",      # an Act's year
    "What did [2020] 7 SCR 150 decide?",                               # a citation's year
    "What did 2024 INSC 363 and AIR 1980 SC 1789 decide?",            # neutral and AIR citations, "SC" in one
    "judgments in Crl. A. No. 123 of 2024",                            # a case number's year
    "the FIR 45/2024 under BNS 318",                                   # an FIR number's year
    "judgments about an offence of 5 March 2025",                      # a date
    "SC/ST Act cases",                                                  # not the Supreme Court
    "orders of the Supreme Court of Narnia",                           # no court the table holds
    "Which judgment held that the High Court cannot grant bail?",      # the court held about, not the one deciding
])
def test_what_is_no_court_or_year_of_a_judgment(q):
    c = read_constraint(q)
    assert not c and c.said == ()


def test_two_courts_constrain_nothing_and_say_so():
    c = read_constraint("judgments of the Supreme Court or the Delhi High Court on BNS 103")
    assert c.court is None and "more than one court" in c.note


def test_words_read_are_kept_and_can_be_taken_out():
    q = "any High Court decisions under BNSS 482 in 2025?"
    c = read_constraint(q)
    assert c.said == ("High Court", "in 2025") and c.strip(q) == "any decisions under BNSS 482 ?"
    assert c.describe() == "of a High Court, decided in 2025"
    assert read_constraint("orders citing BNS 103").orders and not read_constraint("judgments citing BNS 103").orders


@pytest.mark.parametrize("header, name", [
    ("Supreme Court of India", "Supreme Court of India"),
    ("High Court of Delhi", "Delhi High Court"),
    ("Delhi High Court - Orders", "Delhi High Court"),
    ("Calcutta High Court (Appellete Side)", "Calcutta High Court"),
    ("Rajasthan High Court - Jodhpur", "Rajasthan High Court"),
    ("Punjab-Haryana High Court", "Punjab and Haryana High Court"),
    ("Chattisgarh High Court", "Chhattisgarh High Court"),
    ("High Court of Judicature at Allahabad", "Allahabad High Court"),
    ("Delhi District Court", "District Court"),
])
def test_court_named_in_a_header(header, name):
    assert court_named(header).name == name


def test_same_court():
    assert same_court("Delhi High Court", "High Court of Delhi")
    assert same_court("High Court", "Allahabad High Court") and not same_court("High Court", "Supreme Court of India")
    assert not same_court("Supreme Court of India", "Delhi High Court - Orders")
    assert not same_court("Delhi High Court", "Delhi District Court")
    assert same_court("Narnia Court", "narnia court.") and not same_court("Narnia Court", "Status:")
    assert not same_court("Delhi District Court", "Bangalore District Court")  # one court, not its level
    assert same_court("district courts", "Bangalore District Court") and same_court("HC", "High Court of Delhi")
    assert court_named("Status:") is None


def test_the_table_names_every_high_court_once():
    names = [c.name for c in COURTS]
    assert len(names) == len(set(names))
    assert sum(c.level == "high" and not c.any_of_level for c in COURTS) == 25  # Article 214: 25 High Courts
