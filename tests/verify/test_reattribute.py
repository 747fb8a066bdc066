"""Re-attribution (issue 17; the setting ``reattribute_citations``, on by default): a sentence that fails against the
statute chunk it cites but passes every check, unchanged, against other given chunks of the same section keeps its
words and gets its marker moved there; check ``punishment part`` (``legal_rag.law.scope``) requires the punishment it
states to be printed for the part of the section it describes. The checks are not relaxed: a move never crosses
Acts or sections, never happens inside or across judgments or for a sentence citing several passages, and a proviso
spliced onto a punishment fails even cited to both chunks. Unit tests on inline passages; then the real corpus: the
sentences a review made ship as false law under a looser rule (BNS 308(3) with 308(5)'s ten years, 196(1) with
196(2)'s five years, 109(1) with 109(2)'s death, simple cheating with 318(4)'s seven years), and BNS 109's two chunks
through ``verify`` and the real pipeline (``Pipeline.ask`` with a recording backend), with the setting off as the
control."""

import re

import pytest

from legal_rag.types import Draft
from legal_rag.verify import Failure, reattributed, verify

from tests.generate.fakes import hits, judgment, statute
from tests.statutes import BNS_103_1, BNS_103_2, BNS_104, SEVEN_YEARS_AND_FINE

# BNS 109 split in two chunks, one without sub-section (1)'s punishment (the real chunker splits it so)
HEAD_109 = "Attempt to murder."
OPEN_109 = "Whoever does any act with such intention or knowledge, and under such circumstances that, if he by that act caused death, he would be guilty of murder."
SUB_109 = ("(1) Whoever does any act with such intention or knowledge, and under such circumstances that, if he by "
           "that act caused death, he would be guilty of murder, shall be punished with imprisonment of either "
           "description for a term which may extend to ten years, and shall also be liable to fine.")
IPC_307 = ("Whoever does any act with such intention or knowledge, and under such circumstances that, if he by that "
           "act caused death, he would be guilty of murder, shall be punished with imprisonment of either "
           "description for a term which may extend to ten years, and shall also be liable to fine.")
CLAIM = ("Whoever does any act with intention that, if he by that act caused death, he would be guilty of murder, "
         "shall be punished with imprisonment for a term which may extend to ten years, and fine")


TEN = re.compile(r"ten\s+years")


def none(ref):
    return set()


def chunk(act, section, text, k):
    c = statute(act, section, HEAD_109, text)
    return c.__class__(**{**c.__dict__, "id": f"{act}-{section}-{k}-test"})


def test_a_claim_cited_to_the_section_s_other_chunk_is_moved_to_the_one_that_prints_it():
    ps = hits(chunk("BNS", "109", OPEN_109, 0), chunk("BNS", "109", SUB_109, 1))
    v = verify(Draft("q", f"{CLAIM} [1]. Attempt to murder is an offence [1].", passages=tuple(ps)),
               equivalents=none, reattribute=True)
    assert v.text == f"{CLAIM} [2]. Attempt to murder is an offence [1]."
    assert [(c.status, c.markers, c.moved_from) for c in v.checks] == [
        ("supported", (2,), (1,)), ("supported", (1,), ())]
    assert [(c.marker, c.chunk_id, c.support) for c in v.citations] == [
        (2, "BNS-109-1-test", "supported"), (1, "BNS-109-0-test", "supported")]
    assert any(p.startswith("citation moved from [1] to [2]") for p in v.problems)
    assert not v.removed


def test_re_attribution_is_on_by_default_in_settings_and_off_in_verify():
    """The setting is on (check ``punishment part`` keeps moves inside the part a sentence describes); ``verify``
    itself moves nothing unless asked."""
    from legal_rag.config import Settings

    assert Settings().reattribute_citations is True
    ps = hits(chunk("BNS", "109", OPEN_109, 0), chunk("BNS", "109", SUB_109, 1))
    v = verify(Draft("q", f"{CLAIM} [1].", passages=tuple(ps)), equivalents=none)
    assert v.checks[0].status == "unsupported" and not v.checks[0].moved_from


