#!/usr/bin/env python3
"""Measures whether the head's own up axis can be learned from how a person turns their head in ordinary life,
without a mount. This is groundwork for learning the head's axes while the headset is worn (docs/gestures.md,
"Still open"): without them, a "no" made looking down is refused.

The neck turns the head about head-fixed axes, and the largest turns of ordinary life are yaw (looking around).
So the principal axis of the brisk angular rate (over 30 °/s) in the sensor frame should be the head's up axis.
Desk work is mostly pitch (glances at the keys), though, and then the principal axis is the left axis. So the
second estimate takes, of the two strongest axes, the one nearer the mean gravity direction (the head is
upright more than it is tilted 90°).

Both estimates are compared with each participant's `mount.up` in the truth files, which the data README
derives from gravity alone (the mean gravity direction while walking). That truth is independent of rotation.

Usage: scripts/rotation-axes.py DIR [MINUTES...]
  DIR       a directory of recordings (e.g. ../shared/data/daily/classyglass), pooled per participant in
            file-name order; only participants whose `# mount:` line names a mount are used
  MINUTES   also estimate from the first MINUTES of each participant's recordings (default: 2 5 10)
Prints, per participant, the angle of each estimate from mount.up, over all their recordings and over the
first MINUTES. Needs numpy."""
import collections, glob, json, os, re, sys

import numpy as np

BRISK = np.radians(30)


def load(path):
    rows = [line for line in open(path) if not line.startswith('#')][1:]
    return np.array([[float(v) for v in line.split(',')[:7]] for line in rows])


def angle(a, b):
    return float(np.degrees(np.arccos(min(1.0, abs(float(a @ b))))))


def estimates(samples):
    """(principal axis, the one of the two strongest nearer mean gravity) of acc/gyro rows, or None."""
    gyro, acc = samples[:, 4:7], samples[:, 1:4]
    brisk = gyro[np.linalg.norm(gyro, axis=1) > BRISK]
    if len(brisk) < 100:
        return None
    _, vectors = np.linalg.eigh(brisk.T @ brisk)
    first, second = vectors[:, 2], vectors[:, 1]
    gravity = acc.mean(axis=0)
    gravity /= np.linalg.norm(gravity)
    nearer = first if abs(first @ gravity) >= abs(second @ gravity) else second
    return first, nearer


def main(argv):
    if len(argv) < 2 or argv[1] in ('-h', '--help'):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    directory, minutes = argv[1], [float(m) for m in argv[2:]] or [2.0, 5.0, 10.0]
    participants = collections.defaultdict(list)
    for path in sorted(glob.glob(os.path.join(directory, '*.csv'))):
        truth_path = path[:-4] + '.truth.json'
        if not os.path.exists(truth_path):
            continue
        mount = json.load(open(truth_path)).get('mount') or {}
        if mount.get('mount', 'unknown') == 'unknown':
            continue
        who = re.match(r'(.+?_u\d+)_', os.path.basename(path))
        participants[who.group(1) if who else path].append((path, np.array(mount['up'])))
    if not participants:
        print(f'rotation-axes: no recording with a known mount in {directory}', file=sys.stderr)
        return 1
    columns = ['all'] + [f'{m:g} min' for m in minutes]
    print(f"{'participant':14s} {'minutes':>7s}  " + '  '.join(f'{c:>15s}' for c in columns))
    print(f"{'':14s} {'':7s}  " + '  '.join(f"{'axis / nearer':>15s}" for _ in columns))
    worst = collections.defaultdict(list)
    for who, files in participants.items():
        up = files[0][1]
        samples = np.vstack([load(path) for path, _ in files])
        rate = 1 / np.median(np.diff(samples[:, 0]))
        cells = []
        for column, limit in zip(columns, [None] + minutes):
            part = samples if limit is None else samples[: int(limit * 60 * rate)]
            found = estimates(part)
            if found is None:
                cells.append(f"{'-':>15s}")
                continue
            a, b = angle(found[0], up), angle(found[1], up)
            worst[column].append((a, b))
            cells.append(f'{a:6.1f}° /{b:6.1f}°')
        print(f'{who:14s} {len(samples) / rate / 60:7.1f}  ' + '  '.join(cells))
    for column in columns:
        values = np.array(worst[column])
        if len(values):
            print(f'{column}: principal axis median {np.median(values[:, 0]):.1f}°, worst {values[:, 0].max():.1f}°; '
                  f'nearer gravity median {np.median(values[:, 1]):.1f}°, worst {values[:, 1].max():.1f}°')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
