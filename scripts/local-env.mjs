// Local-only settings for running the site on this machine. Nothing here is committed:
// secrets are generated on first start and kept in .env (git-ignored), which the Netlify CLI loads.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const envFile = new URL('../.env', import.meta.url);

export async function prepareLocalEnv() {
  const existing = existsSync(envFile) ? readFileSync(envFile, 'utf8') : '';
  const values = Object.fromEntries(
    existing
      .split('\n')
      .filter((line) => line.includes('=') && !line.startsWith('#'))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  if (!values.JWT_SECRET) {
    values.JWT_SECRET = randomBytes(48).toString('base64url');
    const header = existing ? '' : '# Local development settings, generated on first start. Never commit this file.\n';
    writeFileSync(envFile, `${existing}${header}JWT_SECRET=${values.JWT_SECRET}\n`, { mode: 0o600 });
  }
  return values;
}
