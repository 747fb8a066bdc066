"""``Kept``: a bounded mapping that forgets the oldest entry put first, thread-safe, and one value per object."""

from __future__ import annotations

import threading

import pytest

from legal_rag.kept import Kept


def test_get_put_clear_and_len():
    k = Kept(3)
    assert k.get("a") is None and k.get("a", 0) == 0 and len(k) == 0
    assert k.put("a", 1) == 1
    assert k.get("a") == 1 and "a" in k and "b" not in k and len(k) == 1
    k.clear()
    assert len(k) == 0 and k.get("a") is None


def test_a_limit_below_one_is_refused():
    with pytest.raises(ValueError):
        Kept(0)


def test_the_oldest_put_is_forgotten_first_and_a_get_does_not_refresh():
    k = Kept(3)
    for key in "abc":
        k.put(key, key.upper())
    assert k.get("a") == "A"  # read, not refreshed
    k.put("d", "D")
    assert len(k) == 3 and "a" not in k and [k.get(x) for x in "bcd"] == ["B", "C", "D"]
    k.put("b", "B2")  # a held key is replaced in place: still the oldest
    k.put("e", "E")
    assert "b" not in k and [k.get(x) for x in "cde"] == ["C", "D", "E"]


def test_never_more_than_the_limit():
    k = Kept(5)
    for i in range(100):
        k.put(i, i)
        assert len(k) == min(i + 1, 5)
    assert [k.get(i) for i in range(95, 100)] == list(range(95, 100))


class _Obj:
    pass


def test_one_value_per_object_by_identity():
    k = Kept(2)
    a, b = _Obj(), _Obj()
    va = k.for_object(a, dict)
    assert k.for_object(a, dict) is va  # the same value for the very same object
    vb = k.for_object(b, list)
    assert vb == [] and vb is not va and k.for_object(a, dict) is va
    c = _Obj()
    k.for_object(c, dict)  # a is the oldest: forgotten, so made again
    assert k.for_object(a, dict) is not va and len(k) == 2


def test_an_id_held_by_another_object_makes_a_new_value():
    k = Kept(4)
    a, b = _Obj(), _Obj()
    k.put(id(b), (a, "a's"))  # as if b had been given a's id
    assert k.for_object(b, lambda: "b's") == "b's"
    assert k.for_object(b, lambda: "again") == "b's"


def test_concurrent_puts_never_pass_the_limit():
    k = Kept(16)
    seen: list[int] = []
    start = threading.Barrier(8)

    def work(t: int) -> None:
        start.wait()
        for i in range(2000):
            k.put((t, i), i)
            seen.append(len(k))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert max(seen) <= 16 and len(k) == 16


def test_concurrent_first_calls_for_one_object_share_one_value():
    k = Kept(4)
    obj = _Obj()
    got: list[dict] = []
    start = threading.Barrier(8)

    def work() -> None:
        start.wait()
        got.append(k.for_object(obj, dict))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(got) == 8 and all(v is got[0] for v in got)
