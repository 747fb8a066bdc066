"""A sub-section or clause that the section does not print, and no official table row names, is no reference at
all (new-user trial: "BNS 318(9)" and "IPC 316(2)" were looked up as if they existed)."""

import pytest

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("query, message", [
    ("BNS 318(9)", "BNS 318 has no sub-section (9); its sub-sections are (1)-(4)"),
    ("IPC 316(2)", "IPC 316 has no sub-section (2); it has no sub-sections"),
    ("BNS 303(7)", "BNS 303 has no sub-section (7); its sub-sections are (1)-(2)"),
])
def test_a_division_the_section_does_not_have_is_invalid(real_pipeline, query, message):
    res = real_pipeline.lookup(query)
    assert res.status == "invalid" and res.message == message, (res.status, res.message)


@pytest.mark.parametrize("query", ["BNS 318(4)", "BNS 318(1)", "CrPC 156(3)", "IPC 376(2)(n)", "BNSS 482(1)",
                                   "BNS 64(2)(m)",
                                   # named by the official table though the text prints no such marker
                                   "BSA 22(1)", "BNS 125(a)", "BNS 326(g)"])
def test_printed_or_tabled_divisions_are_looked_up(real_pipeline, query):
    res = real_pipeline.lookup(query)
    assert res.status == "ok", (query, res.status, res.message)


def test_the_cli_exits_1_for_a_missing_sub_section(real_pipeline, monkeypatch):
    from typer.testing import CliRunner

    from legal_rag.cli import app

    monkeypatch.setenv("LEGAL_RAG_DATA_DIR", str(real_pipeline.settings.data_dir))
    out = CliRunner().invoke(app, ["lookup", "BNS 318(9)"])
    assert out.exit_code == 1 and "has no sub-section (9)" in out.output, out.output
    ok = CliRunner().invoke(app, ["lookup", "BNS 318(4)"])
    assert ok.exit_code == 0, ok.output


def test_the_table_names_its_own_divisions(real_pipeline):
    from legal_rag.types import StatuteRef

    named = real_pipeline.concordance.named(StatuteRef("BNS", "125"))
    assert StatuteRef("BNS", "125", ("a",)) in named and all(r.section == "125" for r in named)
    assert real_pipeline.concordance.named(StatuteRef("BNS", "999")) == ()
