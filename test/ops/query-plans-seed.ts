import pg from 'pg';

/**
 * Rows of four more profiles in every table that grows, a few thousand in the big ones, written
 * straight in SQL (the API would take minutes for this many): enough that an index is what the
 * planner prefers and that ANALYZE has real statistics, and other tenants' rows sit beside the
 * scenario's own as they do in production.
 */
const BULK = [
  `insert into profiles (name, plan, created_at, updated_at)
     select 'Bulk ' || i, 'ENTERPRISE', now(), now() from generate_series(1, 4) i`,
  `insert into venues (profile_id, name, address, lat, lng, created_at)
     select id, 'Hall', '1 Dock Road', 53.5, 9.9, now() from profiles where name like 'Bulk %'`,
  `insert into api_keys (profile_id, service, role, key_hash, prefix, created_at)
     select id, 'identity', 'reviewer', md5(random()::text || id), 'sk_rev', now() from profiles where name like 'Bulk %'`,
  `insert into ticketing_events (profile_id, place_id, name, description, status, starts_at, all_day, address, lat, lng,
       categories, ticket_mode, created_at, updated_at, resource_json)
     select v.profile_id, v.id, 'Bulk event ' || i, '', 'ACTIVE', now() + i * interval '1 hour', false, '1 Dock Road', 53.5, 9.9,
       '{music}', 'SERVICE', now(), now(), ''
     from venues v join profiles p on p.id = v.profile_id and p.name like 'Bulk %', generate_series(1, 500) i`,
  `insert into ticketing_ticket_types (event_id, name, kind, price_cents, quantity, sold, is_active, created_at)
     select id, 'General admission', 'STANDARD', 2500, 100, 2, true, now() from ticketing_events where name like 'Bulk event %'`,
  `insert into ticketing_orders (profile_id, event_id, status, total_cents, currency, buyer_name, buyer_email, created_at, updated_at)
     select e.profile_id, e.id, 'CONFIRMED', 2500, 'EUR', 'Ada', 'ada@example.com', now() - i * interval '1 minute', now()
     from ticketing_events e, generate_series(1, 2) i where e.name like 'Bulk event %'`,
  `insert into ticketing_order_items (order_id, position, ticket_type_id, quantity, unit_price_cents)
     select o.id, 0, t.id, 1, 2500 from ticketing_orders o join ticketing_ticket_types t on t.event_id = o.event_id
     where t.name = 'General admission'`,
  `insert into ticketing_issued_tickets (order_id, event_id, ticket_type_id, quantity, created_at)
     select o.id, o.event_id, t.id, 1, now() from ticketing_orders o join ticketing_ticket_types t on t.event_id = o.event_id
     where t.name = 'General admission'`,
  `insert into ticketing_check_ins (event_id, ticket_id, order_id, result, scanned_at)
     select t.event_id, t.id, t.order_id, 'ALLOW', now() from ticketing_issued_tickets t
     join ticketing_ticket_types tt on tt.id = t.ticket_type_id where tt.name = 'General admission'`,
  `insert into webhook_endpoints (profile_id, url, secret, created_at, updated_at)
     select id, 'https://hooks.example.com/in', 'whsec_bulk', now(), now() from profiles where name like 'Bulk %'`,
  `insert into webhook_events (profile_id, type, body, payload, created_at)
     select id, 'order.paid', '{}', '{}', now() - i * interval '1 minute' from profiles, generate_series(1, 1000) i
     where name like 'Bulk %'`,
  `insert into webhook_deliveries (event_id, profile_id, endpoint_id, url, signer, policy, state, attempts, max_attempts, created_at, updated_at)
     select e.id, e.profile_id, p.id, p.url, 'hmac', 'ticketing', 'succeeded', 1, 8, e.created_at, e.created_at
     from webhook_events e join webhook_endpoints p on p.profile_id = e.profile_id where p.url = 'https://hooks.example.com/in'`,
  `insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code)
     select d.id, 1, d.created_at, 20, 200 from webhook_deliveries d where d.url = 'https://hooks.example.com/in'`,
  `insert into identity_verifications (profile_id, status, stage, reference, document_sha256, created_at, updated_at, decided_at)
     select id, 'approved', 'complete', 'ref-' || i, md5(id::text || i), now(), now(), now()
     from profiles, generate_series(1, 1000) i where name like 'Bulk %'`,
  `insert into identity_handoff_tokens (verification_id, token_hash, expires_at, created_at)
     select id, md5('token' || id), now(), now() from identity_verifications where reference like 'ref-%'`,
  `insert into identity_frames (verification_id, step, blob_key, sha256, width, height, created_at)
     select id, s, 'frames/' || id || '/' || s, md5(id::text || s), 640, 480, now()
     from identity_verifications, generate_series(1, 3) s where reference like 'ref-%'`,
  `insert into identity_audit_events (verification_id, seq, type, actor, data, prev_hash, hash, created_at)
     select id, s, 'verification.created', 'backend', '{}', '', md5(id::text || s), now()
     from identity_verifications, generate_series(1, 3) s where reference like 'ref-%'`,
  `insert into identity_attestations (verification_id, claim, value, kid, issued_at, expires_at)
     select id, 'identity_verified', 'true', 'kid', now(), now() + interval '1 year' from identity_verifications where reference like 'ref-%'`,
  `insert into identity_reviews (verification_id, reviewer_key_id, decision, note, created_at)
     select v.id, k.id, 'approve', 'Checked by hand, all consistent', now()
     from identity_verifications v join api_keys k on k.profile_id = v.profile_id and k.prefix = 'sk_rev' where v.reference like 'ref-%'`,
  `insert into governance_records (record_id, profile_id, execution_id, agent_id, seq, nonce, disposition, canonical, hash,
       tree_hashes, issued_at, expires_at)
     select gen_random_uuid(), id, gen_random_uuid(), 'agent-7', i, md5(id::text || i), 'ALLOW', '{}', md5(id::text || i),
       ''::bytea, now(), now() + interval '5 minutes'
     from profiles, generate_series(1, 1000) i where name like 'Bulk %'`,
  `insert into governance_deliveries (profile_id, execution_id, attempted_at, result)
     select profile_id, execution_id, issued_at, 'ADMITTED' from governance_records where agent_id = 'agent-7' and canonical = '{}'`,
  `insert into governance_admissions (nonce, profile_id, record_id, admitted_at)
     select nonce, profile_id, record_id, issued_at from governance_records where agent_id = 'agent-7' and canonical = '{}'`,
  `insert into jobs (queue, payload, state, run_at, attempts, created_at, updated_at)
     select 'webhook.deliver', '{}', case when i % 10 = 0 then 'failed' else 'done' end, now(), 1, now(), now()
     from generate_series(1, 5000) i`,
  `insert into idempotency_keys (caller, method, path, key, fingerprint, owner, lease_until, status, created_at, expires_at)
     select 'key:' || (i % 50), 'POST', '/api/v1/events', 'bulk-' || i, md5(i::text), 'bulk', now(), 201, now(),
       now() + interval '100 years'
     from generate_series(1, 3000) i`,
];

export async function seedOtherTenants(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of BULK) await client.query(statement);
    await client.query('analyze');
  } finally {
    await client.end();
  }
}
