"""Level classes (THEORY §2): the integer routes against a literal Fraction evaluation."""

from fractions import Fraction
from itertools import combinations_with_replacement

from hypothesis import event, given
from hypothesis import strategies as st

from kernelbounds.classes import ClassResult, LevelProfile, class_count, extreme_class_count, worst_error_all_classes, worst_error_by_classes, worst_error_extreme_classes
from kernelbounds.upperbounds.constructions import tensor


def literal_worst(profile: LevelProfile, m: int, n: int) -> ClassResult:
    """Every class in lexicographic order, one Fraction output per class."""
    worst, witness, count = Fraction(-1), (), 0
    for p in range(m + 1):
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            count += 1
            cls = (p, *levels)
            den = sum((Fraction(profile.weight(p, l)) for l in cls), Fraction(0))
            if den <= 0:
                return ClassResult(None, cls, count)
            y = sum((profile.weight(p, l) * profile.score(p, l) for l in cls), Fraction(0)) / den
            if abs(y - min(cls)) > worst:
                worst, witness = abs(y - min(cls)), cls
    return ClassResult(worst, witness, count)


def class_error(profile: LevelProfile, cls: tuple[int, ...]) -> Fraction | None:
    p = cls[0]
    den = sum((Fraction(profile.weight(p, l)) for l in cls), Fraction(0))
    if den <= 0:
        return None
    return abs(sum((profile.weight(p, l) * profile.score(p, l) for l in cls), Fraction(0)) / den - min(cls))


weights = st.one_of(st.fractions(Fraction(1, 9), 6, max_denominator=9), st.fractions(Fraction(-1, 4), 6, max_denominator=9))
scores = st.fractions(-7, 7, max_denominator=6)


def _profile(data, m, depends_on_p):
    """A random profile; weights may be <= 0 (then some denominator may be <= 0)."""
    rows = m + 1 if depends_on_p else 1
    w = [[data.draw(weights) for _ in range(m + 1)] for _ in range(rows)]
    f = [[data.draw(scores) for _ in range(m + 1)] for _ in range(rows)]
    pick = (lambda p: p) if depends_on_p else (lambda p: 0)
    return LevelProfile(lambda p, l: w[pick(p)][l], lambda p, l: f[pick(p)][l])


@given(st.integers(0, 5), st.integers(1, 5), st.booleans(), st.data())
def test_all_classes_route_equals_the_literal_evaluation(m, n, depends_on_p, data):
    """Same worst error, same first witness, same count (or the same first bad class)."""
    profile = _profile(data, m, depends_on_p)
    assert worst_error_all_classes(profile, m, n) == literal_worst(profile, m, n)


@given(st.integers(0, 6), st.integers(1, 6), st.booleans(), st.data())
def test_extreme_classes_give_the_same_worst_error(m, n, depends_on_p, data):
    """The extreme-class route (classes (p, t, u, ..., u)) finds the worst error of all classes,
    and a bad denominator exactly when some class has one."""
    profile = _profile(data, m, depends_on_p)
    full, extreme_classes = worst_error_all_classes(profile, m, n), worst_error_extreme_classes(profile, m, n)
    assert extreme_classes.worst_error == full.worst_error
    assert extreme_classes.classes <= min(full.classes, extreme_class_count(m, n))
    p, *levels = extreme_classes.witness
    assert p <= m and len(levels) == n - 1 and all(0 <= l <= p for l in levels)
    assert class_error(profile, extreme_classes.witness) == full.worst_error  # the witness attains it (or is a bad class)
    event("some denominator <= 0" if full.worst_error is None else "all denominators > 0")


def test_u2_worst_error_formula_at_m64_on_both_routes():
    """THEORY U2: (n-1)c / (1 + (n-1)c) with c = 1/(2n-1)."""
    for n in (3, 4):
        c = Fraction(1, 2 * n - 1)
        profile = tensor(64, n).profile()
        full = worst_error_by_classes(profile, 64, n)
        assert full.worst_error == worst_error_extreme_classes(profile, 64, n).worst_error == (n - 1) * c / (1 + (n - 1) * c)
        assert full.classes == class_count(64, n)


@given(st.integers(0, 6), st.integers(1, 6), st.data())
def test_checker_routes_equal_the_literal_evaluation(m, n, data):
    """The checker's own class loop (independent code) and its extreme-class route give the
    literal worst error and first witness, for level-only weights and an affine readout."""
    from kernelbounds.checker.rules.construction import worst_by_classes, worst_by_extreme_classes

    h = [data.draw(weights) for _ in range(m + 1)]
    alpha, beta, gamma = (data.draw(st.fractions(-2, 2, max_denominator=4)) for _ in range(3))
    weight, score = (lambda l: h[l]), (lambda p, l: alpha * l + beta * p + gamma)
    literal = literal_worst(LevelProfile(lambda p, l: weight(l), score), m, n)
    assert worst_by_classes(weight, score, m, n) == (literal.worst_error, literal.witness)
    extreme_worst, witness = worst_by_extreme_classes(weight, score, m, n)
    assert extreme_worst == literal.worst_error
    assert class_error(LevelProfile(lambda p, l: weight(l), score), witness) == extreme_worst


def test_class_count_identities_with_sympy():
    """C(m+n, n) = sum_p C(p+n-1, n-1) (hockey stick, symbolic in m for n <= 6), the classes
    enumerated, and the extreme classes C(m+3, 3) = sum_p C(p+2, 2) for n >= 3."""
    import sympy

    from kernelbounds.classes import level_classes

    m_, p_ = sympy.symbols("m p", integer=True, nonnegative=True)
    for n in range(1, 7):
        total = sympy.summation(sympy.expand_func(sympy.binomial(p_ + n - 1, n - 1)), (p_, 0, m_))
        assert sympy.simplify(total - sympy.expand_func(sympy.binomial(m_ + n, n))) == 0
        for m in range(0, 7):
            assert len(list(level_classes(m, n))) == class_count(m, n) == sympy.binomial(m + n, n)
    for m in range(0, 9):
        assert extreme_class_count(m, 4) == sum(sympy.binomial(p + 2, 2) for p in range(m + 1))


@given(st.integers(1, 6), st.integers(2, 4), st.lists(st.fractions(Fraction(1, 20), 20, max_denominator=20), min_size=7, max_size=7))
def test_the_level_kernel_profile_is_the_upper_bound_criterion(m, n, h):
    """classes.worst_error_by_classes on LevelProfile.level_kernel equals the literal
    class-by-class error of THEORY §2 (helpers.literal_worst_error)."""
    from helpers import EPS, literal_worst_error

    h = h[: m + 1]
    assert worst_error_by_classes(LevelProfile.level_kernel(h, EPS), m, n).worst_error == literal_worst_error(h, m, n)
