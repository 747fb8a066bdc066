"""Indian Kanoon texts (legal_rag.ingest.indiankanoon), the bench (legal_rag.ingest.bench), the High Courts'
neutral citations and case numbers (legal_rag.ingest.citations_meta), on text written in the sources' layouts."""

from __future__ import annotations

import io
import tarfile

import pytest

from legal_rag.config import Settings
from legal_rag.ingest.bench import read_bench
from legal_rag.ingest.citations_meta import case_number_key, find_case_numbers, find_citations
from legal_rag.ingest.indiankanoon import IK_COURTS, doc_id_of, join_link_lines, read_archive, read_head
from legal_rag.ingest.judgments import pages_from_text, parse_judgment
from legal_rag.ingest.many import DUPLICATE, NOT_A_COURT, Seen, read_indiankanoon
from legal_rag.types import StatuteRef

IK = ("\n\n\n\n[Cites \n20\n, Cited by \n0\n]\n\n\n\n\nAllahabad High Court\n\n\n"
      "Danish And Another vs State Of U.P. on 4 October, 2023\n\n\nAuthor: \nRajeev Misra\n\n\nBench: \nRajeev Misra\n"
      "\n\n\n\n\n\nHIGH COURT OF JUDICATURE AT ALLAHABAD\n \n \n\n?Neutral Citation No. - 2023:AHC:190732\n \n"
      "Court No. - 65\n \n\n \nCase :- CRIMINAL MISC. BAIL APPLICATION No. - 39983 of 2023\n \n\n \n"
      "Applicant :- Danish And Another\n \nOpposite Party :- State of U.P.\n \nHon'ble Rajeev Misra,J.\n \n\n"
      "This application for bail has been filed by applicants seeking their enlargement on bail in Case Crime "
      "No.191 of 2023, under \nSections 498-A\n, \n304-B\n IPC and \nSection 3\n/\n4\n Dowry Prohibition Act, "
      "police station Sikandrabad.\n\n\n\nPerused the record.\n\n\n\nThe application is allowed.\n\n\n\n"
      "Order Date :- 4.10.2023.\n\n\n\nRks.\n")
PRINTED = ("[Cites 14, Cited by 0]\n\nDelhi High Court\n\nAnshul vs The State Of Nct Of Delhi Through Sho Ps ... on "
           "13 May, 2025\n\nBench: Sanjeev Narula\n\n"
           "                          *       IN THE HIGH COURT OF DELHI AT NEW DELHI\n"
           "                          +       BAIL APPLN. 482/2025\n"
           "                                  ANSHUL                                   .....Petitioner\n"
           "                                                      versus\n"
           "                                  THE STATE OF NCT OF DELHI THROUGH SHO PS GEETA\n"
           "                                  COLONY                                   .....Respondent\n"
           "                                                      JUDGMENT\n\n"
           "                          1.      The Applicant seeks regular bail under Section 483 of\n"
           "                          the Bharatiya Nagarik Suraksha Sanhita, 2023 (formerly \nSection 439\n of the\n"
           "                          Code of Criminal Procedure, 1973), in FIR No. 166/2024\n"
           "                          under \nSections 498A\n, \n304B\n, \n34\n of the Indian Penal Code.\n")


def test_link_lines_are_joined_back_into_their_sentence():
    assert join_link_lines("under \nSections 498-A\n, \n304-B\n IPC") == "under Sections 498-A, 304-B IPC"
    assert join_link_lines("Section 3\n/\n4\n Dowry") == "Section 3/4 Dowry"
    assert join_link_lines("(\nState Vs. Vipin\n)") == "(State Vs. Vipin)"
    assert join_link_lines("the learned\ncounsel") == "the learned counsel"  # a wrapped line: one space
    # a numbered paragraph after a sentence end starts its own line; blocks stay apart
    assert join_link_lines("ends here.\n2. Next one\n\nnew block") == "ends here.\n2. Next one\n\nnew block"
    # the court's print kept line for line: indented lines start lines, the link lines rejoin theirs
    printed = join_link_lines("        first line (formerly \nSection 439\n of the\n        Code, 1973)")
    assert printed == "        first line (formerly Section 439 of the\n        Code, 1973)"


