"""``Idempotency-Key``: a request that creates something, sent again with the same key, gets
the first answer instead of creating it twice (``services``; the views' decorator: ``views``)."""
