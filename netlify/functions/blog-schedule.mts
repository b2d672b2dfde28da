import type { Config } from '@netlify/functions';
import { publishDuePosts } from '../../src/server/blogs';

/** Every minute: publishes the posts whose publish time has come and drops the cached blog pages. */
export default async () => {
  const published = await publishDuePosts();
  if (published.length) console.log(`[blog-schedule] published ${published.join(', ')}`);
};

export const config: Config = {
  schedule: '* * * * *',
};