def test_the_head():
    head = read_head(join_link_lines(IK))
    assert (head.court, head.title, head.date, head.bench) == (
        "High Court of Judicature at Allahabad", "Danish And Another v. State Of U.P.", "2023-10-04", ("Rajeev Misra",))
    assert head.lines == 5
    assert read_head("Just a text\nwith no head") == read_head("")
    cites = read_head("[Cites 1, Cited by 2]\nBombay High Court\nA vs B on 24 March, 1994\n"
                      "Equivalent citations: AIR 1995 SC 246, (1994) 3 SCC 5\nBench: A. B. Savant, C. D. Rao").citations
    assert cites == ("AIR 1995 SC 246", "(1994) 3 SCC 5")
    assert IK_COURTS["Delhi High Court - Orders"] == IK_COURTS["Delhi High Court"] == "High Court of Delhi"
    assert doc_id_of("legal_ai_toolkit/x/CRIMINAL_BAIL_IPC498A_1005706.txt") == ("CRIMINAL_BAIL_IPC498A", "1005706")
    assert doc_id_of("README.md") == ("", "")


def test_an_indian_kanoon_order_through_the_judgment_path():
    pages, _ = pages_from_text("ik.tar.gz", join_link_lines(IK))
    j, paras, problems = parse_judgment(pages, "ik.tar.gz", "indiankanoon", case="IK-101253596")
    assert (j.case_id, j.court, j.date, j.decision) == ("IK-101253596", "High Court of Judicature at Allahabad",
                                                        "2023-10-04", "order")
    assert j.title == "Danish And Another v. State Of U.P." and j.bench == ("Rajeev Misra",)
    assert j.citations == ("2023:AHC:190732",)  # the court's own neutral citation, under Indian Kanoon's head
    assert j.case_numbers == ("CRIMINAL MISC. BAIL APPLICATION No. - 39983 of 2023",)
    cited = {r for p in paras for r in p.cites}
    assert {StatuteRef("IPC", "498A"), StatuteRef("IPC", "304B")} <= cited
    assert not any("[Cites" in p.text for p in paras)  # Indian Kanoon's count of citations is furniture


def test_a_title_indian_kanoon_cut_is_taken_whole_from_the_court_s_print():
    pages, _ = pages_from_text("ik.tar.gz", join_link_lines(PRINTED))
    j, paras, _ = parse_judgment(pages, "ik.tar.gz", case="IK-51285101")  # layout detected from the head
    assert j.title == "Anshul v. The State of NCT of Delhi Through Sho Ps Geeta Colony"
    assert (j.court, j.date, j.decision, j.case_numbers) == ("High Court of Delhi", "2025-05-13", "judgment",
                                                             ("BAIL APPLN. 482/2025",))
    cited = {r for p in paras for r in p.cites}
    assert {StatuteRef("BNSS", "483"), StatuteRef("CrPC", "439"), StatuteRef("IPC", "498A")} <= cited


def _tar(tmp_path, members: dict[str, str]):
    path = tmp_path / "ik.tar.gz"
    with tarfile.open(path, "w:gz") as tf:
        for name, text in members.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return path


def test_the_archive_reader_skips_duplicates_and_what_is_no_court_s(tmp_path):
    report = "[Cites 0, Cited by 3]\n\nLaw Commission Report\n\nReport No. 243 on Section 498A IPC\n\nSection 498A IPC."
    path = _tar(tmp_path, {"d/CRIMINAL_101253596.txt": IK, "d/CRIMINAL_BAIL_IPC498A_101253596.txt": IK,
                           "d/CRIMINAL_BAIL_IPC304B_16856996.txt": report, "d/notes.md": "not a member"})
    assert [d.doc_id for d in read_archive(path)] == ["101253596", "101253596", "16856996"]
    got = read_indiankanoon(path, path.name, {}, Settings(corpus_path=tmp_path), Seen())
    assert got.read == 3 and [j.case_id for j in got.judgments] == ["IK-101253596"]
    assert got.judgments[0].citations[-1] == "indiankanoon.org/doc/101253596"
    assert got.judgments[0].within == "d/CRIMINAL_101253596.txt"
    reasons = dict(got.skipped)
    assert sum(n for r, n in reasons.items() if r.startswith(DUPLICATE)) == 1
    assert sum(n for r, n in reasons.items() if r.startswith(NOT_A_COURT)) == 1


