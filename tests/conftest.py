import json
import os

from hypothesis import settings

settings.register_profile("default", deadline=None, max_examples=60, derandomize=True)
settings.register_profile("ci", deadline=None, max_examples=60, derandomize=True)
settings.register_profile("slow", deadline=None, max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def as_bytes(doc) -> bytes:
    return json.dumps(doc).encode()
