// yaml_subset.mjs - This module parses the YAML subset deploy/k8s/*.yaml is
// written in, so the manifests are checked offline without a YAML package:
// documents split by `---`, block mappings and sequences by indentation,
// `- key: value` items, literal block scalars (`|`), plain and quoted
// scalars, integers, booleans, null and `#` comments. Anything else throws,
// naming the line, so a manifest never silently means something else.

/** A scalar's value: quoted strings, integers, booleans, null, or the plain text. */
function scalar(text, lineNo) {
  const t = text.trim();
  if (t.startsWith('"')) {
    if (!t.endsWith('"') || t.length < 2) throw new Error(`line ${lineNo}: unterminated string`);
    return JSON.parse(t);
  }
  if (t.startsWith("'")) {
    if (!t.endsWith("'") || t.length < 2) throw new Error(`line ${lineNo}: unterminated string`);
    return t.slice(1, -1).replaceAll("''", "'");
  }
  if (/^[[{&*!%@`]/.test(t)) throw new Error(`line ${lineNo}: flow collections, anchors and tags are outside the subset: ${t}`);
  if (/^-?\d+$/.test(t)) return Number(t);
  if (t === 'true' || t === 'false') return t === 'true';
  if (t === 'null' || t === '~' || t === '') return null;
  return t;
}

/** Strips a comment (a # after a space, outside quotes). */
function uncomment(line) {
  let q = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (q) { if (c === q) q = null; continue; }
    if (c === '"' || c === "'") q = c;
    else if (c === '#' && (i === 0 || line[i - 1] === ' ')) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

/** One document's lines as {indent, text, no, raw}. */
function tokenize(lines) {
  return lines.map(({ raw, no }) => ({ raw, no, text: uncomment(raw) }))
    .filter((l) => l.text.trim() !== '')
    .map((l) => ({ ...l, indent: l.text.length - l.text.trimStart().length, text: l.text.trim() }));
}

function parseBlock(p, indent) {
  const first = p.lines[p.i];
  if (!first || first.indent < indent) return null;
  return first.text.startsWith('- ') || first.text === '-' ? parseSeq(p, first.indent) : parseMap(p, first.indent);
}

/** The literal block scalar after `key: |`: following lines indented deeper, newline kept. */
function literal(p, parentIndent) {
  const out = [];
  let base = -1;
  while (p.i < p.lines.length) {
    const l = p.lines[p.i];
    if (l.indent <= parentIndent) break;
    if (base < 0) base = l.indent;
    out.push(l.raw.slice(base));
    p.i++;
  }
  return out.join('\n') + '\n';
}

/** `key: value` pairs at one indentation; value may start a nested block. */
function entry(p, text, indent, no, obj) {
  const m = text.match(/^([A-Za-z0-9_.\/-]+):(?:\s+(.*))?$/);
  if (!m) throw new Error(`line ${no}: expected "key: value", got: ${text}`);
  const [, key, rest] = m;
  if (key in obj) throw new Error(`line ${no}: key ${key} repeated`);
  if (rest === '|') obj[key] = literal(p, indent);
  else if (rest !== undefined && rest !== '') obj[key] = scalar(rest, no);
  else {
    const next = p.lines[p.i];
    // A sequence may sit at its key's own indentation.
    if (next && (next.indent > indent || (next.indent === indent && next.text.startsWith('- ')))) obj[key] = parseBlock(p, next.indent);
    else obj[key] = null;
  }
}

function parseMap(p, indent) {
  const obj = {};
  while (p.i < p.lines.length) {
    const l = p.lines[p.i];
    if (l.indent < indent || (l.indent === indent && l.text.startsWith('- '))) break;
    if (l.indent > indent) throw new Error(`line ${l.no}: unexpected indentation`);
    p.i++;
    entry(p, l.text, indent, l.no, obj);
  }
  return obj;
}

function parseSeq(p, indent) {
  const arr = [];
  while (p.i < p.lines.length) {
    const l = p.lines[p.i];
    if (l.indent !== indent || !(l.text.startsWith('- ') || l.text === '-')) {
      if (l.indent > indent) throw new Error(`line ${l.no}: unexpected indentation`);
      break;
    }
    p.i++;
    const rest = l.text.slice(1).trimStart();
    const inner = indent + (l.text.length - rest.length);
    if (rest === '|') arr.push(literal(p, indent));
    else if (/^[A-Za-z0-9_.\/-]+:(\s|$)/.test(rest)) {
      // "- key: value" opens a mapping whose other keys sit at the key's column.
      const obj = {};
      entry(p, rest, inner, l.no, obj);
      Object.assign(obj, parseMapInto(p, inner, obj));
      arr.push(obj);
    } else arr.push(scalar(rest, l.no));
  }
  return arr;
}

function parseMapInto(p, indent, obj) {
  while (p.i < p.lines.length) {
    const l = p.lines[p.i];
    if (l.indent !== indent || l.text.startsWith('- ')) {
      if (l.indent > indent) throw new Error(`line ${l.no}: unexpected indentation`);
      break;
    }
    p.i++;
    entry(p, l.text, indent, l.no, obj);
  }
  return obj;
}

/** Every document of a multi-document YAML text. */
export function parseYamlDocuments(text) {
  const docs = [];
  let cur = [];
  text.split('\n').forEach((raw, k) => {
    if (/^---\s*$/.test(raw)) { docs.push(cur); cur = []; } else cur.push({ raw, no: k + 1 });
  });
  docs.push(cur);
  return docs.map((d) => {
    const p = { lines: tokenize(d), i: 0 };
    if (p.lines.length === 0) return null;
    if (p.lines[0].indent !== 0) throw new Error(`line ${p.lines[0].no}: a document starts at column 0`);
    const v = parseBlock(p, 0);
    if (p.i < p.lines.length) throw new Error(`line ${p.lines[p.i].no}: not understood`);
    return v;
  }).filter((d) => d !== null);
}
