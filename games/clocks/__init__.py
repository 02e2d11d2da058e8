"""Game clocks: time controls, live and turn-based clocks, loss on time, vacation.

Pure: ``timecontrol`` (the time control value), ``rules`` (the clock arithmetic). On rows:
``services`` (the hooks of the play services, ``schedule_deadline``), ``sweeper`` and ``tasks``
(enforcing deadlines: ``docs/timeouts.md``), ``vacation``, ``selectors``, ``views``.
"""
