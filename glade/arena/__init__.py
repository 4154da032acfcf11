"""Bot tournaments (``glade arena``): seat rotation, parallel and Ray backends, reports."""

from .runner import Match, Record, play, report, run, schedule
from .stats import mean_ci, wilson

__all__ = ["Match", "Record", "mean_ci", "play", "report", "run", "schedule", "wilson"]
