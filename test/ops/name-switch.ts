import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NameSwitch {
  /** The command line a server process runs under to see these names (see startServerProcess). */
  launcher: string[];
  /** Forget the names: from now on every lookup of them waits on a name server that never answers. */
  forget(): void;
  close(): Promise<void>;
}

/**
 * Host names that resolve to 127.0.0.1 until `forget()`, then hang as a container's name does
 * once the container is gone and the name server does not answer. The process sees them through
 * a private mount namespace (its own /etc/hosts and /etc/resolv.conf): this needs root and
 * `unshare`, and leaves the machine's files alone.
 */
export async function startNameSwitch(names: string[]): Promise<NameSwitch> {
  const dir = mkdtempSync(join(tmpdir(), 'name-switch-'));
  const hosts = join(dir, 'hosts');
  const resolv = join(dir, 'resolv.conf');
  writeFileSync(hosts, `127.0.0.1 localhost\n127.0.0.1 ${names.join(' ')}\n`);
  // A loopback address of its own, so the silent name server collides with no real one.
  const nameserver = `127.33.${randomInt(1, 255)}.${randomInt(1, 255)}`;
  writeFileSync(resolv, `nameserver ${nameserver}\noptions timeout:5 attempts:2\n`);
  const silent = dgram.createSocket('udp4');
  silent.on('message', () => {}); // swallows every query
  await new Promise<void>((resolve, reject) => {
    silent.once('error', reject);
    silent.bind(53, nameserver, () => resolve());
  });
  return {
    launcher: [
      'unshare',
      '--mount',
      '--propagation',
      'private',
      'sh',
      '-c',
      `mount --bind ${hosts} /etc/hosts && mount --bind ${resolv} /etc/resolv.conf && exec "$@"`,
      'sh',
    ],
    // Written in place: the bind mount keeps pointing at this file.
    forget: () => writeFileSync(hosts, '127.0.0.1 localhost\n'),
    close: async () => {
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
