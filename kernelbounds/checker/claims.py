"""The claim on r*(m, n) a rule re-derived (``common.Outcome.claim``), built in one place.

Only numbers the rule itself derived go in.  ``variants`` follows THEORY §1 and L5: a
lower bound proved for position-dependent heads (or the causal task) also bounds the
position-independent r*, since a position-independent head is a position-dependent one
and a head that solves every position solves the causal task's final position; an upper
bound is a position-independent head that solves every position, so it bounds all three.
``kernels``: a lower bound holds for the kernel classes listed by its rule; an upper
bound's head has a nonnegative kernel, so it is also a signed head of any denominator.
"""

from __future__ import annotations

from collections.abc import Iterable

LOWER_HOLDS_FOR = {
    "position-independent": ("position-independent",),
    "position-dependent": ("position-dependent", "position-independent"),
    "causal": ("causal", "position-independent"),
}
EVERY_VARIANT = ("causal", "position-dependent", "position-independent")
EVERY_KERNEL = ("nonnegative", "signed", "signed-any-denominator")


def lower(value: int, m: int, n: int, variant: str, kernels: Iterable[str] = ("nonnegative",)) -> dict:
    """r*(m, n) >= value for the variants a `variant` bound covers and the given kernels."""
    return {"side": "lower", "value": value, "m": m, "n": n, "variants": sorted(LOWER_HOLDS_FOR[variant]), "kernels": sorted(kernels)}


def upper(value: int, m: int, n: int, nonnegative_features: bool, support: list[int] | None = None, **extra: object) -> dict:
    """r*(m, n) <= value by a head that solves every position (every variant, every kernel class)."""
    return {"side": "upper", "value": value, "m": m, "n": n, "variants": list(EVERY_VARIANT), "kernels": list(EVERY_KERNEL),
            "nonnegative_features": nonnegative_features, "support": support} | extra
