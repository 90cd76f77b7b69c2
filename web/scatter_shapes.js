// This module holds the low-poly shapes the demo draws scatter instances and site markers with (no GL): unit-sized triangle lists (x, z across, y up from the foot at 0), flat normals, and which shape and colour each catalogue kind takes, chosen by its name (core.scatterKinds()), so the catalogue stays the one source of the kinds.

/** Sides of every ring: enough to read as round from a few metres, cheap in software GL. */
const SIDES = 6;

/** Pushes triangle (a, b, c) with its flat normal (counter-clockwise seen from outside). */
function tri(out, a, b, c) {
  const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const l = Math.hypot(...n) || 1;
  for (const p of [a, b, c]) out.push(p[0], p[1], p[2], n[0] / l, n[1] / l, n[2] / l);
}

const ring = (r, y, i, sides = SIDES) => {
  const a = (2 * Math.PI * i) / sides;
  return [r * Math.cos(a), y, -r * Math.sin(a)];
};

/** A cone (or a frustum with rTop > 0) from y0 to y1, open at the bottom. */
function cone(out, r0, y0, r1, y1, sides = SIDES) {
  for (let i = 0; i < sides; i++) {
    const a = ring(r0, y0, i, sides), b = ring(r0, y0, i + 1, sides);
    if (r1 > 0) {
      const c = ring(r1, y1, i + 1, sides), d = ring(r1, y1, i, sides);
      tri(out, a, b, c); tri(out, a, c, d);
    } else tri(out, a, b, [0, y1, 0]);
  }
}

/** A double cone (a squashed octahedron-like blob): radius r at height ym, tips at y0 and y1. */
function blob(out, r, y0, ym, y1, sides = SIDES) {
  for (let i = 0; i < sides; i++) {
    const a = ring(r, ym, i, sides), b = ring(r, ym, i + 1, sides);
    tri(out, a, b, [0, y1, 0]);
    tri(out, b, a, [0, y0, 0]);
  }
}

/** The shapes by name: Float32Array of (position, normal) per vertex, triangles. */
export function buildShapes() {
  const make = (f) => { const o = []; f(o); return new Float32Array(o); };
  return {
    // Conifer: a thin trunk and a cone from a fifth of its height.
    cone: make((o) => { cone(o, 0.04, 0, 0.04, 0.2, 3); cone(o, 0.28, 0.15, 0, 1); }),
    // Broadleaf: a trunk and a rounded crown.
    crown: make((o) => { cone(o, 0.05, 0, 0.04, 0.45, 3); blob(o, 0.38, 0.3, 0.65, 1); }),
    // Palm: a tall trunk and a flat star of fronds.
    palm: make((o) => { cone(o, 0.04, 0, 0.03, 0.9, 3); blob(o, 0.45, 0.82, 0.9, 1, 5); }),
    // Shrub: a low rounded blob as wide as it is high.
    shrub: make((o) => blob(o, 0.5, 0, 0.45, 1)),
    // Cactus: an upright column.
    column: make((o) => { cone(o, 0.13, 0, 0.11, 0.9, 5); cone(o, 0.11, 0.9, 0, 1, 5); }),
    // Reed and tuft: a narrow spike and a wide one.
    spike: make((o) => cone(o, 0.12, 0, 0, 1, 4)),
    tuft: make((o) => cone(o, 0.45, 0, 0, 1, 4)),
    // Rock: a squat blob (size is its diameter: half as high as wide).
    rock: make((o) => blob(o, 0.5, -0.1, 0.15, 0.5, 5)),
    // Site marker: a pole and a diamond on top.
    pin: make((o) => { cone(o, 0.03, 0, 0.03, 0.8, 4); blob(o, 0.12, 0.78, 0.9, 1.02, 4); }),
  };
}

/** Shape and base colour (linear RGB 0..1) of a catalogue kind, by its name. */
export function kindStyle(name) {
  const rules = [
    [/conifer|pine|spruce|fir/, 'cone', [0.09, 0.27, 0.12]],
    [/palm/, 'palm', [0.2, 0.38, 0.12]],
    [/broadleaf|tree/, 'crown', [0.22, 0.42, 0.12]],
    [/cactus/, 'column', [0.3, 0.45, 0.2]],
    [/reed/, 'spike', [0.45, 0.5, 0.25]],
    [/grass|tuft/, 'tuft', [0.35, 0.5, 0.18]],
    [/boulder/, 'rock', [0.46, 0.44, 0.41]],
    [/rock|stone/, 'rock', [0.52, 0.5, 0.46]],
    [/shrub|bush/, 'shrub', [0.2, 0.33, 0.12]],
  ];
  for (const [re, shape, colour] of rules) if (re.test(name)) return { shape, colour };
  return { shape: 'shrub', colour: [0.3, 0.3, 0.2] };
}
