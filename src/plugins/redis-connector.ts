import net from 'node:net';
import tls from 'node:tls';
import { AbstractConnector, type RedisOptions } from 'ioredis';
import { reconnectLookup } from '../lib/reconnect-lookup.js';

type NetStream = net.Socket | tls.TLSSocket;

/**
 * ioredis' standalone connector, with its host found through reconnectLookup: ioredis reconnects
 * on its own while Redis is away, and a system lookup per attempt would pile up behind a name
 * server that does not answer (see reconnectLookup). Given as the `Connector` option.
 */
export class ReconnectLookupConnector extends AbstractConnector {
  private readonly options: RedisOptions;

  // ioredis hands its own options (RedisOptions, already parsed from the URL) to the connector.
  constructor(given: unknown) {
    const options = given as RedisOptions;
    super(options.disconnectTimeout ?? 2_000);
    this.options = options;
  }

  connect(): Promise<NetStream> {
    this.connecting = true;
    const { host = 'localhost', port = 6379, path, tls: tlsOptions } = this.options;
    const target: net.NetConnectOpts = path ? { path } : { host, port, lookup: reconnectLookup };
    // Connected on the next tick, as ioredis' own connector does: a disconnect() before it wins.
    return new Promise((resolve, reject) => {
      process.nextTick(() => {
        if (!this.connecting) return reject(new Error('Connection is closed.'));
        try {
          this.stream = tlsOptions ? tls.connect({ ...(target as tls.ConnectionOptions), ...tlsOptions }) : net.connect(target);
        } catch (err) {
          return reject(err as Error);
        }
        this.stream.once('error', (err: Error) => {
          this.firstError = err;
        });
        resolve(this.stream);
      });
    });
  }
}
