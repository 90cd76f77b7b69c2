// example.ts - a small embedder program type-checked (never run) by
// tests/js/types.test.mjs with `tsc --noEmit`, so wasm/ct.d.ts stays true to
// the API a TypeScript game would use.
import { loadCore, type Chunk, type Collider, type Ground, type Mesh, type RayHit, type World, type CtError } from '../../../wasm/ct.mjs';

async function main(): Promise<void> {
  const core = await loadCore(new URL('../../../build/wasm/ct.wasm', import.meta.url));
  const knobs = core.knobs();
  const seedKnob = knobs.find((k) => k.name === 'seed');
  const kind: 'uint' | 'real' | undefined = seedKnob?.kind;
  const cfg = core.config({ preset: 'alpine', set: { seed: 7, radius_m: '1000000' } });
  const seed: number = cfg.seed;

  const world: World = core.buildWorld({ preset: 'balanced', set: ['surface_lod=4'] }, {
    onProgress: (stage: string, fraction: number) => { void stage; void fraction; },
  });
  const generation: string = world.generation;
  const stats = world.stats();
  const ocean: number = stats.oceanFraction;

  const hit = world.keyAt([0, 0, 1]);
  const chunk: Chunk = world.chunk(hit.key);
  const h0: number = chunk.height[0] * chunk.heightQuantumM;
  const ctc: Uint8Array = world.chunkCtc({ face: '+Z', lod: 4, x: 3, y: 2 });
  const checked = core.verifyCtc(ctc);
  const checkedLod: number | undefined = checked.key?.lod;
  const worldKind: 'ctc' | 'ctw' = core.verifyFile(world.snapshot()).kind;
  const mesh: Mesh = world.mesh(chunk.key, { stride: 4, skirtDepthM: 500, water: false });
  const idx: Uint16Array | Uint32Array = mesh.indices;
  const palIndex: Uint8Array = mesh.paletteIndex;
  const ground: Ground = world.groundAt([0, 0, 1]);
  const slope: number = ground.slopeDeg + world.ground([[0, 1, 0]]).normal[2];
  const twin: Ground = world.groundInChunk(chunk, 10.5, 20.25);
  const ray: RayHit | null = world.raycast([0, 0, 7e6], [0, 0, -1], 1e6, { water: true });
  const collider: Collider = world.collider(chunk.key, { stride: 4 });
  const tris: Uint32Array = collider.indices;
  void ground; void slope; void twin; void ray; void tris;
  const generated: number = world.chunkCounters().generated;
  const samples = world.sample(new Float64Array([1, 0, 0, 0, 1, 0]));
  const wet: boolean = samples.hasWater[0] === 1;
  const dir: [number, number, number] = core.keyDirection(hit.key, hit.localX, hit.localY);
  const again = core.loadWorld(world.snapshot());
  const address: string = again.address(chunk.key);
  try {
    core.keyAt([0, 0, 0], 2);
  } catch (e) {
    const code: string = (e as CtError).code;
    void code;
  }
  const rivers = world.rivers();
  const mouth: boolean = rivers.downstream[0] < 0 && rivers.widthM[0] > 0 && rivers.lakeOutlet[0] === 0;
  const riverNodes: number = rivers.info.nodeCount + rivers.direction.length + rivers.drainageAreaM2[0];
  void [mouth, riverNodes];
  const tile = core.decodeTile(core.encodeTile(world.chunk({ face: 0, lod: 1, x: 0, y: 0 })));
  const tileMesh = world.mesh(tile, { stride: 4 });
  const tileCollider = world.collider(tile);
  const fromTile: boolean = tile.source === 'tile' && tileMesh.vertexCount === tileCollider.vertexCount;
  void [fromTile, core.decodeCtc(ctc).planetId, core.tileFileBytes()];
  again.free();
  world.free();
  void [kind, seed, generation, ocean, h0, ctc, idx, palIndex, generated, wet, dir, address, checkedLod, worldKind];
}

void main();
