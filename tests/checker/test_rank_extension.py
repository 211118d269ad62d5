"""Kind `rank-extension` (THEORY §2 U7+): a committed rank refutation named by its sha256 plus
disjoint edges; the checker resolves the base, checks it once per run and applies the lemma."""

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from kernelbounds.certificate import canonical_json
from kernelbounds.checker import Limits, bases, check_file
from kernelbounds.checker.jsonread import Node
from kernelbounds.checker.rules import rankextension, rankrefutation
from kernelbounds.lowerbounds import chirotope, refutation
from kernelbounds.lowerbounds.rankextension import Extension, extend, matching

VARIANTS = ("position-independent", "position-dependent", "causal")


def _base(m0: int = 6, r0: int = 3, n: int = 3, variant: str = "position-independent") -> dict:
    return refutation.refute(m0, n, r0, variant).certificate()


def _folder(tmp: Path, base: dict, docs: dict[str, dict], base_name: str = "base.json") -> Path:
    (tmp / base_name).write_text(canonical_json(base))
    for name, doc in docs.items():
        (tmp / name).write_text(canonical_json(doc))
    return tmp


def _check(path: Path, **kw):
    return check_file(str(path), **kw)


@pytest.fixture(autouse=True)
def _fresh_memo():
    bases._memo.clear()
    bases._new.clear()
    yield
    bases._memo.clear()
    bases._new.clear()


@pytest.mark.parametrize("variant", VARIANTS)
def test_extension_of_the_m6_refutation_claims_one_more_per_edge(tmp_path, variant):
    base = _base(variant=variant)
    docs = {f"e{j}.json": extend(base, "base.json", j).certificate() for j in (1, 2, 3)}
    _folder(tmp_path, base, docs)
    for j in (1, 2, 3):
        v = _check(tmp_path / f"e{j}.json")
        assert v.ok, v.render()
        assert v.claim["value"] == 4 + j and v.claim["m"] == 6 + 2 * j  # floor(m/2) + 1
        assert v.claim["kernels"] == ["nonnegative", "signed"] and variant in v.claim["variants"]


@settings(max_examples=8, deadline=None)
@given(st.data())
def test_any_disjoint_edges_on_the_new_coordinates_are_accepted_with_the_generator_count(data):
    """For every matching of the new coordinates (any order, any orientation of the edges)
    the checker accepts and re-derives the generator's family size."""
    import tempfile

    j = data.draw(st.integers(1, 3))
    n = data.draw(st.integers(3, 5))
    variant = data.draw(st.sampled_from(VARIANTS))
    coords = data.draw(st.permutations(list(range(6, 6 + 2 * j))))
    edges = tuple(tuple(sorted(coords[2 * i:2 * i + 2])) for i in range(j))
    base = _base(n=n, variant=variant)
    ext = Extension(base, "base.json", edges)
    with tempfile.TemporaryDirectory() as tmp:
        _folder(Path(tmp), base, {"e.json": ext.certificate()})
        v = _check(Path(tmp) / "e.json", guard=False)
    assert v.ok, v.render()
    assert v.claim["value"] == 4 + j
    queries, pairs = rankextension._base_facts(base, 6)
    assert rankextension.family(queries, pairs, [tuple(e) for e in edges], n, variant)[2] == len(ext.witness_inputs())


def test_the_family_doubles_the_pairs_per_edge_and_forces_every_edge():
    """2^j placements per base pair, and each edge query is forced (gap 2) on every one."""
    base = _base()
    queries, pairs = rankextension._base_facts(base, 6)
    base_incidences = sum(1 for a, b in pairs for q in queries if abs((q & a).bit_count() - (q & b).bit_count()) >= 2)
    for j in range(4):
        count, incidences, _ = rankextension.family(queries, pairs, matching(6, j), 3, "position-independent")
        assert count == len(pairs) * 2**j
        assert incidences == 2**j * base_incidences + count * j


def _extended_family_cnf(base: dict, j: int, r: int):
    """The direct chirotope CNF of the composite family: base queries + edges, extended pairs."""
    m0 = base["m"]
    edges = [(1 << u) | (1 << v) for u, v in matching(m0, j)]
    queries = [int(q[::-1], 2) for q in base["queries"]] + edges
    pairs = []
    for p in base["pairs"]:
        a0, b0 = int(p["a"][::-1], 2), int(p["b"][::-1], 2)
        for choice in range(1 << j):
            a, b = a0, b0
            for i, e in enumerate(edges):
                if choice >> i & 1:
                    b |= e
                else:
                    a |= e
            pairs.append((a, b))
    return chirotope.encode(queries, pairs, r)


@pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical not installed")
def test_the_lemma_on_an_instance_the_composite_family_is_unsatisfiable_directly(tmp_path):
    """U7+ checked by a solver instead of the lemma: the m = 5, r = 2 base plus one edge gives a
    family whose direct CNF at rank 3 is unsatisfiable, while rank 4 is satisfiable for it
    (the lemma adds exactly one, no more, on this instance)."""
    base = _base(5, 2)
    for r, status in ((3, 20), (4, 10)):
        cnf = tmp_path / f"r{r}.cnf"
        cnf.write_text(chirotope.dimacs(_extended_family_cnf(base, 1, r)))
        assert subprocess.run(["cadical", "-q", str(cnf)], capture_output=True, timeout=120).returncode == status


def _ext_doc(j: int = 1, **changes) -> tuple[dict, dict]:
    base = _base()
    doc = extend(base, "base.json", j).certificate()
    doc.update(changes)
    return base, doc


@pytest.mark.parametrize("change, pointer, words", [
    ({"m": 9}, "/m", "m (the base"),
    ({"n": 4}, "/n", "n (the base's)"),
    ({"variant": "causal"}, "/variant", "differs from the base's"),
    ({"kernel": "nonnegative"}, "/kernel", "differs from the base's"),
    ({"edges": [[6, 7], [7, 8]], "m": 10}, "/edges/1/0", "pairwise disjoint"),
    ({"edges": [[5, 6]]}, "/edges/0/0", "miss the base's coordinates"),
    ({"edges": [[7, 6]]}, "/edges/0", "u < v"),
    ({"edges": []}, "/edges", "at least one edge"),
    ({"claims": {"rank": 5, "bound": 6, "witness_inputs": 0}}, "/claims/rank", "refuted rank"),
])
def test_false_claims_are_rejected_naming_the_field(tmp_path, change, pointer, words):
    base, doc = _ext_doc(1)
    if "claims" not in change:
        change = dict(change)
    doc.update(change)
    _folder(tmp_path, base, {"e.json": doc})
    v = _check(tmp_path / "e.json")
    assert v.code == 1 and v.pointer == pointer and words in v.reason, v.line()


def test_wrong_bound_and_family_size_are_rejected(tmp_path):
    base, doc = _ext_doc(2)
    bad = json.loads(json.dumps(doc))
    bad["claims"]["bound"] += 1
    worse = json.loads(json.dumps(doc))
    worse["claims"]["witness_inputs"] -= 1
    _folder(tmp_path, base, {"b.json": bad, "w.json": worse})
    assert _check(tmp_path / "b.json").pointer == "/claims/bound"
    v = _check(tmp_path / "w.json")
    assert v.code == 1 and v.pointer == "/claims/witness_inputs" and v.derived == doc["claims"]["witness_inputs"]


def test_a_missing_base_is_rejected_at_its_sha256_and_an_explicit_path_resolves_it(tmp_path):
    base, doc = _ext_doc(1)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "e.json").write_text(canonical_json(doc))
    (tmp_path / "b" / "elsewhere.json").write_text(canonical_json(base))
    v = _check(tmp_path / "a" / "e.json")
    assert v.code == 1 and v.pointer == "/base/sha256" and "missing" in v.reason
    v = _check(tmp_path / "a" / "e.json", bases=[str(tmp_path / "b" / "elsewhere.json")])
    assert v.ok, v.render()


def test_the_name_is_only_a_hint_the_sha256_decides(tmp_path):
    """A file under the hinted name with other bytes is skipped; the right bytes under
    another name in the folder are found."""
    base, doc = _ext_doc(1)
    other = _base(n=4)
    (tmp_path / "base.json").write_text(canonical_json(other))
    (tmp_path / "zz-real.json").write_text(canonical_json(base))
    (tmp_path / "e.json").write_text(canonical_json(doc))
    v = _check(tmp_path / "e.json")
    assert v.ok and "zz-real.json" in v.routes[0]


def test_a_rejected_base_is_a_rejection_of_the_extension(tmp_path):
    base = _base()
    base["claims"]["witness_inputs"] += 1  # the base's checker rejects this
    doc = extend(base, "base.json", 1).certificate()
    _folder(tmp_path, base, {"e.json": doc})
    v = _check(tmp_path / "e.json")
    assert v.code == 1 and v.pointer == "/base/sha256" and "/claims/witness_inputs" in v.reason


def test_a_base_of_another_kind_is_rejected(tmp_path):
    base = json.loads((Path(__file__).resolve().parents[2] / "certificates" / "crossing-causal-m05-n3.json").read_text())
    doc = _ext_doc(1)[1]
    doc["base"] = {"sha256": hashlib.sha256(canonical_json(base).encode()).hexdigest(), "name": "base.json"}
    _folder(tmp_path, base, {"e.json": doc})
    v = _check(tmp_path / "e.json")
    assert v.code == 1 and v.pointer == "/base/sha256" and "not a rank-refutation" in v.reason


