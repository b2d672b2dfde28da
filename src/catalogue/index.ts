/**
 * The catalogue module: one place that reads, checks and joins the catalogue content and gives the
 * shapes pages, functions and islands use. `repositoryCatalogue()` is the content in the repository;
 * the build and the functions add the staff edits from the blob store (src/server/catalogue.ts).
 */
import { createCatalogue, type Catalogue } from './build';
import { repositoryContent } from './content';

export { applyOverlay, catalogueWithOverlay } from './overlay';
export { createCatalogue, createCourseRedirect, evidenceFor } from './build';
export type { Catalogue, Course } from './build';
export { repositoryContent } from './content';

let repository: Catalogue | undefined;
/** The repository's catalogue, checked once (a bad content file throws, naming the file and field). */
export function repositoryCatalogue(): Catalogue {
  repository ??= createCatalogue(repositoryContent);
  return repository;
}
