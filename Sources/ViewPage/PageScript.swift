/// The page's script: reads /events (the tracker's JSON lines as server-sent events, and the view's own
/// `view` status events) and draws every panel. What it shows is also kept in `window.headtrackView`, so a
/// test can read back what was drawn (the rotation of the head, the gestures listed, when it went stale).
enum PageScript {
    static let text: StaticString = #"""
'use strict';
(function () {
  // ---- what the page knows (tests read it) ----------------------------------------------------------------
  const hv = window.headtrackView = {
    hello: null, state: null,
    drawn: null,          // {t, m}: the state line's t and the head->ENU rotation (row-major 3x3) last drawn
    plotMarks: [],        // the gestures marked on the plot in the last frame: {gesture, t, x}
    gestures: [],         // newest first: {gesture, t, start, count}
    faults: [], faultActive: null,
    trackerDropped: 0, viewDropped: 0, lines: 0, stateLines: 0,
    stateTimes: [],       // the t of the latest state lines (at most 256), for their rate on the tracker's clock
    view: null,           // the latest `view` event: is the tracker connected, and why not
    streamOpen: false,
    lastTrackerAt: null,  // performance.now() of the latest line from the tracker
    lastViewAt: null,     // ... of the latest event of any kind
    stale: true, staleShownAt: performance.now(), staleReason: 'connecting',
    calibration: null,    // {points, cellsFilled, ...} once a calibration line arrived
    errors: []
  };
  window.addEventListener('error', e => hv.errors.push(String(e.message)));
  window.addEventListener('securitypolicyviolation', e => hv.errors.push('CSP: ' + e.violatedDirective));

  const $ = id => document.getElementById(id);
  const fixed = (x, n) => (typeof x === 'number' && isFinite(x)) ? x.toFixed(n) : '--';
  const WINDOW_S = 10;          // the plot's span
  const STALE_MS = 1000;        // no state line for this long (with state on) = stale; 60 Hz normally
  const VIEW_SILENT_MS = 2500;  // the view sends a status event every second

  let series = [];              // {t, x, y, z} head rates for the plot
  let cal = null;               // the calibration being drawn
  let sessionStart = null;

  function reset(hello) {
    hv.hello = hello; hv.state = null; hv.drawn = null;
    hv.gestures = []; hv.faults = []; hv.faultActive = null;
    hv.trackerDropped = 0; hv.lines = 0; hv.stateLines = 0; hv.stateTimes = [];
    series = []; cal = null; hv.calibration = null;
    sessionStart = performance.now();
    renderGestures(); renderFaults(); renderCalibrationText();
  }

  // ---- the stream ------------------------------------------------------------------------------------------
  const source = new EventSource('/events');
  source.onopen = () => { hv.streamOpen = true; };
  source.onerror = () => { hv.streamOpen = false; checkStale(); };
  source.onmessage = e => {
    let m;
    try { m = JSON.parse(e.data); } catch (err) { return; }
    if (!m || typeof m.type !== 'string') return;
    const now = performance.now();
    hv.lastTrackerAt = now; hv.lastViewAt = now;
    hv.lines += 1;
    take(m);
    checkStale();
  };
  source.addEventListener('view', e => {
    try { hv.view = JSON.parse(e.data); } catch (err) { return; }
    hv.lastViewAt = performance.now();
    hv.viewDropped = hv.view.dropped || 0;
    checkStale();
  });

  function take(m) {
    switch (m.type) {
      case 'hello': reset(m); break;
      case 'state': takeState(m); break;
      case 'gesture':
        hv.gestures.unshift({ gesture: m.gesture, t: m.t, start: m.start, count: m.count });
        if (hv.gestures.length > 8) hv.gestures.pop();
        renderGestures();
        break;
      case 'fault':
        if (m.active) {
          hv.faultActive = { kind: m.kind, t: m.t };
          hv.faults.unshift({ kind: m.kind, from: m.t, to: null });
          if (hv.faults.length > 8) hv.faults.pop();
        } else {
          hv.faultActive = null;
          if (hv.faults.length && hv.faults[0].to === null) hv.faults[0].to = m.t;
        }
        renderFaults();
        break;
      case 'dropped': if (Number.isFinite(m.n) && m.n >= 0) hv.trackerDropped += m.n; break;
      case 'calibration': takeCalibration(m); break;
      case 'error': hv.errorMessage = String(m.message); break;
    }
  }

  function takeState(m) {
    if (!Array.isArray(m.quat) || m.quat.length !== 4) return;
    hv.state = m;
    hv.stateLines += 1;
    if (Number.isFinite(m.t)) {
      hv.stateTimes.push(m.t);
      if (hv.stateTimes.length > 256) hv.stateTimes.shift();
    }
    if (Array.isArray(m.rates_dps) && m.rates_dps.length === 3) {
      if (series.length && m.t < series[series.length - 1].t) series = [];
      series.push({ t: m.t, x: m.rates_dps[0], y: m.rates_dps[1], z: m.rates_dps[2] });
      const cut = m.t - WINDOW_S - 1;
      let drop = 0;
      while (drop < series.length && series[drop].t < cut) drop++;
      if (drop > 0) series.splice(0, drop);
    }
    // The LED row shows this line's LEDs at once, and says which line it shows.
    const leds = $('leds');
    for (const li of leds.children) {
      const on = !!(m.leds && m.leds[li.dataset.led] === true);
      li.dataset.on = on ? 'true' : 'false';
    }
    leds.dataset.t = String(m.t);
    $('heading-value').textContent = m.heading_deg === null ? 'none' : fixed(m.heading_deg, 1) + '°' + (m.heading_valid ? '' : ' (held)');
    $('pitch-value').textContent = fixed(m.pitch_deg, 1) + '°';
    $('roll-value').textContent = fixed(m.roll_deg, 1) + '°';
    $('t-value').textContent = fixed(m.t, 2) + ' s';
  }

  // ---- stale ----------------------------------------------------------------------------------------------
  function checkStale() {
    const now = performance.now();
    let reason = null;
    const stateHz = hv.hello && hv.hello.rates ? hv.hello.rates.state_hz : 0;
    if (!hv.streamOpen && hv.lastViewAt === null) reason = 'connecting to the view';
    else if (!hv.streamOpen) reason = 'the view is gone (is headtrack view still running?)';
    else if (hv.lastViewAt !== null && now - hv.lastViewAt > VIEW_SILENT_MS) reason = 'the view has sent nothing for ' + ((now - hv.lastViewAt) / 1000).toFixed(1) + ' s';
    else if (hv.view && hv.view.tracker !== 'connected') reason = hv.view.reason || 'the tracker is not connected';
    else if (!hv.hello) reason = 'waiting for the tracker';
    else if (stateHz > 0 && (hv.lastTrackerAt === null || now - hv.lastTrackerAt > STALE_MS))
      reason = 'no data for ' + ((now - (hv.lastTrackerAt || now)) / 1000).toFixed(1) + ' s';
    const stale = reason !== null;
    if (stale && !hv.stale) hv.staleShownAt = now;
    hv.stale = stale; hv.staleReason = reason;
    const badge = $('badge');
    badge.textContent = stale ? 'STALE' : 'LIVE';
    badge.className = 'badge ' + (stale ? 'stale' : 'live');
    badge.dataset.stale = stale ? 'true' : 'false';
    $('badge-detail').textContent = stale ? reason : '';
    document.body.classList.toggle('stale', stale);
    const h = hv.hello;
    $('source').textContent = h ? (h.imu + (h.magnetometer ? ' + ' + h.magnetometer : ', no magnetometer') +
      ' · IMU ' + fixed(h.rates.imu_hz, 0) + ' Hz · ' + (h.mount ? 'mount ' + h.mount + ' (' + h.mount_source + ')' : 'no mount') +
      ' · protocol ' + h.version) : 'no tracker yet';
  }
  setInterval(checkStale, 100);
  setInterval(renderStream, 500);

  // ---- lists ----------------------------------------------------------------------------------------------
  function item(cls, parts) {
    const li = document.createElement('li');
    if (cls) li.className = cls;
    for (const [c, text] of parts) {
      const s = document.createElement('span');
      if (c) s.className = c;
      s.textContent = text;
      li.appendChild(s);
    }
    return li;
  }

  function renderGestures() {
    const ol = $('gestures');
    ol.replaceChildren();
    if (!hv.gestures.length) { ol.appendChild(item('empty', [[null, 'none yet']])); return; }
    for (const g of hv.gestures) {
      const began = typeof g.start === 'number' ? ', began ' + fixed(g.start, 2) + ' s' : '';
      const cycles = typeof g.count === 'number' ? ', ' + g.count + (g.count === 1 ? ' cycle' : ' cycles') : '';
      const li = item(null, [['kind', g.gesture], [null, ' at ' + fixed(g.t, 2) + ' s' + began + cycles]]);
      li.dataset.gesture = g.gesture; li.dataset.t = String(g.t);
      ol.appendChild(li);
    }
  }

  function renderFaults() {
    const now = $('fault-now');
    now.textContent = hv.faultActive ? 'SENSOR FAULT ' + hv.faultActive.kind + ' since ' + fixed(hv.faultActive.t, 2) + ' s' : 'none now';
    now.dataset.active = hv.faultActive ? 'true' : 'false';
    const ol = $('faults');
    ol.replaceChildren();
    for (const f of hv.faults) {
      const span = f.to === null ? ' from ' + fixed(f.from, 2) + ' s, still going' : ' ' + fixed(f.from, 2) + '–' + fixed(f.to, 2) + ' s';
      ol.appendChild(item(f.to === null ? 'active' : null, [['kind', f.kind], [null, span]]));
    }
  }

  function figures(dl, rows) {
    dl.replaceChildren();
    for (const [name, value, cls] of rows) {
      const dt = document.createElement('dt'); dt.textContent = name;
      const dd = document.createElement('dd'); dd.textContent = value;
      if (cls) dd.className = cls;
      dl.appendChild(dt); dl.appendChild(dd);
    }
  }

  // State lines a second over the latest second of the tracker's own clock (their t). Counted on the page's
  // clock, the view's history that a page gets when it opens arrived at once and read as "1018 /s now".
  function stateRate() {
    const ts = hv.stateTimes;
    if (ts.length < 2 || hv.stale) return 0;
    const last = ts[ts.length - 1];
    let first = ts.length - 1;
    while (first > 0 && ts[first - 1] > last - 1) first--;
    const span = last - ts[first];
    return span > 0 ? (ts.length - 1 - first) / span : 0;
  }

  function renderStream() {
    const rate = stateRate();
    const v = hv.view;
    figures($('stream-figures'), [
      ['tracker', v ? (v.tracker === 'connected' ? 'connected' : 'waiting') : '?'],
      ['socket', v ? v.socket : '?'],
      ['state lines', hv.stateLines + ' (' + rate.toFixed(0) + ' /s now' + (hv.hello ? ', ' + fixed(hv.hello.rates.state_hz, 0) + ' sent' : '') + ')'],
      ['dropped by the tracker', String(hv.trackerDropped), hv.trackerDropped ? 'short' : null],
      ['dropped by the view', String(hv.viewDropped), hv.viewDropped ? 'short' : null],
      ['pages on this view', v ? v.streams + ' of ' + v.max_streams : '?'],
    ].concat(hv.errorMessage ? [['refused', hv.errorMessage, 'short']] : []));
  }

  // ---- 3D -------------------------------------------------------------------------------------------------
  // Head frame: x forward, y left, z up. World: east, north, up. The camera looks at the head from behind its
  // left shoulder when it faces north (from west-south-west, a little above), so the head turns on the screen
  // the way the wearer turns and its nose shows in profile.
  function matrixOf(q) {
    let [w, x, y, z] = q;
    const n = Math.hypot(w, x, y, z) || 1;
    w /= n; x /= n; y /= n; z /= n;
    return [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
            2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
            2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)];
  }
  const apply = (m, v) => [m[0] * v[0] + m[1] * v[1] + m[2] * v[2], m[3] * v[0] + m[4] * v[1] + m[5] * v[2], m[6] * v[0] + m[7] * v[1] + m[8] * v[2]];
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const norm = a => { const n = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / n, a[1] / n, a[2] / n]; };

