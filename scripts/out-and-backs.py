#!/usr/bin/env python3
"""Measures every out-and-back movement of the head about one head axis in imu-trace v1 recordings: a swing
out and a swing straight back, whatever the gesture detector makes of it. The cohort's measured distractor rows
(`CohortMotions`, "glancing at the keys") take their ranges from what this prints, so that the cohort is drawn
from real people and not from the detector's own model.

A swing is a stretch where the rate about the axis keeps one sign above 7.5 °/s and reaches 15 °/s, extended
to where it falls under 5 °/s; it counts when it peaks at 26 °/s or more and turns the head 3° or more (the
detector's gentlest swing and smallest swing angle). An out-and-back is a swing followed by one the other way
that begins within 1.5 s and turns the head 0.5 to 2 times as far. Its hold is the time between the fast parts
(within a third of each swing's peak) of the two swings.

Usage: scripts/out-and-backs.py DIR ACTIVITIES AXIS [--min-angle DEG]
  DIR          a directory of recordings (e.g. ../shared/data/daily/classyglass)
  ACTIVITIES   comma-separated file-name endings, e.g. typing or typing,computer
  AXIS         pitch or yaw (about the head's axes: only recordings whose mount is known), or vertical
               (about the vertical, from the accelerometer low-passed over 1 s: every recording, mount or
               not; what a detector without a mount calls yaw, e.g. for the boxing recordings)
  --min-angle  count only out-and-backs whose out swing turns the head DEG or more (default 3, the
               detector's smallest swing): e.g. while walking, those wider than a stride's sway
For pitch and yaw, only recordings whose `# mount:` line names a mount are used (the head's axes must be
known).
Prints the minutes measured, the out-and-backs per minute and, for each direction of the first swing, the
10th, 25th, 50th, 75th and 90th percentiles of angle (°), peak (°/s), back (return peak over out peak),
hold (s) and duration of the out swing (s), for both directions together and for each."""
import glob, math, os, sys

SWING_START, SWING_KEEP, SWING_EDGE = math.radians(15), math.radians(7.5), math.radians(5)
MIN_PEAK, MIN_ANGLE, MAX_BETWEEN = 26.0, 3.0, 1.5


def load(path):
    """The metadata lines and the (t, accel, gyro) rows of an imu-trace v1 file."""
    meta, rows = {}, []
    for line in open(path, encoding="utf-8"):
        if line.startswith("# "):
            key, _, value = line[2:].partition(":")
            meta[key.strip()] = value.strip()
        elif line.startswith("#") or line.startswith("t,") or not line.strip():
            continue
        else:
            p = line.rstrip("\n").split(",")
            rows.append((float(p[0]), [float(x) for x in p[1:4]], [float(x) for x in p[4:7]]))
    return meta, rows


def mount_matrix(spec):
    """Rows: the head's forward, left and up axes in sensor axes, from a mount like "-x,z,y"."""
    rows = []
    for axis in spec.split(","):
        v = [0, 0, 0]
        v["xyz".index(axis[-1])] = -1 if axis.startswith("-") else 1
        rows.append(v)
    return rows


def vertical_rate(ts, rows, time_constant=1.0):
    """The angular rate about the vertical: the gyro along the accelerometer low-passed over `time_constant`."""
    gravity, out = list(rows[0][1]), []
    for i, (t, accel, gyro) in enumerate(rows):
        dt = ts[i] - ts[i - 1] if i > 0 else 0.0
        k = 1 - math.exp(-dt / time_constant) if dt > 0 else 0.0
        gravity = [g + (a - g) * k for g, a in zip(gravity, accel)]
        norm = math.sqrt(sum(g * g for g in gravity)) or 1.0
        out.append(sum(w * g / norm for w, g in zip(gyro, gravity)))
    return out


def swings(ts, rate):
    found, i, n = [], 0, len(rate)
    dt = (ts[-1] - ts[0]) / max(n - 1, 1)
    while i < n:
        if abs(rate[i]) <= SWING_START:
            i += 1
            continue
        sign = 1 if rate[i] > 0 else -1
        j = i
        while j < n and rate[j] * sign > SWING_KEEP:
            j += 1
        a, b = i, j
        while a > 0 and rate[a - 1] * sign > SWING_EDGE:
            a -= 1
        while b < n and rate[b] * sign > SWING_EDGE:
            b += 1
        peak = max(abs(x) for x in rate[a:b])
        fast = [k for k in range(a, b) if abs(rate[k]) >= peak / 3]
        found.append(dict(sign=sign, peak=math.degrees(peak), angle=math.degrees(sum(rate[a:b]) * dt * sign),
                          start=ts[a], end=ts[b - 1], fast_start=ts[fast[0]], fast_end=ts[fast[-1]]))
        i = b
    return found


