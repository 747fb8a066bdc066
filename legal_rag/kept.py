"""A bounded, thread-safe mapping that forgets its oldest entry first: the package's in-memory caches.

``Kept(limit)`` holds at most ``limit`` entries. :meth:`Kept.put` past the limit forgets the entries put longest
ago, in insertion order: a :meth:`Kept.get` does not refresh an entry, and putting a key already held replaces its
value in place (its age is unchanged). Every method takes the one lock, so threads may share a ``Kept``.

:meth:`Kept.for_object` keeps one value per object by identity (keyed by ``id(obj)``, the object held beside its
value, so an id reused by another object never returns the first object's value)::

    _NAMES = Kept(8)
    names = _NAMES.for_object(schedule, dict)  # the same dict for this very schedule, a new one for another

Imports nothing of the package.
"""

from __future__ import annotations

import threading
from typing import Callable, Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
T = TypeVar("T")

__all__ = ["Kept"]


class Kept(Generic[K, V]):
    """At most ``limit`` entries, the oldest put forgotten first; raises ValueError when ``limit`` < 1."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"a Kept holds at least one entry, not {limit}")
        self.limit = limit
        self._items: dict = {}
        self._lock = threading.Lock()

    def get(self, key: K, default: V | None = None) -> V | None:
        """The value kept for ``key``, or ``default``; never changes what is kept or in what order."""
        with self._lock:
            return self._items.get(key, default)

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` and return it; the oldest entries are forgotten while more than ``limit``
        are held (a held key keeps its place)."""
        with self._lock:
            self._put(key, value)
        return value

    def _put(self, key, value) -> None:
        items = self._items
        items[key] = value
        while len(items) > self.limit:
            items.pop(next(iter(items)))

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._items

    def for_object(self, obj: object, make: Callable[[], T]) -> T:
        """The value kept for this very ``obj`` (by identity), made with ``make()`` and kept when there is none --
        or when the entry under ``id(obj)`` belongs to another object. ``make`` runs outside the lock; when two
        threads make one at once, both get the value kept first. The entry holds ``obj`` until forgotten."""
        key = id(obj)
        with self._lock:
            kept = self._items.get(key)
        if kept is None or kept[0] is not obj:
            made = make()
            with self._lock:
                kept = self._items.get(key)
                if kept is None or kept[0] is not obj:
                    kept = (obj, made)
                    self._put(key, kept)
        return kept[1]
