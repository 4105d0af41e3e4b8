"""The rules of RULES.md as data and pure functions: no SimPy, no pandas.

Levels, durations, the wound table and its profiles (T1, T2), dice and exact odds (D1-D5),
the patient (H1-H6), and one transition per rule of wounds and care (``transitions``).
"""
