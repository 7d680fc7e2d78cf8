"""Admission before overload: what the running games of a token need of its budget
(budget.py), and the groups waiting for a table (waitlist.py)."""
