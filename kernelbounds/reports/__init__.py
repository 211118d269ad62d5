"""Tables and plots of lower <= r* <= upper, drawn from the hub's answers (floats only here).

- :mod:`.report`: the two-sided tables (markdown, CSV, JSON Lines) and the generated docs tables;
- :mod:`.plots`: the plots, and the generated docs plots checked current by their data.
"""
