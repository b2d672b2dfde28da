/**
 * The catalogue as the build sees it: the repository's content with the staff edits saved in the database
 * laid over it (when the build can reach the database, as on Netlify and under the local server), read
 * through the same loadCatalogue as every function.
 * Broken edits never fail the build: it falls back to the repository's content and says why.
 * Read once per build.
 */
import type { Catalogue } from '../catalogue/index';
import { loadCatalogue } from '../server/catalogue';

export type { Course } from '../catalogue/index';

let built: Promise<Catalogue> | undefined;

export function getCatalogue(): Promise<Catalogue> {
  built ??= (async () => {
    const { catalogue, overlay, error } = await loadCatalogue();
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
