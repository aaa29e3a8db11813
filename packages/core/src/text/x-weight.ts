/*
 * X's weighted length (twitter-text configuration v3): code points in the Latin and common punctuation
 * ranges weigh 1, every other code point 2, an emoji sequence 2 whatever its code points, and a URL 23
 * whatever its length; a post may weigh 280. The `twitter-text` package implements this, but 3.1.0
 * pulls core-js 2 (end of life) into everything that bundles core, and its URL extraction grows
 * quadratically on input such as "a.a.a.a…" (measured: 10k characters 89 ms, 20k 370 ms). This is the
 * same rule in one linear pass.
 *
 * Lower-case or upper-case unknown endings only: a mixed-case one ("Buffer.allocUnsafe") is code.
 *
 * URLs are found as twitter-text finds most of them: `http(s)://` or a bare domain, not right after a
 * letter, digit, `@`, `$` or `#`, then a path. Where this compact version cannot be sure a word is a
 * URL for X (a domain ending that is neither a country code nor a common one), the word counts as a URL
 * or as its characters, whichever weighs more: a post measured here never weighs more on X.
 */

/** What a URL weighs on X. */
export const X_URL_WEIGHT = 23;

/** Code point ranges that weigh 1 (twitter-text v3 `ranges`); everything else weighs 2. */
function codePointWeight(cp: number): number {
  if (cp <= 4351) return 1;
  if ((cp >= 8192 && cp <= 8205) || (cp >= 8208 && cp <= 8223) || (cp >= 8242 && cp <= 8247)) return 1;
  return 2;
}

// biome-ignore lint/complexity/useRegexLiterals: TypeScript's target predates the `v` flag, which Node 24 supports.
const EMOJI = new RegExp("^\\p{RGI_Emoji}$", "v");

/** The weight of one grapheme: an emoji sequence 2, else its code points after NFC (as twitter-text). */
export function graphemeWeight(g: string): number {
  if (g.length === 1) return codePointWeight(g.charCodeAt(0));
  if (EMOJI.test(g)) return 2;
  let w = 0;
  for (const c of g.normalize("NFC")) w += codePointWeight(c.codePointAt(0)!);
  return w;
}

/** Two-letter country-code domain endings (ISO 3166 and the few IANA adds), concatenated. */
const CC_TLDS = new Set(
  (
    "acadaeafagaialamaoaqarasatauawaxazbabbbdbebfbgbhbibjbmbnbobrbsbtbwbybzcacccdcfcgchcickclcmcncocrcucvcwcxcycz" +
    "dedjdkdmdodzeceeegereseteufifjfkfmfofrgagbgdgegfggghgiglgmgngpgqgrgsgtgugwgyhkhmhnhrhthuidieilimininioiqiris" +
    "itjejmjojpkekgkhkikmknkpkrkwkykzlalblclilklrlsltlulvlymamcmdmemgmhmkmlmmmnmompmqmrmsmtmumvmwmxmymznancnenfngni" +
    "nlnonpnrnunzompapepfpgphpkplpmpnprpsptpwpyqarerorsrurwsasbscsdsesgshsisksllsmsnsosrssstsusvsxsysztctdtftgthtj" +
    "tktltmtntotrtttvtwtzuaugukusuyuzvavcvevgvivnvuwfwsyeytzazmzw"
  ).match(/../g),
);

/** Common generic endings X links. Other endings are unsure: see the weighing of unsure words. */
const GENERIC_TLDS = new Set(
  (
    "com net org edu gov mil int info biz name pro mobi aero asia jobs travel tel cat coop museum io ai app dev " +
    "xyz online site tech store shop blog news page link live cloud club top art design space world today wiki " +
    "social media email website network digital agency studio group team zone life works tools academy " +
    "community company solutions services center global systems software technology download video music"
  ).split(" "),
);

/** Letters and digits of a host name; other Unicode letters count too (internationalised domains). */
function isHostChar(code: number, char: string): boolean {
  if (code < 0x80)
    return (
      (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x30 && code <= 0x39) ||
      code === 0x2d ||
      code === 0x2e
    );
  return /^[\p{L}\p{M}]$/u.test(char);
}

