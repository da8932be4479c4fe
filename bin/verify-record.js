#!/usr/bin/env node
// Offline verification of sealed governance records: no server, no database.
//
//   verify-record <file.json> --public-key <base64> [--chain] [--at <RFC 3339 time>]
//   verify-record <record.json> [--public-key <base64>] --checkpoint <note> --verifier-key <vkey> --proof <inclusion.json> [--ml-dsa-key <base64>]
//   verify-record --consistency <old note> <new note> --verifier-key <vkey> --proof <consistency.json> [--ml-dsa-key <base64>]
//   verify-record --checkpoint <note> --verifier-key <vkey> --witness <witness vkey> … [--quorum N]
//
// A record is valid when its Ed25519 signature (base64url) verifies over the RFC 8785 (JCS)
// canonical JSON of the record without `signature`, with the given public key (base64 of the
// raw 32 bytes), and its key_id is the first 16 hex characters of SHA-256 over that key.
// --chain: the file holds an array of records, or the whole answer of
//   GET /v1/governance/records ({records, next_after_seq}); seq must count up by one and each
//   prev_hash must be the SHA-256 hex of the previous whole record's JCS bytes (64 zeros before
//   seq 1). A file holding one record (or no records) is a usage error: drop --chain for one.
// --at: also apply the execution boundary's time checks as of that moment: expiry
//   (RECEIPT_EXPIRED) and the ±60 s decision window / issued_at in the future
//   (TIMESTAMP_OUT_OF_WINDOW). Whether a receipt was already admitted needs the server.
// --checkpoint: the record is a leaf of the profile's transparency log (docs/governance.md, "Transparency
//   log"): the checkpoint (the signed note, or the whole answer of GET /v1/governance/log) must
//   carry a valid Ed25519 note signature by --verifier-key, and --proof (the answer of
//   GET /v1/governance/proofs/inclusion) must lead from the SHA-256 of 0x00 ‖ the record's JCS
//   bytes to its root (RFC 9162 §2.1.3.2). With --public-key the record's signature is checked too.
// --consistency: the older checkpoint's tree is a prefix of the newer one's (RFC 9162 §2.1.4.2),
//   --proof being the answer of GET /v1/governance/proofs/consistency.
// --ml-dsa-key: also verify the checkpoints' ML-DSA-65 signature (base64 public key from the /log
//   answer); the checkpoint files must then be whole /log answers, which carry that signature.
// --witness (repeatable) and --quorum N (docs/governance.md, "Witnesses"): at least N of these witnesses (all
//   of them without --quorum) must have cosigned the checkpoint (the newer one with --consistency):
//   a C2SP tlog-cosignature line per witness in the note, an Ed25519 signature over
//   "cosignature/v1\ntime <t>\n" and the checkpoint body, by the witness's key
//   (<name>+<8 hex>+<base64(0x04 ‖ key)>, pinned from the witness's operator). --checkpoint
//   without a record and --proof checks the checkpoint alone: its signature and its quorum.
// --help (or -h): the usage, exit 0.
// Exit code 0 valid, 1 invalid, 2 usage error; one line of output.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as ed from '@noble/ed25519';
import canonicalize from 'canonicalize';
import {
  LogInvalid,
  checkQuorum,
  openCheckpoint,
  parseVerifierKey,
  parseWitnessKey,
  verifyConsistency,
  verifyInclusion,
} from './verify-log.js';

ed.hashes.sha512 = (message) => new Uint8Array(createHash('sha512').update(message).digest());

const GENESIS_HASH = '0'.repeat(64);
const TIMESTAMP_WINDOW_MS = 60_000;
const CLOCK_SKEW_MS = 5_000;