def test_with_the_setting_off_the_same_sentence_is_removed():
    ps = hits(chunk("BNS", "109", OPEN_109, 0), chunk("BNS", "109", SUB_109, 1))
    v = verify(Draft("q", f"{CLAIM} [1].", passages=tuple(ps)), equivalents=none, reattribute=False)
    assert v.checks[0].status == "unsupported" and v.checks[0].failures[0] == Failure("punishment", "10 year, fine")
    assert "withheld" in v.text


def test_the_part_described_decides_and_a_named_sub_section_must_be_printed():
    """The sentence's words describe BNS 109(1), whose ten years the second chunk prints: moved there. Naming another
    sub-section (2) that neither chunk prints is not moved (check ``section``). A sentence citing two passages is
    left as written (moving it would drop a citation)."""
    ps = hits(chunk("BNS", "109", OPEN_109, 0), chunk("BNS", "109", SUB_109, 1))
    assert reattributed(CLAIM, (1,), ps, none) == (2,)
    assert reattributed(f"Under section 109(1), {CLAIM[0].lower()}{CLAIM[1:]}", (1,), ps, none) == (2,)
    assert reattributed(f"Under section 109(2), {CLAIM[0].lower()}{CLAIM[1:]}", (1,), ps, none) == ()
    three = hits(chunk("BNS", "109", OPEN_109, 0), chunk("BNS", "109", SUB_109, 1), chunk("BNS", "109", OPEN_109, 2))
    assert reattributed(CLAIM, (1, 3), three, none) == ()
    # a punishment whose sentence names no part of the section is never moved
    assert reattributed("The punishment for this act is imprisonment which may extend to ten years", (1,), ps,
                        none) == ()


def test_a_move_never_crosses_acts():
    """IPC 307 prints the ten years; a sentence cited to BNS 109's opening chunk is not moved to the IPC passage
    (the old and new Acts print different punishments elsewhere, and the sentence was about the BNS)."""
    ps = hits(chunk("BNS", "109", OPEN_109, 0), chunk("IPC", "307", IPC_307, 0))
    assert reattributed(CLAIM, (1,), ps, none) == ()
    v = verify(Draft("q", f"{CLAIM} [1].", passages=tuple(ps)), equivalents=none, reattribute=True)
    assert v.checks[0].status == "unsupported" and not v.checks[0].moved_from


def test_a_move_never_crosses_sections_of_one_act():
    """The word-overlap check would pass "Cheating is punished with death" against the murder section; a sentence
    cited to the cheating section is never moved there (the remove test of test_verify.py, kept)."""
    from tests.generate.fakes import cheating_hits

    ps = cheating_hits()  # BNS 318, BNS 103, IPC 420
    assert reattributed("Cheating is punished with death", (1,), ps, none) == ()
    v = verify(Draft("q", "Cheating is punished with death [1].", passages=tuple(ps)), equivalents=none,
               reattribute=True)
    assert "withheld" in v.text and v.checks[0].status == "unsupported"


def test_judgment_sentences_are_never_moved():
    """Inside one judgment, a lexical check cannot tell the holding from counsel's argument (a review shipped the
    respondent's contention as "The Court held ..."): judgment sentences stay as cited."""
    held = "The conviction under section 307 was upheld and the appeal was dismissed."
    a0 = judgment("caseA", "A v. State", "The facts are these. The accused fired at the victim.")
    a1 = judgment("caseA", "A v. State", held)
    a1 = a1.__class__(**{**a1.__dict__, "id": "caseA-p2-test"})
    b = judgment("caseB", "B v. State", held)
    claim = "The conviction under section 307 was upheld and the appeal was dismissed"
    assert reattributed(claim, (1,), hits(a0, b), none) == ()
    assert reattributed(claim, (1,), hits(a0, b, a1), none) == ()


