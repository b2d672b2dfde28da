/**
 * The database module every store goes through (src/platform/database.ts), against the local database server and
 * node-postgres as in production: all-or-nothing transactions, no transaction inside another, values that
 * Postgres would refuse, and the error a clash of unique values gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDatabase, type TestDatabase } from './helpers/database';
import { db, isUniqueViolation, json, sql } from '../../src/platform/database';

let database: TestDatabase;
beforeAll(async () => {
  database = await startDatabase();
  await db().query(sql`CREATE TABLE probe (id int PRIMARY KEY, label text NOT NULL, doc jsonb)`);
});
afterAll(() => database.stop());

const labels = async () =>
  (await db().query<{ label: string }>(sql`SELECT label FROM probe ORDER BY id`)).map((r) => r.label);

describe('the database module', () => {
  it('lands every statement of a transaction, or none of them when its work throws', async () => {
    await db().transaction(async (tx) => {
      await tx.query(sql`INSERT INTO probe (id, label) VALUES (1, 'one')`);
      await tx.query(sql`INSERT INTO probe (id, label) VALUES (2, 'two')`);
    });
    await expect(
      db().transaction(async (tx) => {
        await tx.query(sql`INSERT INTO probe (id, label) VALUES (3, 'three')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await labels()).toEqual(['one', 'two']);
  });

  it('refuses a transaction started inside another (it would wait for ever on the outer one)', async () => {
    await expect(db().transaction(() => db().transaction(async () => 'inner'))).rejects.toThrow(/inside another/);
    // The outer one was rolled back and the connection is usable again.
    expect(await labels()).toEqual(['one', 'two']);
  });

  it('tells a unique clash apart from other errors', async () => {
    const clash = await db()
      .query(sql`INSERT INTO probe (id, label) VALUES (1, 'again')`)
      .catch((cause: unknown) => cause);
    expect(isUniqueViolation(clash)).toBe(true);
    const other = await db()
      .query(sql`INSERT INTO probe (id, label) VALUES (9, NULL)`)
      .catch((cause: unknown) => cause);
    expect(isUniqueViolation(other)).toBe(false);
  });

  it('stores text and JSON with a NUL character (which Postgres refuses) without it, instead of failing', async () => {
    await db().query(
      sql`INSERT INTO probe (id, label, doc) VALUES (5, ${'in\u0000side'}, ${json({ name: 'a\u0000b', list: ['\u0000x'] })}::jsonb)`,
    );
    const [row] = await db().query<{ label: string; doc: unknown }>(sql`SELECT label, doc FROM probe WHERE id = 5`);
    expect(row).toEqual({ label: 'inside', doc: { name: 'ab', list: ['x'] } });
    expect(await db().query(sql`SELECT id FROM probe WHERE label = ANY(${['in\u0000side']})`)).toEqual([{ id: 5 }]);
  });

  it('passes every value as a parameter: text that looks like SQL stays text', async () => {
    const hostile = "x'); DROP TABLE probe; --";
    await db().query(sql`INSERT INTO probe (id, label) VALUES (6, ${hostile})`);
    expect((await labels()).at(-1)).toBe(hostile);
  });
});
