// readback.mjs - This module brings ctDemo.pixels(step) frames from the page
// to Node as one base64 string instead of an array of numbers. Playwright
// serialises a returned array element by element: a full 640x400 frame
// (768,000 numbers) took 15-25 s to cross on the 2-core test machine, a
// quarter-resolution one over a second; the same bytes as a string cross in
// milliseconds. A frame in Node is {width, height, step, rgb: Uint8Array}
// (the same values: readbacks are bytes).

/** Installs window.ctPack(frame) in every document the page loads: call before page.goto. */
export function installPixelPacking(page) {
  return page.addInitScript(() => {
    window.ctPack = (px) => {
      const rgb = px.rgb;
      let bin = '';
      for (let i = 0; i < rgb.length; i += 0x8000) bin += String.fromCharCode.apply(null, Array.prototype.slice.call(rgb, i, i + 0x8000));
      return { ...px, rgb: btoa(bin) };
    };
  });
}

/** A frame packed by window.ctPack, in Node: rgb as a Uint8Array. */
export function unpack(px) {
  return { ...px, rgb: new Uint8Array(Buffer.from(px.rgb, 'base64')) };
}

/** ctDemo.pixels(step) drawn and read back now, packed on the way. */
export async function readPixels(page, step = 4) {
  return unpack(await page.evaluate((s) => window.ctPack(window.ctDemo.pixels(s)), step));
}