class Invalid extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const USAGE =
  `Usage: verify-record <file.json> --public-key <base64> [--chain] [--at <time>] | ` +
  `verify-record <record.json> --checkpoint <note> --verifier-key <vkey> --proof <inclusion.json> [--ml-dsa-key <base64>] | ` +
  `verify-record --consistency <old note> <new note> --verifier-key <vkey> --proof <consistency.json> [--ml-dsa-key <base64>] | ` +
  `verify-record --checkpoint <note> --verifier-key <vkey> [--witness <witness vkey> …] [--quorum N]; ` +
  `--witness (repeatable) and --quorum go with --checkpoint or --consistency`;

function usage(message) {
  process.stdout.write(`usage error: ${message}. ${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { file: undefined, publicKey: undefined, chain: false, at: undefined, witnesses: [], quorum: undefined };
  const valued = { '--checkpoint': 'checkpoint', '--verifier-key': 'verifierKey', '--proof': 'proof', '--ml-dsa-key': 'mlDsaKey' };
  // Asking how to call it is no error (docs/governance.md): the usage, exit 0, whatever else was given.
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\nExit code 0 valid, 1 invalid, 2 usage error; one line of output.\n`);
    process.exit(0);
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg in valued) {
      if (argv[i + 1] === undefined) usage(`${arg} needs a value`);
      opts[valued[arg]] = argv[++i];
    } else if (arg === '--witness') {
      if (argv[i + 1] === undefined) usage('--witness needs a witness verifier key');
      opts.witnesses.push(argv[++i]);
    } else if (arg === '--quorum') {
      if (!/^[1-9]\d{0,2}$/.test(argv[i + 1] ?? '')) usage('--quorum needs a whole number of witnesses, at least 1');
      opts.quorum = Number(argv[++i]);
    } else if (arg === '--consistency') {
      if (argv[i + 2] === undefined) usage('--consistency needs the old and the new checkpoint files');
      opts.consistency = [argv[++i], argv[++i]];
    } else if (arg === '--public-key') opts.publicKey = argv[++i];
    else if (arg.startsWith('--public-key=')) opts.publicKey = arg.slice('--public-key='.length);
    else if (arg === '--chain') opts.chain = true;
    else if (arg === '--at') opts.at = argv[++i];
    else if (arg.startsWith('--at=')) opts.at = arg.slice('--at='.length);
    else if (arg.startsWith('--')) usage(`unknown option ${arg}`);
    else if (opts.file === undefined) opts.file = arg;
    else usage('only one file can be verified at a time');
  }
  if (opts.quorum !== undefined && opts.quorum > opts.witnesses.length) {
    usage(`--quorum ${opts.quorum} needs at least that many --witness keys (${opts.witnesses.length} given)`);
  }
  if (opts.consistency) {
    if (opts.file || opts.checkpoint || opts.chain || opts.at || opts.publicKey)
      usage('--consistency takes no record, --checkpoint, --chain, --at or --public-key');
    if (!opts.verifierKey || !opts.proof) usage('--consistency needs --verifier-key and --proof');
    return opts;
  }
  if (opts.checkpoint && !opts.file && !opts.proof) {
    if (!opts.verifierKey) usage('--checkpoint needs --verifier-key');
    if (opts.chain || opts.at || opts.publicKey) usage('--checkpoint alone takes no --chain, --at or --public-key');
    opts.checkpointOnly = true;
    return opts;
  }
  if (!opts.file) usage('a file is required');
  if (opts.checkpoint) {
    if (!opts.verifierKey || !opts.proof) usage('--checkpoint needs --verifier-key and --proof');
    if (opts.chain) usage('--checkpoint verifies one record; drop --chain');
  } else {
    if (opts.verifierKey || opts.proof || opts.mlDsaKey || opts.witnesses.length > 0 || opts.quorum !== undefined)
      usage('--verifier-key, --proof, --ml-dsa-key, --witness and --quorum go with --checkpoint or --consistency');
    if (!opts.publicKey) usage('--public-key is required');
  }
  return opts;
}

