"""Issue 17: a language model is given the chunk that prints the head's sub-section ("BNS 318(4)": the chunk with
"(4) Whoever cheats and thereby dishonestly induces ... seven years"), not the retrieved chunk of the section's
illustrations, fetched by reference when retrieval did not rank it. Unit tests on inline chunks; then the real
pipeline on the real corpus (dev question D01), with ``generator_head_passages`` off as the control."""

import re

import pytest

from legal_rag.generate import llm_passages, prints_sub
from legal_rag.types import Chunk, HeadLine, StatuteRef

from .fakes import hits, judgment, statute

BNS_318_4 = StatuteRef("BNS", "318", ("4",))
HEAD = (HeadLine(BNS_318_4, "BNS 318(4) (formerly IPC 420) -- Cheating", counterparts=(StatuteRef("IPC", "420"),)),)


def part(act: str, section: str, k: int, text: str) -> Chunk:
    c = statute(act, section, "Cheating.", text)
    return Chunk(**{**c.__dict__, "id": f"{act}-{section}-{k}-test"})


ILLUSTRATIONS = part("BNS", "318", 1, "Illustrations.\n(a) A, by falsely pretending to be in the Civil Service, "
                                      "intentionally deceives Z. A cheats.")
PRINTS_4 = part("BNS", "318", 4, "of either description for a term which may extend to five years.\n(4) Whoever "
                                 "cheats and thereby dishonestly induces the person deceived to deliver any property "
                                 "shall be punished with imprisonment of either description for a term which may "
                                 "extend to seven years, and shall also be liable to fine.")
IPC_420 = part("IPC", "420", 0, "420. Whoever cheats and thereby dishonestly induces the person deceived to deliver "
                                "any property shall be punished with imprisonment for seven years and fine.")
MURDER = part("BNS", "103", 0, "103. (1) Whoever commits murder shall be punished with death or imprisonment for life.")


def test_prints_sub_reads_the_chunk_layout():
    assert prints_sub(PRINTS_4, BNS_318_4)
    assert not prints_sub(ILLUSTRATIONS, BNS_318_4)
    assert not prints_sub(PRINTS_4, StatuteRef("BNS", "318"))  # no sub-section named
    assert not prints_sub(IPC_420, BNS_318_4)
    continues = part("BNS", "318", 5, "capable of being converted into a valuable security, shall be punished with "
                                      "imprisonment for seven years.")
    assert not prints_sub(Chunk(**{**continues.__dict__, "meta": (("open", "4"),)}), BNS_318_4)  # (4) began before


def test_the_chunk_printing_the_head_s_sub_section_is_given_first():
    # none of the head's sections retrieved: the chunk printing it, then the best passages (not it alone)
    other = part("BNS", "316", 0, "316. (1) Whoever, being in any manner entrusted with property, commits criminal "
                                  "breach of trust.")
    got = llm_passages(hits(other, MURDER), HEAD, 2, head_chunks=(PRINTS_4,))
    assert [h.chunk.id for h in got] == ["BNS-318-4-test", "BNS-316-0-test"]
    # ... judgments among them (no section ref) included
    case = judgment("C82", "A v. State", "The appellant was convicted of cheating.")
    got = llm_passages(hits(case, other), HEAD, 2, head_chunks=(PRINTS_4,))
    assert [h.chunk.id for h in got] == ["BNS-318-4-test", "C82-p1-test"]
    retrieved = hits(ILLUSTRATIONS, IPC_420, MURDER)
    # before: the retrieved chunk of illustrations and the counterpart
    assert [h.chunk.id for h in llm_passages(retrieved, HEAD, 2)] == ["BNS-318-1-test", "IPC-420-0-test"]
    got = llm_passages(retrieved, HEAD, 2, head_chunks=(ILLUSTRATIONS, PRINTS_4))
    assert [(h.chunk.id, h.stage) for h in got] == [("BNS-318-4-test", "lookup"), ("IPC-420-0-test", "rrf")]
    # retrieved and printing it, but beyond the limit: it takes the place of the section's first passage
    retrieved = hits(ILLUSTRATIONS, IPC_420, PRINTS_4)
    got = llm_passages(retrieved, HEAD, 2, head_chunks=(ILLUSTRATIONS, PRINTS_4))
    assert [(h.chunk.id, h.stage) for h in got] == [("BNS-318-4-test", "rrf"), ("IPC-420-0-test", "rrf")]
    # already among those given: nothing changes
    assert llm_passages(retrieved, HEAD, 3, head_chunks=(PRINTS_4,)) == tuple(retrieved)
    # none of the section retrieved: the chunk printing it comes first
    got = llm_passages(hits(IPC_420, MURDER), HEAD, 2, head_chunks=(ILLUSTRATIONS, PRINTS_4))
    assert [(h.chunk.id, h.stage) for h in got] == [("BNS-318-4-test", "lookup"), ("IPC-420-0-test", "rrf")]
    retrieved = hits(ILLUSTRATIONS, IPC_420, MURDER)
    # no stored chunk prints it: as before
    assert [h.chunk.id for h in llm_passages(retrieved, HEAD, 2, head_chunks=(ILLUSTRATIONS,))] == \
        ["BNS-318-1-test", "IPC-420-0-test"]
    # no head: the best passages
    assert [h.chunk.id for h in llm_passages(retrieved, (), 2, head_chunks=(PRINTS_4,))] == \
        ["BNS-318-1-test", "IPC-420-0-test"]


@pytest.mark.xfail(strict=True, reason="issue 29 fault: the ranker's lead chunk of BNS 318 is given whatever generator_head_passages says, and IPC 420 is no longer beside it")
@pytest.mark.slow
@pytest.mark.parametrize("on", [True, False])
def test_real_pipeline_gives_the_model_bns_318_4(real_pipeline, monkeypatch, on):
    """Dev question D01 through ``Pipeline.ask`` on the real corpus: retrieval ranks the BNS 318 chunk of
    illustrations; with the setting on, the model's prompt holds the chunk printing (4) and its seven years."""
    from legal_rag.generate import backends
    from legal_rag.pipeline import Pipeline

    from .fakes import FakeBackend

    prompts = []
    fake = FakeBackend(lambda m: (prompts.append(m[1][1]), "Cheating is an offence [1].")[1], name="recording")
    monkeypatch.setattr(backends, "get_backend", lambda settings: fake)
    monkeypatch.setattr("legal_rag.generate.get_backend", lambda settings: fake)
    pipe = Pipeline(real_pipeline.settings.model_copy(update={"generator_head_passages": on}))
    a = pipe.ask("punishment for cheating and dishonestly inducing delivery of property", generator="llama_cpp")
    assert a.head and a.head[0].ref == BNS_318_4
    first = a.passages[0].chunk
    (prompt,) = prompts
    if on:
        assert (first.ref.act, first.ref.section) == ("BNS", "318") and prints_sub(first, BNS_318_4)
        assert re.search(r"\(4\) Whoever cheats and thereby\s+dishonestly induces", prompt)
        assert re.search(r"extend to seven\s+years", first.text)
    else:
        assert not any(prints_sub(h.chunk, BNS_318_4) for h in a.passages)
        assert "(4) Whoever cheats" not in prompt
    assert {(h.chunk.ref.act, h.chunk.ref.section) for h in a.passages} == {("BNS", "318"), ("IPC", "420")}
