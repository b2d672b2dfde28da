/**
 * Sending one file to the applicant API in chunks: start, each chunk with upload progress (XMLHttpRequest),
 * complete. A chunk that fails on the network or with a 5xx is resent alone, with a growing wait; a refusal
 * (4xx) stops the file with the server's message. Other files are not affected by one file's failure.
 */

export class UploadRefused extends Error {}

const RETRIES = 4;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  body: { message?: string } & Record<string, unknown>;
}

function send(
  method: string,
  url: string,
  token: string,
  body: Blob | string | null,
  contentType: string | null,
  onProgress?: (loaded: number) => void,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    if (contentType) xhr.setRequestHeader('Content-Type', contentType);
    xhr.timeout = 120_000;
    if (onProgress) xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => {
      let parsed: Answer['body'] = {};
      try {
        parsed = JSON.parse(xhr.responseText || '{}');
      } catch {
        parsed = {};
      }
      resolve({ status: xhr.status, body: parsed });
    };
    xhr.onerror = () => reject(new Error('network'));
    xhr.ontimeout = () => reject(new Error('timeout'));
    xhr.send(body);
  });
}

/** One request, resent on network failures and 5xx answers; a 4xx throws UploadRefused with its message. */
async function withRetries(attempt: () => Promise<Answer>): Promise<Answer> {
  for (let n = 0; ; n++) {
    let answer: Answer | null = null;
    try {
      answer = await attempt();
    } catch {
      answer = null;
    }
    if (answer && answer.status < 400) return answer;
    if (answer && answer.status < 500)
      throw new UploadRefused(answer.body.message || `The upload was refused (${answer.status}).`);
    if (n >= RETRIES) throw new Error('The connection dropped. Try this file again.');
    await wait(500 * 2 ** n);
  }
}

export async function uploadFile(
  file: File,
  item: string,
  token: string,
  onProgress: (fraction: number) => void,
): Promise<void> {
  const started = await withRetries(() =>
    send(
      'POST',
      '/api/applicant/evidence',
      token,
      JSON.stringify({ name: file.name, size: file.size, item }),
      'application/json',
    ),
  );
  const { uploadId, chunkBytes, chunks } = started.body as { uploadId: string; chunkBytes: number; chunks: number };
  for (let n = 0; n < chunks; n++) {
    const part = file.slice(n * chunkBytes, (n + 1) * chunkBytes);
    await withRetries(() =>
      send(
        'PUT',
        `/api/applicant/evidence/${uploadId}/chunks/${n}`,
        token,
        part,
        'application/octet-stream',
        (loaded) => onProgress(Math.min(1, (n * chunkBytes + loaded) / file.size)),
      ),
    );
    onProgress(Math.min(1, ((n + 1) * chunkBytes) / file.size));
  }
  await withRetries(() => send('POST', `/api/applicant/evidence/${uploadId}/complete`, token, null, null));
}
