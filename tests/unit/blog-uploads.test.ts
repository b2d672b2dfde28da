import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { processImage, sniffImage, variantUrls } from '../../src/server/uploads';
import uploadHandler from '../../netlify/functions/upload-image.mts';
import uploadsHandler from '../../netlify/functions/uploads.mts';

let stores: Awaited<ReturnType<typeof startStores>>;
let token = '';
beforeAll(async () => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
  stores = await startStores();
  token = await signedInStaff({ username: 'uploader', firstName: 'Uma', lastName: 'Loader' });
});
afterAll(() => stores.stop());

const photo = (format: 'jpeg' | 'png' | 'gif' | 'webp', width = 40, height = 30) =>
  sharp({ create: { width, height, channels: 3, background: { r: 1, g: 103, b: 95 } } })
    [format]()
    .toBuffer();

function upload(
  files: { field?: string; name: string; type: string; bytes: Uint8Array }[],
  { auth = true, extra }: { auth?: boolean; extra?: Record<string, string> } = {},
) {
  const form = new FormData();
  for (const file of files)
    form.append(
      file.field ?? 'image',
      new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type }),
    );
  for (const [key, value] of Object.entries(extra ?? {})) form.append(key, value);
  return uploadHandler(
    new Request('http://localhost/api/upload/image', {
      method: 'POST',
      headers: auth ? { authorization: `Bearer ${token}` } : {},
      body: form,
    }),
  );
}