def test_a_proviso_spliced_onto_a_punishment_fails_even_citing_both_chunks():
    """The exception is in one chunk and the punishment in the other: the spliced sentence describes the proviso,
    which prints no punishment, so it fails cited to both as well as to either (BNS 78 in the measured run;
    a lexical check alone passed it against both together)."""
    first = statute("BNS", "78", "Stalking.", "(1) Any man who follows a woman commits the offence of stalking: "
                    "Provided that such conduct shall not amount to stalking if the man who pursued it proves that it "
                    "was pursued for the purpose of preventing or detecting crime and the man accused of stalking had "
                    "been entrusted with the responsibility of prevention and detection of crime by the State.")
    second = statute("BNS", "78", "Stalking.", "(2) Whoever commits the offence of stalking shall be punished on first "
                     "conviction with imprisonment of either description for a term which may extend to three years, "
                     "and shall also be liable to fine.")
    second = second.__class__(**{**second.__dict__, "id": "BNS-78-1-test"})
    claim = ("If the man who pursued it proves that it was pursued for the purpose of preventing or detecting crime "
             "and the man accused of stalking had been entrusted with the responsibility of prevention and detection "
             "of crime by the State, he shall be punished on first conviction with imprisonment which may extend to three years and fine")
    ps = hits(first, second)
    both = verify(Draft("q", f"{claim} [1][2].", passages=tuple(ps)), equivalents=none).checks[0]
    assert both.status == "unsupported"
    assert [(f.check, f.where) for f in both.failures] == [("punishment part", "BNS 78(1) Provided")]
    assert reattributed(claim, (1,), ps, none) == ()
    v = verify(Draft("q", f"{claim} [1].", passages=tuple(ps)), equivalents=none, reattribute=True)
    assert v.checks[0].status == "unsupported"
    # the definition's words with the punishment of the sub-section that names its offence: moved to that one
    true = ("Any man who follows a woman commits the offence of stalking and shall be punished on first conviction "
            "with imprisonment which may extend to three years and fine")
    assert reattributed(true, (1,), ps, none) == (2,)


def test_mark_mode_moves_too_and_marks_only_what_still_fails():
    ps = hits(chunk("BNS", "109", OPEN_109, 0), chunk("BNS", "109", SUB_109, 1))
    v = verify(Draft("q", f"{CLAIM} [1]. Attempt to murder carries twenty years [1].", passages=tuple(ps)),
               equivalents=none, on_unsupported="mark", reattribute=True)
    failed = v.checks[1].failures
    assert [f.check for f in failed] == ["punishment", "number", "overlap"]
    assert v.text == f"{CLAIM} [2]. Attempt to murder carries twenty years [1]. \u27e8unsupported: " \
                     f"{'; '.join(map(str, failed))}\u27e9"
    assert [c.moved_from for c in v.checks] == [(1,), ()]


# ------------------------------------------------------------------------------------------ the real corpus

def _bns109(real_index):
    chunks = real_index.store.by_ref("BNS", "109")
    prints = [c for c in chunks if re.search(r"may\s+extend\s+to\s+ten\s+years", c.text)]
    silent = [c for c in chunks if c not in prints and not TEN.search(c.text)]
    if not prints or not silent:
        pytest.fail(f"BNS 109 is no longer split so that one chunk prints the ten years: {[c.id for c in chunks]}")
    return silent[0], prints[0]


@pytest.mark.slow
def test_real_bns_109_chunks(real_index):
    """The measured run's D12 sentence, cited by the model to the BNS 109 chunk that does not print the ten years."""
    from legal_rag.types import Hit

    silent, prints = _bns109(real_index)
    claim = ("Under section 109 of the BNS, whoever does any act with such intention or knowledge that, if he by that "
             "act caused death, he would be guilty of murder, shall be punished with imprisonment of either "
             "description for a term which may extend to ten years, and shall also be liable to fine")
    ps = (Hit(silent, 1.0, "rrf", 1), Hit(prints, 0.9, "rrf", 2))
    assert verify(Draft("q", f"{claim} [1].", passages=ps)).checks[0].status == "unsupported"  # off
    v = verify(Draft("q", f"{claim} [1].", passages=ps), reattribute=True, sections=real_index.by_ref)
    assert v.checks[0].status == "supported" and v.checks[0].moved_from == (1,)
    assert v.citations[0].chunk_id == prints.id and v.text.endswith("[2].")


