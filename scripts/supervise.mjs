// Keeps a child process running: when it exits without being asked to, it is started again (with a
// message), unless it keeps failing (more than `maxRestarts` exits within `windowMs`), which ends in
// `onGiveUp`. `stop()` ends it for good. Used by scripts/serve.mjs for the Netlify CLI.

/**
 * @param {object} options
 * @param {() => import('node:child_process').ChildProcess} options.start  spawns the child
 * @param {string} [options.name]  how messages name the child
 * @param {number} [options.maxRestarts]  exits tolerated within `windowMs` (default 5)
 * @param {number} [options.windowMs]  default one minute
 * @param {(child: import('node:child_process').ChildProcess, attempt: number) => void} [options.onStart]
 * @param {(code: number | null) => void} [options.onStopped]  after stop(), once the child has exited
 * @param {(code: number | null) => void} [options.onGiveUp]
 * @param {(message: string) => void} [options.log]
 */
export function supervise({
  start,
  name = 'The child process',
  onStart,
  onStopped,
  onGiveUp,
  log = console.error,
  maxRestarts = 5,
  windowMs = 60_000,
}) {
  let child;
  let stopping = false;
  let attempt = 0;
  const exits = [];

  const launch = () => {
    child = start();
    const current = child;
    current.once('exit', (code, signal) => {
      if (stopping) return onStopped?.(code);
      const now = Date.now();
      exits.push(now);
      while (exits.length && exits[0] < now - windowMs) exits.shift();
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (exits.length > maxRestarts) {
        log(
          `${name} exited unexpectedly (${how}) ${exits.length} times within ${Math.round(windowMs / 1000)} seconds; giving up.`,
        );
        return onGiveUp?.(code);
      }
      log(`${name} exited unexpectedly (${how}); restarting it.`);
      launch();
    });
    onStart?.(current, attempt++);
  };
  launch();

  return {
    get child() {
      return child;
    },
    stop(signal = 'SIGTERM') {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return onStopped?.(child.exitCode);
      child.kill(signal);
    },
  };
}
