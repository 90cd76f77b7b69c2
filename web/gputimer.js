// This module measures GPU time per frame with EXT_disjoint_timer_query_webgl2 where the browser offers it (a query per frame, read back a few frames later without stalling), and says null where it does not.

export class GpuTimer {
  constructor(gl) {
    this.gl = gl;
    this.ext = gl.getExtension('EXT_disjoint_timer_query_webgl2');
    this.pending = [];
    this.active = null;
    this.lastMs = null;
  }

  /** Starts timing the frame's commands (one query at a time). */
  begin() {
    if (!this.ext || this.active || this.pending.length > 4) return;
    const q = this.gl.createQuery();
    this.gl.beginQuery(this.ext.TIME_ELAPSED_EXT, q);
    this.active = q;
  }

  end() {
    if (!this.active) return;
    this.gl.endQuery(this.ext.TIME_ELAPSED_EXT);
    this.pending.push(this.active);
    this.active = null;
  }

  /** Latest finished measurement in ms (null without the extension or before the first). */
  poll() {
    const gl = this.gl;
    if (!this.ext) return null;
    const disjoint = gl.getParameter(this.ext.GPU_DISJOINT_EXT);
    while (this.pending.length && gl.getQueryParameter(this.pending[0], gl.QUERY_RESULT_AVAILABLE)) {
      const q = this.pending.shift();
      // A disjoint event (clock change, context loss) makes the result meaningless.
      if (!disjoint) this.lastMs = gl.getQueryParameter(q, gl.QUERY_RESULT) / 1e6;
      gl.deleteQuery(q);
    }
    return this.lastMs;
  }
}