/** A PNG that claims to be `width` x `height` but holds almost nothing: a decompression bomb's header. */
function bombPng(width: number, height: number) {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type), data, Buffer.alloc(4)]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1000))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('magic bytes', () => {
  it('decide the type, whatever the name says', async () => {
    expect(sniffImage(await photo('jpeg'))).toBe('jpeg');
    expect(sniffImage(await photo('png'))).toBe('png');
    expect(sniffImage(await photo('gif'))).toBe('gif');
    expect(sniffImage(await photo('webp'))).toBe('webp');
    expect(sniffImage(Buffer.from('  <?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBe(
      'svg',
    );
    expect(sniffImage(Buffer.from('%PDF-1.7\n'))).toBeNull();
    expect(sniffImage(Buffer.from('<html><script>alert(1)</script>'))).toBeNull();
    expect(sniffImage(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
  });
});

describe('re-encoding', () => {
  it('applies the EXIF orientation, strips EXIF and GPS, caps the size and writes WebP', async () => {
    const withGps = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#8cc63f' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'PhoneCo', Copyright: 'Someone' },
        IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 52/1 0/1' },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(withGps).metadata()).exif).toBeDefined();
    const out = await processImage(withGps);
    const meta = await sharp(out.full).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    // 2400x1200 turned a quarter by orientation 6 -> 1200x2400 -> fits 2000: 1000x2000.
    expect([meta.width, meta.height]).toEqual([1000, 2000]);
    expect(out.full.includes(Buffer.from('PhoneCo'))).toBe(false);
    expect(out.variants.map((v) => v.width)).toEqual([480, 960]);
    expect((await sharp(out.variants[0].data).metadata()).width).toBe(480);
  });

  it('keeps animated GIFs animated', async () => {
    const frames = await sharp({ create: { width: 20, height: 60, channels: 4, background: '#ffc20e' } })
      .gif()
      .toBuffer();
    const animated = await sharp(frames, { pages: -1 }).gif({ loop: 0 }).toBuffer();
    const out = await processImage(await sharp(animated).toBuffer());
    expect((await sharp(out.full).metadata()).format).toBe('webp');
  });

  it.each([
    [
      'a script appended to a real PNG (polyglot)',
      async () => Buffer.concat([await photo('png'), Buffer.from('<script>alert(1)</script>')]),
    ],
    [
      'HTML hidden in a JPEG comment',
      async () =>
        sharp(await photo('jpeg'))
          .jpeg()
          .withExif({ IFD0: { ImageDescription: '<script>alert(1)</script>' } })
          .toBuffer(),
    ],
  ])('never stores the bytes that were sent: %s', async (_label, make) => {
    const out = await processImage(await make());
    for (const data of [out.full, ...out.variants.map((v) => v.data)])
      expect(data.includes(Buffer.from('<script>'))).toBe(false);
  });

  it.each([
    ['a GIF/JavaScript polyglot', Buffer.from('GIF89a/*\x00\x00*/=alert(1)//;<script>alert(1)</script>')],
    [
      'JPEG magic bytes followed by garbage',
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('not really a jpeg at all '.repeat(20))]),
    ],
    ['a WebP header with nothing inside', Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 \x00\x00\x00\x00')],
  ])('refuses files that only look like images: %s', async (_label, bytes) => {
    await expect(processImage(bytes)).rejects.toMatchObject({ status: 415 });
  });

  it('refuses decompression bombs before decoding them', async () => {
    await expect(processImage(bombPng(60_000, 60_000))).rejects.toMatchObject({
      status: 413,
      message: expect.stringMatching(/too many pixels/),
    });
  });
});

describe('POST /api/upload/image', () => {
  it('stores a valid image and serves it with its real type, nosniff and a long cache', async () => {
    const response = await upload([
      { name: 'site-photo.jpg', type: 'image/jpeg', bytes: await photo('jpeg', 1200, 800) },
    ]);
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({
      success: true,
      message: 'Image uploaded successfully',
      imageUrl: expect.stringMatching(/^\/api\/uploads\/[a-f0-9]{32}\.webp$/),
    });

    // Its facts are a row of `images`: the size as stored, who uploaded it and when.
    const id = body.imageUrl.match(/[a-f0-9]{32}/)[0];
    const { rows } = await stores.engine.query('SELECT width, height, uploaded_by FROM images WHERE id = $1', [id]);
    expect(rows).toEqual([{ width: 1200, height: 800, uploaded_by: 'uploader' }]);

    const served = await uploadsHandler(new Request(`http://localhost${body.imageUrl}`));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(1200);
    for (const variant of variantUrls(body.imageUrl)) {
      const copy = await uploadsHandler(new Request(`http://localhost${variant.url}`));
      expect((await sharp(Buffer.from(await copy.arrayBuffer())).metadata()).width).toBe(variant.width);
    }
    expect(
      (await uploadsHandler(new Request('http://localhost/api/uploads/0123456789abcdef0123456789abcdef.webp'))).status,
    ).toBe(404);
    expect((await uploadsHandler(new Request('http://localhost/api/uploads/..%2F..%2Fusers%2Fadmin'))).status).toBe(
      404,
    );
  });

  it('goes by the bytes: a PNG named .jpg is accepted, a PDF named .jpg is not', async () => {
    expect((await upload([{ name: 'photo.jpg', type: 'image/jpeg', bytes: await photo('png') }])).status).toBe(201);
    const pdf = await upload([
      { name: 'photo.jpg', type: 'image/jpeg', bytes: Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n') },
    ]);
    expect(pdf.status).toBe(415);
    expect((await pdf.json()).message).toMatch(
      /^This file is not an image we can accept\. Only JPG, PNG, GIF and WebP images are accepted\.$/,
    );
    const html = await upload([
      { name: 'x.png', type: 'image/png', bytes: Buffer.from('<html><script>alert(1)</script></html>') },
    ]);
    expect(html.status).toBe(415);
  });

  it('refuses SVG, even named .png', async () => {
    const svg = await upload([
      {
        name: 'logo.png',
        type: 'image/png',
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      },
    ]);
    expect(svg.status).toBe(415);
    expect((await svg.json()).message).toMatch(/^SVG images are not accepted/);
  });

  it('refuses more than 5 MB, no file, several files, the wrong field and anonymous uploads', async () => {
    const stored = async () => (await stores.engine.query('SELECT count(*)::int AS n FROM images')).rows[0];
    const before = await stored();
    const big = Buffer.concat([await photo('jpeg'), Buffer.alloc(5_242_881)]);
    const oversize = await upload([{ name: 'big.jpg', type: 'image/jpeg', bytes: big }]);
    expect(oversize.status).toBe(413);
    expect((await oversize.json()).message).toBe('The image is larger than 5 MB. Choose a smaller image.');

    const none = await upload([], { extra: { image: 'not a file' } });
    expect(none.status).toBe(400);
    expect((await none.json()).message).toMatch(/No image was uploaded/);
    const two = await upload([
      { name: 'a.png', type: 'image/png', bytes: await photo('png') },
      { name: 'b.png', type: 'image/png', bytes: await photo('png') },
    ]);
    expect(two.status).toBe(400);
    expect((await two.json()).message).toBe('Upload one image at a time.');
    expect(
      (await upload([{ field: 'file', name: 'a.png', type: 'image/png', bytes: await photo('png') }])).status,
    ).toBe(400);
    expect(
      (await upload([{ name: 'a.png', type: 'image/png', bytes: await photo('png') }], { auth: false })).status,
    ).toBe(401);
    const notMultipart = await uploadHandler(
      new Request('http://localhost/api/upload/image', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' },
        body: await photo('png'),
      }),
    );
    expect(notMultipart.status).toBe(415);
    expect(await stored()).toEqual(before);
  });
});
