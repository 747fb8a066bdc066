"""Gradio chat UI over :class:`legal_rag.pipeline.Pipeline` (thin: it calls the pipeline, ``export`` and
:mod:`.html`, and holds no logic of its own).

* ``create_app(settings, pipeline=None) -> gr.Blocks`` builds the UI (cheap: no model is loaded).
* ``create_server(settings, pipeline=None) -> FastAPI`` adds ``GET /source/{name}`` (a corpus file, found only
  through ``Pipeline.source_file``; nothing else on disk is reachable) and mounts the UI at ``/``, with the optional
  login (``auth_user`` / ``auth_password``) guarding both, and the upload limit (``upload_max_mb``).
* JSON API beside the UI (same login): ``GET /api/lookup?q=IPC+420`` (the LookupResult as JSON) and
  ``POST /api/ask`` with question, offence_date, filters and the conversation so far: ``previous_answer`` (the
  previous reply, the JSON export) or ``previous_question``; the Answer as the JSON export. A body that does not fit
  (an unknown field or filter key, a bad date or filter value) is answered 400 with a message naming it; a
  question above ``settings.question_max_chars`` characters 413, with the limit stated.
* A conversation's context is the previous answer: the chat keeps it in its answer state, cleared with the chat
  (the Chatbot's Clear button) and ignored when the chat sent back is empty; the JSON API keeps none, so a
  conversation sends its previous reply back (none sent: no previous question).
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
from ..export import FORMATS, answer_text, export_answer, turn_of_json, write_exports  # noqa: E402
from ..law import normalise_input, shown_refused, too_long  # noqa: E402
from ..retrieve import Filters  # noqa: E402
from ..types import ACTS, Answer  # noqa: E402
from ..uploads import UploadError, UploadJobs, parse_source  # noqa: E402
from . import html as fmt  # noqa: E402
from .guard import Inflight, RequestGuard, owner_of  # noqa: E402
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
    #: the previous reply of the conversation (the JSON export this endpoint answered with): a follow-up with no
    #: legal words of its own is answered for the provision that governed it (its head; ``Pipeline.ask(previous=...)``)
    previous_answer: dict | None = None
    #: without the previous reply, the previous question (same length limit): a follow-up is answered for the
    #: provision that question named, and says so when it named none
    previous_question: str | None = None


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>$])")


def as_text(text: str) -> str:
    """``text`` as the Chatbot's Markdown source that shows exactly ``text``: HTML-escaped and every Markdown
    punctuation mark backslash-escaped, so ``<img src=x onerror=alert(1)>`` and ``**bold**`` appear as typed.
    Newlines stay line breaks."""
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


def gradio_upload(f: Any) -> Path:
    """The file behind a value of the Upload tab's ``gr.File``, accepted only when it lies inside the folder
    Gradio itself writes uploads to (``gradio.utils.get_upload_folder()``), after every link is resolved, and is a
    regular file. Raises :class:`UploadError` otherwise, naming no path: a client may name any path in the event's
    data, and Gradio's own allowed-path check does not run for an app mounted in FastAPI."""
    from gradio.utils import get_upload_folder

    raw = f if isinstance(f, str) else getattr(f, "path", None) or getattr(f, "name", None)
    if not isinstance(raw, str) or not raw or "\x00" in raw:
        raise UploadError("not a file uploaded through this page")
    try:
        root = Path(get_upload_folder()).resolve()
        path = Path(raw).resolve(strict=True)
        ok = path.is_relative_to(root) and path != root and path.is_file()
    except (OSError, ValueError, RuntimeError):
        ok = False
    if not ok:
        raise UploadError("not a file uploaded through this page")
    return path


def _prune(root: Path, older_s: float) -> None:
    """Remove the entries of ``root`` last changed more than ``older_s`` seconds ago (exports a browser already
    fetched); errors are ignored (another thread may be removing them too)."""
    import shutil
    import time

    if not root.is_dir():
        return
    now = time.time()
    for d in root.iterdir():
        try:
            if now - d.stat().st_mtime > older_s:
                shutil.rmtree(d) if d.is_dir() else d.unlink()
        except OSError:
            pass


