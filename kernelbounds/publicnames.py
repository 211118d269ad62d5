"""The public API's names (docs/api.md): the one hand-kept list, re-exported by
``kernelbounds`` (loaded on first use from :mod:`kernelbounds.api`) and ``api.__all__``
(tests/hub/test_public_names.py).  It imports nothing, so ``python -m kernelbounds.checker``
still loads nothing of the generator."""

NAMES = (
    "Bound", "Upper", "Construction", "Verdict", "Rank", "Transcript", "Token", "Head", "Evaluation", "Family", "Counterexample",
    "bound", "upper", "construct", "check", "certificate_path", "certificate_names", "rank", "evaluate", "transcript", "witness", "symmetric_head", "family_tokens", "load_head",
    "TheoryContradicted", "StaleIndex",
)
