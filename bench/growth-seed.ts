// Rows for the data-growth bench (bench/growth.ts), written straight in SQL: the API would take
// hours for a million rows per table. A wave gives each profile a range of rows in every table
// that grows; the measured tenant gets all of its rows in the first wave, so the second wave
// grows only the tables around it and the same requests can be compared at both sizes.
import pg from 'pg';

export const PROFILES = 1_000;
/** The tenant whose routes are measured: the same rows at both sizes. */
export const MEASURED = 'Growth 1';

/** Rows `from`..`to` (inclusive) of every growing table for the profiles `which` names. */
export interface Wave {
  name: string;
  from: number;
  to: number;
  which: 'measured' | 'others';
}

/** A fraction of the rows also get the tables that hold one row per case a person looked at. */
const SPARSE = 100;

/**
 * Row i of a profile's timed rows (webhook events and their deliveries and attempts, decided
 * verifications and their audit events, finished jobs) happened i - ½ hours ago: a history, as a deployment that has run
 * for a while has. Only rows with i = 1 fall in the operator's last hour (GET /admin/v1/activity),
 * so that window holds the same rows at both sizes and the bench compares history, not traffic.
 * They are written oldest first, as a running deployment appends them: the BRIN indexes on their
 * times (webhook_attempts, identity_audit_events) rely on that order.
 */
const hoursAgo = (i: string) => `now() - (${i} - 0.5) * interval '1 hour'`;

function statements(w: Wave): string[] {
  // Each profile of the wave with its rows i = from..to.
  const which = `p.name like 'Growth %' and p.name ${w.which === 'measured' ? '=' : '<>'} '${MEASURED}'`;
  const each = `profiles p, lateral generate_series(${w.from}, ${w.to}) i where ${which}`;
  const tag = `'${w.name}'`;
  const jobs = ((w.to - w.from + 1) * (w.which === 'measured' ? 1 : PROFILES - 1)) / (SPARSE / 10);
  return [
    `insert into ticketing_events (profile_id, place_id, name, description, status, starts_at, all_day, address, lat, lng,
         categories, ticket_mode, created_at, updated_at, resource_json)
       select p.id, v.id, 'Growth event ' || i, ${tag}, 'ACTIVE', timestamptz '2027-01-01 19:00+00' + i * interval '1 hour',
         false, '1 Dock Road', 53.5, 9.9, '{music}', 'SERVICE', now(), now(), ''
       from profiles p join venues v on v.profile_id = p.id, lateral generate_series(${w.from}, ${w.to}) i where ${which}`,
    `insert into ticketing_ticket_types (event_id, name, kind, price_cents, quantity, sold, is_active, created_at)
       select id, 'General admission', 'STANDARD', 2500, 100, 1, true, now() from ticketing_events where description = ${tag}`,
    `insert into ticketing_orders (profile_id, event_id, status, total_cents, currency, buyer_name, buyer_email, created_at, updated_at)
       select e.profile_id, e.id, 'CONFIRMED', 2500, 'EUR', ${tag}, 'ada@example.com', now(), now()
       from ticketing_events e where e.description = ${tag}`,
    `insert into ticketing_order_items (order_id, position, ticket_type_id, quantity, unit_price_cents)
       select o.id, 0, t.id, 1, 2500 from ticketing_orders o join ticketing_ticket_types t on t.event_id = o.event_id
       where o.buyer_name = ${tag}`,
    `insert into ticketing_issued_tickets (order_id, event_id, ticket_type_id, quantity, holder_name, created_at)
       select o.id, o.event_id, t.id, 1, ${tag}, now() from ticketing_orders o join ticketing_ticket_types t on t.event_id = o.event_id
       where o.buyer_name = ${tag}`,
    `insert into webhook_events (profile_id, type, body, payload, created_at)
       select p.id, 'order.paid', '{}', ${tag}, ${hoursAgo('i')} from ${each} order by i desc`,
    `insert into webhook_deliveries (event_id, profile_id, endpoint_id, url, signer, policy, state, attempts, max_attempts, created_at, updated_at)
       select e.id, e.profile_id, p.id, p.url, 'hmac', 'ticketing', 'succeeded', 1, 8, e.created_at, e.created_at
       from webhook_events e join webhook_endpoints p on p.profile_id = e.profile_id where e.payload = ${tag} order by e.created_at`,
    `insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code)
       select d.id, 1, d.created_at, 20, 200 from webhook_deliveries d join webhook_events e on e.id = d.event_id
       where e.payload = ${tag} order by d.created_at`,
    // Every 50th case waits for a reviewer, as a queue does; the rest are decided.
    `insert into identity_verifications (profile_id, status, stage, reference, document_sha256, created_at, updated_at, decided_at,
         decision_reason)
       select p.id, case when i % 50 = 0 then 'manual_review' else 'approved' end, 'complete', ${tag} || '-' || i,
         md5(p.id::text || ${tag} || i), ${hoursAgo('i')}, ${hoursAgo('i')} + interval '1 minute', ${hoursAgo('i')} + interval '1 minute',
         case when i % 50 = 0 then 'face_mismatch' end
       from ${each} order by i desc`,
    `insert into identity_audit_events (verification_id, seq, type, actor, data, prev_hash, hash, created_at)
       select id, 1, 'verification.created', 'backend', '{}', '', md5(id::text), created_at
       from identity_verifications where reference like ${tag} || '-%' order by created_at`,
    `insert into identity_frames (verification_id, step, blob_key, sha256, width, height, created_at)
       select id, 0, 'frames/' || id || '/0', md5(id::text), 640, 480, now()
       from identity_verifications where reference like ${tag} || '-%' and right(reference, 2) = '00'`,
    `insert into identity_attestations (verification_id, claim, value, kid, issued_at, expires_at)
       select id, 'identity_verified', 'true', 'kid', now(), now() + interval '1 year'
       from identity_verifications where reference like ${tag} || '-%' and status = 'approved' and right(reference, 2) = '01'`,
    // The measured tenant seals its own records during the run (its chain head and tree must be
    // real); only the other tenants' records are bulk rows.
    ...(w.which === 'measured' ? [] : [governanceRecords(each, tag)]),
    `insert into governance_deliveries (profile_id, execution_id, attempted_at, result)
       select profile_id, execution_id, issued_at, 'ADMITTED' from governance_records where agent_id = ${tag} and seq % ${SPARSE / 10} = 0`,
    // The wave's finished jobs spread evenly over the wave's hours, as the deliveries are.
    `insert into jobs (queue, payload, state, run_at, attempts, created_at, updated_at)
       select 'webhook.deliver', '{}', 'done', at, 1, at, at
       from (select ${hoursAgo(`${w.from} + (i - 1) * ${w.to - w.from + 1}.0 / ${jobs}`)} as at from generate_series(1, ${jobs}) i) j order by at`,
  ];
}