#: how long an export file is kept for its download, in seconds
EXPORT_KEEP_S = 3600.0


def upload_jobs(pipe: Pipeline, settings: Settings) -> UploadJobs:
    """The server's upload queue (one per pipeline), running :meth:`Pipeline.add_upload`."""
    jobs = getattr(pipe, "_ui_upload_jobs", None)
    if jobs is None:
        Path(settings.data_dir).mkdir(parents=True, exist_ok=True)
        jobs = UploadJobs(pipe.add_upload, workdir=Path(settings.data_dir))
        pipe._ui_upload_jobs = jobs
    return jobs


def inflight_of(pipe: Pipeline, settings: Settings) -> Inflight:
    """The per-client bound on questions in progress (one per pipeline, shared by the UI and the API)."""
    got = getattr(pipe, "_ui_inflight", None)
    if got is None:
        got = pipe._ui_inflight = Inflight(settings.client_max_inflight, settings.answer_concurrency)
    return got


def create_app(settings: Settings, pipeline: Pipeline | None = None) -> gr.Blocks:
    """The Blocks UI: Ask (chat, citations, supersession banner, exports), Section look-up, Source, Upload."""
    pipe = _pipeline(settings, pipeline)
    jobs = upload_jobs(pipe, settings)
    inflight = inflight_of(pipe, settings)
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

    def served(case: str) -> bool:
        """Whether ``/case/<case>`` shows this judgment (it is in the pipeline's case base)."""
        cb = getattr(pipe, "casebase", None)
        try:
            return cb is not None and bool(cb.judgment(case))
        except KeyError:
            return False

    def banner_of(answer: Answer) -> str:
        """The banner of ``answer`` with which date decides for each Act: the dates the answer applied
        (``Answer.offence_date``, ``proceeding_date``: the question's dates, the date field winning); its passages
        named as a reader names them (:func:`legal_rag.ui.html.passage_names`)."""
        return fmt.supersession_banner(answer.flags, answer.problems, row_link=row_link,
                                       offence_date=answer.offence_date, proceeding_date=answer.proceeding_date,
                                       names=fmt.passage_names(answer))

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

    def ask(question, history, offence_date, acts, codes, judgments, generator, include_unverified, previous=None,
            request: gr.Request = None):
        """One chat turn: the Ask tab's outputs (:func:`_turn`), then the question box and the note under it.

        An empty question changes nothing on the page but the note ("Type a question first."). A question that is
        refused (too long, a bad date, filters that match nothing, too many in progress) stays in the box, the note
        saying why; an accepted one empties the box and the note (no warning of an earlier turn is left over)."""
        raw = question or ""
        if not (normalise_input(raw) if len(raw) <= limit else raw):
            yield (*[gr.update()] * (6 + len(FORMATS)), gr.update(), fmt.ask_note("Type a question first."))
            return
        box, note = "", ""  # the first output empties them: the question is accepted unless it says otherwise
        for out, refused in _turn(raw, history, offence_date, acts, codes, judgments, generator, include_unverified,
                                  previous, request):
            if refused:
                box, note = raw, fmt.ask_note(refused)
            yield (*out, box, note)
            box, note = gr.update(), gr.update()

    def _turn(raw, history, offence_date, acts, codes, judgments, generator, include_unverified, previous, request):
        """The turn's outputs, each with why the question was refused ("" while it is not). ``previous`` is the
        last turn's Answer (the ``answer_state``): a follow-up with no legal words of its own is answered for its
        provision. Each answer in the history keeps its own compact source list
        (:func:`legal_rag.ui.html.sources_line`). The question is answered from the corpus and the caller's own
        uploads (:meth:`Pipeline.for_owner`); at most ``settings.chat_history_max`` messages of the history the
        client sends back are kept, and a question above the length limit is refused before it is normalised.
        ``previous`` counts only while the chat sent back holds messages (a cleared chat has no previous question)."""
        previous = previous if history and isinstance(previous, Answer) else None
        history = list(history or [])[-settings.chat_history_max:]
        question = normalise_input(raw) if len(raw) <= limit else raw
        # a refused long question is shown cut, with its length, so the refusal stays in sight
        history += [{"role": "user", "content": as_text(shown_refused(question, limit))},
                    {"role": "assistant", "content": ""}]
        try:
            if len(question) > limit:
                raise InputTooLongError(too_long(question, limit))
            kwargs = {"offence_date": fmt.parse_offence_date(normalise_input(offence_date or "")),
                      "filters": ui_filters(acts, codes, judgments)}
        except (LegalRagError, ValueError) as exc:
            yield cleared(history, f"Not asked: {exc}"), f"Not asked: {exc}"
            return
        if len(generators) > 1 and generator in generators:
            kwargs["generator"] = generator
        kwargs["previous"] = previous
        try:
            owner = owner_of(request) if request is not None else None
        except UploadError:
            owner = None
        key = owner.key if owner is not None else getattr(request, "session_hash", "") or "anonymous"
        with inflight.slot(key) as got:
            if not got:
                why = (f"Not asked: {settings.client_max_inflight} of your questions are still being answered; wait "
                       "for one to finish")
                yield cleared(history, why), why
                return
            with inflight.turn():
                yield from _answer(history, question, kwargs, include_unverified,
                                   pipe.for_owner(owner) if owner else pipe)

    def _answer(history, question, kwargs, include_unverified, answering):
        """The answer's outputs as it is written, each with why the question was refused ("" while it is not: a
        refusal is an error of the pipeline before any of the answer's text)."""
        yield cleared(history, ""), ""
        text, answer = "", None
        try:
            for piece in answering.ask_stream(question, **kwargs):
                if isinstance(piece, Answer):
                    answer = piece
                else:
                    text += piece
                    history[-1] = {"role": "assistant", "content": as_text(text)}
                    yield (history, gr.update(), gr.update(), gr.update(), gr.update(), gr.update(),
                           *[gr.update()] * len(FORMATS)), ""
        except LegalRagError as exc:
            yield cleared(history, f"No answer: {exc}"), "" if text else f"Not asked: {exc}"
            return
        except Exception as exc:  # a bug: the chat says so, nothing stale is left, and the traceback is kept
            yield cleared(history, f"No answer: internal error ({type(exc).__name__}); please report it"), ""
            raise
        if answer is None:
            yield cleared(history, "No answer: the pipeline ended without an answer"), ""
            return
        sources = fmt.sources_line(answer)
        rows = rows_markdown(answer.head)  # the head's BPR&D table rows as links to /table-row
        parts = [as_text(answer_text(answer)), as_text(sources) if sources else "", rows]
        history[-1] = {"role": "assistant", "content": "\n\n".join(p for p in parts if p)}
        choices = fmt.source_choices(answer)
        yield (history, fmt.citations_panel(answer, served), banner_of(answer), answer,
               gr.update(choices=choices, value=choices[0][1] if choices else None),
               fmt.source_view_html(answer, choices[0][1] if choices else None, served),
               *_exports(answer, include_unverified)), ""

    def clear_chat() -> tuple:
        """What the Chatbot's Clear button leaves: no previous answer (the next follow-up has no previous question),
        and none of its citations, banner, source view or export files."""
        return ("", "", None, gr.update(choices=[], value=None), fmt.source_view_html(None, None),
                *_exports(None, False))

    def _exports(answer: Answer | None, include_unverified: bool) -> list:
        if answer is None:
            return [gr.update(value=None, interactive=False)] * len(FORMATS)
        key = hashlib.sha256(repr((answer, include_unverified)).encode()).hexdigest()[:16]
        _prune(export_root, EXPORT_KEEP_S)
        paths = write_exports(answer, export_root / key, include_unverified=include_unverified)
        return [gr.update(value=str(paths[name]), interactive=True) for name in FORMATS]

    def lookup(text):
        text = text or ""
        if len(text) > limit:  # before normalising: a long body costs nothing
            return fmt.notice_html("error", too_long(text, limit))
        text = normalise_input(text)
        try:
            return fmt.lookup_html(pipe.lookup(text))
        except LegalRagError as exc:
            return fmt.notice_html("not_found", str(exc))

    def listed(request: gr.Request = None):
        """The caller's uploads as table rows, and the choices of the Remove picker."""
        try:
            docs = pipe.list_uploads(owner_of(request))
        except UploadError:
            docs = ()
        rows = [[d.name, d.title, "shared library" if d.shared else "yours", d.classified, d.pages, d.uploaded]
                for d in docs]
        choices = [(f"{d.name} ({d.uploaded})", d.doc_id) for d in docs if not d.shared]
        return rows, gr.update(choices=choices, value=None)

    def upload(files, request: gr.Request = None):
        """Queue each chosen file (checked to be one Gradio wrote: :func:`gradio_upload`) as the caller's upload,
        then show each job's progress until all are over, and their reports."""
        import time

        try:
            owner = owner_of(request)
        except UploadError as exc:
            yield fmt.notice_html("error", str(exc))
            return
        out, queued = [], []
        for f in files or []:
            try:
                path = gradio_upload(f)
                queued.append(jobs.submit(owner, path, path.name))
            except UploadError as exc:
                out.append(fmt.notice_html("error", str(exc)))
        if not queued:
            yield "".join(out) or "<p>No file chosen.</p>"
            return
        while True:
            now = [jobs.get(owner, j.id) for j in queued]
            yield "".join(out) + "".join(fmt.upload_job_html(j) for j in now)
            if all(j.over for j in now):
                return
            time.sleep(0.5)

    def cancel_uploads(request: gr.Request = None):
        try:
            owner = owner_of(request)
        except UploadError:
            return "<p>Nothing to cancel.</p>"
        stopped = [jobs.cancel(owner, j.id) for j in jobs.of(owner) if not j.over]
        return "".join(fmt.upload_job_html(j) for j in stopped) or "<p>Nothing to cancel.</p>"

    def remove(doc_id, request: gr.Request = None):
        if not doc_id:
            return fmt.notice_html("error", "Pick one of your uploads first.")
        try:
            doc = pipe.remove_upload(owner_of(request), doc_id)
        except UploadError as exc:
            return fmt.notice_html("error", str(exc))
        return fmt.notice_html("info", f"Removed {doc.name}: it is no longer searched or cited.")

    # Gradio's own temporary files (uploads, downloads) are deleted an hour after they were made
    with gr.Blocks(title="legal_rag — Indian criminal law citations", delete_cache=(600, 3600)) as demo:
        gr.Markdown("**legal_rag** — answers from the official texts of the IPC/CrPC/IEA and BNS/BNSS/BSA, every "
                    "claim cited to its passage; superseded sections are flagged from the BPR&D correspondence tables.",
                    elem_id="lr-head")
        answer_state = gr.State(None)
        with gr.Tab("Ask", id="ask"):
            # Two columns on a laptop (the answer beside its citations, both above the fold at 1366x768);
            # one column on a phone (Gradio wraps a row whose columns pass their min_width).
            with gr.Row(equal_height=False, elem_id="lr-ask-row"):
                with gr.Column(scale=5, min_width=340, elem_id="lr-ask-col"):
                    # the chat grows with its answers (no box of its own to scroll); after each answer the
                    # page brings the newest question to the top (SHOW_NEWEST_JS)
                    chat = gr.Chatbot(label="Answer", elem_id="lr-chat", height="auto", min_height=160,
                                      max_height=None, latex_delimiters=[], autoscroll=False)
                    with gr.Row(elem_id="lr-question-row"):
                        question = gr.Textbox(label="Question", placeholder="What is the BNS equivalent of IPC 420?",
                                              info=f"At most {limit:,} characters.", elem_id="lr-question", scale=4,
                                              min_width=200)
                        send = gr.Button("Ask", variant="primary", elem_id="lr-ask", scale=1, min_width=80)
                    # why the last question was not asked (empty, too long, a bad date ...); never a toast that
                    # would cover the banner, and emptied when a question is accepted
                    ask_note = gr.HTML("", elem_id="lr-ask-note")
                    with gr.Accordion("Offence date and filters", open=True, elem_id="lr-filters"):
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
            gr.Markdown(f"Add your own PDFs (at most {settings.upload_max_mb:g} MiB and "
                        f"{settings.upload_max_pages} pages each). They are searched for your questions only, and "
                        "cited as *uploaded document (unverified)*, never as a court's judgment.")
            files = gr.File(file_count="multiple", file_types=[".pdf"], label="PDFs", elem_id="lr-upload")
            with gr.Row():
                ingest_btn = gr.Button("Add to my documents", elem_id="lr-ingest")
                cancel_btn = gr.Button("Cancel", elem_id="lr-upload-cancel", variant="secondary", scale=0, min_width=100)
            report = gr.HTML(elem_id="lr-report")
            mine = gr.Dataframe(headers=["File", "Title", "Whose", "Reads as", "Pages", "Uploaded"],
                                label="Your uploads", interactive=False, elem_id="lr-uploads")
            with gr.Row():
                pick = gr.Dropdown([], label="Remove an upload", elem_id="lr-upload-pick")
                remove_btn = gr.Button("Remove", elem_id="lr-upload-remove")

        ask_inputs = [question, chat, offence_date, acts, codes, judgments, generator, include_unverified, answer_state]
        ask_outputs = [chat, cites, banner, answer_state, src_pick, src_view, *downloads, question, ask_note]
        for trigger in (send.click, question.submit):
            # progress shows as a small timer on the citations, never a pending message in the chat (an empty
            # Ask must leave the conversation as it is)
            trigger(ask, ask_inputs, ask_outputs, show_progress="minimal", show_progress_on=[cites]).then(
                None, js=SHOW_NEWEST_JS)
        chat.clear(clear_chat, None, [cites, banner, answer_state, src_pick, src_view, *downloads])
        include_unverified.change(_exports, [answer_state, include_unverified], downloads)
        lookup_btn.click(lookup, lookup_in, lookup_out)
        lookup_in.submit(lookup, lookup_in, lookup_out)
        src_pick.change(lambda a, m: fmt.source_view_html(a, m, served), [answer_state, src_pick], src_view)
        adding = ingest_btn.click(upload, files, report)
        adding.then(listed, None, [mine, pick])
        cancel_btn.click(cancel_uploads, None, report).then(listed, None, [mine, pick])
        remove_btn.click(remove, pick, report).then(listed, None, [mine, pick])
        demo.load(listed, None, [mine, pick])
    demo.queue(default_concurrency_limit=settings.answer_concurrency, max_size=64)
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
        user = await mounted["user"](request)
        if user is None:
            raise HTTPException(status_code=401, detail="Not authenticated")
        request.state.user = user

    def caller(request: Request):
        """The owner of the request (:func:`legal_rag.ui.guard.owner_of`); 400 when it has none."""
        try:
            return owner_of(request)
        except UploadError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None

    @api.get("/source/{name:path}", dependencies=[Depends(require_login)])
    def source(name: str, request: Request) -> FileResponse:
        """A manifest file by its file name, or one of the caller's own uploads by its source
        (``uploads/<doc id>/<name>``); 404 for anything else."""
        try:
            up = parse_source(name)
            path = Path(pipe.upload_file(caller(request), up[0]) if up else pipe.source_file(name))
        except (LegalRagError, OSError, ValueError):
            raise HTTPException(status_code=404, detail="not a corpus file or an upload of yours") from None
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
            page = fmt.case_page_html(cb.judgment(case), cb.paragraphs(case))
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
        if len(text) > limit:  # before normalising: a long body costs nothing
            raise HTTPException(status_code=413, detail=too_long(text, limit))
        text = normalise_input(text)
        if not text:
            raise HTTPException(status_code=400, detail=f"{name} is empty")
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

    inflight = inflight_of(pipe, settings)
    jobs = upload_jobs(pipe, settings)

    @api.post("/api/ask", dependencies=[Depends(require_login)])
    def api_ask(body: AskRequest, request: Request) -> Response:
        """The verified Answer as the JSON export (:func:`legal_rag.export.export_answer`), from the corpus and the
        caller's own uploads. 400 naming the field for a bad date or filter (an unknown key included), 413 for a
        question above the limit, 429 while the caller has ``settings.client_max_inflight`` questions in
        progress."""
        owner = caller(request)
        with inflight.slot(owner.key) as got:
            if not got:
                raise HTTPException(status_code=429, detail=f"{settings.client_max_inflight} of your questions are "
                                    "still being answered; wait for one to finish")
            with inflight.turn():
                return _api_ask(body, pipe.for_owner(owner))

    def _api_ask(body: AskRequest, pipe) -> Response:
        question = checked(body.question, "question")
        previous = previous_of(body)
        try:
            when = fmt.parse_offence_date(normalise_input(body.offence_date or ""))
            filters = Filters.of(body.filters)
        except (LegalRagError, ValueError) as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        try:
            answer = pipe.ask(question, offence_date=when, filters=None if filters is None or filters.is_empty()
                              else filters, previous=previous)
        except InputTooLongError as exc:
            raise HTTPException(status_code=413, detail=str(exc)) from None
        except LegalRagError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        return Response(export_answer(answer, "json"), media_type="application/json")

    def previous_of(body: AskRequest):
        """The previous turn a body sends (``None``: none, so a follow-up has no previous question): the turn of its
        ``previous_answer`` (:func:`legal_rag.export.turn_of_json`), else its ``previous_question`` checked as a
        question is. 400 for both at once or for a ``previous_answer`` that is no JSON export."""
        if body.previous_answer is not None and body.previous_question:
            raise HTTPException(status_code=400, detail="send previous_answer or previous_question, not both")
        if body.previous_answer is not None:
            try:
                return turn_of_json(json.dumps(body.previous_answer), "previous_answer")
            except LegalRagError as exc:
                raise HTTPException(status_code=400, detail=str(exc)) from None
        return checked(body.previous_question, "previous_question") if body.previous_question else None

    def job_json(job) -> JSONResponse:
        out = {"job": job.id, "name": job.name, "state": job.state, "step": job.step,
               "fraction": round(job.fraction, 3), "error": job.error,
               "doc": dataclasses.asdict(job.doc) | {"source": job.doc.source} if job.doc else None,
               "report": json.loads(json.dumps(dataclasses.asdict(job.report), default=str)) if job.report else None}
        return JSONResponse(out, status_code=202 if not job.over else 200)

    @api.get("/api/uploads", dependencies=[Depends(require_login)])
    def api_uploads(request: Request) -> JSONResponse:
        """The caller's uploads (and the shared library's, when it is on), newest first."""
        docs = pipe.list_uploads(caller(request))
        return JSONResponse({"uploads": [dataclasses.asdict(d) | {"source": d.source} for d in docs]})

    @api.post("/api/uploads", dependencies=[Depends(require_login)])
    async def api_upload(request: Request, wait: float = 0.0) -> JSONResponse:
        """One PDF as the request's multipart field ``file``, queued as the caller's upload: 202 with the job
        (``GET /api/uploads/jobs/{job}``), or, with ``wait`` seconds (at most 600), the job as it is then (200 when
        it is over). 413 above ``upload_max_mb``; 400 without a file."""
        import asyncio
        import tempfile

        owner = caller(request)
        form = await request.form(max_files=1, max_fields=4, max_part_size=1024 * 1024)
        f = form.get("file")
        if f is None or isinstance(f, str):
            raise HTTPException(status_code=400, detail="file: a PDF in the multipart field 'file' is required")
        cap = int(settings.upload_max_mb * 1024 * 1024)
        with tempfile.TemporaryDirectory(dir=Path(settings.data_dir)) as tmp:
            dest = Path(tmp) / "upload.pdf"
            size = 0
            with open(dest, "wb") as out:
                while block := await f.read(1 << 20):
                    size += len(block)
                    if size > cap:
                        raise HTTPException(status_code=413, detail=f"the file is larger than "
                                            f"{settings.upload_max_mb:g} MiB")
                    out.write(block)
            await form.close()
            try:
                job = jobs.submit(owner, dest, f.filename or "upload.pdf")
            except UploadError as exc:
                raise HTTPException(status_code=429, detail=str(exc)) from None
        if wait > 0:
            job = await asyncio.to_thread(jobs.wait, owner, job.id, min(wait, 600.0))
        return job_json(job)

    @api.exception_handler(UploadError)
    async def not_yours(request: Request, exc: UploadError) -> JSONResponse:
        """An upload or job that is not the caller's (or none): 404, the message naming no path."""
        return JSONResponse({"detail": str(exc)}, status_code=404)

    @api.get("/api/uploads/jobs/{job_id}", dependencies=[Depends(require_login)])
    def api_upload_job(job_id: str, request: Request) -> JSONResponse:
        return job_json(jobs.get(caller(request), job_id))

    @api.delete("/api/uploads/jobs/{job_id}", dependencies=[Depends(require_login)])
    def api_upload_cancel(job_id: str, request: Request) -> JSONResponse:
        """Cancel the caller's upload job (it stops at its next step; nothing of it is kept)."""
        return job_json(jobs.cancel(caller(request), job_id))

    @api.delete("/api/uploads/{doc_id}", dependencies=[Depends(require_login)])
    def api_upload_remove(doc_id: str, request: Request) -> JSONResponse:
        """Remove one of the caller's uploads; 404 for anyone else's (or none)."""
        doc = pipe.remove_upload(caller(request), doc_id)
        return JSONResponse({"removed": doc.doc_id, "name": doc.name})

    user, password = settings.auth_user, settings.auth_password.get_secret_value()
    if bool(user) != bool(password):
        raise LegalRagError("set both auth_user and auth_password for a login, or neither")
    demo = create_app(settings, pipe)
    gr.mount_gradio_app(api, demo, path="/", auth=(user, password) if user else None,
                        max_file_size=int(settings.upload_max_mb * 1024 * 1024), footer_links=[],
                        server_name=settings.host, server_port=settings.port, css=fmt.CSS + LAYOUT_CSS)
    mounted["gradio"] = next(r.app for r in api.routes if isinstance(r, Mount))
    # Gradio checks that a file named in an event's data was uploaded by a user (inside its upload folder) only once
    # the Blocks count as launched, which only launch() sets: mounted, they are launched here, so its check runs
    # before our own (gradio_upload) and a client-named path is never copied into its cache
    demo.has_launched = True
    from gradio.utils import get_upload_folder

    api.add_middleware(RequestGuard, max_body=settings.request_max_bytes,
                       max_upload=int(settings.upload_max_mb * 1024 * 1024) + 64 * 1024,
                       upload_folder=get_upload_folder())
    return api