def _given(real_index, act, section, parts):
    from legal_rag.types import Hit

    chunks = {c.part: c for c in real_index.store.by_ref(act, section)}
    return tuple(Hit(chunks[k], 1.0, "rrf", i) for i, k in enumerate(parts, 1))


EXT = "shall be punished with imprisonment of either description for a term which may extend to ten years, and shall " \
      "also be liable to fine"


@pytest.mark.slow
@pytest.mark.parametrize("claim, act, section, parts", [
    # 308(3) is two years; chunk 2 prints "(3)" and ten years, but the ten years are (5)'s
    (f"Under section 308(3) of the BNS, whoever in order to the committing of extortion puts any person in fear of "
     f"any injury {EXT}", "BNS", "308", (0, 1, 2)),
    # simple extortion, 308(2), is seven years, or fine, or both; chunk 2 opens inside (2)
    (f"Under section 308(2) of the BNS, whoever commits extortion {EXT}", "BNS", "308", (0, 1, 2)),
    # 196(1) is three years; five years is 196(2), in a place of worship
    ("Under section 196(1) of the BNS, whoever promotes enmity between different groups on grounds of religion shall "
     "be punished with imprisonment which may extend to five years and fine", "BNS", "196", (0, 1, 2)),
    # death is 109(2)'s, for an offender already under sentence of imprisonment for life; the head names 109(1)
    ("Under section 109(1) of the BNS, if hurt is caused to any person by such act, the offender may be punished with "
     "death", "BNS", "109", (0, 1)),
    ("Under section 307 of the IPC, if hurt is caused to any person by such act, the offender may be punished with "
     "death", "BNS", "109", (0, 1)),
    # simple cheating (318(2)) is three years; seven years is 318(4)'s; no head
    (f"Whoever cheats {SEVEN_YEARS_AND_FINE}", "BNS", "318", (3, 4)),
])
def test_real_a_sentence_is_never_moved_to_another_sub_section_s_term(real_index, claim, act, section, parts):
    """What a review made ship as false law under a rule that only asked whether the other chunk prints the term:
    each sentence fails against the chunk it cites and is not moved to the chunk printing another sub-section's
    term; it is removed."""
    ps = _given(real_index, act, section, parts)
    v = verify(Draft("q", f"{claim} [1].", passages=ps), reattribute=True, sections=real_index.by_ref)
    assert v.checks[0].status == "unsupported" and not v.checks[0].moved_from, v.problems
    assert "withheld" in v.text
    assert reattributed(claim, (1,), ps, lambda r: set(), sections=real_index.by_ref) == ()


@pytest.mark.slow
@pytest.mark.parametrize("on", [True, False])
def test_real_pipeline_moves_the_marker_only_when_the_setting_is_on(real_pipeline, monkeypatch, on):
    """Through ``Pipeline.ask`` on the real corpus with a backend that cites the BNS 316 passage that does not print
    the punishment (its illustrations): the shipped answer cites the one that does, 316(5) (setting on), or
    withholds the sentence (off). (Dev set D05. D12's BNS 109 second chunk, the tail of (1) only, is no longer
    given at all: the first chunk shows all it would, ``tests/generate/test_window.py``.)"""
    from legal_rag.generate import backends
    from legal_rag.pipeline import Pipeline
    from tests.generate.fakes import FakeBackend

    claim = ("Whoever, being in any manner entrusted with property in his capacity of a public servant or in the way "
             "of his business as a banker, merchant, factor, broker, attorney or agent commits criminal breach of "
             "trust in respect of that property, shall be punished with imprisonment for life, or with imprisonment "
             "of either description for a term which may extend to ten years, and shall also be liable to fine")

    def reply(messages):
        blocks = re.findall(r"----- BEGIN PASSAGE \[(\d+)\] -----\n(.*?)\n----- END PASSAGE", messages[1][1], re.S)
        silent = [n for n, text in blocks if not TEN.search(text)]
        return f"{claim} [{silent[0]}]." if silent else f"{claim} [1]."

    fake = FakeBackend(reply, name="recording")
    monkeypatch.setattr(backends, "get_backend", lambda settings: fake)
    monkeypatch.setattr("legal_rag.generate.get_backend", lambda settings: fake)
    pipe = Pipeline(real_pipeline.settings.model_copy(update={"reattribute_citations": on}))
    a = pipe.ask("criminal breach of trust committed by a public servant or banker or agent", generator="llama_cpp")
    given = [h.chunk for h in a.passages]
    assert any(c.ref and (c.ref.act, c.ref.section) == ("BNS", "316") and TEN.search(c.text) for c in given)
    assert any(c.ref and (c.ref.act, c.ref.section) == ("BNS", "316") and not TEN.search(c.text) for c in given)
    if on:
        (cit,) = [c for c in a.citations if c.sentence.startswith("Whoever, being in any manner")]
        assert TEN.search(next(c.text for c in given if c.id == cit.chunk_id)) and cit.support == "supported"
        assert any(p.startswith("citation moved from") for p in a.problems)
    else:
        assert "withheld" in a.text and not any(p.startswith("citation moved") for p in a.problems)


