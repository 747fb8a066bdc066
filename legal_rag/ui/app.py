"""Gradio chat UI over :class:`legal_rag.pipeline.Pipeline` (thin: it calls the pipeline, ``export`` and
:mod:`.html`, and holds no logic of its own).

* ``create_app(settings, pipeline=None) -> gr.Blocks`` builds the UI (cheap: no model is loaded).
* ``create_server(settings, pipeline=None) -> FastAPI`` adds ``GET /source/{name}`` (a corpus file, found only
  through ``Pipeline.source_file``; nothing else on disk is reachable) and mounts the UI at ``/``, with the optional
  login (``auth_user`` / ``auth_password``) guarding both, and the upload limit (``upload_max_mb``).
* JSON API beside the UI (same login): ``GET /api/lookup?q=IPC+420`` (the LookupResult as JSON) and
  ``POST /api/ask`` with question, offence_date, filters, previous_question (the Answer as the JSON export). A body that does not fit
  (an unknown field or filter key, a bad date or filter value) is answered 400 with a message naming it; a
  question above ``settings.question_max_chars`` characters 413, with the limit stated.
* User text is put in one normal form first (:func:`legal_rag.law.normalise.normalise_input`) and shown back as
  text, never rendered as HTML or Markdown (:func:`as_text`, HTML-escaped error messages).
* ``main()`` serves it on ``settings.host`` (127.0.0.1 by default) with uvicorn; there is no public share link.

``legal-rag serve`` calls :func:`main`; the repository's root ``app.py`` re-exports this module (``python app.py``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import html
import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import gradio as gr  # noqa: E402
from fastapi import Depends, FastAPI, HTTPException, Request  # noqa: E402
from fastapi.exceptions import RequestValidationError  # noqa: E402
from fastapi.responses import FileResponse, JSONResponse, Response  # noqa: E402
from pydantic import BaseModel, ConfigDict  # noqa: E402
from starlette.routing import Mount  # noqa: E402

from ..config import Settings, load_settings  # noqa: E402
from ..errors import InputTooLongError, LegalRagError  # noqa: E402
from ..export import FORMATS, export_answer, write_exports  # noqa: E402
from ..law.normalise import normalise_input, shown_refused, too_long  # noqa: E402
from ..retrieve import Filters  # noqa: E402
from ..types import ACTS, Answer  # noqa: E402
from . import html as fmt  # noqa: E402
from .tablerow import TABLE_FILES, row_page, row_url, rows_markdown  # noqa: E402

if TYPE_CHECKING:
    from ..pipeline import Pipeline

class AskRequest(BaseModel):
    """Body of ``POST /api/ask``: ``offence_date`` is ``YYYY-MM-DD`` or empty; ``filters`` as ``Pipeline.ask``
    (keys ``act``, ``code``/``codes``, ``kind``, ``court``, ``year_from``, ``year_to``, ``year``). Other fields are
    refused."""

    model_config = ConfigDict(extra="forbid")

    question: str
    offence_date: str | None = None
    filters: dict | None = None
    #: the previous question of the conversation (same length limit): a follow-up with no legal words of its own
    #: is answered for that question's provision (``Pipeline.ask(previous=...)``, BL-60)
    previous_question: str | None = None


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>$])")


def as_text(text: str) -> str:
    """``text`` as the Chatbot's Markdown source that shows exactly ``text``: HTML-escaped and every Markdown
    punctuation mark backslash-escaped, so ``<img src=x onerror=alert(1)>`` and ``**bold**`` appear as typed
    (BL-64). Newlines stay line breaks."""
    return _MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


def ui_filters(acts: list[str] | None, codes: str | None, include_judgments: bool) -> Filters | None:
    """The :class:`Filters` of the Ask tab's controls: Acts picked, Codes ``both`` (no filter) / ``old`` / ``new``,
    "Include judgments" off -> statutes only. ``None`` when nothing is filtered."""
    f = Filters(act=tuple(a for a in (acts or []) if a), code=codes if codes in ("old", "new") else None,
                kind=None if include_judgments else "statute")
    return None if f.is_empty() else f


def offered_generators(pipe: Pipeline, settings: Settings) -> tuple[str, ...]:
    """The answer engines the UI offers: the pipeline's, less the ``transformers`` backend when it would run the
    135M SmolLM2 test model (no ``generator_model`` set): that model is for code-path tests, not for answers."""
    from ..generate.backends.base import SMOLLM2

    names = tuple(pipe.generators())
    test_model = settings.generator_model in ("", SMOLLM2)
    return tuple(n for n in names if not (n == "transformers" and test_model))


FORMAT_LABELS = {"markdown": "Markdown", "json": "JSON", "csv": "CSV", "ris": "RIS", "bibtex": "BibTeX",
                 "csl-json": "CSL-JSON", "docx": "Word (DOCX)"}


def _pipeline(settings: Settings, pipeline: Pipeline | None) -> Pipeline:
    """``pipeline`` as given (tests pass a stand-in with the same public methods), else a new cheap one."""
    if pipeline is not None:
        return pipeline
    from ..pipeline import Pipeline

    return Pipeline(settings)


def create_app(settings: Settings, pipeline: Pipeline | None = None) -> gr.Blocks:
    """The Blocks UI: Ask (chat, citations, supersession banner, exports), Section look-up, Source, Upload."""
    pipe = _pipeline(settings, pipeline)
    generators = offered_generators(pipe, settings)
    from ..generate.backends import generator_label  # each choice says what it costs in time
    export_root = Path(settings.data_dir) / "exports"
    limit = settings.question_max_chars

    def cleared(history: list, reply: str) -> tuple:
        """Outputs with ``reply`` as the last reply and nothing of an earlier answer left: no citations, banner,
        source view or export files (after an error, and while a new answer is being written)."""
        history[-1] = {"role": "assistant", "content": as_text(reply)}
        return (history, "", "", None, gr.update(choices=[], value=None), fmt.source_view_html(None, None),
                *_exports(None, False))

    def banner_of(answer: Answer, offence_date) -> str:
        """The banner of ``answer`` with which date decides for each Act (the question's dates, the date field
        winning, read by the one question analysis)."""
        from ..law.question import analyse

        try:
            a = analyse(answer.query, offence_date, concordance=getattr(pipe, "concordance", None))
            dates = {"offence_date": a.offence_date, "proceeding_date": a.proceeding_date}
        except (LegalRagError, ValueError):
            dates = {"offence_date": offence_date}
        return fmt.supersession_banner(answer.flags, answer.problems, row_link=row_link, **dates)

    def row_link(name: str, row: str = "") -> str | None:
        """A link to one row of a correspondence table (``/table-row``, :mod:`legal_rag.ui.tablerow`), else to the
        table's file when the server serves it (``Pipeline.source_file``), else None."""
        if row and name in TABLE_FILES:
            return row_url(name, row)
        try:
            pipe.source_file(name)
        except (LegalRagError, OSError, ValueError):
            return None
        return f"/source/{quote(name, safe='')}"

    def ask(question, history, offence_date, acts, codes, judgments, generator, include_unverified, previous=None):
        """One chat turn. ``previous`` is the last turn's Answer (the ``answer_state``): a follow-up with no legal
        words of its own is answered for its provision (BL-60). Each answer in the history keeps its own compact
        source list (:func:`legal_rag.ui.html.sources_line`)."""
        history = list(history or [])
        question = normalise_input(question or "")
        if not question:
            raise gr.Error("Type a question first.")
        # a refused long question is shown cut, with its length, so the refusal stays in sight (issue 16 (b))
        history += [{"role": "user", "content": as_text(shown_refused(question, limit))},
                    {"role": "assistant", "content": ""}]
        try:
            if len(question) > limit:
                raise InputTooLongError(too_long(question, limit))
            kwargs = {"offence_date": fmt.parse_offence_date(normalise_input(offence_date or "")),
                      "filters": ui_filters(acts, codes, judgments)}
        except (LegalRagError, ValueError) as exc:
            gr.Warning(html.escape(str(exc)))
            yield cleared(history, f"Not asked: {exc}")
            return
        if len(generators) > 1 and generator in generators:
            kwargs["generator"] = generator
        if isinstance(previous, Answer):
            kwargs["previous"] = previous
        yield cleared(history, "")
        text, answer = "", None
        try:
            for piece in pipe.ask_stream(question, **kwargs):
                if isinstance(piece, Answer):
                    answer = piece
                else:
                    text += piece
                    history[-1] = {"role": "assistant", "content": as_text(text)}
                    yield (history, gr.update(), gr.update(), gr.update(), gr.update(), gr.update(),
                           *[gr.update()] * len(FORMATS))
        except LegalRagError as exc:
            gr.Warning(html.escape(str(exc)))
            yield cleared(history, f"No answer: {exc}")
            return
        except Exception as exc:  # a bug: the chat says so, nothing stale is left, and the traceback is kept
            yield cleared(history, f"No answer: internal error ({type(exc).__name__}); please report it")
            raise
        if answer is None:
            yield cleared(history, "No answer: the pipeline ended without an answer")
            return
        sources = fmt.sources_line(answer)
        rows = rows_markdown(answer.head)  # the head's BPR&D table rows as links to /table-row (issue 14)
        parts = [as_text(answer.text), as_text(sources) if sources else "", rows]
        history[-1] = {"role": "assistant", "content": "\n\n".join(p for p in parts if p)}
        choices = fmt.source_choices(answer)
        yield (history, fmt.citations_panel(answer), banner_of(answer, kwargs["offence_date"]), answer,
               gr.update(choices=choices, value=choices[0][1] if choices else None),
               fmt.source_view_html(answer, choices[0][1] if choices else None), *_exports(answer, include_unverified))

    def _exports(answer: Answer | None, include_unverified: bool) -> list:
        if answer is None:
            return [gr.update(value=None, interactive=False)] * len(FORMATS)
        key = hashlib.sha256(repr((answer, include_unverified)).encode()).hexdigest()[:16]
        paths = write_exports(answer, export_root / key, include_unverified=include_unverified)
        return [gr.update(value=str(paths[name]), interactive=True) for name in FORMATS]

    def lookup(text):
        text = normalise_input(text or "")
        if len(text) > limit:
            return fmt.notice_html("error", too_long(text, limit))
        try:
            return fmt.lookup_html(pipe.lookup(text))
        except LegalRagError as exc:
            return fmt.notice_html("not_found", str(exc))

    def upload(files):
        out = []
        limit = settings.upload_max_mb * 1024 * 1024
        for f in files or []:
            path = Path(f if isinstance(f, str) else f.name)
            if path.stat().st_size > limit:
                out.append(fmt.notice_html("error", f"{path.name}: larger than {settings.upload_max_mb:g} MiB; refused"))
                continue
            try:
                out.append(fmt.ingest_report_html(pipe.ingest_upload(path), path.name))
            except LegalRagError as exc:
                out.append(fmt.notice_html("error", f"{path.name}: {exc}"))
        return "".join(out) or "<p>No file chosen.</p>"

    with gr.Blocks(title="legal_rag — Indian criminal law citations") as demo:
        gr.Markdown("**legal_rag** — answers from the official texts of the IPC/CrPC/IEA and BNS/BNSS/BSA, every "
                    "claim cited to its passage; superseded sections are flagged from the BPR&D correspondence tables.",
                    elem_id="lr-head")
        answer_state = gr.State(None)
        with gr.Tab("Ask", id="ask"):
            # Two columns on a laptop (the answer beside its citations, both above the fold at 1366x768, BL-62);
            # one column on a phone (Gradio wraps a row whose columns pass their min_width).
            with gr.Row(equal_height=False, elem_id="lr-ask-row"):
                with gr.Column(scale=5, min_width=340, elem_id="lr-ask-col"):
                    # the chat grows with its answers (no box of its own to scroll, BL-62); after each answer the
                    # page brings the newest question to the top (SHOW_NEWEST_JS)
                    chat = gr.Chatbot(label="Answer", elem_id="lr-chat", height="auto", min_height=160,
                                      max_height=None, latex_delimiters=[], autoscroll=False)
                    with gr.Row():
                        question = gr.Textbox(label="Question", placeholder="What is the BNS equivalent of IPC 420?",
                                              info=f"At most {limit:,} characters.", elem_id="lr-question", scale=4,
                                              min_width=200)
                        send = gr.Button("Ask", variant="primary", elem_id="lr-ask", scale=1, min_width=80)
                    with gr.Accordion("Offence date and filters", open=True):
                        with gr.Row():
                            offence_date = gr.Textbox(label="Offence date (YYYY-MM-DD, optional)", elem_id="lr-date",
                                                      min_width=160)
                            acts = gr.Dropdown(list(ACTS), multiselect=True, label="Acts", elem_id="lr-acts",
                                               min_width=160)
                        with gr.Row():
                            codes = gr.Radio(["both", "old", "new"], value="both", label="Codes", elem_id="lr-codes",
                                             info="old: IPC/CrPC/IEA; new: BNS/BNSS/BSA", min_width=160)
                            judgments = gr.Checkbox(True, label="Include judgments", elem_id="lr-judgments",
                                                    min_width=160)
                            generator = gr.Dropdown([(generator_label(n), n) for n in generators],  # name, cost
                                                    value=generators[0] if generators else None,
                                                    label="Generator", visible=len(generators) > 1,
                                                    elem_id="lr-generator", min_width=160)
                with gr.Column(scale=6, min_width=340, elem_id="lr-cite-col"):
                    banner = gr.HTML(elem_id="lr-banner")
                    with gr.Row(elem_id="lr-exports"):  # above the table, so the files are in sight with the answer
                        downloads = [gr.DownloadButton(FORMAT_LABELS[n], interactive=False, size="sm", min_width=60,
                                                       elem_id=f"lr-export-{n}") for n in FORMATS]
                    include_unverified = gr.Checkbox(False, label="Export unverified citations too",
                                                     elem_id="lr-include-unverified", container=False)
                    cites = gr.HTML(elem_id="lr-citations")
        with gr.Tab("Section look-up", id="lookup"):
            lookup_in = gr.Textbox(label="Section", placeholder="IPC 420, BNS 318(4), s. 498A IPC",
                                   info=f"At most {limit:,} characters.", elem_id="lr-lookup-input")
            lookup_btn = gr.Button("Look up", elem_id="lr-lookup-btn")
            lookup_out = gr.HTML(elem_id="lr-lookup-out")
        with gr.Tab("Source", id="source"):
            src_pick = gr.Dropdown([], label="Cited source", elem_id="lr-source-pick")
            src_view = gr.HTML(fmt.source_view_html(None, None), elem_id="lr-source-view")
        with gr.Tab("Upload", id="upload"):
            gr.Markdown(f"Add your own PDFs to the index (at most {settings.upload_max_mb:g} MiB each).")
            files = gr.File(file_count="multiple", file_types=[".pdf"], label="PDFs", elem_id="lr-upload")
            ingest_btn = gr.Button("Add to index", elem_id="lr-ingest")
            report = gr.HTML(elem_id="lr-report")

        ask_inputs = [question, chat, offence_date, acts, codes, judgments, generator, include_unverified, answer_state]
        ask_outputs = [chat, cites, banner, answer_state, src_pick, src_view, *downloads]
        for trigger in (send.click, question.submit):
            trigger(ask, ask_inputs, ask_outputs).then(lambda: "", None, question).then(None, js=SHOW_NEWEST_JS)
        include_unverified.change(_exports, [answer_state, include_unverified], downloads)
        lookup_btn.click(lookup, lookup_in, lookup_out)
        lookup_in.submit(lookup, lookup_in, lookup_out)
        src_pick.change(fmt.source_view_html, [answer_state, src_pick], src_view)
        ingest_btn.click(upload, files, report)
    return demo