def test_bad_sha256_and_name_are_malformed(tmp_path):
    base, doc = _ext_doc(1)
    for ref, pointer in (({"sha256": "ABC"}, "/base/sha256"), ({"sha256": "0" * 64, "name": "../x.json"}, "/base/name"), ({}, "/base/sha256")):
        doc["base"] = ref
        _folder(tmp_path, base, {"e.json": doc})
        v = _check(tmp_path / "e.json")
        assert v.code == 2 and v.pointer == pointer, v.line()


def test_the_base_is_checked_once_per_run(tmp_path, monkeypatch):
    base = _base()
    docs = {f"e{j}.json": extend(base, "base.json", j).certificate() for j in (1, 2, 3)}
    _folder(tmp_path, base, docs)
    calls = []
    real = rankrefutation.check
    monkeypatch.setattr(rankrefutation, "check", lambda doc, limits: calls.append(1) or real(doc, limits))
    for name in ("e1.json", "e2.json", "e3.json", "base.json"):
        assert _check(tmp_path / name, guard=False).ok
    assert len(calls) == 1


def test_a_guarded_child_sends_the_base_verdict_to_the_parent(tmp_path):
    base = _base()
    _folder(tmp_path, base, {"e.json": extend(base, "base.json", 1).certificate()})
    digest = hashlib.sha256(canonical_json(base).encode()).hexdigest()
    assert bases.known(digest, Limits()) is None
    assert _check(tmp_path / "e.json").ok  # under the runtime guard: a forked child
    known = bases.known(digest, Limits())
    assert known is not None and known.ok and known.kind == "rank-refutation"


def test_guarded_checks_of_many_refutations_send_back_a_bounded_payload(tmp_path):
    """Each guarded top-level check of a rank refutation is memoised without the verdicts
    it carried and is never queued again: the payload a child sends back does not grow
    with the number of earlier checks (a chain of memoised verdicts once made pickling
    recurse past Python's limit after a few hundred checks, an exit 4)."""
    import pickle

    base = _base(5, 2)
    sizes = []
    for j in range(12):  # distinct bytes each time: a rejected id ordering, then the base
        doc = json.loads(json.dumps(base))
        doc["proof"]["steps"][0] = "1" + doc["proof"]["steps"][0][len(doc["proof"]["steps"][0].split()[0]):] + " " * j
        (tmp_path / f"r{j}.json").write_text(canonical_json(doc))
        assert _check(tmp_path / f"r{j}.json").code in (0, 1, 2)
        assert bases._new == {}
        assert all(v.bases == {} for v in bases._memo.values())
        sizes.append(len(pickle.dumps(bases.take_new())))
    assert len(set(sizes)) == 1


def test_work_includes_the_base_and_a_tight_budget_refuses_first(tmp_path):
    base, doc = _ext_doc(3)
    _folder(tmp_path, base, {"e.json": doc})
    with bases.checking(str(tmp_path / "e.json"), ()):
        total = rankextension.work(Node(doc), Limits())
    assert total > rankrefutation.work(Node(base), Limits())
    v = _check(tmp_path / "e.json", limits=Limits(work_budget=total - 1))
    assert v.code == 3 and v.pointer == ""
    assert _check(tmp_path / "e.json", limits=Limits(work_budget=total)).ok


def test_too_many_edges_is_a_limit(tmp_path):
    base, doc = _ext_doc(1)
    doc["edges"] = [[6 + 2 * i, 7 + 2 * i] for i in range(rankextension.MAX_EDGES + 1)]
    _folder(tmp_path, base, {"e.json": doc})
    v = _check(tmp_path / "e.json")
    assert v.code == 3 and v.pointer == "/edges"


def test_standard_input_has_no_folder_but_explicit_paths(tmp_path, monkeypatch):
    import io
    import sys

    base, doc = _ext_doc(1)
    _folder(tmp_path, base, {})
    data = canonical_json(doc).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert check_file("-", bases=[str(tmp_path / "base.json")]).ok


def test_the_search_for_a_base_reads_a_bounded_number_of_bytes(tmp_path, monkeypatch):
    """The folder search runs before the work estimate, so it stops after MAX_SCAN_BYTES:
    a base behind larger files is then missing; under its hinted name it is read first."""
    base, doc = _ext_doc(1)
    doc["base"].pop("name")
    (tmp_path / "a-decoy.json").write_text(" " * 5000)
    _folder(tmp_path, base, {"e.json": doc}, base_name="z-base.json")
    monkeypatch.setattr(bases, "MAX_SCAN_BYTES", 4000)
    v = _check(tmp_path / "e.json", guard=False)
    assert v.code == 1 and v.pointer == "/base/sha256"
    monkeypatch.setattr(bases, "MAX_SCAN_BYTES", 10**6)
    assert _check(tmp_path / "e.json", guard=False).ok
