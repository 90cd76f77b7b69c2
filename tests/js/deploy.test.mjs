// deploy.test.mjs - deploy/k8s/bake-job.yaml offline: every document passes
// the Kubernetes schema (kubernetes-models), the Indexed Job's shard count
// matches its completions, both Jobs share one ReadWriteMany claim at one
// path; then each pod's own shell command runs here (small LODs, the output
// in a temporary folder, ./terrain on PATH) shard by shard, and the merge
// Job's command after them, which must verify. deploy/Containerfile copies
// only what exists and builds the CLI in one stage, runs it in a slim one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { readFileSync, existsSync, mkdtempSync, rmSync, symlinkSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// One model per module: the version indexes load every model of their group.
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { ROOT } from './ct_fixture.mjs';
import { TERRAIN, bake } from './bake_fixture.mjs';
import { parseYamlDocuments } from './yaml_subset.mjs';

const YAML = path.join(ROOT, 'deploy/k8s/bake-job.yaml');
const docs = parseYamlDocuments(readFileSync(YAML, 'utf8'));
const MODELS = { PersistentVolumeClaim, Job };
const tmp = mkdtempSync(path.join(os.tmpdir(), 'ct-deploy-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));

const jobs = docs.filter((d) => d.kind === 'Job');
const bakeJob = jobs.find((j) => j.spec.completionMode === 'Indexed');
const mergeJob = jobs.find((j) => j !== bakeJob);
const claim = docs.find((d) => d.kind === 'PersistentVolumeClaim');
const container = (job) => job.spec.template.spec.containers[0];
const envOf = (job) => Object.fromEntries(container(job).env.map((e) => [e.name, e.value]));

test('the YAML subset parser refuses what it does not know', () => {
  assert.throws(() => parseYamlDocuments('a: [1, 2]\n'), /flow collections/);
  assert.throws(() => parseYamlDocuments('a: 1\n  b: 2\n'), /indentation/);
  assert.equal(parseYamlDocuments('a:\n  - b: 1\n    c: "x"\n  - 2\n---\nd: |\n  one\n  two\n'),
    [{ a: [{ b: 1, c: 'x' }, 2] }, { d: 'one\ntwo\n' }]);
});

test('every document passes the Kubernetes schema', () => {
  assert.equal(docs.map((d) => d.kind), ['PersistentVolumeClaim', 'Job', 'Job']);
  for (const d of docs) {
    const Model = MODELS[d.kind];
    try {
      new Model(d).validate();
    } catch (e) {
      assert.unreachable(`${d.kind} ${d.metadata.name}: ${e.message}`);
    }
  }
  // The schema check is real: a wrong type fails it.
  const bad = structuredClone(bakeJob);
  bad.spec.completions = 'eight';
  assert.throws(() => new Job(bad).validate(), /completions/);
});

test('an Indexed Job of N shards and a merge Job share one ReadWriteMany claim', () => {
  assert.ok(bakeJob && mergeJob, 'two Jobs');
  assert.is(bakeJob.spec.completionMode, 'Indexed');
  assert.is(envOf(bakeJob).BAKE_SHARDS, String(bakeJob.spec.completions), 'BAKE_SHARDS differs from completions');
  assert.ok(bakeJob.spec.parallelism >= 1 && bakeJob.spec.parallelism <= bakeJob.spec.completions);
  assert.match(container(bakeJob).command.join(' '), /--shard "\$JOB_COMPLETION_INDEX\/\$BAKE_SHARDS"/);
  assert.ok(claim.spec.accessModes.includes('ReadWriteMany'));
  for (const job of [bakeJob, mergeJob]) {
    const vol = job.spec.template.spec.volumes[0];
    assert.is(vol.persistentVolumeClaim.claimName, claim.metadata.name);
    const mount = container(job).volumeMounts.find((m) => m.name === vol.name);
    assert.is(mount.mountPath, '/bake');
    assert.ok(envOf(job).BAKE_OUT.startsWith('/bake/'), 'output outside the claim');
  }
  assert.match(container(mergeJob).command.join(' '), /--merge "\$BAKE_OUT" && exec terrain bake --verify "\$BAKE_OUT"/);
});

/** A pod's command (sh -c SCRIPT) run here with its env plus overrides. */
function runPod(job, env) {
  const [sh, flag, script] = container(job).command;
  return new Promise((resolve) => {
    const child = spawn(sh, [flag, script], { env: { ...process.env, ...envOf(job), ...env } });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (status) => resolve({ status, out }));
  });
}

test('the pods\' commands bake, merge and verify here, equal to one run', async () => {
  const bin = path.join(tmp, 'bin');
  mkdirSync(bin);
  symlinkSync(TERRAIN, path.join(bin, 'terrain'));
  const out = path.join(tmp, 'out');
  // The Job's own world, then surface_lod 6 (a later --set wins): LOD 0-1 tiles of a
  // surface_lod 12 world run every octave at each sample, and the sharding is what is tested.
  const world = `${envOf(bakeJob).BAKE_WORLD} --set surface_lod=6`;
  const env = { PATH: `${bin}:${process.env.PATH}`, BAKE_OUT: out, BAKE_LODS: '0-1', BAKE_WORLD: world };
  const n = bakeJob.spec.completions;
  for (let i = 0; i < n; i += 2) {
    const pods = [i, i + 1].filter((k) => k < n).map((k) => runPod(bakeJob, { ...env, JOB_COMPLETION_INDEX: String(k) }));
    for (const r of await Promise.all(pods)) assert.is(r.status, 0, r.out);
  }
  const m = await runPod(mergeJob, env);
  assert.is(m.status, 0, m.out);
  assert.match(m.out, /all present and intact/);
  const one = path.join(tmp, 'one');
  const r = await bake([...world.split(' '), '--lods', '0-1', '--out', one, '--quiet']);
  assert.is(r.status, 0, r.stderr);
  assert.ok(readFileSync(path.join(one, 'manifest.json')).equals(readFileSync(path.join(out, 'manifest.json'))));
  assert.ok(readFileSync(path.join(one, 'index/all.idx')).equals(readFileSync(path.join(out, 'index/all.idx'))));
});

test('the Containerfile builds in one stage and runs the CLI alone in a slim one', () => {
  const text = readFileSync(path.join(ROOT, 'deploy/Containerfile'), 'utf8');
  const froms = text.match(/^FROM .*$/gm);
  assert.is(froms.length, 2);
  assert.match(froms[0], / AS build$/);
  assert.match(froms[1], /slim/);
  for (const [, src] of text.matchAll(/^COPY (?!--from)(\S+)/gm)) assert.ok(existsSync(path.join(ROOT, src)), `COPY ${src}: missing`);
  assert.match(text, /COPY --from=build \/src\/terrain /);
  assert.match(text, /make .*terrain/);
});

test.run();