def test_the_archive_reader_skips_a_judgment_the_corpus_holds(tmp_path):
    path = _tar(tmp_path, {"d/CRIMINAL_101253596.txt": IK})
    seen = Seen(texts={"C545": join_link_lines(IK)})
    hints = {"CRIMINAL_101253596.txt": {"aila_casedoc_overlap": "C545.txt:0.85"}}
    got = read_indiankanoon(path, path.name, hints, Settings(corpus_path=tmp_path), seen)
    assert got.judgments == () and got.skipped == (("already in the corpus: the same judgment as one read before "
                                                    "(C545.txt)", 1),)
    # a hint the text does not bear out is not followed
    seen = Seen(texts={"C545": "an unrelated judgment about a land dispute " * 20})
    assert len(read_indiankanoon(path, path.name, hints, Settings(corpus_path=tmp_path), seen).judgments) == 1
    # nor is one the corpus cannot check (the named judgment is not in it)
    assert len(read_indiankanoon(path, path.name, hints, Settings(corpus_path=tmp_path), Seen()).judgments) == 1


@pytest.mark.parametrize("head, tail, bench", [
    ("CORAM : HON'BLE MR. JUSTICE PRASHANT KUMAR MISHRA\n HON'BLE MR. JUSTICE N.V. ANJARIA\nUPON hearing", "",
     ("PRASHANT KUMAR MISHRA", "N.V. ANJARIA")),
    ("CORAM :  HON'BLE THE CHIEF JUSTICE\n HON'BLE MRS. JUSTICE B.V. NAGARATHNA", "",
     ("THE CHIEF JUSTICE", "B.V. NAGARATHNA")),
    ("08 July 2024\n[Abhay S. Oka* and Ujjal Bhuyan, JJ.]\nIssue for Consideration", "", ("Abhay S. Oka", "Ujjal Bhuyan")),
    ("Hon'ble Rajeev Misra,J.\n", "", ("Rajeev Misra",)),
    ("", "25. The appeal is allowed.\n........................J.\n[SANJAY KUMAR]\n........................J.\n"
         "[ALOK ARADHE]\nNEW DELHI;", ("SANJAY KUMAR", "ALOK ARADHE")),
    ("", "..........................CJI.\n(SURYA KANT)\n............................J.\n(JOYMALYA BAGCHI)",
     ("SURYA KANT", "JOYMALYA BAGCHI")),
    ("", "..................., J.\n[K. VINOD CHANDRAN]\n..................., J.\n[ N.V. ANJARIA ]\nNEW DELHI;",
     ("K. VINOD CHANDRAN", "N.V. ANJARIA")),
    ("[DR. DHANANJAYA Y CHANDRACHUD AND INDIRA BANERJEE, JJ.]", "", ("DR. DHANANJAYA Y CHANDRACHUD", "INDIRA BANERJEE")),
    ("[JAGDISH SINGH KHEHAR, CJI, S. A. BOBDE and R. K. AGRAWAL, JJ.]", "",
     ("JAGDISH SINGH KHEHAR", "S. A. BOBDE", "R. K. AGRAWAL")),
    ("no judges named here", "nor here", ()),
])
def test_the_bench(head, tail, bench):
    assert read_bench(head, tail) == bench


def test_high_court_neutral_citations_indian_kanoon_addresses_and_case_numbers():
    assert find_citations("Neutral Citation No. - 2023:AHC:190732; 2023:AHC-LKO:9844 and 2025:DHC:3771-DB") == (
        "2023:AHC:190732", "2023:AHC-LKO:9844", "2025:DHC:3771-DB")
    assert find_citations("see https://indiankanoon.org/doc/101253596/ at 10:30:45") == ("indiankanoon.org/doc/101253596",)
    assert find_case_numbers("(@ S.L.P. (Crl.) No. 15478 of 2025)") == ("S.L.P. (Crl.) No. 15478 of 2025",)
    assert case_number_key("CRIMINAL MISC. BAIL APPLICATION No. - 39983 of 2023") == (
        "criminalmiscbailapplication", "39983", "2023")
    assert case_number_key("TRANSFER PETITION(S)(CRIMINAL) NO(S). 943/2025") == ("transfer petition", "943", "2025")
    assert case_number_key("TRANSFER PETITION (CRIMINAL) NO….. OF 2026\n(@Diary No.17806/2024)") == (
        "transfer petition", "17806", "2024")
    assert case_number_key("PETITION FOR SPECIAL LEAVE TO APPEAL (CRL.) NO.6836/2026") == case_number_key(
        "Petition(s) for Special Leave to Appeal (Crl.) No(s).6836/2026") == ("slp", "6836", "2026")
    assert case_number_key("Contempt Petition (Civil) No. 5 of 2026") == ("contempt petition", "5", "2026")
