"""Game clocks: time controls, live and turn-based clocks, loss on time, vacation.

- ``timecontrol``: the ``TimeControl`` value (pure): validation, category, record header text;
- ``rules``: the clock arithmetic (pure): Fischer clocks, weekend-aware deadlines, vacation;
- ``services``: the hooks the play services call, and the scheduling of timeout tasks;
- ``sweeper``: the timeout task's work and the periodic sweeper behind it;
- ``vacation``: taking vacation in advance; ``selectors``: clock and vacation reads;
- ``tasks``: the Celery tasks; ``views``: the vacation endpoint.
"""
