"""Player accounts: the user model, API tokens, sign-up and sign-in, guests, e-mail."""