def out_and_backs(found, min_angle=MIN_ANGLE):
    for out, back in zip(found, found[1:]):
        if back["sign"] == out["sign"] or min(out["peak"], back["peak"]) < MIN_PEAK:
            continue
        if out["angle"] < min_angle or back["angle"] < MIN_ANGLE or back["start"] - out["end"] > MAX_BETWEEN:
            continue
        if not 0.5 <= back["angle"] / out["angle"] <= 2:
            continue
        yield dict(first=out["sign"], angle=out["angle"], peak=out["peak"], back=back["peak"] / out["peak"],
                   hold=back["fast_start"] - out["fast_end"], dur=out["end"] - out["start"],
                   start=out["start"], end=back["end"])


def distinct(pairs):
    """The out-and-backs that share no swing with the one counted before (an oscillation counts once)."""
    kept, last_end = [], -math.inf
    for x in pairs:
        if x["start"] > last_end:
            kept.append(x)
            last_end = x["end"]
    return kept


def percentiles(values):
    v = sorted(values)
    return " ".join(f"{v[int(p * (len(v) - 1))]:.2f}" for p in (0.1, 0.25, 0.5, 0.75, 0.9)) if v else "-"


def main():
    args = sys.argv[1:]
    if any(a in ("-h", "--help") for a in args):
        print(__doc__)
        return
    min_angle = MIN_ANGLE
    if len(args) == 5 and args[3] == "--min-angle":
        try:
            min_angle = float(args[4])
        except ValueError:
            sys.exit(f"out-and-backs: --min-angle needs a number of degrees, not '{args[4]}'")
        args = args[:3]
    if len(args) != 3 or args[2] not in ("pitch", "yaw", "vertical"):
        sys.exit(__doc__)
    directory, activities, axis = args[0], args[1].split(","), args[2]
    index = {"pitch": 1, "yaw": 2, "vertical": None}[axis]
    found, minutes, separate = [], 0.0, 0
    for path in sorted(glob.glob(os.path.join(directory, "*.csv"))):
        if not any(path.endswith(a + ".csv") for a in activities):
            continue
        meta, rows = load(path)
        if len(rows) < 2:
            continue
        ts = [r[0] for r in rows]
        if index is None:
            rate = vertical_rate(ts, rows)
        else:
            spec = meta.get("mount", "").split(" ")[0]
            if not spec or spec == "unknown":
                continue
            head_axis = mount_matrix(spec)[index]
            rate = [sum(m * g for m, g in zip(head_axis, r[2])) for r in rows]
        minutes += (ts[-1] - ts[0]) / 60
        these = list(out_and_backs(swings(ts, rate), min_angle))
        found += these
        separate += len(distinct(these))
    if minutes == 0:
        sys.exit(f"no recording of {activities}{' with a known mount' if index is not None else ''} in {directory}")
    wide = f", out swing {min_angle:g}° or more" if min_angle != MIN_ANGLE else ""
    print(f"{','.join(activities)} about {axis}{wide}: {minutes:.1f} min, {len(found)} out-and-backs "
          f"({len(found) / minutes:.2f}/min; sharing no swing with the one before: {separate / minutes:.2f}/min)")
    print("  both directions: p10 p25 p50 p75 p90")
    for key in ("angle", "peak", "back", "hold", "dur"):
        print(f"    {key:6s} {percentiles([x[key] for x in found])}")
    for sign in (1, -1):
        some = [x for x in found if x["first"] == sign]
        print(f"  first swing {'+' if sign > 0 else '-'}{axis}: {len(some)} ({len(some) / minutes:.2f}/min); "
              "p10 p25 p50 p75 p90")
        for key in ("angle", "peak", "back", "hold", "dur"):
            print(f"    {key:6s} {percentiles([x[key] for x in some])}")


if __name__ == "__main__":
    main()
