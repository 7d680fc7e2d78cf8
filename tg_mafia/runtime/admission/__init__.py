"""Admission before overload: the groups waiting for a table (waitlist.py) while the
token's open games need most of its budget (tg_mafia/ops/budget.py)."""
