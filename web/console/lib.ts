import { signal } from '@preact/signals';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { createApiClient, type ApiClient } from '../shared/api.js';
import { detailInWords } from './validation-words.js';

/** Credentials live for the browser tab only (sessionStorage): closing the tab signs out. */
function stored(name: string) {
  const s = signal<string | null>(sessionStorage.getItem(name));
  s.subscribe((v) => (v ? sessionStorage.setItem(name, v) : sessionStorage.removeItem(name)));
  return s;
}
export const reviewerKey = stored('console.reviewerKey');
export const adminToken = stored('console.adminToken');

/** A request that takes longer than this is reported, never left spinning. */
const TIMEOUT_MS = 15_000;

async function fetchWithTimeout(request: Request): Promise<Response> {
  try {
    return await fetch(request, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    if (err instanceof DOMException && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
      throw new Error(`The server did not answer within ${TIMEOUT_MS / 1000} s.`);
    }
    throw new Error('The server cannot be reached: it may be down, or the network is offline.');
  }
}

export function client(token: string | null): ApiClient {
  return createApiClient({ baseUrl: location.origin, token: token ?? undefined, fetch: fetchWithTimeout });
}

/** The message of an API error body in any of the server's formats (`{detail}` or the envelope), shown as the server wrote it. */
function messageOf(error: unknown, status?: number): string {
  const e = error as { detail?: unknown; error?: { message?: unknown; details?: { path?: string; message?: string }[] } } | undefined;
  if (typeof e?.detail === 'string') return e.detail;
  if (typeof e?.error?.message === 'string') {
    const details = e.error.details?.map((d) => detailInWords(d.path ?? '', d.message ?? '')).join('; ');
    return details ? `${e.error.message}. ${details}.` : e.error.message;
  }
  return status ? `The server answered ${status}.` : 'Something went wrong.';
}

/** The result of an openapi-fetch call: its data, or an Error carrying the server's message and status. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined)
    throw Object.assign(new Error(messageOf(error, response.status)), { status: response.status });
  return data;
}
export const statusOf = (err: unknown): number | undefined => (err as { status?: number } | null)?.status;

export interface Loaded<T> {
  data?: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` now and whenever `deps` change; the page shows loading, the error, or the data. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error: string | null; loading: boolean }>({ error: null, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    load().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (err: unknown) => live && setState({ error: err instanceof Error ? err.message : String(err), loading: false }),
    );
    return () => {
      live = false;
    };
    // The caller's deps decide when to load again; `tick` is reload().
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
/** A server time (RFC 3339 UTC) in the viewer's own time zone. */
export const localTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '—');

/** "3 min", "2 h", "4 d": how long something has waited. */
export function age(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86400) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86400)} d`;
}

/** The client-side route: the path below /console/. */
export const route = signal(location.pathname);
window.addEventListener('popstate', () => (route.value = location.pathname));
export function navigate(to: string): void {
  if (to === location.pathname) return;
  history.pushState(null, '', to);
  route.value = to;
  window.scrollTo(0, 0);
}

/** Reads an image through the authorized client as a data: URL (an <img> cannot send a bearer key). */
export async function imageDataUrl(api: ApiClient, url: string): Promise<string> {
  const { data, error, response } = await (
    api as unknown as {
      GET(p: string, o: object): Promise<{ data?: Blob; error?: unknown; response: Response }>;
    }
  ).GET(url, { parseAs: 'blob' });
  if (!data) throw new Error(messageOf(error, response.status));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('The image could not be read'));
    reader.readAsDataURL(data);
  });
}
