/**
 * Upload attacks against POST /api/upload/image (tests/fixtures/upload-attacks.ts). Runs as soon as a
 * function answers that route: every attack gets a 4xx JSON answer and leaves the stores untouched, or
 * (for the "clean" ones) is stored only as a re-encoded image under a random name, with nothing of the
 * payload left in any stored byte, name or metadata.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import {
  fakeContext,
  handlerFor,
  missingSecurityHeaders,
  snapshotBlobs,
  startInspectableBlobs,
  type LocalBlobs,
} from './helpers/hostile';
import { signedInStaff } from './helpers/staff';
import { multipartBody, uploadAttacks, type UploadAttack } from '../fixtures/upload-attacks';

const attacks = await uploadAttacks();
const upload = handlerFor('/api/upload/image');
const serve = handlerFor('/api/uploads/:key');

describe('the attack files are what they claim to be', () => {
  const find = (name: string) => attacks.find((a) => a.name.startsWith(name))!.parts[0].bytes as Uint8Array;
  it('the bomb declares 10 gigapixels in a small file', async () => {
    const bomb = find('decompression bomb');
    expect(bomb.byteLength).toBeLessThan(200_000);
    const meta = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect(meta.width! * meta.height!).toBe(10_000_000_000);
  });
  it('the polyglot GIF still decodes as a GIF and carries the script', async () => {
    const poly = Buffer.from(find('GIF with a script'));
    expect((await sharp(poly).metadata()).format).toBe('gif');
    expect(poly.toString('latin1')).toContain('__xss');
  });
  it('the EXIF photo carries its secret', async () => {
    expect(Buffer.from(find('EXIF location data')).toString('latin1')).toContain('GPS-SECRET-LOCATION');
  });
});

describe('POST /api/upload/image under attack', () => {
  let blobs: LocalBlobs;
  let token = '';
  beforeAll(async () => {
    expect(upload, 'a function with the route /api/upload/image').toBeDefined();
    process.env.JWT_SECRET = 'upload-attack-secret-that-is-long-enough-0123456789';
    blobs = await startInspectableBlobs();
    token = await signedInStaff({ username: 'upload-admin', firstName: 'Up', lastName: 'Loader' });
  });
  afterAll(() => blobs?.stop());
  beforeEach(() => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  const send = async (attack: UploadAttack, authorization = `Bearer ${token}`) => {
    const { body, contentType } = multipartBody(attack.parts);
    const headers: Record<string, string> = { authorization, 'content-type': attack.contentType ?? contentType };
    if (attack.contentLength) headers['content-length'] = attack.contentLength;
    return (await upload!.handler(
      new Request('http://localhost/api/upload/image', { method: 'POST', headers, body: body as BodyInit }),
      fakeContext({}),
    )) as Response;
  };

  it('refuses anyone without a valid token, storing nothing', async () => {
    const before = await snapshotBlobs(blobs.directory);
    const ok = attacks.find((a) => a.name.startsWith('declared type differs'))!;
    for (const authorization of ['', 'Bearer nope', `Bearer ${token}x`])
      expect((await send(ok, authorization)).status).toBe(401);
    expect(await snapshotBlobs(blobs.directory)).toEqual(before);
  });

  it.each(attacks.map((a) => [a.name, a] as const))('%s', async (_name, attack) => {
    const before = await snapshotBlobs(blobs.directory);
    const response = await send(attack);
    expect(response.status).toBeLessThan(500);
    expect(missingSecurityHeaders(response)).toEqual([]);
    const after = await snapshotBlobs(blobs.directory);
    const written = [...after.keys()].filter((path) => before.get(path) !== after.get(path));

    if (response.status >= 400) {
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await response.json()).message).toEqual(expect.any(String));
      expect(written).toEqual([]);
      return;
    }
    expect(attack.expect, `"${attack.name}" must be refused, but was accepted`).toBe('clean');
    const { imageUrl } = await response.json();
    expect(imageUrl).toMatch(/^\/api\/uploads\/[a-f0-9]{32}\.(webp|jpg|png|gif)$/);
    expect(written.length).toBeGreaterThan(0);
    // The image's facts went to its table; its files are checked here.
    const files = written.filter((path) => !path.startsWith(join('database', 'tables')));
    expect(files.length).toBeGreaterThan(0);
    for (const path of files) {
      const bytes = await readFile(join(blobs.directory, path));
      if (attack.marker) {
        expect(path, 'stored name').not.toContain(attack.marker);
        expect(bytes.toString('latin1'), `stored bytes of ${path}`).not.toContain(attack.marker);
      }
    }
    if (serve) {
      const key = imageUrl.split('/').pop();
      const served = (await serve.handler(
        new Request(`http://localhost${imageUrl}`),
        fakeContext({ key }),
      )) as Response;
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toMatch(/^image\/(webp|jpeg|png|gif)$/);
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(missingSecurityHeaders(served)).toEqual([]);
      const bytes = Buffer.from(await served.arrayBuffer());
      expect((await sharp(bytes).metadata()).exif, 'metadata is stripped').toBeUndefined();
      if (attack.marker) expect(bytes.toString('latin1')).not.toContain(attack.marker);
    }
  });
});