/** Refuses what canonicalization cannot represent unambiguously: duplicate keys, lone surrogates, unsafe integers, non-finite numbers. */
function strictParse(text) {
  let i = 0;
  const fail = (message) => {
    throw new Invalid('NON_CANONICAL_JSON', `${message} at character ${i}`);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const string = () => {
    const start = i++;
    const units = [];
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) fail('control character in a string');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('invalid \\u escape');
          units.push(parseInt(hex, 16));
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          units.push(0x41);
          i += 2;
        } else fail('invalid escape');
      } else {
        units.push(c);
        i++;
      }
    }
    i++;
    for (let k = 0; k < units.length; k++) {
      const u = units[k];
      if (u >= 0xd800 && u <= 0xdbff) {
        if (!(units[k + 1] >= 0xdc00 && units[k + 1] <= 0xdfff)) fail('lone surrogate');
        k++;
      } else if (u >= 0xdc00 && u <= 0xdfff) fail('lone surrogate');
    }
    return JSON.parse(text.slice(start, i));
  };
  const value = (depth) => {
    if (depth > 64) fail('nesting too deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const keys = new Set();
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const key = string();
        if (keys.has(key)) fail(`duplicate key "${key}"`);
        keys.add(key);
        ws();
        if (text[i++] !== ':') fail('expected ":"');
        value(depth + 1);
        ws();
        const next = text[i++];
        if (next === '}') return;
        if (next !== ',') fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value(depth + 1);
        ws();
        const next = text[i++];
        if (next === ']') return;
        if (next !== ',') fail('expected "," or "]"');
      }
    }
    if (c === '"') return void string();
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (number) {
      i += number[0].length;
      const n = Number(number[0]);
      if (!Number.isFinite(n)) fail('number out of range');
      if (!number[3] && Number.isInteger(n) && Math.abs(n) > Number.MAX_SAFE_INTEGER) fail('integer beyond 2^53');
      if (!number[2] && !number[3]) {
        const big = BigInt(number[0]);
        if (big > BigInt(Number.MAX_SAFE_INTEGER) || big < -BigInt(Number.MAX_SAFE_INTEGER)) fail('integer beyond 2^53');
      }
      return;
    }
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) return void (i += word.length);
    }
    fail('invalid JSON');
  };
  value(0);
  ws();
  if (i !== text.length) fail('unexpected text after the JSON value');
  return JSON.parse(text);
}

const sha256Hex = (data) => createHash('sha256').update(data).digest('hex');
const jcs = (value) => Buffer.from(canonicalize(value), 'utf8');

function publicKeyBytes(base64) {
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(base64)) usage('--public-key must be base64 of the raw 32-byte Ed25519 key');
  const raw = new Uint8Array(Buffer.from(base64, 'base64'));
  if (raw.length !== 32) usage('--public-key must be 32 bytes');
  try {
    // Strict RFC 8032 decoding, and no small-order keys: those verify forged signatures.
    if (ed.Point.fromBytes(raw, false).isSmallOrder()) usage('--public-key is a small-order point');
  } catch {
    usage('--public-key is not a valid Ed25519 point');
  }
  return raw;
}

function verifySignature(record, publicKey, kid) {
  if (!record || typeof record !== 'object' || Array.isArray(record))
    throw new Invalid('SIGNATURE_INVALID', 'the record is not a JSON object');
  if (record.key_id !== kid) throw new Invalid('KEY_MISMATCH', `key_id ${String(record.key_id)} is not the given public key (${kid})`);
  if (typeof record.signature !== 'string' || !/^[A-Za-z0-9_-]{86}$/.test(record.signature)) {
    throw new Invalid('SIGNATURE_INVALID', 'the signature is missing or malformed');
  }
  const { signature, ...unsigned } = record;
  const ok = ed.verify(new Uint8Array(Buffer.from(signature, 'base64url')), new Uint8Array(jcs(unsigned)), publicKey, { zip215: false });
  if (!ok) throw new Invalid('SIGNATURE_INVALID', 'the signature does not match the record');
}

