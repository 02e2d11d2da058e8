"""The site's pages, one module per area. They read through selectors, change things through
services (forms posted here) or the REST API (the pages' scripts, with the session's CSRF
token), and never hold game logic of their own."""
