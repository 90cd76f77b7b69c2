// cfmt.mjs - This module formats numbers exactly like C's printf %.Nf and %.Pg
// (glibc: exact decimal value of the double, ties to even), so the
// Node CLI twin prints the same text as the native tool. JS's toFixed and
// toPrecision differ from C in tie rounding and in when %g switches to
// exponent form, hence this small exact formatter built on BigInt.

const TWO = 2n;

/** |x| as an exact fraction num / den (den a power of two). */
function exact(x) {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, Math.abs(x));
  const hi = v.getUint32(0), lo = v.getUint32(4);
  const e = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let p;
  if (e === 0) {
    p = -1074;
  } else {
    m |= 1n << 52n;
    p = e - 1075;
  }
  return p >= 0 ? { num: m << BigInt(p), den: 1n } : { num: m, den: 1n << BigInt(-p) };
}

/** round(num / den) with ties to even. */
function roundDiv(num, den) {
  const q = num / den, r = num - q * den;
  const twice = TWO * r;
  if (twice > den || (twice === den && (q & 1n))) return q + 1n;
  return q;
}

function special(x) {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x < 0 ? '-inf' : 'inf';
  return null;
}

const sign = (x) => (x < 0 || Object.is(x, -0) ? '-' : '');

/**
 * C's "%.{decimals}f".
 * @param {number} x
 * @param {number} decimals
 */
export function fmtF(x, decimals) {
  const s = special(x);
  if (s) return s;
  const { num, den } = exact(x);
  const q = roundDiv(num * 10n ** BigInt(decimals), den).toString().padStart(decimals + 1, '0');
  const int = q.slice(0, q.length - decimals), frac = q.slice(q.length - decimals);
  return sign(x) + int + (decimals > 0 ? `.${frac}` : '');
}

/** Digits (exactly `prec` of them) and decimal exponent of |x| rounded to prec significant digits. */
function sigDigits(x, prec) {
  const { num, den } = exact(x);
  if (num === 0n) return { digits: '0'.repeat(prec), exp: 0 };
  // The decimal exponent of the exact value (log10 may be off by one near
  // powers of ten), then rounding, which can carry into one more digit.
  let e = Math.floor(Math.log10(Math.abs(x)));
  const ge = (k) => (k >= 0 ? num >= den * 10n ** BigInt(k) : num * 10n ** BigInt(-k) >= den);
  while (!ge(e)) e -= 1;
  while (ge(e + 1)) e += 1;
  const shift = prec - 1 - e;   // multiply by 10^shift
  const q = shift >= 0 ? roundDiv(num * 10n ** BigInt(shift), den)
    : roundDiv(num, den * 10n ** BigInt(-shift));
  const digits = q.toString();
  if (digits.length > prec) return { digits: digits.slice(0, prec), exp: e + 1 };
  return { digits, exp: e };
}

function expText(e) {
  return (e < 0 ? 'e-' : 'e+') + String(Math.abs(e)).padStart(2, '0');
}

/**
 * C's "%.{prec}g": prec significant digits, exponent form when the exponent
 * is below -4 or at least prec, trailing zeros removed.
 * @param {number} x
 * @param {number} prec
 */
export function fmtG(x, prec) {
  const s = special(x);
  if (s) return s;
  const p = prec === 0 ? 1 : prec;
  const { digits, exp } = sigDigits(x, p);
  const trim = (t) => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);
  if (exp < -4 || exp >= p) {
    return sign(x) + trim(digits[0] + (p > 1 ? `.${digits.slice(1)}` : '')) + expText(exp);
  }
  let body;
  if (exp >= 0) {
    body = digits.slice(0, exp + 1) + (p > exp + 1 ? `.${digits.slice(exp + 1)}` : '');
  } else {
    body = `0.${'0'.repeat(-exp - 1)}${digits}`;
  }
  return sign(x) + trim(body);
}