def _media_type(path: Path) -> str:
    return "application/pdf" if path.suffix.lower() == ".pdf" else "text/plain; charset=utf-8"


def _find_endpoint(routes: list, name: str) -> Any:
    """Gradio's own endpoint function called ``name`` (its ``/gradio_api/user`` session check), searched through
    included routers; raises LookupError when this Gradio version has none (then nothing is served)."""
    for r in routes:
        if getattr(getattr(r, "endpoint", None), "__name__", "") == name:
            return r.endpoint
        inner = getattr(r, "original_router", None) or getattr(r, "router", None)
        if inner is not None and getattr(inner, "routes", None) is not r and hasattr(inner, "routes"):
            try:
                return _find_endpoint(inner.routes, name)
            except LookupError:
                pass
    raise LookupError(f"Gradio endpoint {name!r} not found")


def create_server(settings: Settings, pipeline: Pipeline | None = None) -> FastAPI:
    """FastAPI app: ``GET /source/{name}`` plus the Gradio UI mounted at ``/``.

    ``name`` is a corpus manifest name (a file name, no directory); it is only ever passed to
    ``Pipeline.source_file``, which raises for anything outside the corpus manifest -> 404. With a login
    configured, ``/source`` needs the same session as the UI (401 otherwise)."""
    pipe = _pipeline(settings, pipeline)
    api = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    mounted: dict[str, Any] = {}

    async def require_login(request: Request) -> None:
        gapp = mounted["gradio"]
        if gapp.auth is None and gapp.auth_dependency is None:
            return
        if "user" not in mounted:
            mounted["user"] = _find_endpoint(gapp.routes, "get_current_user")
        if await mounted["user"](request) is None:
            raise HTTPException(status_code=401, detail="Not authenticated")

    @api.get("/source/{name}", dependencies=[Depends(require_login)])
    def source(name: str) -> FileResponse:
        try:
            path = Path(pipe.source_file(name))
        except LegalRagError:
            raise HTTPException(status_code=404, detail="not a corpus file") from None
        if not path.is_file():
            raise HTTPException(status_code=404, detail="not a corpus file")
        return FileResponse(path, media_type=_media_type(path), content_disposition_type="inline",
                            filename=path.name, headers={"X-Content-Type-Options": "nosniff"})

    @api.get("/table-row/{name}/{row}", dependencies=[Depends(require_login)])
    def table_row(name: str, row: str) -> Response:
        """One row of a correspondence table (a head line's "BPR&D table, row 453"), as escaped text; 404 for a
        file that is no table of the corpus or a row it does not have (:func:`legal_rag.ui.tablerow.row_page`)."""
        try:
            page = row_page(name, row, settings.corpus_path)
        except (ValueError, OSError):
            raise HTTPException(status_code=404, detail="not a row of a correspondence table") from None
        return Response(page, media_type="text/html; charset=utf-8", headers={"X-Content-Type-Options": "nosniff"})

    @api.get("/case/{case}", dependencies=[Depends(require_login)])
    def case_page(case: str) -> Response:
        """A judgment of the case base (one a suggestion cites as evidence), as escaped text; 404 otherwise."""
        cb = pipe.casebase
        try:
            if cb is None:
                raise KeyError(case)
            page = fmt.case_page_html(cb.judgment(case), [p.text for p in cb.paragraphs(case)])
        except KeyError:
            raise HTTPException(status_code=404, detail="not a judgment of the case base") from None
        return Response(page, media_type="text/html; charset=utf-8", headers={"X-Content-Type-Options": "nosniff"})

    limit = settings.question_max_chars

    @api.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        """400 (not FastAPI's 422) with one line per problem, each naming its field."""
        parts = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
            parts.append(f"{loc}: {err.get('msg', 'invalid')}")
        return JSONResponse({"detail": "; ".join(parts)}, status_code=400)

    def checked(text: str, name: str) -> str:
        text = normalise_input(text)
        if not text:
            raise HTTPException(status_code=400, detail=f"{name} is empty")
        if len(text) > limit:
            raise HTTPException(status_code=413, detail=too_long(text, limit))
        return text

    @api.get("/api/lookup", dependencies=[Depends(require_login)])
    def api_lookup(q: str) -> Response:
        """Section look-up as JSON (``dataclasses.asdict`` of the LookupResult); 400 for an unusable query, 413
        above ``settings.question_max_chars`` characters."""
        q = checked(q, "q")
        try:
            res = pipe.lookup(q)
        except LegalRagError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        return Response(json.dumps(dataclasses.asdict(res), default=str, ensure_ascii=False),
                        media_type="application/json")

    @api.post("/api/ask", dependencies=[Depends(require_login)])
    def api_ask(body: AskRequest) -> Response:
        """The verified Answer as the JSON export (:func:`legal_rag.export.export_answer`). 400 naming the field
        for a bad date or filter (an unknown key included), 413 for a question above the limit."""
        question = checked(body.question, "question")
        previous = checked(body.previous_question, "previous_question") if body.previous_question else None
        try:
            when = fmt.parse_offence_date(normalise_input(body.offence_date or ""))
            filters = Filters.of(body.filters)
        except (LegalRagError, ValueError) as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        try:
            answer = pipe.ask(question, offence_date=when, filters=None if filters is None or filters.is_empty()
                              else filters, **({"previous": previous} if previous else {}))
        except InputTooLongError as exc:
            raise HTTPException(status_code=413, detail=str(exc)) from None
        except LegalRagError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        return Response(export_answer(answer, "json"), media_type="application/json")

    user, password = settings.auth_user, settings.auth_password.get_secret_value()
    if bool(user) != bool(password):
        raise LegalRagError("set both auth_user and auth_password for a login, or neither")
    gr.mount_gradio_app(api, create_app(settings, pipe), path="/", auth=(user, password) if user else None,
                        max_file_size=int(settings.upload_max_mb * 1024 * 1024), footer_links=[],
                        server_name=settings.host, server_port=settings.port, css=fmt.CSS + LAYOUT_CSS)
    mounted["gradio"] = next(r.app for r in api.routes if isinstance(r, Mount))
    return api


