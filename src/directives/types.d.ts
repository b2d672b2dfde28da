import 'astro';
declare module 'astro' {
  interface AstroClientDirectives {
    'client:interaction'?: boolean | { resume?: string; params?: readonly string[] };
  }
}
