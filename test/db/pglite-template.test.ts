import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf, type Database } from '../../src/db/client.js';
import { applyMigrations, migrationsFolder } from '../../src/db/migrate.js';
import { versionFile } from '../../src/db/pglite-template.js';
import { writePgliteTemplate } from '../../src/db/write-pglite-template.js';

const migrationCount = readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).length;

async function appliedMigrations(database: Database): Promise<number | null> {
  const [table] = rowsOf<{ name: string | null }>(
    await database.db.execute(sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`),
  );
  if (!table?.name) return null;
  const [row] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`));
  return row!.n;
}

describe.skipIf(process.env.DATABASE_URL)('a fresh DATA_DIR starts from the build’s migrated template', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-template-'));
  const template = join(dir, 'template.tgz');
  const opened: Database[] = [];
  const open = async (dataDir: string, pgliteTemplate = template) => {
    const database = await openDatabase({ dataDir, pgliteTemplate });
    opened.push(database);
    return database;
  };
  const close = async (database: Database) => {
    opened.splice(opened.indexOf(database), 1);
    await database.close();
  };

  beforeAll(async () => {
    await writePgliteTemplate(template);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(opened.map((d) => d.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens a new data directory already migrated, and the migrations find nothing left to do', async () => {
    const database = await open(join(dir, 'fresh'));
    expect(await appliedMigrations(database)).toBe(migrationCount);
    await applyMigrations(database);
    expect(await appliedMigrations(database)).toBe(migrationCount);
    await database.db.execute(sql`insert into profiles (name, plan, created_at, updated_at) values ('Acme', 'PRO', now(), now())`);
    await close(database);
  });

  it('opens an existing data directory as it is: its records stay, the template is not loaded over them', async () => {
    const dataDir = join(dir, 'existing');
    const first = await open(dataDir);
    await first.db.execute(sql`insert into profiles (name, plan, created_at, updated_at) values ('Kept', 'FREE', now(), now())`);
    await close(first);
    const again = await open(dataDir);
    const names = rowsOf<{ name: string }>(await again.db.execute(sql`select name from profiles`)).map((r) => r.name);
    expect(names).toEqual(['Kept']);
    await close(again);
  });

  it('ignores a template another PGlite version wrote, and one that is missing', async () => {
    const other = join(dir, 'other.tgz');
    await writePgliteTemplate(other);
    writeFileSync(versionFile(other), '0.0.1\n');
    const fromOther = await open(join(dir, 'other-version'), other);
    expect(await appliedMigrations(fromOther)).toBeNull();
    await close(fromOther);
    const fromNone = await open(join(dir, 'no-template'), join(dir, 'absent.tgz'));
    expect(await appliedMigrations(fromNone)).toBeNull();
    await close(fromNone);
  }, 60_000);
});
