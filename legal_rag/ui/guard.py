"""What the server checks before any work: the request body's size, who the caller is, and how much the caller
already has in progress.

* :class:`RequestGuard` (ASGI middleware): a body larger than the limit is answered 413 from its
  ``Content-Length`` (or while it is read, for a body sent without one), before anything parses or normalises it;
  uploads (``/gradio_api/upload``, ``/api/uploads``) may be as large as ``upload_max_mb``, every other request
  ``request_max_bytes``. Every caller without an owner cookie (:data:`OWNER_COOKIE`, a random token: OWASP
  Session Management Cheat Sheet, ``HttpOnly``, ``SameSite=Lax``) is given one, and the request itself already
  carries it, so a browser's first request and every later one name the same owner.
* A Gradio event (``/gradio_api/queue/join``, ``/gradio_api/call/<event>``) whose data names a file outside the
  folder Gradio writes uploads to is refused 400, before Gradio copies the named file into its cache: a client may
  name any path there (OWASP File Upload Cheat Sheet: never trust a client-given path); the answer names no path.
* :func:`owner_of`: a login's user name when there is a login, else the owner cookie
  (:class:`legal_rag.uploads.Owner`).
* :class:`Inflight`: at most ``limit`` questions in progress per owner; more are refused, never queued; and at most
  ``running`` answered at once over all owners, the others waiting their turn.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from contextlib import contextmanager
from typing import Any, Iterator

from ..uploads import Owner

OWNER_COOKIE = "lr_owner"
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{24,64}$")
#: path prefixes that carry a file upload (their bodies may be as large as an upload)
UPLOAD_PATHS = ("/gradio_api/upload", "/api/uploads")


def cookie_token(cookie_header: str) -> str | None:
    """The owner token in a ``Cookie`` header, or None when it has none or a malformed one."""
    for part in cookie_header.split(";"):
        k, _, v = part.strip().partition("=")
        if k == OWNER_COOKIE and _TOKEN.match(v):
            return v
    return None


def owner_of(request: Any) -> Owner:
    """The owner of a request (a Starlette request or a ``gr.Request``): the login's user when there is one
    (``request.username``, or ``request.state.user`` set by the login check), else the owner cookie. Raises
    :class:`legal_rag.uploads.UploadError` when there is neither (a client that refuses cookies)."""
    user = getattr(request, "username", None) or getattr(getattr(request, "state", None), "user", None)
    if isinstance(user, str) and user:
        return Owner.of("user", user, user)
    headers = getattr(request, "headers", None) or {}
    return Owner.of("session", cookie_token(headers.get("cookie", "")) or "")


class RequestGuard:
    """ASGI middleware (module docstring). ``max_body`` and ``max_upload`` in bytes."""

    def __init__(self, app, max_body: int, max_upload: int, upload_folder: str | None = None):
        self.app = app
        self.max_body = max_body
        self.max_upload = max_upload
        self.upload_folder = upload_folder

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = list(scope.get("headers") or [])
        cookie = b"; ".join(v for k, v in headers if k == b"cookie").decode("latin-1")
        new = None
        if cookie_token(cookie) is None:
            new = secrets.token_urlsafe(24)
            headers = [(k, v) for k, v in headers if k != b"cookie"]
            headers.append((b"cookie", (f"{cookie}; " if cookie else "").encode("latin-1")
                            + f"{OWNER_COOKIE}={new}".encode()))
            scope = {**scope, "headers": headers}
        limit = self.max_upload if scope.get("path", "").startswith(UPLOAD_PATHS) else self.max_body
        length = next((v for k, v in headers if k == b"content-length"), None)
        if length is not None:
            try:
                size = int(length)
            except ValueError:
                return await _refuse(send, 400, "Content-Length is not a number")
            if size > limit:
                return await _refuse(send, 413, _too_big(size, limit))
        event = self.upload_folder is not None and scope.get("method") == "POST" and _is_event(scope.get("path", ""))
        if event or (length is None and scope.get("method") in ("POST", "PUT", "PATCH")):
            # an event's data is read whole (to check the files it names); a body without a length is counted
            body, more = [], True
            total = 0
            while more:
                msg = await receive()
                if msg["type"] != "http.request":
                    break
                total += len(msg.get("body", b""))
                if total > limit:
                    return await _refuse(send, 413, _too_big(total, limit, at_least=True))
                body.append(msg.get("body", b""))
                more = msg.get("more_body", False)
            whole = b"".join(body)
            sent = False
            if event and not _files_inside(whole, self.upload_folder):
                return await _refuse(send, 400, "not a file uploaded through this page")

            async def replay():
                nonlocal sent
                if not sent:
                    sent = True
                    return {"type": "http.request", "body": whole, "more_body": False}
                return await receive()

            receive = replay

        async def send_with_cookie(msg):
            if new is not None and msg["type"] == "http.response.start":
                msg = {**msg, "headers": [*msg.get("headers", []), (
                    b"set-cookie", f"{OWNER_COOKIE}={new}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000".encode())]}
            await send(msg)

        return await self.app(scope, receive, send_with_cookie)


def _is_event(path: str) -> bool:
    return path.endswith("/queue/join") or "/gradio_api/call/" in path or path.startswith("/call/")


def _files_inside(body: bytes, folder: str) -> bool:
    """Whether every file an event's JSON data names (a ``"path"`` beside ``"meta": {"_type": "gradio.FileData"}``,
    or any ``"path"`` key of a file object) lies inside ``folder`` once links are resolved. A body that is not JSON
    is left to Gradio to refuse."""
    import os

    try:
        data = json.loads(body or b"null")
    except ValueError:
        return True
    root = os.path.realpath(folder)
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            p = x.get("path")
            if isinstance(p, str) and ("meta" in x or "orig_name" in x or "url" in x or "mime_type" in x):
                try:
                    real = os.path.realpath(p)
                except (ValueError, OSError):
                    return False
                if "\x00" in p or os.path.commonpath([root, real]) != root or real == root:
                    return False
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return True


def _too_big(size: int, limit: int, at_least: bool = False) -> str:
    return (f"the request body is {'more than ' if at_least else ''}{size:,} bytes; this server accepts at most "
            f"{limit:,} bytes here")


async def _refuse(send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class Inflight:
    """Questions in progress per owner key, at most ``limit`` each, and at most ``running`` answered at once
    across all owners, the rest waiting for a turn (``threading.Semaphore``: oldest waiter woken first; thread-safe)."""

    def __init__(self, limit: int, running: int = 2):
        self.limit = limit
        self._count: dict[str, int] = {}
        self._lock = threading.Lock()
        self._turns = threading.Semaphore(max(1, running))

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Held while one question is answered: waits while ``running`` others are (the machine's cores are
        shared by every client; more at once only slows each and lets some wait far longer than others)."""
        with self._turns:
            yield

    @contextmanager
    def slot(self, key: str) -> Iterator[bool]:
        """Yields True with a slot held, or False (nothing held) when ``key`` already has ``limit`` in progress."""
        with self._lock:
            got = self._count.get(key, 0) < self.limit
            if got:
                self._count[key] = self._count.get(key, 0) + 1
        try:
            yield got
        finally:
            if got:
                with self._lock:
                    self._count[key] -= 1
                    if not self._count[key]:
                        del self._count[key]


__all__ = ["OWNER_COOKIE", "UPLOAD_PATHS", "Inflight", "RequestGuard", "cookie_token", "owner_of"]
