#!/usr/bin/env node
// The local stand-in for Netlify Database under `npm start`: Postgres compiled to WebAssembly (PGlite, the engine
// the Netlify CLI's own local database uses), with its data in a folder, served over the Postgres wire protocol
// on the loopback address so the functions (worker threads of the CLI) and the site's tools reach it as they reach
// Netlify Database: through NETLIFY_DB_URL. The project's migrations are applied before it answers.
//
// Why not the CLI's own (`@netlify/database-dev`, which `netlify serve` does not start anyway): PGlite is one
// Postgres session, and the CLI's server hands every connection's messages to it as they come, so two connections
// running transactions at once share one transaction (one's ROLLBACK undoes the other's writes) and their
// parse/bind/execute steps interleave. Here a connection holds the session from its first message until Postgres
// says it is idle again (ReadyForQuery 'I'): a transaction, or a statement with its steps, runs alone, as each
// would on a real server with its own backend. Waiting connections queue in order. A connection that dies inside
// a transaction has it rolled back; one that sits inside a transaction for STUCK_MS while others wait is cut off.
//
// Usage: node scripts/local/database.mjs --dir .netlify/db --migrations netlify/database/migrations [--port 0]
// Prints one line "ready <connection string>" once it answers, then logs only problems.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { applyMigrations } from '@netlify/database-dev';
import { fromNodeSocket } from 'pg-gateway/node';

const STUCK_MS = 60_000;
const READY_FOR_QUERY = 0x5a;
const TERMINATE = 0x58;
// A Sync message: ends an extended-protocol exchange cut short, so the rollback after it is understood.
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

/** The transaction status of the last ReadyForQuery in a block of server messages ('I', 'T', 'E'), or null. */
export function lastReadyStatus(bytes) {
  let status = null;
  let at = 0;
  while (at + 5 <= bytes.length) {
    const length = ((bytes[at + 1] << 24) | (bytes[at + 2] << 16) | (bytes[at + 3] << 8) | bytes[at + 4]) >>> 0;
    if (bytes[at] === READY_FOR_QUERY && length === 5 && at + 5 < bytes.length)
      status = String.fromCharCode(bytes[at + 5]);
    at += 1 + length;
  }
  return status;
}

/** One Postgres session shared in turn: a holder keeps it until its work is done. */
export function sessionLock() {
  let holder = null;
  const queue = [];
  return {
    get holder() {
      return holder;
    },
    get waiting() {
      return queue.length;
    },
    async acquire(owner) {
      if (holder === owner) return;
      if (holder === null && queue.length === 0) {
        holder = owner;
        return;
      }
      await new Promise((resolve) => queue.push({ owner, resolve }));
    },
    release(owner) {
      if (holder !== owner) return;
      const next = queue.shift();
      holder = next ? next.owner : null;
      next?.resolve();
    },
    forget(owner) {
      const index = queue.findIndex((entry) => entry.owner === owner);
      if (index >= 0) queue.splice(index, 1);
    },
  };
}

export async function startLocalDatabase({ dir, migrations, port = 0, log = console.error }) {
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir, { extensions: { pg_trgm } });
  if (migrations) {
    const applied = await applyMigrations(db, migrations);
    if (applied.length) log(`[database] applied ${applied.length} migration(s): ${applied.join(', ')}`);
  }
  const lock = sessionLock();
  const sockets = new Set();

  async function abandon(connection) {
    lock.forget(connection);
    if (lock.holder !== connection) return;
    try {
      await db.execProtocolRaw(SYNC);
      await db.exec('ROLLBACK');
    } catch {
      // Nothing was open.
    }
    lock.release(connection);
  }

  const server = createServer((socket) => {
    const connection = { socket, lastActive: Date.now() };
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      void abandon(connection);
    });
    socket.on('error', () => {});
    fromNodeSocket(socket, {
      serverVersion: '16.4 (PGlite, local)',
      auth: { method: 'trust' },
      async onMessage(data, { isAuthenticated }) {
        if (!isAuthenticated) return undefined;
        if (data[0] === TERMINATE) {
          await abandon(connection);
          return undefined;
        }
        await lock.acquire(connection);
        connection.lastActive = Date.now();
        try {
          const response = await db.execProtocolRaw(data);
          if (lastReadyStatus(response) === 'I') lock.release(connection);
          return response;
        } catch (cause) {
          log('[database] a message failed:', cause);
          await abandon(connection);
          socket.destroy();
          return undefined;
        }
      },
    }).catch((cause) => {
      if (!String(cause?.message ?? cause).includes('ECONNRESET')) log('[database] connection error:', cause);
    });
  });
  // A connection that keeps the session inside a transaction while others wait is cut off (its work rolled back).
  const watchdog = setInterval(() => {
    const holder = lock.holder;
    if (holder && lock.waiting > 0 && Date.now() - holder.lastActive > STUCK_MS) {
      log(`[database] a connection held a transaction for over ${STUCK_MS / 1000} s while others waited; closing it.`);
      holder.socket.destroy();
    }
  }, 5_000);
  watchdog.unref();

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `postgres://postgres@127.0.0.1:${server.address().port}/postgres`;
  return {
    url,
    db,
    async close() {
      clearInterval(watchdog);
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string', default: '.netlify/db' },
      migrations: { type: 'string', default: 'netlify/database/migrations' },
      port: { type: 'string', default: '0' },
    },
  });
  const dir = resolve(values.dir);
  // Other tools (the users command) open the folder themselves only while no server has it.
  const pidFile = join(dir, 'server.pid');
  const database = await startLocalDatabase({ dir, migrations: resolve(values.migrations), port: Number(values.port) });
  writeFileSync(pidFile, `${process.pid}\n${database.url}\n`);
  console.log(`ready ${database.url}`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    rmSync(pidFile, { force: true });
    await database.close().catch(() => {});
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);
  process.on('disconnect', stop);
}
