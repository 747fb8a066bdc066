"""Gradio chat UI over :class:`legal_rag.pipeline.Pipeline` (thin: it calls the pipeline, ``export`` and
:mod:`.html`, and holds no logic of its own).

* ``create_app(settings, pipeline=None) -> gr.Blocks`` builds the UI (cheap: no model is loaded).
* ``create_server(settings, pipeline=None) -> FastAPI`` adds ``GET /source/{name}`` (a corpus file, found only
  through ``Pipeline.source_file``; nothing else on disk is reachable) and mounts the UI at ``/``, with the optional
  login (``auth_user`` / ``auth_password``) guarding both, and the upload limit (``upload_max_mb``).
* JSON API beside the UI (same login): ``GET /api/lookup?q=IPC+420`` (the LookupResult as JSON) and
  ``POST /api/ask`` with question, offence_date, filters (the Answer as the JSON export).
* ``main()`` serves it on ``settings.host`` (127.0.0.1 by default) with uvicorn; there is no public share link.

``legal-rag serve`` calls :func:`main`; the repository's root ``app.py`` re-exports this module (``python app.py``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import gradio as gr  # noqa: E402
from fastapi import Depends, FastAPI, HTTPException, Request  # noqa: E402
from fastapi.responses import FileResponse, Response  # noqa: E402
from pydantic import BaseModel  # noqa: E402
from starlette.routing import Mount  # noqa: E402

from ..config import Settings, load_settings  # noqa: E402
from ..errors import LegalRagError  # noqa: E402
from ..export import FORMATS, export_answer, write_exports  # noqa: E402
from ..types import ACTS, Answer  # noqa: E402
from . import html as fmt  # noqa: E402

if TYPE_CHECKING:
    from ..pipeline import Pipeline

#: longest question or look-up the JSON API accepts, in characters
API_MAX_CHARS = 2000


class AskRequest(BaseModel):
    """Body of ``POST /api/ask``: ``offence_date`` is ``YYYY-MM-DD`` or empty; ``filters`` as ``Pipeline.ask``."""

    question: str
    offence_date: str | None = None
    filters: dict | None = None


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
    generators = tuple(pipe.generators()) if hasattr(pipe, "generators") else ()
    export_root = Path(settings.data_dir) / "exports"

    def ask(question, history, offence_date, acts, codes, judgments, generator, include_unverified):
        history = list(history or [])
        question = (question or "").strip()
        if not question:
            raise gr.Error("Type a question first.")
        try:
            when = fmt.parse_offence_date(offence_date)
        except ValueError as exc:
            raise gr.Error(str(exc)) from None
        kwargs = {"offence_date": when, "filters": fmt.build_filters(acts, codes, judgments)}
        if len(generators) > 1 and generator:
            kwargs["generator"] = generator
        history += [{"role": "user", "content": question}, {"role": "assistant", "content": ""}]
        no_files = [gr.update()] * len(FORMATS)
        yield (history, "", "", None, gr.update(), "", *no_files)
        text, answer = "", None
        try:
            for piece in pipe.ask_stream(question, **kwargs):
                if isinstance(piece, Answer):
                    answer = piece
                else:
                    text += piece
                    history[-1] = {"role": "assistant", "content": text}
                    yield (history, "", "", None, gr.update(), "", *no_files)
        except LegalRagError as exc:
            raise gr.Error(str(exc)) from None
        if answer is None:
            raise gr.Error("the pipeline ended without an answer")
        history[-1] = {"role": "assistant", "content": answer.text}
        choices = fmt.source_choices(answer)
        yield (history, fmt.citations_panel(answer), fmt.supersession_banner(answer.flags, answer.problems), answer,
               gr.update(choices=choices, value=choices[0][1] if choices else None),
               fmt.source_view_html(answer, choices[0][1] if choices else None), *_exports(answer, include_unverified))

    def _exports(answer: Answer | None, include_unverified: bool) -> list:
        if answer is None:
            return [gr.update(value=None, interactive=False)] * len(FORMATS)
        key = hashlib.sha256(repr((answer, include_unverified)).encode()).hexdigest()[:16]
        paths = write_exports(answer, export_root / key, include_unverified=include_unverified)
        return [gr.update(value=str(paths[name]), interactive=True) for name in FORMATS]

    def lookup(text):
        try:
            return fmt.lookup_html(pipe.lookup((text or "").strip()))
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
        gr.Markdown("## legal_rag\nAnswers from the official texts of the IPC/CrPC/IEA and BNS/BNSS/BSA, every claim "
                    "cited to its passage; superseded sections are flagged from the BPR&D correspondence tables.")
        answer_state = gr.State(None)
        with gr.Tab("Ask", id="ask"):
            banner = gr.HTML(elem_id="lr-banner")
            chat = gr.Chatbot(label="Answer", elem_id="lr-chat", height=360)
            with gr.Row():
                question = gr.Textbox(label="Question", placeholder="What is the BNS equivalent of IPC 420?",
                                      elem_id="lr-question", scale=4)
                send = gr.Button("Ask", variant="primary", elem_id="lr-ask", scale=1)
            with gr.Accordion("Offence date and filters", open=True):
                with gr.Row():
                    offence_date = gr.Textbox(label="Offence date (YYYY-MM-DD, optional)", elem_id="lr-date")
                    acts = gr.Dropdown(list(ACTS), multiselect=True, label="Acts", elem_id="lr-acts")
                    codes = gr.Radio(["both", "old", "new"], value="both", label="Codes", elem_id="lr-codes")
                    judgments = gr.Checkbox(True, label="Include judgments", elem_id="lr-judgments")
                    generator = gr.Dropdown(list(generators), value=generators[0] if generators else None,
                                            label="Generator", visible=len(generators) > 1, elem_id="lr-generator")
            cites = gr.HTML(elem_id="lr-citations")
            with gr.Row():
                include_unverified = gr.Checkbox(False, label="Export unverified citations too",
                                                 elem_id="lr-include-unverified")
            with gr.Row(elem_id="lr-exports"):
                downloads = [gr.DownloadButton(FORMAT_LABELS[n], interactive=False, size="sm",
                                               elem_id=f"lr-export-{n}") for n in FORMATS]
        with gr.Tab("Section look-up", id="lookup"):
            lookup_in = gr.Textbox(label="Section", placeholder="IPC 420, BNS 318(4), s. 498A IPC",
                                   elem_id="lr-lookup-input")
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

        ask_inputs = [question, chat, offence_date, acts, codes, judgments, generator, include_unverified]
        ask_outputs = [chat, cites, banner, answer_state, src_pick, src_view, *downloads]
        for trigger in (send.click, question.submit):
            trigger(ask, ask_inputs, ask_outputs).then(lambda: "", None, question)
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

    @api.get("/api/lookup", dependencies=[Depends(require_login)])
    def api_lookup(q: str) -> Response:
        """Section look-up as JSON (``dataclasses.asdict`` of the LookupResult); 400 for an unusable query."""
        q = q.strip()
        if not q or len(q) > API_MAX_CHARS:
            raise HTTPException(status_code=400, detail=f"q must be 1..{API_MAX_CHARS} characters")
        try:
            res = pipe.lookup(q)
        except LegalRagError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        return Response(json.dumps(dataclasses.asdict(res), default=str, ensure_ascii=False),
                        media_type="application/json")

    @api.post("/api/ask", dependencies=[Depends(require_login)])
    def api_ask(body: AskRequest) -> Response:
        """The verified Answer as the JSON export (:func:`legal_rag.export.export_answer`)."""
        question = body.question.strip()
        if not question or len(question) > API_MAX_CHARS:
            raise HTTPException(status_code=400, detail=f"question must be 1..{API_MAX_CHARS} characters")
        try:
            when = fmt.parse_offence_date(body.offence_date or "")
            answer = pipe.ask(question, offence_date=when, filters=body.filters or None)
        except (LegalRagError, ValueError) as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        return Response(export_answer(answer, "json"), media_type="application/json")

    user, password = settings.auth_user, settings.auth_password.get_secret_value()
    if bool(user) != bool(password):
        raise LegalRagError("set both auth_user and auth_password for a login, or neither")
    gr.mount_gradio_app(api, create_app(settings, pipe), path="/", auth=(user, password) if user else None,
                        max_file_size=int(settings.upload_max_mb * 1024 * 1024), footer_links=[],
                        server_name=settings.host, server_port=settings.port, css=fmt.CSS)
    mounted["gradio"] = next(r.app for r in api.routes if isinstance(r, Mount))
    return api


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
