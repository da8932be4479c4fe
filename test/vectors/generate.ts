/**
 * Writes the published test vectors (run: npx tsx test/vectors/generate.ts). The key is a
 * fixed test key whose seed is published on purpose; records are sealed by the real service
 * on in-memory PGlite at a fixed clock. Regenerating yields new nonces and ids, so the files
 * are committed and tests read them as they are.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.js';
import { configFrom } from '../../src/config.js';
import { ManualClock } from '../../src/lib/clock.js';
import { keyIdOf, keyPairFromSeed } from '../../src/lib/ed25519.js';

const OUT = new URL('.', import.meta.url).pathname;
const ADMIN = 'vector-admin-token-0123456789';
const seed = createHash('sha256').update('governance-evidence-service test vectors v1').digest();
const pair = keyPairFromSeed(seed);
const dataDir = mkdtempSync(join(tmpdir(), 'vectors-'));
const clock = new ManualClock('2026-11-22T12:00:00.000Z');
const app = await buildApp(
  configFrom({ DATABASE_URL: 'memory://', DATA_DIR: dataDir, ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'silent', GOVERNANCE_SIGNING_KEY: seed.toString('base64') }),
  { clock, startJobs: false },
);
const admin = async (url: string, body: unknown) =>
  (await app.inject({ method: 'POST', url: `/admin/v1${url}`, headers: { authorization: `Bearer ${ADMIN}` }, payload: body as object })).json();
const profile = (await admin('/profiles', { name: 'Vectors', plan: 'ENTERPRISE' })).data;
const key = (await admin('/api-keys', { service: 'governance', profileId: profile.id, scopes: ['governance:decide', 'governance:read'] })).data.key;
await admin('/governance/agents', { profileId: profile.id, agentId: 'agent-7', mandate: ['payments.*'], baseline: { fingerprint: 'fp-1', maxDrift: 0.2 } });
await admin('/governance/delegations', { profileId: profile.id, agentId: 'agent-7', grantedBy: 'cfo@example.com', expiresAt: '2026-11-23T12:00:00.000Z' });

async function decide(overrides: Record<string, unknown> = {}) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/governance/decisions',
    headers: { authorization: `Bearer ${key}` },
    payload: {
      agent_id: 'agent-7',
      action: 'payments.refund',
      authority_status: 'VALID',
      human_present: false,
      consequence_tier: 'LOW',
      timestamp: clock.now().toISOString(),
      behavior: { fingerprint: 'fp-1', drift: 0.05 },
      ...overrides,
    },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json();
}

const write = (name: string, value: unknown) => writeFileSync(join(OUT, name), `${JSON.stringify(value, null, 2)}\n`);
const allow = await decide();
const allowOnce = await decide();
clock.advance(1000);
const deny = await decide({ consequence_tier: 'CRITICAL' });
clock.advance(1000);
const escalate = await decide({ consequence_tier: 'HIGH', human_present: true });
clock.advance(1000);
const stale = await decide({ timestamp: '2026-11-22T11:50:00.000Z' });
const chain = [allow, allowOnce, deny, escalate, stale];
const at = clock.now().toISOString();

write('key.json', { seed: seed.toString('base64'), public_key: pair.publicKey.toString('base64'), key_id: keyIdOf(pair.publicKey) });
write('record-allow.json', allow);
write('record-deny.json', deny);
write('chain.json', chain);
write('chain-gap.json', [allow, deny]);
write('chain-reordered.json', [allowOnce, allow]);
write('bypass-replayed-receipt.json', allow);
write('bypass-modified-payload.json', { ...deny, disposition: 'ALLOW' });
write('bypass-expired-signature.json', allowOnce);
write('bypass-timestamp-manipulation.json', stale);
write('manifest.json', {
  description: 'Vectors for verify-record and the server. `at` is the moment the boundary checks are judged at; cli_exit/cli_code are what `verify-record <file> --public-key <key> [--chain] [--at <at>]` prints; server_code is the execution boundary\'s rejection (replay needs the server\'s record of admissions: the CLI sees a valid signature).',
  key: 'key.json',
  vectors: [
    { file: 'record-allow.json', at, cli_exit: 0, cli_code: null, server_code: null },
    { file: 'record-deny.json', at, cli_exit: 0, cli_code: null, server_code: 'NOT_ALLOWED' },
    { file: 'chain.json', chain: true, cli_exit: 0, cli_code: null },
    { file: 'chain-gap.json', chain: true, cli_exit: 1, cli_code: 'CHAIN_BROKEN' },
    { file: 'chain-reordered.json', chain: true, cli_exit: 1, cli_code: 'CHAIN_BROKEN' },
    { file: 'bypass-replayed-receipt.json', at, kind: 'replayed_receipt', cli_exit: 0, cli_code: null, server_code: 'RECEIPT_REPLAYED', admitted_before: true },
    { file: 'bypass-modified-payload.json', at, kind: 'modified_payload', cli_exit: 1, cli_code: 'SIGNATURE_INVALID', server_code: 'SIGNATURE_INVALID' },
    { file: 'bypass-expired-signature.json', at: '2026-11-22T12:05:00.000Z', kind: 'expired_signature', cli_exit: 1, cli_code: 'RECEIPT_EXPIRED', server_code: 'RECEIPT_EXPIRED' },
    { file: 'bypass-timestamp-manipulation.json', at, kind: 'timestamp_manipulation', cli_exit: 1, cli_code: 'TIMESTAMP_OUT_OF_WINDOW', server_code: 'TIMESTAMP_OUT_OF_WINDOW' },
  ],
});
await app.close();
rmSync(dataDir, { recursive: true, force: true });
