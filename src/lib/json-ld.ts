/**
 * JSON for an inline <script type="application/ld+json">. `<`, `>` and `&` are written as \u003c, \u003e
 * and \u0026 (and the line separators as escapes), so no value (a post title, an author, an address
 * from the site settings) can close the element with `</script>` and start markup. A JSON parser
 * reads exactly the same data.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