  function camera(azimuthDeg, elevationDeg, distance) {
    const az = azimuthDeg * Math.PI / 180, el = elevationDeg * Math.PI / 180;
    const eye = [Math.sin(az) * Math.cos(el), Math.cos(az) * Math.cos(el), Math.sin(el)];
    const forward = norm([-eye[0], -eye[1], -eye[2]]);
    const right = norm(cross(forward, [0, 0, 1]));
    const up = cross(right, forward);
    return { eye: eye.map(c => c * distance), forward, right, up, distance };
  }
  const headCamera = camera(250, 22, 7);

  function project(cam, p, cx, cy, focal) {
    const d = sub(p, cam.eye);
    const depth = dot(d, cam.forward);
    const s = focal / Math.max(0.1, depth);
    return [cx + dot(d, cam.right) * s, cy - dot(d, cam.up) * s, depth];
  }

  // The head: an ellipsoid skull, a nose, two ears; faces as polygons in the head frame.
  const headFaces = (function () {
    const faces = [];
    const rings = 9, segments = 16, rx = 1.0, ry = 0.82, rz = 1.08;
    const at = (i, j) => {
      const th = Math.PI * i / rings, ph = 2 * Math.PI * j / segments;
      return [rx * Math.sin(th) * Math.cos(ph), ry * Math.sin(th) * Math.sin(ph), rz * Math.cos(th) + 0.05];
    };
    for (let i = 0; i < rings; i++) for (let j = 0; j < segments; j++) {
      faces.push({ pts: [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)], color: [214, 178, 150] });
    }
    const tip = [1.28, 0, -0.05], a = [0.93, 0.16, 0.08], b = [0.93, -0.16, 0.08], c = [0.9, 0.13, -0.28], d = [0.9, -0.13, -0.28];
    for (const f of [[a, tip, b], [b, tip, d], [d, tip, c], [c, tip, a]]) faces.push({ pts: f, color: [236, 150, 120], twoSided: true });
    for (const side of [1, -1]) {
      const y = 0.8 * side, y2 = 0.9 * side;
      faces.push({ pts: [[0.1, y, 0.25], [-0.2, y2, 0.25], [-0.2, y2, -0.25], [0.1, y, -0.25]], color: [200, 150, 125], twoSided: true });
    }
    for (const side of [1, -1]) {
      const y = 0.3 * side;
      faces.push({ pts: [[0.86, y - 0.09, 0.38], [0.86, y + 0.09, 0.38], [0.84, y + 0.09, 0.27], [0.84, y - 0.09, 0.27]], color: [30, 36, 44], twoSided: true, lift: 0.05 });
    }
    return faces;
  })();

  function drawHead() {
    const canvas = $('head'), g = canvas.getContext('2d');
    const W = canvas.width, H = canvas.height, cx = W / 2, cy = H * 0.52, focal = 900;
    g.clearRect(0, 0, W, H);
    const cam = headCamera;
    const P = p => project(cam, p, cx, cy, focal);
    // The ground: a compass ring in the world frame, below the head.
    const z0 = -1.7;
    g.lineWidth = 1;
    for (const r of [1.6, 2.4]) {
      g.beginPath();
      for (let k = 0; k <= 72; k++) {
        const a = 2 * Math.PI * k / 72, s = P([r * Math.sin(a), r * Math.cos(a), z0]);
        if (k === 0) g.moveTo(s[0], s[1]); else g.lineTo(s[0], s[1]);
      }
      g.strokeStyle = '#34404c'; g.stroke();
    }
    g.font = 'bold 15px system-ui, sans-serif'; g.textAlign = 'center'; g.textBaseline = 'middle';
    for (const [label, az] of [['N', 0], ['E', 90], ['S', 180], ['W', 270]]) {
      const a = az * Math.PI / 180;
      const s = P([2.8 * Math.sin(a), 2.8 * Math.cos(a), z0]);
      const inner = P([1.6 * Math.sin(a), 1.6 * Math.cos(a), z0]), outer = P([2.4 * Math.sin(a), 2.4 * Math.cos(a), z0]);
      g.beginPath(); g.moveTo(inner[0], inner[1]); g.lineTo(outer[0], outer[1]);
      g.strokeStyle = label === 'N' ? '#4d9fff' : '#4a5866'; g.lineWidth = label === 'N' ? 3 : 1; g.stroke();
      g.fillStyle = label === 'N' ? '#4d9fff' : '#8a97a5'; g.fillText(label, s[0], s[1]);
    }
    const st = hv.state;
    if (!st) {
      g.fillStyle = '#8a97a5'; g.font = '15px system-ui, sans-serif';
      g.fillText('waiting for the first state line', cx, cy);
      return;
    }
    const m = matrixOf(st.quat);
    hv.drawn = { t: st.t, m: m.slice() };
    // Faces in the world, shaded by a light from above the camera, drawn far to near.
    const light = norm([cam.eye[0] + 2, cam.eye[1] - 3, cam.eye[2] + 6]);
    const drawList = [];
    for (const f of headFaces) {
      const world = f.pts.map(p => apply(m, p));
      const centre = world.reduce((s, p) => [s[0] + p[0] / world.length, s[1] + p[1] / world.length, s[2] + p[2] / world.length], [0, 0, 0]);
      // The skull's faces wind outwards (culled when they face away); the small parts are drawn from both sides.
      // Newell's normal: well defined for the skull's pole faces too, whose quads have two equal corners.
      let n = [0, 0, 0];
      for (let k = 0; k < world.length; k++) {
        const a = world[k], b = world[(k + 1) % world.length];
        n[0] += (a[1] - b[1]) * (a[2] + b[2]); n[1] += (a[2] - b[2]) * (a[0] + b[0]); n[2] += (a[0] - b[0]) * (a[1] + b[1]);
      }
      n = norm(n);
      const toEye = norm(sub(cam.eye, centre));
      let facing = dot(n, toEye);
      if (f.twoSided && facing < 0) { n = [-n[0], -n[1], -n[2]]; facing = -facing; }
      if (facing <= 0 && !f.twoSided) continue;
      const depth = dot(sub(centre, cam.eye), cam.forward) - (f.lift || 0);
      const shade = 0.35 + 0.65 * Math.max(0, dot(n, light));
      drawList.push({ s: world.map(P), depth, color: f.color.map(c => Math.round(c * shade)) });
    }
    drawList.sort((a, b) => b.depth - a.depth);
    for (const d of drawList) {
      g.beginPath();
      d.s.forEach((p, i) => i ? g.lineTo(p[0], p[1]) : g.moveTo(p[0], p[1]));
      g.closePath();
      g.fillStyle = 'rgb(' + d.color.join(',') + ')';
      g.fill();
      g.strokeStyle = 'rgba(0,0,0,0.18)'; g.lineWidth = 0.5; g.stroke();
    }
    // The head's own axes from its centre: x forward, y left, z up.
    const o = P([0, 0, 0]);
    for (const [axis, color, label] of [[[1.9, 0, 0], '#ff6b6b', 'x'], [[0, 1.6, 0], '#4dd4ac', 'y'], [[0, 0, 1.8], '#6aa8ff', 'z']]) {
      const tip = apply(m, axis), s = P(tip);
      const behind = dot(sub(tip, cam.eye), cam.forward) > dot(sub([0, 0, 0], cam.eye), cam.forward) + 0.4;
      g.globalAlpha = behind ? 0.35 : 1;
      g.beginPath(); g.moveTo(o[0], o[1]); g.lineTo(s[0], s[1]); g.strokeStyle = color; g.lineWidth = 2.5; g.stroke();
      g.fillStyle = color; g.font = 'bold 14px system-ui, sans-serif'; g.fillText(label, s[0] + 8, s[1] - 8);
      g.globalAlpha = 1;
    }
  }

  // ---- compass --------------------------------------------------------------------------------------------
  function drawCompass() {
    const canvas = $('compass'), g = canvas.getContext('2d');
    const W = canvas.width, H = canvas.height, cx = W / 2, cy = H / 2, R = Math.min(W, H) / 2 - 22;
    g.clearRect(0, 0, W, H);
    const st = hv.state, h = hv.hello;
    const half = h && typeof h.north_led_deg === 'number' ? h.north_led_deg : null;
    const northOn = !!(st && st.leds && st.leds.north);
    // Screen angle of a heading: north up, clockwise.
    const ang = deg => (deg - 90) * Math.PI / 180;
    if (half !== null) {
      g.beginPath(); g.moveTo(cx, cy); g.arc(cx, cy, R, ang(-half), ang(half)); g.closePath();
      g.fillStyle = northOn ? 'rgba(77,159,255,0.55)' : 'rgba(77,159,255,0.16)'; g.fill();
    }
    g.beginPath(); g.arc(cx, cy, R, 0, 2 * Math.PI); g.strokeStyle = '#4a5866'; g.lineWidth = 2; g.stroke();
    g.textAlign = 'center'; g.textBaseline = 'middle';
    for (let d = 0; d < 360; d += 10) {
      const a = ang(d), r1 = d % 90 === 0 ? R - 14 : d % 30 === 0 ? R - 9 : R - 5;
      g.beginPath(); g.moveTo(cx + r1 * Math.cos(a), cy + r1 * Math.sin(a)); g.lineTo(cx + R * Math.cos(a), cy + R * Math.sin(a));
      g.strokeStyle = '#6a7886'; g.lineWidth = 1; g.stroke();
    }
    g.font = 'bold 14px system-ui, sans-serif';
    for (const [label, d] of [['N', 0], ['E', 90], ['S', 180], ['W', 270]]) {
      g.fillStyle = label === 'N' ? '#4d9fff' : '#c2ccd6';
      g.fillText(label, cx + (R + 12) * Math.cos(ang(d)), cy + (R + 12) * Math.sin(ang(d)));
    }
    let note = '';
    if (st && typeof st.heading_deg === 'number') {
      const a = ang(st.heading_deg);
      g.beginPath(); g.moveTo(cx - 8 * Math.cos(a + Math.PI / 2), cy - 8 * Math.sin(a + Math.PI / 2));
      g.lineTo(cx + (R - 18) * Math.cos(a), cy + (R - 18) * Math.sin(a));
      g.lineTo(cx + 8 * Math.cos(a + Math.PI / 2), cy + 8 * Math.sin(a + Math.PI / 2)); g.closePath();
      g.fillStyle = st.heading_valid ? '#ffd166' : '#6a7886'; g.fill();
      g.fillStyle = '#e4e9ee'; g.font = 'bold 22px system-ui, sans-serif';
      g.fillText(fixed(st.heading_deg, 0) + '°', cx, cy + R * 0.45);
      note = st.heading_valid ? 'live heading' : 'heading held (head near vertical or a magnetic disturbance)';
    } else {
      note = st ? 'no heading yet' : '';
    }
    if (half !== null) note += (note ? ' · ' : '') + 'north LED within ±' + fixed(half, 1) + '°' + (northOn ? ' (lit)' : '');
    $('heading-note').textContent = note;
  }

  // ---- rates plot -----------------------------------------------------------------------------------------
  function drawPlot() {
    const canvas = $('plot'), g = canvas.getContext('2d');
    const W = canvas.width, H = canvas.height, left = 48, right = W - 10, top = 10, bottom = H - 24;
    g.clearRect(0, 0, W, H);
    const end = hv.state ? hv.state.t : (series.length ? series[series.length - 1].t : WINDOW_S);
    const start = end - WINDOW_S;
    let peak = 50;
    for (const s of series) if (s.t >= start) peak = Math.max(peak, Math.abs(s.x), Math.abs(s.y), Math.abs(s.z));
    const scale = Math.ceil(peak / 50) * 50;
    const X = t => left + (t - start) / WINDOW_S * (right - left);
    const Y = v => (top + bottom) / 2 - v / scale * (bottom - top) / 2;
    g.font = '11px system-ui, sans-serif'; g.textAlign = 'right'; g.textBaseline = 'middle'; g.fillStyle = '#8a97a5';
    for (const v of [-scale, -scale / 2, 0, scale / 2, scale]) {
      g.beginPath(); g.moveTo(left, Y(v)); g.lineTo(right, Y(v)); g.strokeStyle = v === 0 ? '#4a5866' : '#2c3540'; g.lineWidth = 1; g.stroke();
      g.fillText(String(v), left - 6, Y(v));
    }
    g.textAlign = 'center'; g.textBaseline = 'top';
    for (let t = Math.ceil(start); t <= end; t += 1) {
      g.beginPath(); g.moveTo(X(t), bottom); g.lineTo(X(t), bottom + 4); g.strokeStyle = '#4a5866'; g.stroke();
      g.fillText(t + ' s', X(t), bottom + 6);
    }
    // Gestures: a band from the start of the movement to where it was reported, and a line at the report.
    const marks = [];
    for (const ges of hv.gestures) {
      if (ges.t < start) continue;
      marks.push({ gesture: ges.gesture, t: ges.t, x: X(ges.t) });
      const color = ges.gesture === 'nod' ? '57,211,83' : ges.gesture === 'shake' ? '255,92,92' : '240,180,41';
      if (typeof ges.start === 'number') {
        g.fillStyle = 'rgba(' + color + ',0.12)';
        g.fillRect(Math.max(left, X(ges.start)), top, X(ges.t) - Math.max(left, X(ges.start)), bottom - top);
      }
      g.beginPath(); g.moveTo(X(ges.t), top); g.lineTo(X(ges.t), bottom); g.strokeStyle = 'rgb(' + color + ')'; g.lineWidth = 2; g.stroke();
      g.fillStyle = 'rgb(' + color + ')'; g.textAlign = 'left'; g.font = 'bold 12px system-ui, sans-serif';
      g.fillText(ges.gesture, X(ges.t) + 4, top + 2);
      g.font = '11px system-ui, sans-serif'; g.textAlign = 'center';
    }
    hv.plotMarks = marks;
    g.save();
    g.beginPath(); g.rect(left, top, right - left, bottom - top); g.clip();
    for (const [key, color] of [['x', '#ff6b6b'], ['y', '#4dd4ac'], ['z', '#6aa8ff']]) {
      g.beginPath();
      let first = true;
      for (const s of series) {
        if (s.t < start - 0.1) continue;
        if (first) { g.moveTo(X(s.t), Y(s[key])); first = false; } else g.lineTo(X(s.t), Y(s[key]));
      }
      g.strokeStyle = color; g.lineWidth = 1.5; g.stroke();
    }
    g.restore();
    if (!series.length) {
      g.fillStyle = '#8a97a5'; g.textAlign = 'center'; g.font = '13px system-ui, sans-serif';
      g.fillText(hv.state ? 'this tracker sends no rates_dps' : 'waiting for state lines', (left + right) / 2, (top + bottom) / 2 - 20);
    }
  }

  // ---- calibration ----------------------------------------------------------------------------------------
  function takeCalibration(m) {
    if (!cal || m.first < cal.next && m.first === 0 && cal.next > 0) {
      cal = { points: [], next: m.first, missed: m.first };
    }
    if (m.first > cal.next) cal.missed += m.first - cal.next;  // lines this page did not get
    if (Array.isArray(m.points) && m.first >= cal.next - m.points.length) {
      const skip = Math.max(0, cal.next - m.first);
      for (let i = skip; i < m.points.length; i++) cal.points.push(m.points[i]);
      cal.next = m.first + m.points.length;
    }
    if (cal.points.length > 25000) cal.points.splice(0, cal.points.length - 25000);
    cal.last = m;
    const fit = m.fit, perCell = m.need ? m.need.per_cell : 3;
    hv.calibration = {
      phase: m.phase, points: cal.points.length, missed: cal.missed, kept: m.kept,
      coverage: fit ? fit.coverage : null, residual: fit ? fit.residual : null,
      hardIron: fit ? fit.hard_iron_ut : null, fieldStrength: fit ? fit.field_ut : null,
      cellsFilled: fit && Array.isArray(fit.cells) ? fit.cells.filter(n => n >= perCell).length : 0
    };
    renderCalibrationText();
  }

  function renderCalibrationText() {
    const note = $('calibration-note'), dl = $('calibration-figures');
    if (!cal) {
      note.textContent = hv.hello && !hv.hello.magnetometer
        ? 'this tracker has no magnetometer: nothing to calibrate'
        : 'no calibration in this stream: it appears here while headtrack calibrate --socket PATH runs (open the view on that PATH)';
      dl.replaceChildren();
      return;
    }
    const m = cal.last, fit = m.fit, need = m.need || {};
    note.textContent = m.progress;
    const pct = x => fixed(x * 100, 1) + ' %';
    const rows = [['phase', m.phase], ['samples', m.kept + ' kept of ' + m.seen + (cal.missed ? ' (' + cal.missed + ' not received here)' : '')]];
    if (fit) {
      rows.push(['coverage', pct(fit.coverage) + ' (need ' + pct(need.coverage) + ')', fit.coverage >= need.coverage ? 'met' : 'short']);
      rows.push(['fit residual', pct(fit.residual) + ' (at most ' + pct(need.residual) + ')', fit.residual <= need.residual ? 'met' : 'short']);
      rows.push(['spread', pct(fit.spread) + ' (need ' + pct(need.spread) + ')', fit.spread >= need.spread ? 'met' : 'short']);
      rows.push(['field', fixed(fit.field_ut, 1) + ' µT']);
      rows.push(['hard iron', fit.hard_iron_ut.map(v => fixed(v, 1)).join(', ') + ' µT']);
    } else {
      rows.push(['fit', 'not yet (it needs ' + (m.phase === 'keep_still' ? 'the turn' : 'more samples') + ')']);
    }
    figures(dl, rows);
  }

  const sphereSpinDegPerS = 12;
  function drawSphere(nowMs) {
    const canvas = $('sphere'), g = canvas.getContext('2d');
    const W = canvas.width, H = canvas.height, cx = W / 2, cy = H / 2, R = Math.min(W, H) / 2 - 16;
    g.clearRect(0, 0, W, H);
    if (!cal) {
      g.beginPath(); g.arc(cx, cy, R, 0, 2 * Math.PI); g.strokeStyle = '#2c3540'; g.lineWidth = 1; g.stroke();
      return;
    }
    const m = cal.last, fit = m.fit;
    // Samples onto the unit sphere: the fit's correction when there is one, else around their mean.
    let toSphere;
    if (fit) {
      const h = fit.hard_iron_ut, S = fit.soft_iron, f = fit.field_ut || 1;
      toSphere = p => { const d = [p[0] - h[0], p[1] - h[1], p[2] - h[2]]; return [dot(S[0], d) / f, dot(S[1], d) / f, dot(S[2], d) / f]; };
    } else {
      let c = [0, 0, 0], r = 0;
      for (const p of cal.points) { c[0] += p[0]; c[1] += p[1]; c[2] += p[2]; }
      const n = Math.max(1, cal.points.length);
      c = c.map(v => v / n);
      for (const p of cal.points) r += Math.hypot(p[0] - c[0], p[1] - c[1], p[2] - c[2]);
      r = r / n || 1;
      toSphere = p => [(p[0] - c[0]) / r, (p[1] - c[1]) / r, (p[2] - c[2]) / r];
    }
    const cam = camera((nowMs / 1000 * sphereSpinDegPerS) % 360, 25, 6);
    const P = p => {
      const d = sub(p, cam.eye), depth = dot(d, cam.forward), k = R * 5 / Math.max(0.1, depth);
      return [cx + dot(d, cam.right) * k, cy - dot(d, cam.up) * k, depth];
    };
    const front = p => dot(sub(p, cam.eye), cam.forward) < cam.distance - 0.05;
    // Coverage cells (the fit's: equal-area bands in z, sectors in longitude), filled by how many they hold.
    const bands = (m.cell_grid && m.cell_grid.bands) || 6, sectors = (m.cell_grid && m.cell_grid.sectors) || 12;
    const perCell = m.need ? m.need.per_cell : 3;
    const cells = fit && Array.isArray(fit.cells) ? fit.cells : null;
    const onSphere = (z, lon) => { const r = Math.sqrt(Math.max(0, 1 - z * z)); return [r * Math.cos(lon), r * Math.sin(lon), z]; };
    for (let b = 0; b < bands; b++) for (let s = 0; s < sectors; s++) {
      const z0 = -1 + 2 * b / bands, z1 = -1 + 2 * (b + 1) / bands;
      const l0 = 2 * Math.PI * s / sectors, l1 = 2 * Math.PI * (s + 1) / sectors;
      const mid = onSphere((z0 + z1) / 2, (l0 + l1) / 2);
      const isFront = front(mid);
      const outline = [];
      for (let k = 0; k <= 4; k++) outline.push(onSphere(z0, l0 + (l1 - l0) * k / 4));
      for (let k = 0; k <= 4; k++) outline.push(onSphere(z1, l1 - (l1 - l0) * k / 4));
      const pts = outline.map(P);
      g.beginPath(); pts.forEach((p, i) => i ? g.lineTo(p[0], p[1]) : g.moveTo(p[0], p[1])); g.closePath();
      const n = cells ? cells[b * sectors + s] : 0;
      if (n >= perCell) g.fillStyle = isFront ? 'rgba(57,211,83,0.38)' : 'rgba(57,211,83,0.10)';
      else if (n > 0) g.fillStyle = isFront ? 'rgba(240,180,41,0.30)' : 'rgba(240,180,41,0.08)';
      else g.fillStyle = 'rgba(0,0,0,0)';
      g.fill();
      g.strokeStyle = isFront ? 'rgba(138,151,165,0.35)' : 'rgba(138,151,165,0.08)'; g.lineWidth = 0.6; g.stroke();
    }
    let drawnPoints = 0;
    for (const p of cal.points) {
      const u = toSphere(p), s = P(u), isFront = front(u);
      g.fillStyle = isFront ? 'rgba(255,209,102,0.95)' : 'rgba(255,209,102,0.25)';
      g.fillRect(s[0] - 1.2, s[1] - 1.2, 2.4, 2.4);
      drawnPoints++;
    }
    hv.calibration.drawnPoints = drawnPoints;
    g.beginPath(); g.arc(cx, cy, R * 5 / cam.distance * 1.0, 0, 2 * Math.PI); g.strokeStyle = '#4a5866'; g.lineWidth = 1; g.stroke();
  }

  // ---- the frame ------------------------------------------------------------------------------------------
  function frame(nowMs) {
    try {
      drawHead(); drawCompass(); drawPlot(); drawSphere(nowMs);
    } catch (err) {
      hv.errors.push(String(err && err.stack || err));
      throw err;
    }
    requestAnimationFrame(frame);
  }
  renderGestures(); renderFaults(); renderCalibrationText(); checkStale(); renderStream();
  requestAnimationFrame(frame);
})();
"""#
}
