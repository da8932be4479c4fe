import dns from 'node:dns';
import net from 'node:net';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** How often a name whose connections keep failing is looked up again, at most. */
const REFRESH_MS = 5_000;

interface Known {
  addresses: dns.LookupAddress[];
  refreshedAt: number;
  refreshing: boolean;
}

const known = new Map<string, Known>();
const firstLookups = new Map<string, LookupCallback[]>();
// Refreshes go through c-ares: its queries run on the event loop and are cancelled at close.
let resolver: dns.promises.Resolver | undefined;

function answer(addresses: dns.LookupAddress[], options: dns.LookupOptions, callback: LookupCallback): void {
  const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
  if (wanted.length === 0) {
    callback(Object.assign(new Error(`no IPv${options.family} address known for this host`), { code: 'ENOTFOUND' }), []);
  } else if (options.all) callback(null, wanted);
  else callback(null, wanted[0]!.address, wanted[0]!.family);
}

async function refresh(hostname: string, entry: Known): Promise<void> {
  entry.refreshing = true;
  entry.refreshedAt = performance.now();
  resolver ??= new dns.promises.Resolver({ timeout: 2_000, tries: 2 });
  try {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    // A name only /etc/hosts or a search domain knows is not found this way: keep what the system said.
    if (addresses.length > 0) entry.addresses = addresses;
  } finally {
    entry.refreshing = false;
  }
}

/**
 * The `lookup` of connections that reconnect by themselves (the PostgreSQL pools, the job
 * listener, the key cache, Redis). A name is looked up by the system (dns.lookup: /etc/hosts,
 * search domains) until it first resolves, each name once at a time; after that its connections
 * use the last addresses at once, and the name is looked up again in the background through
 * c-ares, at most every few seconds, so a container that comes back at a new address is found.
 *
 * Why not dns.lookup every time: a system lookup holds one of libuv's four threads until the
 * name server answers, it cannot be cancelled, and process.exit waits for every one of them.
 * With PostgreSQL and Redis gone and their names unanswered (stopped compose services), every
 * reconnect attempt queued another lookup of up to ten seconds, and the process outlived
 * "shut down cleanly" by as long as they took.
 */
export function reconnectLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  const entry = known.get(hostname);
  if (entry) {
    answer(entry.addresses, options, callback);
    if (!entry.refreshing && performance.now() - entry.refreshedAt >= REFRESH_MS) void refresh(hostname, entry).catch(() => {});
    return;
  }
  const waiting = firstLookups.get(hostname);
  const respond: LookupCallback = (err, addresses) =>
    err ? callback(err, []) : answer(addresses as dns.LookupAddress[], options, callback);
  if (waiting) {
    waiting.push(respond);
    return;
  }
  firstLookups.set(hostname, [respond]);
  dns.lookup(hostname, { all: true }, (err, addresses) => {
    const callbacks = firstLookups.get(hostname) ?? [];
    firstLookups.delete(hostname);
    if (!err) known.set(hostname, { addresses, refreshedAt: performance.now(), refreshing: false });
    for (const cb of callbacks) cb(err, addresses);
  });
}

/** Cancels the background lookups still running (at shutdown). */
export function cancelReconnectLookups(): void {
  resolver?.cancel();
}

/**
 * A socket for the pg driver (its `stream` option) that finds its host through reconnectLookup.
 * pg calls `connect(port, host)`, or `connect(path)` for a Unix socket.
 */
export function socketWithReconnectLookup(): net.Socket {
  const socket = new net.Socket();
  const connect = socket.connect.bind(socket) as (options: net.SocketConnectOpts) => net.Socket;
  socket.connect = ((port: number | string, host?: string) =>
    typeof port === 'string' && host === undefined
      ? connect({ path: port })
      : connect({ port: Number(port), host: host ?? 'localhost', lookup: reconnectLookup })) as typeof socket.connect;
  return socket;
}
