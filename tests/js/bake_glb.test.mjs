// bake_glb.test.mjs - `terrain bake --format glb`: every tile passes the
// Khronos glTF validator with no errors or warnings, three.js's GLTFLoader
// loads it (node at the chunk centre, the float64 centre read back exactly),
// and neighbouring tiles share their border vertices to the float32 step of
// their offsets.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateBytes } from 'gltf-validator';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { bake, files } from './bake_fixture.mjs';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ct-bake-glb-'));
const EDGE = 257;
let gen;

test.after(() => rmSync(tmp, { recursive: true, force: true }));

/** A .glb's JSON and its float32 positions. */
function readGlb(file) {
  const b = readFileSync(file);
  const jlen = b.readUInt32LE(12);
  const json = JSON.parse(b.subarray(20, 20 + jlen).toString('utf8'));
  const bin = b.subarray(20 + jlen + 8);
  const view = json.bufferViews[json.accessors[json.meshes[0].primitives[0].attributes.POSITION].bufferView];
  const pos = new Float32Array(bin.buffer.slice(bin.byteOffset + view.byteOffset, bin.byteOffset + view.byteOffset + view.byteLength));
  return { json, pos, t: json.nodes[0].translation, bytes: b };
}

/** One float32 step at magnitude m. */
function ulp32(m) {
  const f = new Float32Array([Math.abs(m)]);
  const u = new Uint32Array(f.buffer);
  u[0] += 1;
  return f[0] - Math.fround(Math.abs(m));
}

test('bake four LOD 1 tiles of +Z as .glb', async () => {
  const r = await bake(['--faces', '+Z', '--lods', '1-1', '--format', 'glb', '--out', tmp, '--quiet']);
  assert.is(r.status, 0, r.stderr);
  gen = JSON.parse(readFileSync(path.join(tmp, 'manifest.json'), 'utf8')).generation;
  assert.is(files(tmp).filter((f) => f.endsWith('.glb')).length, 4);
  assert.is((await bake(['--verify', tmp])).status, 0);
});

test('the Khronos validator finds no errors and no warnings', async () => {
  for (const f of files(tmp).filter((x) => x.endsWith('.glb'))) {
    const report = await validateBytes(new Uint8Array(readFileSync(path.join(tmp, f))));
    assert.is(report.issues.numErrors, 0, `${f}: ${JSON.stringify(report.issues.messages.slice(0, 3))}`);
    assert.is(report.issues.numWarnings, 0, `${f}: ${JSON.stringify(report.issues.messages.slice(0, 3))}`);
  }
});

test('three.js GLTFLoader loads a tile: 257x257 vertices with normals and colours, at its centre', async () => {
  const { bytes, t, json } = readGlb(path.join(tmp, gen, 'pz/1/1/0.glb'));
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(ab, '', resolve, reject));
  let mesh = null;
  gltf.scene.traverse((o) => { if (o.isMesh) mesh = o; });
  assert.ok(mesh, 'no mesh');
  const g = mesh.geometry;
  assert.is(g.attributes.position.count, EDGE * EDGE);
  assert.ok(g.attributes.normal && g.attributes.color, 'normals or colours missing');
  assert.is(g.index.count, 256 * 256 * 6);
  assert.equal(mesh.position.toArray(), t);
  assert.equal(json.asset.extras, { ...json.asset.extras, generation: gen, face: '+Z', lod: 1, x: 1, y: 0 });
  // The centre is a sphere point (about the planet's radius from its centre), held as float64.
  const r = Math.hypot(...t);
  assert.ok(r > 6.3e6 && r < 6.4e6, `centre at ${r} m`);
});

test('neighbouring tiles share border vertices to the float32 step of their offsets', () => {
  const a = readGlb(path.join(tmp, gen, 'pz/1/0/0.glb'));
  const right = readGlb(path.join(tmp, gen, 'pz/1/1/0.glb'));
  const below = readGlb(path.join(tmp, gen, 'pz/1/0/1.glb'));
  let worst = 0;
  const pairs = [];
  for (let j = 0; j < EDGE; j++) pairs.push([right, j * EDGE + 256, j * EDGE]);
  for (let i = 0; i < EDGE; i++) pairs.push([below, 256 * EDGE + i, i]);
  for (const [b, ia, ib] of pairs) {
    for (let k = 0; k < 3; k++) {
      const pa = a.pos[3 * ia + k], pb = b.pos[3 * ib + k];
      const gap = Math.abs((pa + a.t[k]) - (pb + b.t[k]));
      const step = ulp32(Math.max(Math.abs(pa), Math.abs(pb)));
      worst = Math.max(worst, gap / step);
      assert.ok(gap <= step, `vertex ${ia}/${ib} axis ${k}: ${gap} m apart, float32 step ${step} m`);
    }
  }
  assert.ok(worst > 0, 'the offsets never rounded: the check saw nothing');
});

test.run();