def _cards(table: str, heads: tuple[str, ...]) -> str:
    """CSS that shows the rows of the tables matched by ``table`` as stacked cards, each cell labelled with its
    column head (``heads``, in column order: the labels are the heads the wide table shows)."""
    labels = "\n".join(f'  {table} td:nth-child({i})::before {{ content: "{h}"; }}' for i, h in enumerate(heads, 1))
    return f"""
  {table}, {table} tbody, {table} tr {{ display: block; width: auto; min-width: 0; max-width: none; border: none; }}
  {table} thead {{ position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }}
  {table} tr {{ border: 1px solid #ccc; border-radius: 6px; margin: 0 0 10px; }}
  {table} td {{ display: flow-root; width: auto; min-width: 0; max-width: none; border: none;
               border-top: 1px solid #eee; padding: 4px 6px 4px 8.4em; overflow-wrap: anywhere; word-break: normal;
               text-align: left; }}
  {table} td:first-child {{ border-top: none; background: #f6f6f6; }}
  {table} td::before {{ float: left; width: 8.6em; margin-left: -9.4em; font-weight: 600; font-style: normal;
                       font-size: 0.85em; color: #555; overflow-wrap: normal; }}
{labels}"""


#: the citation table (:func:`legal_rag.ui.html.citations_panel`) and the look-up tables (:func:`~legal_rag.ui.html.
#: lookup_html`) as stacked cards on a phone
PHONE_TABLES_CSS = ("\n@media (max-width: 640px) {"
                    + _cards("#lr-citations .lr-citations table", ("Citation", "Act / court", "Section", "Title",
                                                                   "Source (page)", "Quoted passage", "Check",
                                                                   "Weight"))
                    + "\n  #lr-citations .lr-citations { overflow-x: visible; }"
                    # the question box on a line of its own (its example question read whole), Ask below it
                    + "\n  #lr-question-row { flex-wrap: wrap !important; }"
                    + "\n  #lr-question-row > * { flex: 1 1 100% !important; min-width: 100% !important; }"
                    + _cards("#lr-lookup-out table.lr-rows:not(.lr-classification)",
                             ("Table row", "New", "Old", "Subject", "Summary of change"))
                    + _cards("#lr-lookup-out table.lr-classification",
                             ("Section", "Offence", "Punishment", "Cognizable", "Bailable", "Triable by", "Source"))
                    + "\n}\n")