/** Characters a URL's path and query may hold (ASCII only: a URL ends at the first other character). */
const PATH_CHARS = new Set(
  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!*';:=+,.$/%#[]-_~|&@()?",
);
/** What a URL may end with; punctuation after it is the sentence's, not the URL's. */
const PATH_END = /^[a-zA-Z0-9=_#/+&-]$/;
/** A URL never starts right after these (twitter-text's `validUrlPrecedingChars`). */
const NOT_BEFORE_URL = /^[A-Za-z0-9@＠$#＃\u202A-\u202E]$/;

export interface UrlSpan {
  start: number;
  end: number;
  /** What the span weighs on X: 23, or more for a word that may or may not be a URL there. */
  weight: number;
}

function startsWithScheme(text: string, i: number): number {
  for (const scheme of ["https://", "http://"]) {
    if (text.length - i >= scheme.length && text.slice(i, i + scheme.length).toLowerCase() === scheme)
      return scheme.length;
  }
  return 0;
}

/**
 * The URLs of `text`, left to right. One pass: a word tried as a URL and found not to be one is skipped
 * to the end of its host name, because every later start inside that name has the same ending.
 */
export function urlSpans(text: string): UrlSpan[] {
  const spans: UrlSpan[] = [];
  let i = 0;
  while (i < text.length) {
    if (i > 0 && NOT_BEFORE_URL.test(text[i - 1]!)) {
      i++;
      continue;
    }
    const scheme = startsWithScheme(text, i);
    const hostStart = i + scheme;
    let hostEnd = hostStart;
    while (hostEnd < text.length && isHostChar(text.charCodeAt(hostEnd), text[hostEnd]!)) hostEnd++;
    if (hostEnd === i) {
      i++;
      continue;
    }
    // A host ends with a letter or digit: "example.com." is a URL and a full stop.
    while (hostEnd > hostStart && (text[hostEnd - 1] === "." || text[hostEnd - 1] === "-")) hostEnd--;
    // The last dot of the host, looked for inside it only: `lastIndexOf` would search back to the
    // text's start from every word without a dot, which is quadratic in a text of short words.
    let dot = hostEnd - 1;
    while (dot > hostStart && text[dot] !== ".") dot--;
    const ending = dot > hostStart ? text.slice(dot + 1, hostEnd).toLowerCase() : "";
    const sure = CC_TLDS.has(ending) || GENERIC_TLDS.has(ending);
    // Every two-letter ending is a country code, all listed above; a longer unknown one may be a newer
    // generic ending, unless written in mixed case as code is ("Buffer.allocUnsafe"), not domains.
    const written = text.slice(dot + 1, hostEnd);
    const unsure =
      !sure && /^\p{L}{3,}$/u.test(ending) && (written === ending || written === written.toUpperCase());
    if (!sure && !unsure) {
      i = Math.max(hostEnd, i + 1);
      continue;
    }
    let end = hostEnd;
    if (text[end] === ":" || text[end] === "/" || text[end] === "?" || text[end] === "#") {
      let pathEnd = end;
      while (pathEnd < text.length && PATH_CHARS.has(text[pathEnd]!)) pathEnd++;
      while (pathEnd > end && !PATH_END.test(text[pathEnd - 1]!)) pathEnd--;
      end = pathEnd;
    }
    const weight = sure ? X_URL_WEIGHT : Math.max(X_URL_WEIGHT, plainWeight(text.slice(i, end)));
    spans.push({ start: i, end, weight });
    i = end;
  }
  return spans;
}

/**
 * What `text` weighs on X. The inside of a URL is never segmented into graphemes: its weight is known,
 * and a long URL is the cheapest part of a caption to measure.
 */
export function xWeight(text: string, eachGrapheme: (text: string) => Iterable<string>): number {
  let total = 0;
  let from = 0;
  const gap = (end: number) => {
    if (end <= from) return;
    if (belowCombiningMarks(text, from, end)) total += end - from;
    else for (const g of eachGrapheme(text.slice(from, end))) total += graphemeWeight(g);
  };
  for (const span of urlSpans(text)) {
    gap(span.start);
    total += span.weight;
    from = span.end;
  }
  gap(text.length);
  return total;
}

/**
 * True when every UTF-16 unit of `text` from `start` to `end` is below U+0300, where combining marks
 * begin. Such text weighs its length, without segmenting it: each unit is a code point of its own
 * weighing 1, and the only grapheme of two of them, CR LF, weighs 2 as well. Most captions are such text.
 */
function belowCombiningMarks(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) >= 0x300) return false;
  return true;
}

/** The weight of text that holds no URL. */
function plainWeight(text: string): number {
  let w = 0;
  for (const c of text) w += codePointWeight(c.codePointAt(0)!);
  return w;
}

/**
 * A function giving each grapheme's weight as a cut walks `text` from its start: a URL weighs all of
 * its weight on its first grapheme and nothing after, so any cut inside it is counted as the whole URL.
 * Graphemes must be given in order, with their UTF-16 offsets.
 */
export function xWeigher(text: string): (g: string, offset: number) => number {
  const spans = urlSpans(text);
  let next = 0;
  return (g, offset) => {
    while (next < spans.length && spans[next]!.end <= offset) next++;
    const span = spans[next];
    if (span === undefined || offset + g.length <= span.start) return graphemeWeight(g);
    if (offset <= span.start) {
      // The span's first grapheme (a grapheme that starts before a URL cannot hold one: URLs start after a boundary).
      const before = span.start - offset;
      const after = offset + g.length - span.end;
      return (
        span.weight +
        (before > 0 ? plainWeight(g.slice(0, before)) : 0) +
        (after > 0 ? plainWeight(g.slice(-after)) : 0)
      );
    }
    // Inside the span: only what reaches past its end weighs more.
    const after = offset + g.length - span.end;
    return after > 0 ? plainWeight(g.slice(-after)) : 0;
  };
}
