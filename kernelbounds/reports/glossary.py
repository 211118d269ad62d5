"""Readable text for the answer: a short gloss beside each THEORY label, big numbers also
as 2^x.y, codes written with powers, and why a side proved for another variant holds.

Floats appear only in the 2^x.y forms (a report); every number stated in full is exact."""

from __future__ import annotations

GLOSS = {
    "§1": "the definition: a head with a nonzero kernel has rank at least 1",
    "L4": "a code's keys and queries force an approximate identity (the code bound)",
    "L7": "sign rank of the orthant family (r >= floor(m/2))",
    "L8": "signed kernels: the code bound on the D-ratio matrix, one less",
    "L9": "direct sums of codes: the code bounds multiply",
    "U1": "rank one solves every length n <= 2",
    "U2": "2^m nonnegative tensor features solve every length",
    "U4": "a level family: features by the levels <q, y> of a support set",
    "U4'": "the explicit nonnegative chain of the complement basis",
    "U5": "a general head found per query by linear programs, or refuted by a Farkas certificate",
    "U6": "rank two decided by orders (single crossing)",
    "U7": "rank r refuted by oriented matroids with a SAT proof",
    "U7+": "a rank refutation plus one rank per disjoint edge",
    "U8": "a multi-block level family",
}


def gloss(theory: str) -> str:
    """The short gloss of a THEORY label ("" when none is known)."""
    return GLOSS.get(theory, "")


def section(theory: str) -> str:
    """A THEORY label in ASCII ("§1" as "section 1"): files and terminals of any encoding."""
    return theory.replace("\u00a7", "section ")


def labelled(theory: str) -> str:
    """'THEORY L9, direct sums of codes: the code bounds multiply'."""
    text = gloss(theory)
    return f"THEORY {section(theory)}" + (f", {text}" if text else "")


def power_of_two(value: int) -> str:
    """log2 of a positive integer as 2^x.y (rounded to a tenth; a report only)."""
    import math

    return f"2^{math.log2(value):.1f}"


def big(value: int, digits: int = 7) -> str:
    """The exact integer, with its 2^x.y beside it when it has more than ``digits`` digits."""
    return f"{value} (~{power_of_two(value)})" if value >= 10**digits else str(value)


def powers(names: list[str]) -> str:
    """Components as a sum with repeated runs written as powers: RM(2,4)^16 + RM(1,3)."""
    out: list[tuple[str, int]] = []
    for name in names:
        if out and out[-1][0] == name:
            out[-1] = (name, out[-1][1] + 1)
        else:
            out.append((name, 1))
    return " + ".join(name if copies == 1 else f"{name}^{copies}" for name, copies in out)


def gaps_text(gaps: dict) -> str:
    """A gap histogram as 'gap 12: 2576 pairs, gap 16: 30 pairs' (keys as in JSON)."""
    return ", ".join(f"gap {g}: {c} pairs" for g, c in sorted(gaps.items(), key=lambda kv: int(kv[0])))


VARIANT_REASON = {
    ("position-independent", "causal"): "a position-independent head that solves every position solves the causal task too "
    "(its last position attends to all n positions by the same sum, THEORY §1), so r* (causal) <= r* (position-independent) "
    "and a causal lower bound holds here",
    ("position-independent", "position-dependent"): "a position-independent head is a position-dependent one whose maps do not depend on "
    "the position, so r* (position-dependent) <= r* (position-independent) and that lower bound holds here",
    ("causal", "position-independent"): "the certificate's claim, checked by the checker, lists the causal variant too",
    ("position-dependent", "position-independent"): "the certificate's claim, checked by the checker, lists the position-dependent variant too",
}


def variant_note(asked: str, stated: str | None, side: str) -> str:
    """Why a side proved by a certificate stated for another variant holds for ``asked``."""
    if stated is None or stated == asked:
        return ""
    if side != "lower":
        return (f"the certificate is a position-independent head solving every position: it is a {asked} head too "
                "(a position-dependent head may ignore positions; the causal task scores only the last position), so it bounds every variant")
    reason = VARIANT_REASON.get((asked, stated), "the certificate's claim, checked by the checker, lists this variant too")
    return f"the certificate is stated for the {stated} variant: {reason}"


def file_note(side: str, certificate: str | None) -> str:
    """Why a file named for the any-features column proves the nonnegative-features side."""
    if side == "upper_nonnegative" and (certificate or "").startswith("upper-any-"):
        return "the file is named for the any-features column it was built for; its features are nonnegative, so it proves this side too"
    return ""