#: Layout for a laptop and a phone (BL-62): the citation table scrolls sideways inside its own box instead of being
#: cut off, so every column (source, page, quote, check) can be reached on a 390 px screen; chat messages wrap.
#: after an answer: the newest question scrolled to the top of the page, its answer below it and, on a wide screen,
#: the citations beside it in the sticky right-hand column
SHOW_NEWEST_JS = """() => {
  const asked = document.querySelectorAll('#lr-chat .message.user');
  if (asked.length > 1) window.scrollTo({top: asked[asked.length - 1].getBoundingClientRect().top + window.scrollY - 8});
}"""

LAYOUT_CSS = """
#lr-citations, #lr-citations .lr-citations { max-width: 100%; }
#lr-citations .lr-citations { overflow-x: auto; -webkit-overflow-scrolling: touch; }
#lr-citations .lr-citations table { min-width: 36em; box-sizing: border-box; }
#lr-banner .lr-banner { overflow-wrap: anywhere; }
#lr-lookup-out .lr-rows { display: block; overflow-x: auto; }
#lr-chat .message { overflow-wrap: anywhere; }
#lr-head p { margin: 0; }
#lr-chat, #lr-chat > div { max-height: none !important; }
.gradio-container { overflow: clip visible !important; }  /* 'hidden' made it a scroll box: no sticky column */
#lr-cite-col { position: sticky; top: 8px; align-self: flex-start; max-height: calc(100vh - 16px); overflow-y: auto;
               flex-wrap: nowrap !important; }  /* a wrapping column moved a tall table beside itself, off screen */
#lr-cite-col > * { flex-shrink: 0; }
@media (max-width: 800px) { #lr-cite-col { position: static; max-height: none; overflow-y: visible; } }
"""


def main() -> None:
    """Serve the UI on ``settings.host:settings.port`` (127.0.0.1:7860 by default); never a public share link."""
    import uvicorn

    settings = load_settings()
    if settings.host not in ("127.0.0.1", "localhost", "::1") and not settings.auth_user:
        print(f"warning: serving on {settings.host} without a login (set auth_user and auth_password)")
    print(f"legal_rag UI on http://{settings.host}:{settings.port}/")
    uvicorn.run(create_server(settings), host=settings.host, port=settings.port, log_level="warning")


if __name__ == "__main__":
    main()
