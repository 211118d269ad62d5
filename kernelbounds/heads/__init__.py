"""A user's head: rational tables over tokens (``tables``), families of inputs to evaluate it
on (``inputs``) and the exact evaluation (``evaluate``), THEORY §1."""
