// A bounded local load: a fixed number of requests with a fixed number in flight, timed one by one.

/** Runs `total` requests, `concurrency` at a time; `make(i)` gives [url, init]. Returns latencies (ms) and statuses. */
export async function load({ total, concurrency, make }) {
  const latencies = [];
  const statuses = new Map();
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const [url, init] = make(i);
      const started = performance.now();
      let status = 0;
      try {
        const response = await fetch(url, init);
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = -1; // no answer at all
      }
      latencies.push(performance.now() - started);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, statuses, seconds: (performance.now() - started) / 1000 };
}

export function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function summary(result) {
  const { latencies, statuses, seconds } = result;
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
    rps: latencies.length / seconds,
    statuses: [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}x${n}`)
      .join(' '),
  };
}