function checkTimes(record, at) {
  const now = Date.parse(at);
  const expiresAt = Date.parse(record.expires_at);
  if (!(now < expiresAt)) throw new Invalid('RECEIPT_EXPIRED', `expired at ${record.expires_at}`);
  const issuedAt = Date.parse(record.issued_at);
  if (!(issuedAt <= now + CLOCK_SKEW_MS)) throw new Invalid('TIMESTAMP_OUT_OF_WINDOW', 'issued in the future');
  const decidedAt = Date.parse(record.inputs?.timestamp);
  if (!(Math.abs(decidedAt - issuedAt) <= TIMESTAMP_WINDOW_MS)) {
    throw new Invalid('TIMESTAMP_OUT_OF_WINDOW', 'the decision timestamp lies outside ±60 s of issued_at');
  }
}

/** The records a --chain file holds: an array, or the export answer's `records`; anything else is a usage error. */
function chainOf(parsed) {
  const isObject = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
  const records = Array.isArray(parsed) ? parsed : isObject && Array.isArray(parsed.records) ? parsed.records : undefined;
  if (records === undefined) {
    usage(
      isObject && 'signature' in parsed
        ? '--chain takes an array of records or the answer of GET /v1/governance/records; this file holds one record (verify it without --chain)'
        : '--chain takes an array of records or the answer of GET /v1/governance/records',
    );
  }
  if (records.length === 0) usage('the file holds no records to verify');
  return records;
}

function readText(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    usage(`cannot read ${file} (${err.code ?? 'error'})`);
  }
}

/** The verifier key and the optional ML-DSA-65 public key of the log flags, or a usage error. */
function logKeys(opts) {
  let key;
  try {
    key = parseVerifierKey(opts.verifierKey);
  } catch (err) {
    usage(err.message);
  }
  if (opts.mlDsaKey === undefined) return { key, mlDsaKey: undefined };
  const mlDsaKey = Buffer.from(opts.mlDsaKey, 'base64');
  if (mlDsaKey.length !== 1952) usage('--ml-dsa-key must be base64 of the 1,952-byte ML-DSA-65 public key');
  return { key, mlDsaKey };
}

/** The --witness keys, or a usage error; two keys of one name are one witness given twice. */
function witnessKeys(opts) {
  const witnesses = [];
  for (const text of opts.witnesses) {
    let witness;
    try {
      witness = parseWitnessKey(text);
    } catch (err) {
      usage(err.message);
    }
    if (witnesses.some((w) => w.name === witness.name)) usage(`--witness ${witness.name} is given twice`);
    witnesses.push(witness);
  }
  return witnesses;
}

/** The quorum's part of the answer line (nothing without --witness), or QUORUM_NOT_MET. */
function quorumOf(opts, checkpoint) {
  const witnesses = witnessKeys(opts);
  if (witnesses.length === 0) return '';
  const quorum = opts.quorum ?? witnesses.length;
  const found = checkQuorum(checkpoint, witnesses, quorum);
  return ` cosigned_by=${found.map((w) => w.name).join(',')} quorum=${quorum}/${witnesses.length}`;
}

