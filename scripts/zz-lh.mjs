import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu'] });
for (const path of process.argv.slice(2)) {
  const { lhr } = await lighthouse('http://localhost:8888' + path, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  const a = lhr.audits;
  console.log(path, 'perf', lhr.categories.performance.score, 'FCP', Math.round(a['first-contentful-paint'].numericValue), 'LCP', Math.round(a['largest-contentful-paint'].numericValue), 'SI', Math.round(a['speed-index'].numericValue), 'TBT', Math.round(a['total-blocking-time'].numericValue));
  console.log(' lcp', JSON.stringify(a['lcp-breakdown-insight'].details?.items?.[0]?.items), a['lcp-breakdown-insight'].details?.items?.[1]?.selector);
  console.log(' boot', JSON.stringify(a['bootup-time'].details.items.map((i) => [i.url.replace('http://localhost:8888', ''), Math.round(i.total)])));
  console.log(' main', JSON.stringify(a['mainthread-work-breakdown'].details.items.map((i) => [i.group, Math.round(i.duration)])));
  console.log(' blocking', JSON.stringify(a['render-blocking-insight']?.details?.items?.map?.((i) => [i.url?.replace('http://localhost:8888', ''), i.wastedMs])));
}
chrome.kill();
