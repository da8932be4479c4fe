import dns from 'node:dns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reconnectLookup } from '../../src/lib/reconnect-lookup.js';

type Answer = { err: NodeJS.ErrnoException | null; address: string | dns.LookupAddress[]; family?: number };

const lookup = (hostname: string, options: dns.LookupOptions) =>
  new Promise<Answer>((resolve) => reconnectLookup(hostname, options, (err, address, family) => resolve({ err, address, family })));

/** dns.lookup answering `addresses` for every name, counting its calls; the answer waits for `release`. */
function systemLookup(addresses: dns.LookupAddress[]) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const spy = vi.spyOn(dns, 'lookup').mockImplementation(((
    _name: string,
    _options: unknown,
    callback: (e: null, a: dns.LookupAddress[]) => void,
  ) => {
    void released.then(() => callback(null, addresses));
  }) as unknown as typeof dns.lookup);
  return { spy, release };
}

describe('reconnectLookup', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shares one system lookup between the connections waiting for a name, then answers from what it learned', async () => {
    const system = systemLookup([
      { address: '10.1.2.3', family: 4 },
      { address: 'fd00::3', family: 6 },
    ]);
    const waiting = [lookup('db.shared.test', { all: true }), lookup('db.shared.test', {}), lookup('db.shared.test', { family: 6 })];
    system.release();
    const [all, one, v6] = await Promise.all(waiting);
    expect(system.spy).toHaveBeenCalledTimes(1);
    expect(all).toEqual({
      err: null,
      address: [
        { address: '10.1.2.3', family: 4 },
        { address: 'fd00::3', family: 6 },
      ],
      family: undefined,
    });
    expect(one).toMatchObject({ err: null, address: '10.1.2.3', family: 4 });
    expect(v6).toMatchObject({ err: null, address: 'fd00::3', family: 6 });

    // Later connections never wait on the system resolver again: that lookup could outlive the process's exit.
    expect(await lookup('db.shared.test', { family: 4 })).toMatchObject({ err: null, address: '10.1.2.3', family: 4 });
    expect(system.spy).toHaveBeenCalledTimes(1);
  });

  it('answers ENOTFOUND for a family the name has no address of', async () => {
    const system = systemLookup([{ address: '10.1.2.4', family: 4 }]);
    const answer = lookup('db.v4only.test', { family: 6 });
    system.release();
    expect((await answer).err?.code).toBe('ENOTFOUND');
  });

  it('passes on a failed first lookup, and looks the name up again next time', async () => {
    const failing = vi
      .spyOn(dns, 'lookup')
      .mockImplementation(((_n: string, _o: unknown, callback: (e: NodeJS.ErrnoException) => void) =>
        callback(Object.assign(new Error('getaddrinfo EAI_AGAIN db.flaky.test'), { code: 'EAI_AGAIN' }))) as unknown as typeof dns.lookup);
    expect((await lookup('db.flaky.test', {})).err?.code).toBe('EAI_AGAIN');
    failing.mockRestore();
    const system = systemLookup([{ address: '10.1.2.5', family: 4 }]);
    const answer = lookup('db.flaky.test', {});
    system.release();
    expect(await answer).toMatchObject({ err: null, address: '10.1.2.5' });
  });
});
