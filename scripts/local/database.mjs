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
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { applyMigrations } from '@netlify/database-dev';
import { fromNodeSocket } from 'pg-gateway/node';
import { supervise } from '../supervise.mjs';

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
  const served = await serveDatabase(db, { port, log });
  return {
    url: served.url,
    db,
    async close() {
      await served.close();
      await db.close();
    },
  };
}

/**
 * Serves a PGlite engine over the Postgres wire protocol on the loopback address, one session holder at a time
 * (see the top of this file). Unit tests use it too, so the site's code meets the same driver (node-postgres) and
 * the same interleaving of connections there as under `npm start`.
 */
export async function serveDatabase(db, { port = 0, log = console.error } = {}) {
  // PGlite starts its one session with every debug message sent to the client (client_min_messages debug3): a
  // notice per protocol step, which the clients drop, took three quarters of each statement's time.
  await db.exec('SET client_min_messages TO notice');
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
    // Each protocol step is answered by a small write of its own: without this, Nagle's algorithm holds the next
    // one back until the client acknowledges (tens of milliseconds per statement).
    socket.setNoDelay(true);
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
  return {
    url: `postgres://postgres@127.0.0.1:${server.address().port}/postgres`,
    async close() {
      clearInterval(watchdog);
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Runs the local database as a child process of `npm start` (so its queries never share an event loop with the
 * front door), restarted on the same port if it exits unexpectedly. Resolves once it answers, with its address.
 */
export function superviseLocalDatabase({ dir, migrations, port, log = console.error }) {
  const script = new URL(import.meta.url).pathname;
  let resolveReady;
  let rejectReady;
  const ready = new Promise((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  let first = true;
  const child = supervise({
    name: 'The local database',
    log,
    start: () =>
      spawn(process.execPath, [script, '--dir', dir, '--migrations', migrations, '--port', String(port)], {
        // Its standard input stays open while this process lives: when it closes, the database stops too.
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    onStart: (process_) => {
      let tail = '';
      process_.stderr.on('data', (chunk) => {
        tail = `${tail}${chunk}`.slice(-4000);
        process.stderr.write(chunk);
      });
      process_.stdout.on('data', (chunk) => {
        const match = /^ready (\S+)$/m.exec(String(chunk));
        if (match) resolveReady(match[1]);
      });
      process_.once('exit', (code) => {
        if (!first) return;
        child.stop();
        rejectReady(new Error(`The local database did not start (exit code ${code}):\n${tail.trim()}`));
      });
    },
    onGiveUp: () => process.exit(1),
  });
  return ready.then((url) => {
    first = false;
    return { url, stop: () => child.stop() };
  });
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
  // Started by `npm start`: its end closes this input, and this server ends with it.
  if (!process.stdin.isTTY) {
    process.stdin.on('end', stop);
    process.stdin.resume();
  }
}
