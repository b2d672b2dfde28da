/**
 * The catalogue as the build sees it: the repository's content with the staff edits saved in the blob
 * store laid over it (when the build can reach the store, as on Netlify and under the local server).
 * Broken edits never fail the build: it falls back to the repository's content and says why.
 * Read once per build.
 */
import { repositoryCatalogue, type Catalogue } from '../catalogue/index';

export type { Course } from '../catalogue/index';

let built: Promise<Catalogue> | undefined;

export function getCatalogue(): Promise<Catalogue> {
  built ??= (async () => {
    if (!process.env.NETLIFY_BLOBS_CONTEXT) return repositoryCatalogue();
    const { loadCatalogue } = await import('../server/catalogue');
    const { catalogue, overlay, error } = await loadCatalogue({ maxAgeMs: Number.POSITIVE_INFINITY });
    if (error)
      console.warn(`Catalogue: the saved edits were not used, the site is built from the repository content. ${error}`);
    else if (overlay)
      console.info(
        `Catalogue: built with ${overlay.courses.length} course and ${overlay.categories.length} category edits.`,
      );
    return catalogue;
  })();
  return built;
}