@pytest.mark.slow
def test_real_pipeline_leaves_out_a_chunk_that_only_repeats_another(real_pipeline, monkeypatch):
    """D12: BNS 109's second chunk opens with the tail of (1) ("... if hurt is caused ... imprisonment for life")
    that the first chunk prints whole; the model is given the first only, and the answer says what was left out."""
    from legal_rag.generate import backends
    from legal_rag.pipeline import Pipeline
    from tests.generate.fakes import FakeBackend

    seen = []
    fake = FakeBackend(lambda m: seen.append(m) or "Attempt to murder is punished under this section [1].",
                       name="recording")
    monkeypatch.setattr(backends, "get_backend", lambda settings: fake)
    monkeypatch.setattr("legal_rag.generate.get_backend", lambda settings: fake)
    a = Pipeline(real_pipeline.settings).ask("attempt to commit murder", generator="llama_cpp")
    shown = re.findall(r"----- BEGIN PASSAGE \[(\d+)\] -----\n(.*?)\n----- END PASSAGE", seen[0][1][1], re.S)
    assert sum("if hurt is caused" in t for _, t in shown) == 1
    assert not any(t.startswith("caused to any person by such act") for _, t in shown)
    assert any("left out: another passage of the same section" in p for p in a.problems)


# BNS 103 and 104 as printed (Gazette): a small model quoted 103(2) word for word and cited [2], BNS 104
BNS_103 = f"103. {BNS_103_1}\n{BNS_103_2}"
BNS_104_TEXT = f"104. {BNS_104}"
COPY_103_2 = BNS_103_2.replace("(2) When a group", "If a group").removesuffix(".")


def murder_hits():
    return hits(statute("BNS", "103", "Punishment for murder.", BNS_103),
                statute("BNS", "104", "Punishment for murder by life-convict.", BNS_104_TEXT))


def test_a_word_for_word_copy_of_another_section_s_passage_moves_there():
    v = verify(Draft("q", f"{BNS_103_1.upto('imprisonment for life').removeprefix('(1) ')} [1]. "
                          f"{COPY_103_2} [2].", passages=tuple(murder_hits())), equivalents=none, reattribute=True)
    assert [(c.status, c.markers, c.moved_from) for c in v.checks] == [
        ("supported", (1,), ()), ("supported", (1,), (2,))]
    assert any(p.startswith("citation moved from [2] to [1]") for p in v.problems) and not v.removed
    off = verify(Draft("q", f"{COPY_103_2} [2].", passages=tuple(murder_hits())), equivalents=none, reattribute=False)
    assert off.checks[0].status == "unsupported"  # the control: as cited, it fails


@pytest.mark.parametrize("claim", [
    # a paraphrase: most words are 103(2)'s, but not in one run
    "Each member of a group of five or more persons who murder on the ground of caste shall be punished with death "
    "or life imprisonment and fine",
    # it names a section: the model's claim about that section stands or falls as written
    f"Under section 104 of the BNS, {COPY_103_2[3:]}",
    # too short to tell a copy from a coincidence
    "Whoever commits murder shall be punished",
])
def test_a_paraphrase_a_named_section_or_a_short_sentence_never_moves_across_sections(claim):
    assert reattributed(claim, (2,), murder_hits(), none) == ()
