import re

from legal_rag.config import load_settings
from legal_rag.generate import generate
from legal_rag.generate.extractive import compose
from legal_rag.verify import verify

from .fakes import BNS_103, BNS_304, BNS_318, IPC_420, JUDGMENT, cheating_hits, hits, judgment, statute

LINE = re.compile(r"^\u201c(?P<q>.+)\u201d \[(?P<n>\d+)\]$")


def test_every_line_is_a_heading_or_a_verbatim_quote_with_its_marker():
    hs = cheating_hits()
    text = compose("What is the punishment for cheating?", hs)
    quotes = 0
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            quotes += 1
            source = hs[int(m.group("n")) - 1].chunk.text
            assert all(f.strip() in source for f in m.group("q").split("\u2026"))
        else:
            assert re.fullmatch(r"(BNS|IPC) \d+(\(\w+\))* - .+ \[\d\]", line), line
    assert quotes >= 2


def test_punishment_question_quotes_the_punishment_sub_section():
    text = compose("What is the punishment for cheating?", cheating_hits()[:1])
    # the heading names the sub-section the first quote is taken from (its marker is printed in the passage)
    assert "seven years" in text and text.splitlines()[0].startswith("BNS 318(")
    assert "BNS 318(4) - Cheating [1]" in text.splitlines()


def test_grouped_by_section_in_retrieval_order_and_deterministic():
    part2 = statute("BNS", "318", "Cheating.", "(3) Whoever cheats with the knowledge that he is likely to "
                    "cause wrongful loss shall be punished with imprisonment which may extend to five years.")
    part2 = part2.__class__(**{**part2.__dict__, "id": "BNS-318-1-test", "part": 1, "parts": 2})
    hs = hits(statute("BNS", "318", "Cheating.", BNS_318), statute("IPC", "420", "Cheating.", IPC_420), part2)
    q = "Who cheats and what punishment for cheating?"
    a = compose(q, hs)
    assert a == compose(q, hs)
    heads = [line for line in a.splitlines() if not line.startswith("\u201c")]
    # one heading per provision quoted; part 2 of BNS 318 (sub-section (3)) joins its section, before IPC 420
    assert [h.split(" - ")[0] for h in heads][-1] == "IPC 420" and heads[-1].endswith("[2]")
    assert all(h.startswith("BNS 318(") for h in heads[:-1]) and "BNS 318(3) - Cheating [3]" in heads
    bns_block = a.split("IPC 420")[0]
    assert "[3]" in bns_block


def test_judgment_passages_get_the_case_heading():
    hs = hits(judgment("sc-1", "A v. State", JUDGMENT, meta=(("court", "Supreme Court"), ("date", "2019-02-01"))))
    text = compose("Was cheating made out without dishonest inducement?", hs)
    assert text.splitlines()[0] == "A v. State (Supreme Court, 2019-02-01) [1]"
    assert "dishonest inducement" in text


def test_long_units_are_cut_to_their_best_clauses_and_still_verify():
    long = ("(1) Whoever, " + ", ".join(f"being a person of class {i} in the district" for i in range(30))
            + ", commits snatching, shall be punished with imprisonment for a term which may extend to three "
              "years, and shall also be liable to fine.")
    hs = hits(statute("BNS", "304", "Snatching.", long))
    d = generate("What is the punishment for snatching?", hs, load_settings())
    quote = d.text.splitlines()[1]
    assert "\u2026" in quote and "three years" in quote and len(quote.split()) <= 80
    v = verify(d, equivalents=lambda r: set())
    assert v.supported_share == 1.0 and not v.removed


def test_extractive_draft_is_fully_supported_by_verify():
    s = load_settings()
    for q in ("What is the punishment for murder?", "What is snatching?", "punishment for cheating"):
        hs = hits(statute("BNS", "103", "Punishment for murder.", BNS_103),
                  statute("BNS", "304", "Snatching.", BNS_304), statute("BNS", "318", "Cheating.", BNS_318))
        streamed = []
        d = generate(q, hs, s, on_token=streamed.append)
        assert "".join(streamed).strip() == d.text
        v = verify(d, equivalents=lambda r: set())
        assert v.supported_share == 1.0 and v.text == d.text, (q, v.problems)


def test_an_illustration_is_quoted_only_after_its_sections_operative_words():
    from legal_rag.types import Chunk

    text = ("307. Whoever commits theft, having made preparation for causing death to any person, shall be punished "
            "with rigorous imprisonment for a term which may extend to ten years.\nIllustration.\nA commits theft "
            "while he carries a loaded pistol under his garment. A has committed the offence defined in this section.")
    sec = statute("BNS", "307", "Theft after preparation made for causing death.", text)
    q = "A man carried a pistol under his garment. Which offence?"
    quotes = [line for line in compose(q, hits(sec)).splitlines() if line.startswith("\u201c")]
    assert quotes[0].startswith("\u201cWhoever commits theft") and len(quotes) >= 2
    # one illustration is one unit: its verdict is quoted right after its facts, never alone
    verdicts = [i for i, line in enumerate(quotes) if line.startswith("\u201cA has committed")]
    assert verdicts and all(quotes[i - 1].startswith("\u201cA commits theft while") for i in verdicts)
    # a passage of illustrations alone speaks only after its section's operative words were quoted
    only = Chunk(**{**sec.__dict__, "id": "BNS-307-1-test", "part": 1, "parts": 2,
                    "text": "Illustration.\nA commits theft while he carries a loaded pistol under his garment."})
    other = statute("BNS", "303", "Theft.", "(1) Whoever intending to take dishonestly any movable property out of "
                    "the possession of any person without that person's consent, moves that property, commits theft.")
    alone = compose(q, hits(other, only))
    assert "pistol" not in alone and "[2]" not in alone
    after = compose(q, hits(sec, only))
    assert after.index("Whoever commits theft") < after.index("[2]")
