// Unit tests of web/camera_ground.js: what a ground sample under the camera changes, in orbit and in walk mode.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyGroundSample } from '../../web/camera_ground.js';
import { autoTilt, EYE_HEIGHT_M } from '../../stream/camera.js';

const camera = (alt, groundM) => ({ pose: { lat: 0, lon: 0, alt, heading: 0 }, groundM, groundRealM: groundM });

test('in orbit a sample moves the ground, redraws, and keeps the camera above it', () => {
  const cam = camera(1000, 0);
  assert.is(applyGroundSample(cam, 400, { exaggeration: 2, walking: false }), true);
  assert.is(cam.groundM, 800);
  assert.is(cam.groundRealM, 400);
  assert.is(cam.pose.alt, 1000);
  // Under the new ground the camera is lifted to eye height over it.
  assert.is(applyGroundSample(cam, 600, { exaggeration: 2, walking: false }), true);
  assert.is(cam.pose.alt, 1200 + EYE_HEIGHT_M);
});

test('in orbit a change under a metre neither moves the ground nor redraws', () => {
  const cam = camera(5000, 100);
  assert.is(applyGroundSample(cam, 100.6, { exaggeration: 1, walking: false }), false);
  assert.is(cam.groundM, 100);
  assert.is(cam.groundRealM, 100.6);
});

test('a tilt asked for before the ground was known is re-based on it', () => {
  const cam = camera(3000, 0);
  cam.pose.tiltTarget = 60;
  applyGroundSample(cam, 1000, { exaggeration: 1, walking: false });
  assert.is(cam.pose.tiltTarget, undefined);
  assert.is(cam.pose.tiltBias, 60 - autoTilt(2000));
});

test('in walk mode samples only keep the fallback height: no redraw, the walk\'s ground untouched', () => {
  // The walk wrote its eye ground (the drawn mesh, 30 m above the core here) into groundM.
  const cam = camera(1531.7, 1530);
  let redraws = 0;
  for (let k = 0; k < 10; k++) {
    if (applyGroundSample(cam, 1500, { exaggeration: 1, walking: true })) redraws++;
    cam.groundM = 1530;   // what the page writes back every frame in walk mode
  }
  assert.is(redraws, 0);
  assert.is(cam.groundM, 1530);
  assert.is(cam.groundRealM, 1500);
  assert.is(cam.pose.alt, 1531.7);
});

test.run();
