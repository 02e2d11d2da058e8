"""The Learn section: short interactive lessons, one per game family, kept as data files
(``lessons/``), judged by the rules engine, with each account's progress (docs/learn.md)."""
