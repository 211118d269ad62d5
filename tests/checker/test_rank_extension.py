"""Kind `rank-extension` (THEORY §2 U7+): a committed rank refutation named by its sha256 plus
disjoint edges; the checker resolves the base, reads and checks it once per check and applies the lemma."""

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from kernelbounds.certificate import canonical_json
from kernelbounds.checker import Limits, bases, budget, check_file, document, judge, search
from kernelbounds.checker.errors import LimitExceeded
from kernelbounds.checker.jsonread import Node
from kernelbounds.checker.rules import rankextension, rankextension_work, rankrefutation, rankrefutation_work
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


def _files(path: Path, explicit: tuple[str, ...] = ()) -> bases.Bases:
    """The service a check of `path` hands the rule (as checker.decide builds it)."""
    limits = Limits()
    return bases.Bases(budget.search(str(path), explicit, limits), limits, document, lambda d, p: judge(lambda: d, p, limits, (), estimate=False))


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
    queries, pairs = rankextension._base_facts(Node(base), 6, Limits())
    assert rankextension.family(queries, pairs, [tuple(e) for e in edges], n, variant)[2] == len(ext.witness_inputs())


def test_the_family_doubles_the_pairs_per_edge_and_forces_every_edge():
    """2^j placements per base pair, and each edge query is forced (gap 2) on every one."""
    base = _base()
    queries, pairs = rankextension._base_facts(Node(base), 6, Limits())
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


def test_the_base_is_read_and_checked_once_per_check_and_nothing_is_kept_between_checks(tmp_path, monkeypatch):
    """Within one check the estimate and the rule share the base's bytes, document and
    verdict (one read of the base file, one check of it); a verdict depends only on the files
    present when it is asked, so a second check reads and checks the base again."""
    base = _base()
    _folder(tmp_path, base, {"e.json": extend(base, "base.json", 2).certificate()})
    checks, reads = [], []
    real_check, real_read = rankrefutation.check, budget.read_input
    monkeypatch.setattr(rankrefutation, "check", lambda doc, limits: checks.append(1) or real_check(doc, limits))
    monkeypatch.setattr(search.Search, "__init__", _spy_init(search.Search.__init__, reads, real_read))
    assert _check(tmp_path / "e.json", guard=False).ok
    assert len(checks) == 1 and reads.count(str(tmp_path / "base.json")) == 1
    assert _check(tmp_path / "e.json", guard=False).ok
    assert len(checks) == 2 and reads.count(str(tmp_path / "base.json")) == 2


def _spy_init(init, reads, real_read):
    def spied(self, path, explicit, limits, read):
        def counting(p, lim):
            reads.append(p)
            return real_read(p, lim)
        init(self, path, explicit, limits, counting)
    return spied


def test_a_base_added_after_a_rejection_is_found_by_the_next_check(tmp_path):
    """No verdict is kept between checks: "base missing", then the base is written, then valid."""
    base, doc = _ext_doc(1)
    (tmp_path / "e.json").write_text(canonical_json(doc))
    v = _check(tmp_path / "e.json")
    assert v.code == 1 and v.pointer == "/base/sha256"
    (tmp_path / "base.json").write_text(canonical_json(base))
    assert _check(tmp_path / "e.json").ok


def test_work_includes_the_base_and_a_tight_budget_refuses_first(tmp_path):
    base, doc = _ext_doc(3)
    _folder(tmp_path, base, {"e.json": doc})
    total = rankextension_work.work(Node(doc), Limits(), _files(tmp_path / "e.json"))
    assert total > rankrefutation_work.work(Node(base), Limits())
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


def test_candidates_ahead_of_the_base_raise_the_estimate_by_their_bytes(tmp_path):
    """The search reads every candidate before the base: 16 MiB of them cost at least
    16 MiB / SEARCH_BYTES units more, and a budget that covers the rest but not the search
    is a resource limit at /base/sha256 (the estimate once ignored the search: 1000 units)."""
    base, doc = _ext_doc(1)
    doc["base"].pop("name")
    _folder(tmp_path, base, {"e.json": doc}, base_name="z-base.json")
    plain = _check(tmp_path / "e.json")
    for i in range(4):
        (tmp_path / f"a-decoy{i}.json").write_bytes(b" " * 2**22)
    crowded = _check(tmp_path / "e.json")
    assert plain.ok and crowded.ok
    assert crowded.work - plain.work >= 2**24 // 4
    v = _check(tmp_path / "e.json", limits=Limits(work_budget=plain.work + 2**20))
    assert v.code == 3 and v.pointer in ("", "/base/sha256"), v.line()


def test_the_estimate_bounds_the_search_for_the_base_before_it_starts(tmp_path, monkeypatch):
    """The work estimate counts every byte the search may read (the candidates' sizes, from
    the folder's listing, before any is read): a folder of large decoys ahead of the base
    raises it by about their size over SEARCH_BYTES, and a budget below the search alone is
    exit 3 at /base/sha256 with no candidate read."""
    base, doc = _ext_doc(1)
    doc["base"].pop("name")
    _folder(tmp_path, base, {"e.json": doc}, base_name="z-base.json")
    small = rankextension_work.work(Node(doc), Limits(), _files(tmp_path / "e.json"))
    for i in range(4):
        (tmp_path / f"a-decoy{i}.json").write_bytes(b" " * 2**22)  # 4 x 4 MiB of candidates read before z-base.json
    plan = _files(tmp_path / "e.json").plan(None)
    assert plan.bytes >= 4 * 2**22 and len(plan.files) == 5
    large = rankextension_work.work(Node(doc), Limits(), _files(tmp_path / "e.json"))
    assert large - small >= 4 * 2**22 // rankextension_work.SEARCH_BYTES
    assert _check(tmp_path / "e.json").work == large  # the number the dispatcher compares with work_budget
    reads = []
    monkeypatch.setattr(search.Search, "__init__", _spy_init(search.Search.__init__, reads, budget.read_input))
    v = _check(tmp_path / "e.json", guard=False, limits=Limits(work_budget=rankextension_work.search_work(plan) - 1))
    assert v.code == 3 and v.pointer == "/base/sha256" and "looking for the base" in v.reason, v.line()
    assert reads == []
    assert _check(tmp_path / "e.json", guard=False, limits=Limits(work_budget=large)).ok


def test_the_search_never_reads_past_the_size_it_planned(tmp_path):
    """A candidate that grows between the estimate and the read is a resource limit (the
    search would exceed what the estimate counted), never a longer read."""
    base, doc = _ext_doc(1)
    doc["base"].pop("name")
    _folder(tmp_path, base, {"e.json": doc}, base_name="z-base.json")
    (tmp_path / "a-decoy.json").write_text("{}")
    files = _files(tmp_path / "e.json")
    files.plan(None)
    (tmp_path / "a-decoy.json").write_text("{}" + " " * 10**5)
    with pytest.raises(LimitExceeded) as exc:
        files.find(hashlib.sha256(canonical_json(base).encode()).hexdigest(), None)
    assert exc.value.pointer == "/base/sha256" and "grew" in exc.value.reason
