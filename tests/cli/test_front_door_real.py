"""The CLI's front door on the real index (slow): a question with Devanagari digits (BL-43) and one holding a
vertical tab or form feed exported as DOCX (BL-54), exactly as a user types them on the command line; a follow-up read against the previous
answer given with `--previous`."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

pytestmark = pytest.mark.slow


@pytest.fixture
def cli(real_pipeline, monkeypatch):
    from legal_rag.cli import app

    monkeypatch.setenv("LEGAL_RAG_DATA_DIR", str(real_pipeline.settings.data_dir))
    return lambda *args: CliRunner().invoke(app, list(args))


def test_ask_with_devanagari_digits(cli):
    r = cli("ask", "What is the BNS equivalent of IPC ४२०?", "--offence-date", "२०२४-०६-२०", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output[r.output.index("{"):])
    assert doc["query"] == "What is the BNS equivalent of IPC 420?"
    flag = next(f for f in doc["supersession"] if "query" in f["found_in"].split(", "))  # each distinct flag once
    assert (flag["old"]["section"], [n["section"] for n in flag["new"]]) == ("420", ["318"])
    assert flag["applies"] == "IPC" and "2024-06-20" in flag["note"]  # BNS s.358: the IPC governs


@pytest.mark.parametrize("sep", ["\x0b", "\x0c"], ids=["vertical-tab", "form-feed"])
def test_export_docx_with_a_control_character(cli, tmp_path, sep):
    from docx import Document

    out = tmp_path / "answer.docx"
    r = cli("export", f"What replaced Section 498A IPC?{sep}The wife was harassed for dowry.", "-f", "docx", "-o",
            str(out))
    assert r.exit_code == 0, r.output
    body = "\n".join(p.text for p in Document(str(out)).paragraphs)
    assert "What replaced Section 498A IPC? The wife was harassed for dowry." in body and "85" in body


def test_lookup_in_hindi(cli):
    r = cli("lookup", "आईपीसी ४२०")
    assert r.exit_code == 0 and "BNS 318(4)" in r.output, r.output


@pytest.mark.parametrize("text", ["BNS 999", "BNSS 532", "Section 4 POCSO Act", "hello", ""],
                         ids=["beyond-BNS", "beyond-BNSS", "other-act", "no-reference", "empty"])
def test_lookup_that_finds_nothing_exits_1(cli, text):
    r = cli("lookup", text)
    assert r.exit_code == 1, r.output
    assert "error:" in r.output


@pytest.mark.parametrize("text, expect", [("IPC 377", "377"), ("302", "IPC 302")], ids=["no-successor", "no-act"])
def test_lookup_with_an_answer_exits_0(cli, text, expect):
    r = cli("lookup", text)
    assert r.exit_code == 0 and expect in r.output, r.output


def test_ask_previous_resolves_a_follow_up_to_the_previous_answers_provision(cli, tmp_path):
    """``ask --previous a.json`` reads the previous ``ask --json`` output: the follow-up is answered for the
    provision that headed it (structured refs, not the text), and without ``--previous`` it says there is none."""
    first = cli("ask", "What is the punishment for dowry death under the BNS?", "--json")
    assert first.exit_code == 0, first.output
    prev = tmp_path / "a.json"
    prev.write_text(first.output[first.output.index("{"):], encoding="utf-8")
    head = json.loads(prev.read_text(encoding="utf-8"))["head"]
    assert head, "the first answer names a governing provision"
    governing = head[0]["ref"]["act"] + " " + head[0]["ref"]["section"]

    r = cli("ask", "and is it bailable?", "--previous", str(prev), "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output[r.output.index("{"):])
    assert any(governing in p and "previous question" in p for p in doc["problems"]), doc["problems"]
    assert doc["head"] and doc["head"][0]["ref"]["section"] == head[0]["ref"]["section"]
    alone = cli("ask", "and is it bailable?", "--json")
    notes = json.loads(alone.output[alone.output.index("{"):])["problems"]
    assert any("No previous question" in p for p in notes), notes
