#!/usr/bin/env python3
"""Measures the large turns of the head about its up axis in imu-trace v1 recordings (the route's corners and
about-turns while walking a corridor). The cohort's "walking, looking about" row (`CohortMotions`) takes its
turns from what this prints, so that it is drawn from real people and not from the detector's own model.

A turn is a swing about the head's up axis as `out-and-backs.py` finds one (one sign above 7.5 °/s, reaching
15 °/s, extended to where it falls under 5 °/s) that turns the head MIN_ANGLE or more (default 45°).

Usage: scripts/walking-turns.py DIR ACTIVITY [MIN_ANGLE]
  DIR        a directory of recordings (e.g. ../shared/data/daily/classyglass, or a cohort written by
             `headtrack-lab eval gestures --cohort N --export DIR`)
  ACTIVITY   a file-name ending, e.g. walking
Only recordings whose `# mount:` line names a mount are used (the head's axes must be known).
Prints the minutes measured, the turns per minute, and the 10th, 25th, 50th, 75th and 90th percentiles of
their angle (°), peak rate (°/s) and duration (s)."""
import glob, importlib.util, os, sys

# The trace reader, the mount's axes and the swing finder are out-and-backs.py's: one ruler for both scripts.
_spec = importlib.util.spec_from_file_location("out_and_backs", os.path.join(os.path.dirname(__file__), "out-and-backs.py"))
out_and_backs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(out_and_backs)


def main():
    args = sys.argv[1:]
    if any(a in ("-h", "--help") for a in args):
        print(__doc__)
        return
    if len(args) not in (2, 3):
        sys.exit(__doc__)
    directory, activity = args[0], args[1]
    try:
        min_angle = float(args[2]) if len(args) == 3 else 45.0
    except ValueError:
        sys.exit(f"walking-turns: MIN_ANGLE must be a number of degrees, not '{args[2]}'")
    turns, minutes = [], 0.0
    for path in sorted(glob.glob(os.path.join(directory, f"*_{activity}.csv"))):
        meta, rows = out_and_backs.load(path)
        spec = meta.get("mount", "").split(" ")[0]
        if not spec or spec == "unknown" or len(rows) < 2:
            continue
        up = out_and_backs.mount_matrix(spec)[2]
        ts = [r[0] for r in rows]
        rate = [sum(m * g for m, g in zip(up, r[2])) for r in rows]
        minutes += (ts[-1] - ts[0]) / 60
        turns += [s for s in out_and_backs.swings(ts, rate) if s["angle"] >= min_angle]
    if minutes == 0:
        sys.exit(f"walking-turns: no {activity} recording with a known mount in {directory}")
    print(f"{activity}: {minutes:.1f} min, {len(turns)} turns of {min_angle:g}° or more ({len(turns) / minutes:.2f}/min); "
          "p10 p25 p50 p75 p90")
    print(f"    angle  {out_and_backs.percentiles([s['angle'] for s in turns])}")
    print(f"    peak   {out_and_backs.percentiles([s['peak'] for s in turns])}")
    print(f"    dur    {out_and_backs.percentiles([s['end'] - s['start'] for s in turns])}")


if __name__ == "__main__":
    main()
