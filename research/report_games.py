"""The games of a saved arena or ladder report with their records, for the scripts that replay
them.

``benchmarks/reports`` keeps summaries (every game's result, no record); ``cathedral ladder``
and ``benchmarks/arena_targets.py`` write the full report, records included, under the same
name to ``benchmarks/cache``, which git ignores. The reports committed before the summaries
(commit 30e8fe4 and older) held every record: ``git show
30e8fe4:benchmarks/reports/NAME.json > benchmarks/cache/NAME.json`` brings one back.
"""

from __future__ import annotations

from pathlib import Path

from cathedral.ai.ladder import RECORDS, load_report

FULL_REPORTS = "30e8fe4"  # the last commit whose benchmarks/reports held every game's record


def report_with_records(path: str | Path, records: Path = RECORDS) -> dict:
    """Reads the report at ``path``, its games' records from ``records`` where it is a
    summary; stops with what to do when a game's record is in neither."""
    path = Path(path)
    report = load_report(path, records)
    lacking = sum(1 for g in report["games"] if not g.get("record"))
    if lacking:
        raise SystemExit(
            f"{path}: {lacking} of {len(report['games'])} games have no record here or in "
            f"{records / path.name}; the run that made the report wrote them there, and for a "
            f"report committed before summaries: git show "
            f"{FULL_REPORTS}:benchmarks/reports/{path.name} > {records / path.name}")
    return report
