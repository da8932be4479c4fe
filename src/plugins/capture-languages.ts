/**
 * The languages the hosted capture page speaks, and which one a person gets (docs/identity.md, "Identity:
 * the hosted capture page"). The server picks from the request's Accept-Language, the page from
 * navigator.languages (the same list a browser sends as Accept-Language), with this one rule, so
 * the HTML served and the page that runs in it agree.
 */
export const CAPTURE_LANGUAGES = ['en', 'nl', 'de'] as const;
export type CaptureLanguage = (typeof CAPTURE_LANGUAGES)[number];

/** Every language unknown to the page falls back to English. */
export const DEFAULT_LANGUAGE: CaptureLanguage = 'en';

export function isCaptureLanguage(value: unknown): value is CaptureLanguage {
  return typeof value === 'string' && (CAPTURE_LANGUAGES as readonly string[]).includes(value);
}

/** The first of `tags` (most preferred first) whose primary subtag the page speaks: `nl-BE` → `nl`. */
export function pickLanguage(tags: readonly string[]): CaptureLanguage {
  for (const tag of tags) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (isCaptureLanguage(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

/**
 * The tags of an Accept-Language header, most preferred first (RFC 9110 §12.5.4): by `q`, ties in
 * the order sent; `q=0` means "not this one" and is dropped. Malformed parts are skipped.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const ranked: { tag: string; q: number; at: number }[] = [];
  header.split(',').forEach((part, at) => {
    const [range, ...params] = part.split(';').map((s) => s.trim());
    if (!range || !/^(\*|[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)$/.test(range)) return;
    const qParam = params.find((p) => /^q=/i.test(p));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0 || q > 1) return;
    ranked.push({ tag: range, q, at });
  });
  return ranked.sort((a, b) => b.q - a.q || a.at - b.at).map((r) => r.tag);
}

/** The language of a request's Accept-Language header. */
export function captureLanguageOf(acceptLanguage: string | undefined): CaptureLanguage {
  return pickLanguage(acceptedLanguages(acceptLanguage));
}
