"""Monte Carlo studies: the Python API, chunks, the resumable plan, backends, frames, stats.

Also the main study that ``make run`` writes (``main_study``).
"""
