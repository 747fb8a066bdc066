"""Users' uploads: a store per owner (:mod:`.library`), each user's view of the index with their uploads
(:mod:`.view`) and the server's upload queue (:mod:`.jobs`). The corpus index is never written by an upload."""

from .jobs import Job, UploadJobs
from .library import (SHARED_OWNER, UPLOAD_LABEL, Owner, UploadCancelled, UploadDoc, UploadError, UploadLibrary,
                      local_owner, parse_source, safe_name)
from .view import IndexView

__all__ = ["SHARED_OWNER", "UPLOAD_LABEL", "IndexView", "Job", "Owner", "UploadCancelled", "UploadDoc",
           "UploadError", "UploadJobs", "UploadLibrary", "local_owner", "parse_source", "safe_name"]
