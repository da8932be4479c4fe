import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drop every connection and refuse new ones, as a database that went away. */
  cut(): void;
  /** Accept connections but never answer, as a database behind a dead network path. */
  blackhole(): void;
  restore(): void;
  close(): Promise<void>;
}

/** A TCP relay to `target` that a test can cut and restore, standing between the app and PostgreSQL. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: 'up' | 'cut' | 'blackhole' = 'up';
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'cut') return void client.destroy();
    if (mode === 'blackhole') return;
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dropAll = () => {
    for (const s of sockets) s.destroy();
  };
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      mode = 'cut';
      dropAll();
    },
    blackhole() {
      mode = 'blackhole';
      dropAll();
    },
    restore() {
      mode = 'up';
      // Connections accepted while black-holed never reached the database.
      dropAll();
    },
    close: () =>
      new Promise<void>((resolve) => {
        dropAll();
        server.close(() => resolve());
      }),
  };
}