function governanceRecords(each: string, tag: string): string {
  return `insert into governance_records (record_id, profile_id, execution_id, agent_id, seq, nonce, disposition, canonical, hash,
         tree_hashes, issued_at, expires_at)
       select gen_random_uuid(), p.id, gen_random_uuid(), ${tag}, i, md5(p.id::text || i), 'ALLOW', '{}', md5(p.id::text || i),
         ''::bytea, now(), now() + interval '5 minutes'
       from ${each}`;
}

/** The profiles, each with a venue and a webhook endpoint. */
const SETUP = [
  `insert into profiles (name, plan, created_at, updated_at)
     select 'Growth ' || i, 'ENTERPRISE', now(), now() from generate_series(1, ${PROFILES}) i`,
  `insert into venues (profile_id, name, address, lat, lng, created_at)
     select id, 'Hall', '1 Dock Road', 53.5, 9.9, now() from profiles where name like 'Growth %'`,
  `insert into webhook_endpoints (profile_id, url, secret, created_at, updated_at)
     select id, 'https://hooks.example.com/in', 'whsec_growth', now(), now() from profiles where name like 'Growth %'`,
];

export async function createProfiles(url: string): Promise<void> {
  await run(url, SETUP, false);
}

/** Writes one wave, then VACUUM ANALYZE: a long-running database's autovacuum has done so for bulk inserts. */
export async function seedWave(url: string, wave: Wave, log: (msg: string) => void): Promise<void> {
  const started = Date.now();
  await run(url, statements(wave), true, (i, n) =>
    log(`${wave.name}: statement ${i} of ${n} (${((Date.now() - started) / 1000).toFixed(0)} s)`),
  );
}

async function run(url: string, list: string[], analyze: boolean, progress?: (i: number, n: number) => void): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const [i, statement] of list.entries()) {
      progress?.(i + 1, list.length);
      await client.query(statement);
    }
    if (analyze) await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
}

/** How many rows each growing table holds now. */
export async function tableSizes(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = [
      'ticketing_events',
      'ticketing_orders',
      'ticketing_issued_tickets',
      'webhook_deliveries',
      'identity_verifications',
      'identity_audit_events',
      'governance_records',
    ];
    const sizes: Record<string, number> = {};
    for (const t of tables) sizes[t] = Number((await client.query(`select count(*) as n from ${t}`)).rows[0].n);
    return sizes;
  } finally {
    await client.end();
  }
}
