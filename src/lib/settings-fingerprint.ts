/**
 * A short fingerprint of the public site settings as the API serialises them (`JSON.stringify` of
 * `publicSettings(...)`). Each pre-rendered page carries the one of the settings it was built with; the site
 * script compares it with the live answer's and loads the refresh code (valibot and the schemas) only when
 * they differ, which is rare: a save is followed by a rebuild. Web Crypto, so the build (Node) and the
 * browser compute the same value; undefined where the browser offers no `crypto.subtle` (a plain-http address
 * other than localhost), and the refresh then always runs.
 */
export async function settingsFingerprint(serialised: string): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  const digest = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(serialised)));
  return Array.from(digest.subarray(0, 12), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