#: after an answer: the newest question scrolled to the top of the page, its answer below it and, on a wide screen,
#: the citations beside it in the sticky right-hand column
SHOW_NEWEST_JS = """() => {
  const asked = document.querySelectorAll('#lr-chat .message.user');
  if (asked.length > 1) window.scrollTo({top: asked[asked.length - 1].getBoundingClientRect().top + window.scrollY - 8});
}"""

#: Layout for a laptop and a phone (issues 16 and 31). Wide: the answer and its question box on the left, the banner,
#: exports and citation table in a sticky column on the right; the table scrolls sideways inside its own box when the
#: column is narrow. At most 800 px: one column, the supersession banner right after the answer (above the question
#: box and the filter form). At most 640 px: the citation table and the look-up tables become stacked cards (one row
#: a block, each field labelled by its column head: ``PHONE_TABLES_CSS``), so every column is read without the page
#: scrolling sideways; a long file name breaks where it must, ordinary words never; the question box takes a line of
#: its own, the Ask button below it.
LAYOUT_CSS = """
#lr-citations, #lr-citations .lr-citations { max-width: 100%; }
#lr-citations .lr-citations { overflow-x: auto; -webkit-overflow-scrolling: touch; }
#lr-citations .lr-citations table { min-width: 36em; box-sizing: border-box; }
#lr-banner .lr-banner { overflow-wrap: anywhere; }
#lr-lookup-out .lr-rows { display: block; overflow-x: auto; }
#lr-lookup-out { overflow-wrap: anywhere; word-break: normal; }
#lr-lookup-out .lr-side-by-side { grid-template-columns: repeat(auto-fit, minmax(min(20em, 100%), 1fr)); }
#lr-chat .message { overflow-wrap: anywhere; }
#lr-head p { margin: 0; }
#lr-chat, #lr-chat > div { max-height: none !important; }
.gradio-container { overflow: clip visible !important; }  /* 'hidden' made it a scroll box: no sticky column */
#lr-cite-col { position: sticky; top: 8px; align-self: flex-start; max-height: calc(100vh - 16px); overflow-y: auto;
               flex-wrap: nowrap !important; }  /* a wrapping column moved a tall table beside itself, off screen */
#lr-cite-col > * { flex-shrink: 0; }
@media (max-width: 800px) {
  #lr-cite-col { position: static; max-height: none; overflow-y: visible; }
  /* one column whose items are the two columns' blocks, so the banner can follow the answer */
  #lr-ask-row { flex-direction: column !important; flex-wrap: nowrap !important; }
  #lr-ask-col, #lr-cite-col { display: contents !important; }
  #lr-ask-col > *, #lr-cite-col > * { order: 10; min-width: 0; width: 100%; box-sizing: border-box; }
  #lr-ask-col > #lr-chat { order: 1; }
  #lr-cite-col > #lr-banner { order: 2; }
  #lr-ask-col > #lr-question-row { order: 3; }
  #lr-ask-col > #lr-ask-note { order: 4; }
  #lr-ask-col > #lr-filters { order: 5; }
}
""" + PHONE_TABLES_CSS


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
