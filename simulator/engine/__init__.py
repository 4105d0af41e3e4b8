"""Campaign time: SimPy processes that wait, then call the rules.

The clock and O1's priorities (``clock``), one trial (``trial``), the care processes of first
aid, rest, watches and healing (``care``), the trial's flat record (``record``) and its
timeline (``trace``). It imports ``rules`` and the scenario model only.
"""