/** --consistency and --checkpoint: one line and the exit code. */
function verifyLog(opts, record) {
  const { key, mlDsaKey } = logKeys(opts);
  const pq = mlDsaKey ? ' ml_dsa=verified' : '';
  witnessKeys(opts);
  try {
    if (opts.checkpointOnly) {
      const checkpoint = openCheckpoint(readText(opts.checkpoint), key, mlDsaKey);
      const quorum = quorumOf(opts, checkpoint);
      return `VALID checkpoint: tree ${checkpoint.size} of ${key.name}${pq}${quorum}`;
    }
    const proof = strictParse(readText(opts.proof));
    if (opts.consistency) {
      const [older, newer] = opts.consistency.map((file) => openCheckpoint(readText(file), key, mlDsaKey));
      if (older.size === 0) usage('the old checkpoint is of the empty tree: every tree extends it, there is nothing to prove');
      verifyConsistency(older, newer, proof);
      const quorum = quorumOf(opts, newer);
      return `VALID consistent: tree ${older.size} is a prefix of tree ${newer.size} of ${key.name}${pq}${quorum}`;
    }
    const checkpoint = openCheckpoint(readText(opts.checkpoint), key, mlDsaKey);
    if (proof?.seq !== record.seq || proof?.leaf_index !== record.seq - 1) {
      throw new LogInvalid('PROOF_MISMATCH', `the proof is for seq ${proof?.seq}, the record is seq ${record.seq}`);
    }
    verifyInclusion(jcs(record), proof, checkpoint);
    const quorum = quorumOf(opts, checkpoint);
    return `VALID included: record_id=${record.record_id} seq=${record.seq} in tree ${checkpoint.size} of ${key.name}${pq}${quorum}`;
  } catch (err) {
    if (err instanceof LogInvalid || err instanceof Invalid) throw err;
    throw new Invalid('PROOF_MALFORMED', err instanceof Error ? err.message : String(err));
  }
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.consistency || opts.checkpointOnly) {
    try {
      process.stdout.write(`${verifyLog(opts)}\n`);
      process.exit(0);
    } catch (err) {
      process.stdout.write(`INVALID ${err.code}: ${err.message}\n`);
      process.exit(1);
    }
  }
  const publicKey = opts.publicKey === undefined ? undefined : publicKeyBytes(opts.publicKey);
  const kid = publicKey && sha256Hex(publicKey).slice(0, 16);
  if (opts.at !== undefined && !Number.isFinite(Date.parse(opts.at))) usage('--at must be an RFC 3339 time');
  const text = readText(opts.file);
  try {
    const parsed = strictParse(text);
    if (opts.chain) {
      const chain = chainOf(parsed);
      chain.forEach((record, index) => {
        try {
          verifySignature(record, publicKey, kid);
          if (opts.at) checkTimes(record, opts.at);
        } catch (err) {
          throw new Invalid(err.code, `record ${index}: ${err.message}`);
        }
        if (index === 0) {
          if (record.seq === 1 && record.prev_hash !== GENESIS_HASH)
            throw new Invalid('CHAIN_BROKEN', 'record 0: seq 1 must follow 64 zeros');
          return;
        }
        const previous = chain[index - 1];
        if (record.seq !== previous.seq + 1)
          throw new Invalid('CHAIN_BROKEN', `record ${index}: seq ${record.seq} does not follow ${previous.seq}`);
        if (record.prev_hash !== sha256Hex(jcs(previous)))
          throw new Invalid('CHAIN_BROKEN', `record ${index}: prev_hash does not match record ${index - 1}`);
      });
      const first = chain[0];
      const last = chain[chain.length - 1];
      process.stdout.write(`VALID chain of ${chain.length} records, seq ${first.seq}..${last.seq}, key_id=${kid}\n`);
    } else if (opts.checkpoint) {
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Invalid('NOT_A_RECORD', 'the file is not one record');
      if (publicKey) verifySignature(parsed, publicKey, kid);
      if (opts.at) checkTimes(parsed, opts.at);
      process.stdout.write(`${verifyLog(opts, parsed)}${publicKey ? ` key_id=${kid}` : ''}\n`);
    } else {
      verifySignature(parsed, publicKey, kid);
      if (opts.at) checkTimes(parsed, opts.at);
      process.stdout.write(`VALID record_id=${parsed.record_id} seq=${parsed.seq} disposition=${parsed.disposition} key_id=${kid}\n`);
    }
    process.exit(0);
  } catch (err) {
    if (!(err instanceof Invalid || err instanceof LogInvalid)) {
      process.stdout.write(`INVALID NOT_JSON: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    }
    process.stdout.write(`INVALID ${err.code}: ${err.message}\n`);
    process.exit(1);
  }
}

main();
